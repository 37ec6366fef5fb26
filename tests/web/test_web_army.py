"""The army builder: its API (the catalogue, costing by the plugin's ``army_cost`` exactly as
``shieldwall army cost --json``, bounded input) and the page in Debian's Chromium (pick troops from
Into the Dark's lists, the points and legality live, export the file and cost it with the CLI,
import a file; Knight Hack's sample lists; a rule system without a catalogue built from the file's
text). Screenshot: docs/images/web-army.png with SHIELDWALL_SCREENSHOTS=1."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.browser_fixtures import IMAGES, NEEDS_CHROMIUM
from tests.web.test_web_access import serious_violations

from shieldwall import registry
from shieldwall.web import armies

ROOT = Path(__file__).resolve().parents[2]
SAXON = ROOT / "scenarios/into-the-dark/armies/saxon-1066.toml"
KH = ROOT / "src/shieldwall/rulesets/knight_hack/data/sample/armies/rebels-1124.toml"
DBM = ROOT / "src/shieldwall/rulesets/dbm/data/sample/armies/frankish.toml"


def _cli_json(path: Path, capsys: Any) -> dict[str, Any]:
    from shieldwall.cli import run

    capsys.readouterr()
    assert run(["army", "cost", str(path), "--json"]) == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


def test_catalogue_for_every_system_with_army_files(client: Any) -> None:
    listed = {r["id"]: r for r in client.get("/api/rulesets").json()}
    with_army = [rid for rid, rs in registry.systems().items() if rs.army_cost]
    assert with_army and all(listed[rid]["army"] for rid in with_army)
    for rid in with_army:
        r = client.get(f"/api/rulesets/{rid}/army")
        assert r.status_code == 200 and r.json()["ruleset"] == rid
    itd = client.get("/api/rulesets/into-the-dark/army").json()["builder"]
    units = next(s for s in itd["sections"] if s["key"] == "units")
    codes = {c[0] for c in next(f for f in units["fields"] if f["name"] == "code")["choices"]}
    assert {"CAF", "LUF", "OUM"} <= codes and len(codes) == 30
    no = [rid for rid, rs in registry.systems().items() if not rs.army_cost]
    for rid in no:
        assert client.get(f"/api/rulesets/{rid}/army").status_code == 404
    assert client.get("/api/rulesets/nothing/army").status_code == 404


def test_costed_as_the_cli_costs_it(client: Any, capsys: Any, tmp_path: Path) -> None:
    for rid, path in (("into-the-dark", SAXON), ("knight-hack", KH), ("dbm-3.2", DBM)):
        r = client.post(f"/api/rulesets/{rid}/army", json={"text": path.read_text(encoding="utf-8")})
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["legal"] and body["error"] is None
        assert body["costed"] == _cli_json(path, capsys)
        # the file it writes back is the same army, costed the same by the CLI
        again = tmp_path / f"{rid}.toml"
        again.write_text(body["text"], encoding="utf-8")
        assert _cli_json(again, capsys) == body["costed"]
        same = client.post(f"/api/rulesets/{rid}/army", json={"army": body["army"]}).json()
        assert same["text"] == body["text"] and same["costed"] == body["costed"]


def test_dbm_picked_from_its_lists(client: Any, capsys: Any, tmp_path: Path) -> None:
    """DBM's catalogue: the sample lists (labelled illustrative), elements within their commands; an
    army built from it is costed by the API exactly as `shieldwall army cost --json` costs the file."""
    b = client.get("/api/rulesets/dbm-3.2/army").json()["builder"]
    assert "illustrative" in b["note"] and "not the publisher's" in b["note"]
    assert "frankish-illustrative: Reg Kn(O) 2-12" in b["note"]
    top = {f["name"]: f for f in b["fields"]}
    assert [c[0] for c in top["list"]["choices"]] == ["frankish-illustrative", "norse-irish-illustrative"]
    elements = next(s for s in b["sections"] if s["key"] == "elements")
    assert elements["within"] == {"section": "commands", "field": "elements", "label": "In command"}
    army = dict(b["new"])
    els = [{"id": "gen", "code": "Kn", "grade": "O", "regular": True, "general": True}]
    els += [{"id": f"sp{i}", "code": "Sp", "grade": "O", "regular": True} for i in range(4)]
    army["commands"] = [{"name": "C-in-C", "c_in_c": True, "elements": els}]
    r = client.post("/api/rulesets/dbm-3.2/army", json={"army": army}).json()
    # one Kn(O) is under the list's minimum of 2: not legal, and why
    assert not r["legal"] and "Reg Kn(O): 1 not in 2-12" in r["error"]
    els.append({"id": "kn", "code": "Kn", "grade": "O", "regular": True})
    r = client.post("/api/rulesets/dbm-3.2/army", json={"army": army}).json()
    assert r["legal"], r["error"]
    path = tmp_path / "dbm.toml"
    path.write_text(r["text"], encoding="utf-8")
    assert r["costed"] == _cli_json(path, capsys)
    assert r["costed"]["total"] * 2 == int(r["costed"]["total"] * 2)  # to the half point


def test_not_legal_says_why(client: Any) -> None:
    data = armies.parse(SAXON.read_text(encoding="utf-8"))
    data["points_limit"] = 100
    r = client.post("/api/rulesets/into-the-dark/army", json={"army": data}).json()
    assert not r["legal"] and "over its limit of 100" in r["error"] and "army.toml" in r["error"]
    data["units"][0]["quality"] = "heroic"
    r = client.post("/api/rulesets/into-the-dark/army", json={"army": data}).json()
    assert not r["legal"] and r["costed"] is None and "quality" in r["error"]


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"text": "a = 1", "army": {"a": 1}},
        {"text": "[["},
        {"text": "x" * (armies.MAX_TEXT + 1)},
        {"text": "when = 1979-05-27"},
        {"army": {"name": None}},
        {"army": {"name": 1e300}},
        {"army": {"a": [[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]}},
    ],
)
def test_bounded_input(client: Any, body: dict[str, Any]) -> None:
    r = client.post("/api/rulesets/into-the-dark/army", json=body)
    assert r.status_code == 422, r.text
    assert r.json()["detail"]


def test_toml_round_trip() -> None:
    data = {
        "name": 'a "quoted" name',
        "n": 3,
        "x": 1.5,
        "ok": True,
        "tags": ["a", "b"],
        "meta": {"source": "here"},
        "commands": [{"name": "c", "elements": [{"id": "e1", "dismount": {"code": "Bd"}}]}],
        "empty": [],
    }
    import tomllib

    assert tomllib.loads(armies.to_toml(data)) == data


def _status(page: Any) -> str:
    text: str = page.inner_text("#a-status")
    return text


@pytest.mark.browser
@NEEDS_CHROMIUM
def test_build_an_army_in_the_browser(server: str, page: Any, tmp_path: Path, capsys: Any) -> None:
    IMAGES.mkdir(parents=True, exist_ok=True)
    page.goto(server + "/")
    page.click("#army-link")
    page.wait_for_selector("#a-ruleset option", state="attached")
    page.select_option("#a-ruleset", "into-the-dark")
    page.wait_for_selector("#a-add-units")
    page.wait_for_function("document.querySelector('#a-status').textContent.includes('Not legal')")
    # a general and two units picked from the lists; the points follow each pick
    page.fill("#a-generals-name", "Harold")
    page.select_option("#a-generals-rating", "good")
    page.check("#a-generals-commanding")
    page.click("#a-add-generals")
    page.fill("#a-units-name", "Huscarls")
    page.select_option("#a-units-code", "CAF")
    page.select_option("#a-units-quality", "elite")
    page.select_option("#a-units-options", ["shieldwall"])
    page.click("#a-add-units")
    page.wait_for_function("document.querySelector('#a-status').textContent.startsWith('Legal')")
    first = _status(page)
    page.fill("#a-units-name", "Fyrd")
    page.select_option("#a-units-code", "CUF")
    page.select_option("#a-units-quality", "levy")
    page.select_option("#a-units-options", [])
    page.fill("#a-units-figures", "16")
    page.click("#a-add-units")
    page.wait_for_function(f"document.querySelector('#a-status').textContent !== {json.dumps(first)}")
    assert page.locator("#a-entries-units li").count() == 2
    assert page.locator("#a-costed tbody tr").count() == 3
    total = page.evaluate("window.shieldwall.army.answer.costed.total")
    assert f"total {total}" in _status(page)
    # export: the file the CLI costs to the same points
    with page.expect_download() as dl:
        page.click("#a-export")
    path = tmp_path / "army.toml"
    dl.value.save_as(str(path))
    assert _cli_json(path, capsys)["total"] == total
    page.screenshot(path=str(IMAGES / "web-army.png"), full_page=True)
    assert serious_violations(page) == []
    # over the limit: not legal, and why
    page.fill("#a-top-points_limit", "50")
    page.locator("#a-top-points_limit").dispatch_event("change")
    page.wait_for_function("document.querySelector('#a-status').textContent.includes('Not legal')")
    assert "over its limit of 50" in _status(page)
    # remove a unit; import a file (the form follows it)
    page.get_by_role("button", name="Remove Fyrd").click()
    page.wait_for_function("document.querySelectorAll('#a-entries-units li').length === 1")
    page.set_input_files("#a-import", str(SAXON))
    page.wait_for_function("document.querySelectorAll('#a-entries-units li').length > 5")
    page.wait_for_function("document.querySelector('#a-status').textContent.startsWith('Legal')")
    assert "total 859" in _status(page)
    assert page.input_value("#a-top-name") == "Anglo-Saxon army, 1066"

    # Knight Hack: its sample data set's lists, labelled as such; a second unit of the same id is renamed
    page.select_option("#a-ruleset", "knight-hack")
    page.wait_for_selector("#a-add-unit")
    assert "not the published Knight Hack charts" in page.inner_text("#a-builder")
    page.select_option("#a-unit-type", "heavy-cavalry")
    page.select_option("#a-unit-class", "B")
    page.select_option("#a-unit-weapons", ["lance", "sword"])
    page.click("#a-add-unit")
    page.click("#a-add-unit")
    page.wait_for_function("document.querySelectorAll('#a-entries-unit li').length === 2")
    page.wait_for_function("document.querySelector('#a-status').textContent.startsWith('Legal')")
    ids = [u["id"] for u in page.evaluate("window.shieldwall.army.army.unit")]
    assert ids == ["unit", "unit-2"]
    with page.expect_download() as dl:
        page.click("#a-export")
    kh = tmp_path / "kh.toml"
    dl.value.save_as(str(kh))
    assert _cli_json(kh, capsys)["total"] == page.evaluate("window.shieldwall.army.answer.costed.total")

    # DBM: a command, then elements picked within it from the (illustrative) sample lists
    page.select_option("#a-ruleset", "dbm-3.2")
    page.wait_for_selector("#a-add-elements")
    assert "not the publisher's" in page.inner_text("#a-builder")
    page.select_option("#a-top-list", "frankish-illustrative")
    page.locator("#a-top-list").dispatch_event("change")
    page.fill("#a-commands-name", "C-in-C")
    page.check("#a-commands-c_in_c")
    page.click("#a-add-commands")
    page.wait_for_function("document.querySelectorAll('#a-elements-within option').length === 1")
    page.fill("#a-elements-id", "gen")
    page.select_option("#a-elements-code", "Kn")
    page.check("#a-elements-general")
    page.click("#a-add-elements")
    page.fill("#a-elements-id", "kn")
    page.uncheck("#a-elements-general")
    page.click("#a-add-elements")
    page.fill("#a-elements-id", "sp")
    page.select_option("#a-elements-code", "Sp")
    for _ in range(4):
        page.click("#a-add-elements")
    page.wait_for_function("document.querySelectorAll('#a-entries-elements li').length === 6")
    page.wait_for_function("document.querySelector('#a-status').textContent.startsWith('Legal')")
    ids = [e["id"] for e in page.evaluate("window.shieldwall.army.army.commands[0].elements")]
    assert ids == ["gen", "kn", "sp", "sp-2", "sp-3", "sp-4"]
    total = page.evaluate("window.shieldwall.army.answer.costed.total")
    assert f"total {total}" in _status(page)
    with page.expect_download() as dl:
        page.click("#a-export")
    dbm = tmp_path / "dbm.toml"
    dl.value.save_as(str(dbm))
    assert _cli_json(dbm, capsys) == page.evaluate("window.shieldwall.army.answer.costed")
    page.screenshot(path=str(IMAGES / "web-army-dbm.png"), full_page=True)
    # a Spear removed: under the list's minimum of 4, not legal, and why
    page.get_by_role("button", name="Remove sp-4").click()
    page.wait_for_function("document.querySelector('#a-status').textContent.includes('Not legal')")
    assert "Sp(O): 3 not in 4-16" in _status(page)
    # the sample order of battle imported (the form follows it); its text edited, costed as typed
    page.set_input_files("#a-import", str(DBM))
    page.wait_for_function("document.querySelector('#a-status').textContent.startsWith('Legal')")
    assert "total 130.5" in _status(page)
    page.wait_for_function("document.querySelectorAll('#a-entries-elements li').length === 12")
    assert page.locator("#a-elements-within option").count() == 2
    text = page.input_value("#a-text")
    assert "ap_limit = 200.0" in text
    page.fill("#a-text", text.replace("ap_limit = 200.0", "ap_limit = 100.0"))
    page.wait_for_function("document.querySelector('#a-status').textContent.includes('Not legal')")
    assert page.errors == []  # type: ignore[attr-defined]


@pytest.mark.browser
@NEEDS_CHROMIUM
def test_export_while_a_change_is_being_costed_holds_the_change(
    server: str, page: Any, tmp_path: Path, capsys: Any
) -> None:
    """An export clicked before the server's costing of the last change has come back writes the
    army as the form shows it (it waits for that answer), not the answer before the change. The
    page's costing requests are held back 400 ms here, so the click always falls in that gap."""
    page.add_init_script(
        """(() => {
          const real = window.fetch;
          window.fetch = async (url, opts) => {
            if (opts && opts.method === 'POST' && String(url).endsWith('/army')) {
              await new Promise((ok) => setTimeout(ok, 400));
            }
            return real(url, opts);
          };
        })();"""
    )
    page.goto(server + "/")
    page.click("#army-link")
    page.wait_for_selector("#a-ruleset option", state="attached")
    page.select_option("#a-ruleset", "knight-hack")
    page.wait_for_selector("#a-add-unit")
    page.select_option("#a-unit-type", "heavy-cavalry")
    page.select_option("#a-unit-class", "B")
    page.select_option("#a-unit-weapons", ["lance", "sword"])
    page.click("#a-add-unit")
    page.wait_for_function("document.querySelector('#a-status').textContent.startsWith('Legal')")
    one = page.evaluate("window.shieldwall.army.answer.costed.total")
    page.click("#a-add-unit")  # costed 400 ms later; the export is clicked at once
    with page.expect_download() as dl:
        page.click("#a-export")
    path = tmp_path / "two.toml"
    dl.value.save_as(str(path))
    two = _cli_json(path, capsys)["total"]
    assert two == page.evaluate("window.shieldwall.army.answer.costed.total")
    assert two == 2 * one, (one, two)
    assert path.read_text(encoding="utf-8").count("[[unit]]") == 2
