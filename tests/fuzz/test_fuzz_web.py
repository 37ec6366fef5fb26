"""Fuzzing the web API with real-looking data: mutated built-in scenarios and saves on the create
and import routes, garbage and mutated orders on the order route. Never a server error; a refused
order leaves the game as it was."""

from __future__ import annotations

import functools
import json
import tempfile
import warnings
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from shieldwall.core.datafiles import read_toml
from shieldwall.io.scenarios import builtin_scenarios
from shieldwall.web.app import create_app

from .budget import budget
from .strategies import JSON, mutated

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


@functools.cache
def _client() -> TestClient:
    tmp = Path(tempfile.mkdtemp(prefix="shieldwall-fuzz-"))
    return TestClient(create_app(tmp / "g.sqlite3"), raise_server_exceptions=False)


@functools.cache
def _scenarios() -> dict[str, dict[str, Any]]:
    return {n: read_toml(p) for n, p in builtin_scenarios().items() if "/" in n}


@functools.cache
def _game(name: str) -> tuple[str, dict[str, str], dict[str, Any] | None]:
    rid = name.split("/")[0]
    c = _client()
    r = c.post("/api/games", json={"ruleset": rid, "scenario": name, "opponent": "hotseat", "seed": 3})
    assert r.status_code == 201, r.text
    g = r.json()
    tok = {"X-Shieldwall-Token": g["token"]}
    for _ in range(6):  # a few orders in, so that the save has some
        st_ = c.get(f"/api/games/{g['game']['id']}", headers=tok).json()
        if not st_["menu"]:
            break
        c.post(f"/api/games/{g['game']['id']}/orders", json={"order": st_["menu"][-1]["order"]}, headers=tok)
    r = c.get(f"/api/games/{g['game']['id']}/save", headers=tok)
    # a battle with something still hidden (an ambush, face-down cards) cannot be saved yet (409)
    assert r.status_code in (200, 409), r.text
    return g["game"]["id"], tok, r.json() if r.status_code == 200 else None


def _saved(data: st.DataObject) -> dict[str, Any]:
    """The save of a few orders into a built-in scenario that can be saved by then."""
    names = sorted(n for n in _scenarios() if _game(n)[2] is not None)
    save = _game(data.draw(st.sampled_from(names)))[2]
    assert save is not None
    return save


def _post(path: str, body: Any, headers: dict[str, str] | None = None) -> Any:
    """POST JSON as a client may send it: NaN and Infinity included (Python's json writes them)."""
    h = {"Content-Type": "application/json", **(headers or {})}
    return _client().post(path, content=json.dumps(body), headers=h)


def _ok(r: Any) -> None:
    assert r.status_code < 500, (r.status_code, r.text[:500])
    assert "Traceback" not in r.text


@budget(0.5)
@given(st.data())
def test_fuzz_new_game_with_mutated_scenarios(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(sorted(_scenarios())))
    sc = data.draw(mutated(_scenarios()[name], 4))
    r = _post("/api/games", {"ruleset": name.split("/")[0], "scenario_data": sc, "seed": 1})
    _ok(r)


@budget(0.5)
@given(st.data())
def test_fuzz_import_mutated_saves(data: st.DataObject) -> None:
    save = _saved(data)
    sv = data.draw(mutated({k: v for k, v in save.items() if k != "events"}, 3))
    _ok(_post("/api/games/import", {"save": sv, "opponent": "hotseat"}))


@budget()
@given(st.data())
def test_fuzz_live_orders(data: st.DataObject) -> None:
    save = _saved(data)
    c = _client()
    made = c.post("/api/games/import", json={"save": save, "opponent": "hotseat"}).json()
    gid, tok = made["game"]["id"], {"X-Shieldwall-Token": made["token"]}  # a fresh game each time
    before = c.get(f"/api/games/{gid}", headers=tok).json()
    menu = before["menu"]
    if menu and data.draw(st.booleans()):
        order = data.draw(mutated(data.draw(st.sampled_from(menu))["order"]))
    else:
        order = data.draw(JSON)
    r = _post(f"/api/games/{gid}/orders", {"order": order}, tok)
    _ok(r)
    if r.status_code != 200:
        after = c.get(f"/api/games/{gid}", headers=tok).json()
        assert after["version"] == before["version"] and after["view"] == before["view"]
