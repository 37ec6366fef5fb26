"""The web refuses parameter values that are not of the parameter's type (``Game.check_params``):
a Knight Hack game with ``turns = 2.5`` was stored and its bot then failed on every reply, and an
import whose ``overrides`` held null, a list or an object was answered with a 500."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient


def test_the_web_refuses_bad_parameter_values_on_new_games_and_imports(
    client: TestClient, start: Callable[..., Any]
) -> None:
    body = {"ruleset": "knight-hack", "scenario": "bourgtheroulde-1124", "seed": 5}
    for bad in (2.5, None, [1], True, -3, 10**11):
        r = client.post("/api/games", json={**body, "overrides": {"turns": bad}})
        assert r.status_code == 422 and "turns" in r.json()["detail"], (bad, r.text)
    gid, hdr, _ = start()
    save = client.get(f"/api/games/{gid}/save", headers=hdr).json()
    for bad in (None, [1], {"a": 1}, 2.5, True):
        r = client.post("/api/games/import", json={"save": {**save, "overrides": {"turns": bad}}})
        assert r.status_code == 422 and "turns" in r.json()["detail"], (bad, r.text)
    r = client.post("/api/games/import", json={"save": {**save, "overrides": {"shots": 2.5}}})
    assert r.status_code == 422 and "shots" in r.json()["detail"], r.text
