"""The web app knows rule systems only through their plugins: each one's web piece is served from
its package's web folder and nothing else of the package is; its reach, clause table and why come
from the plugin; a rule system whose plugin gives none of them is listed as such (the page then
plays it with the engine's menu: tests/web/test_web_browser.py)."""

from __future__ import annotations

import dataclasses
import re
import warnings
from pathlib import Path
from typing import Any

import httpx
import pytest

from shieldwall import registry
from shieldwall.plugin import RuleSystem
from shieldwall.web import log as L
from shieldwall.web import routes_pages
from shieldwall.web.session import ApiError

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

SRC = Path(__file__).resolve().parents[2] / "src"


def _raw(client: TestClient, raw_path: str) -> httpx.Response:
    """GET a path exactly as written (httpx would resolve a plain ``..`` before sending it)."""
    return client.get(httpx.URL("http://testserver").copy_with(raw_path=raw_path.encode()))


def _web_file(rs: RuleSystem) -> Path:
    assert rs.web_module
    return SRC / Path(*rs.package.split(".")) / rs.web_module


def test_every_rule_systems_web_piece_is_served_from_its_package(client: TestClient) -> None:
    listed = {r["id"]: r for r in client.get("/api/rulesets").json()}
    assert set(listed) == set(registry.ids())
    served = 0
    for rid, rs in registry.systems().items():
        assert listed[rid]["reach"] is (rs.reach is not None)
        if not rs.web_module:
            assert listed[rid]["web_module"] is None
            continue
        url = listed[rid]["web_module"]
        assert url == f"/rulesets/{rid}/{rs.web_module.rpartition('/')[2]}"
        r = client.get(url)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/javascript")
        assert r.content == _web_file(rs).read_bytes()
        served += 1
    assert served >= 1
    # the page itself names no rule system's piece: it imports the one the API gives
    page = client.get("/").text
    assert "/rulesets/" not in page and 'href="/rules"' in page


def test_nothing_outside_a_web_folder_is_served(client: TestClient) -> None:
    rid, rs = next((k, v) for k, v in registry.systems().items() if v.web_module)
    name = rs.web_module.rpartition("/")[2] if rs.web_module else ""
    assert _raw(client, f"/rulesets/{rid}/{name}").status_code == 200
    for path in (
        f"/rulesets/{rid}/..%2Fplugin.py",  # an encoded slash
        f"/rulesets/{rid}/%2E%2E%2Fplugin.py",
        f"/rulesets/{rid}/..%2F..%2F..%2Fweb%2Fapp.py",
        f"/rulesets/{rid}/..%5Cplugin.py",  # a backslash
        f"/rulesets/{rid}/%2E%2E",
        f"/rulesets/{rid}/..",
        f"/rulesets/{rid}/%2Fetc%2Fpasswd",  # an absolute path
        f"/rulesets/{rid}//etc/passwd",
        f"/rulesets/{rid}/plugin.py",  # the package's files beside the web folder
        f"/rulesets/{rid}/clauses.py",
        f"/rulesets/{rid}/.{name}",
        f"/rulesets/{rid}/nope.js",
        f"/rulesets/{rid}/{name}/x",
        f"/rulesets/no-such-rules/{name}",
        f"/rulesets/..%2F{rid}/{name}",
    ):
        r = _raw(client, path)
        assert r.status_code == 404, (path, r.status_code, r.text[:200])
    # names the router hands on as they are: the plugin refuses every one that is not a plain name
    for bad in ("../plugin.py", "..", ".", "", "/etc/passwd", "..\\plugin.py", "web/x.js", f"./{name}"):
        with pytest.raises(ApiError) as exc:
            routes_pages.ruleset_file(rid, bad)
        assert exc.value.status == 404, bad
    assert routes_pages.ruleset_file(rid, name).status_code == 200


def _bare(rs: RuleSystem) -> RuleSystem:
    """A rule system playing ``rs``'s game whose plugin gives nothing else to the web."""
    return dataclasses.replace(
        rs,
        info=dataclasses.replace(rs.info, id="bare-rules", title="Bare rules"),
        web_module=None,
        reach=None,
        explain=None,
        clauses=None,
        scenarios=None,
    )


def test_a_rule_system_without_web_piece_reach_why_or_clauses(client: TestClient) -> None:
    rs = next(iter(registry.systems().values()))
    bare = _bare(rs)
    with registry.registered(bare):
        listed = {r["id"]: r for r in client.get("/api/rulesets").json()}
        assert listed["bare-rules"]["web_module"] is None and listed["bare-rules"]["reach"] is False
        # the package has a web piece, but this plugin does not name it: nothing is served
        for f in (SRC / Path(*rs.package.split("."))).glob("web/*"):
            assert client.get(f"/rulesets/bare-rules/{f.name}").status_code == 404, f.name
        assert client.get("/api/rulesets/bare-rules/clauses").status_code == 404
        assert client.get("/rules/bare-rules").status_code == 404
        assert "/rules/bare-rules" not in client.get("/rules").text
        assert L.explainer("bare-rules") == L.Explainer()  # no event has a why
        assert L.clauses("bare-rules") == {}


def test_the_why_and_the_clauses_come_from_the_plugins() -> None:
    for rid, rs in registry.systems().items():
        ex = L.explainer(rid)
        if rs.explain is None:
            assert ex == L.Explainer()
            continue
        module: Any = __import__(rs.explain.partition(":")[0], fromlist=["_"])
        assert ex.attack_kinds == module.ATTACK_KINDS and ex.attack_kinds <= ex.kinds
        assert ex.kinds == module.COMBAT_KINDS and ex.extra is rs.load("explain")
        if rs.clauses:
            table = rs.load("clauses")
            assert set(L.clauses(rid)) == set(table)
            for k, (section, text) in L.clauses(rid).items():
                assert L.clause_info(f"{rid}:{k}") == {
                    "rule": f"{rid}:{k}",
                    "url": f"/rules/{rid}#{k}",
                    "section": section,
                    "text": text,
                }


def _initials(rid: str) -> str:
    """The initials of an id's words that start with a letter ("dbm-3.2": "d"; a one-letter
    initial is not searched for: it would be found in every file)."""
    return "".join(w[0] for w in rid.split("-") if w and w[0].isalpha())


def test_the_web_layer_names_no_rule_system() -> None:
    """No file of the web layer (Python, JavaScript, HTML, CSS; comments included) names a rule
    system: not its id, its package, nor its initials ("my-toy-rules": "mtr", "Mtr")."""
    web = SRC / "shieldwall" / "web"
    files = [f for f in web.rglob("*") if f.is_file() and f.suffix in (".py", ".js", ".html", ".css", ".svg")]
    assert len(files) >= 10
    for rid, rs in registry.systems().items():
        package = rs.package.rpartition(".")[2]
        words = [rid, package, package.replace("_", "-"), rid.replace("-", " ")]
        initials = re.compile(rf"(?<![a-z]){_initials(rid)}(?![a-z])|{_initials(rid)}[A-Z_.-]", re.I)
        if len(_initials(rid)) < 2:
            initials = re.compile(r"(?!x)x")  # matches nothing
        for f in files:
            text = f.read_text(encoding="utf-8")
            low = text.lower()
            for w in words:
                assert w.lower() not in low, (f.relative_to(SRC), w)
            assert not initials.search(text), (f.relative_to(SRC), _initials(rid))
            if len(_initials(rid)) >= 2:
                assert _initials(rid).capitalize() not in text, (f.relative_to(SRC), _initials(rid))  # whyXyz
