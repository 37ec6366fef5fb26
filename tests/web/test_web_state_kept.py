"""The answer ``GET /api/games/{id}`` gives is kept until the game changes (``WebContext.state_out``):
a player polling the game does not make the server draw it again, and a kept answer is never an
answer of another moment, another side or another kind of viewer."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from shieldwall.core.datafiles import read_toml
from shieldwall.io.scenarios import builtin_scenarios
from shieldwall.web import context
from shieldwall.web.models import GameState


@pytest.fixture
def draws(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = context.draw

    def counting(view: dict[str, Any], highlight: dict[str, Any] | None = None) -> str:
        calls.append(1)
        return real(view, highlight)

    monkeypatch.setattr(context, "draw", counting)
    return calls


def test_polling_an_unchanged_game_draws_it_once(client: TestClient, draws: list[int]) -> None:
    r = client.post("/api/games", json={"opponent": "hotseat", "seed": 2})
    gid, hdr = r.json()["game"]["id"], {"X-Shieldwall-Token": r.json()["token"]}
    first = client.get(f"/api/games/{gid}", headers=hdr).json()
    n = len(draws)
    for _ in range(5):
        assert client.get(f"/api/games/{gid}", headers=hdr).json() == first
    assert len(draws) == n
    order = {"order": first["menu"][0]["order"], "client_id": "poll-0001", "version": first["version"]}
    after = client.post(f"/api/games/{gid}/orders", json=order, headers=hdr).json()["state"]
    assert after["version"] == first["version"] + 1
    assert client.get(f"/api/games/{gid}", headers=hdr).json() == after


def test_a_join_and_an_undo_change_the_answer(client: TestClient) -> None:
    g = client.post("/api/games", json={"opponent": "remote", "side": "red", "seed": 2}).json()
    gid, hdr = g["game"]["id"], {"X-Shieldwall-Token": g["token"]}
    before = client.get(f"/api/games/{gid}", headers=hdr).json()
    assert before["joined"] == {"red": True, "blue": False}
    invite = g["invite_url"].split("#invite=")[1]
    assert client.post(f"/api/games/{gid}/join", json={"invite": invite}).status_code == 200
    assert client.get(f"/api/games/{gid}", headers=hdr).json()["joined"] == {"red": True, "blue": True}

    h = client.post("/api/games", json={"opponent": "hotseat", "seed": 2}).json()
    hid, hh = h["game"]["id"], {"X-Shieldwall-Token": h["token"]}
    st = client.get(f"/api/games/{hid}", headers=hh).json()
    order = {"order": st["menu"][0]["order"], "client_id": "undo-0001", "version": st["version"]}
    played = client.post(f"/api/games/{hid}/orders", json=order, headers=hh).json()["state"]
    assert played["can_undo"], "the first order of this battle rolls no die"
    assert client.post(f"/api/games/{hid}/undo", headers=hh).status_code == 200
    assert client.get(f"/api/games/{hid}", headers=hh).json() == st


def test_the_kept_whole_view_is_always_the_states_view(client: TestClient, start: Any) -> None:
    """``Session.full_view`` (the unfiltered view the server checks hidden units and unit owners
    against) is built once per state: after an order, the bot's replies, a refused order, an undo
    and a rebuild it is the view of the state as it is now, never of the state it was kept for."""
    gid, hdr, _ = start()
    games = client.app.state.games  # type: ignore[attr-defined]
    s = games.get(gid)

    def check() -> None:
        assert s.full_view() == s.state.view()
        assert s.full_view() is s.full_view()  # kept while the state does not change

    check()
    for order in ("activate r1", "hold r1", "activate r3"):
        before = s.full_view()
        assert client.post(f"/api/games/{gid}/orders", json={"order": order}, headers=hdr).status_code == 200
        check()
        assert s.full_view() != before
    kept = s.full_view()
    assert (
        client.post(f"/api/games/{gid}/orders", json={"order": "charge r3 b9"}, headers=hdr).status_code
        == 422
    )
    assert s.full_view() is kept
    games.forget(gid)
    s = games.get(gid)
    check()
    # an undo replaces the state (hotseat: the first order rolls no die, so it may be taken back)
    h = client.post("/api/games", json={"opponent": "hotseat", "seed": 2}).json()
    hid, hh = h["game"]["id"], {"X-Shieldwall-Token": h["token"]}
    s = games.get(hid)
    first = s.full_view()
    order = {"order": h["game"]["menu"][0]["order"], "client_id": "full-0001", "version": 0}
    assert client.post(f"/api/games/{hid}/orders", json=order, headers=hh).status_code == 200
    check()
    assert client.post(f"/api/games/{hid}/undo", headers=hh).status_code == 200
    check()
    assert s.full_view() == first


def test_polling_an_unchanged_game_encodes_its_json_once(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    encoded: list[int] = []
    real = GameState.model_dump_json

    def counting(self: GameState, **kw: Any) -> str:
        encoded.append(1)
        return real(self, **kw)

    monkeypatch.setattr(GameState, "model_dump_json", counting)
    r = client.post("/api/games", json={"opponent": "hotseat", "seed": 2})
    gid, hdr = r.json()["game"]["id"], {"X-Shieldwall-Token": r.json()["token"]}
    first = client.get(f"/api/games/{gid}", headers=hdr)
    assert first.headers["content-type"] == "application/json"
    assert first.content == real(GameState.model_validate_json(first.content)).encode()
    n = len(encoded)
    for _ in range(5):
        assert client.get(f"/api/games/{gid}", headers=hdr).content == first.content
    assert len(encoded) == n
    st = first.json()
    order = {"order": st["menu"][0]["order"], "client_id": "json-0001", "version": st["version"]}
    played = client.post(f"/api/games/{gid}/orders", json=order, headers=hdr).json()["state"]
    assert client.get(f"/api/games/{gid}", headers=hdr).json() == played != st


def test_the_sides_view_is_the_visibility_filters_view(client: TestClient) -> None:
    """``Session.view_for`` (filtered from the kept whole view, or the state's own view for one
    side) is ``visibility.view_for`` of the state, for every rule system, one side or both, a
    spectator, before and after orders."""
    from shieldwall import visibility
    from shieldwall.web.session import Viewers

    firsts: dict[str, str] = {}
    for sc in client.get("/api/scenarios").json():
        firsts.setdefault(sc["ruleset"], sc["name"])
    assert len(firsts) >= 2
    games = client.app.state.games  # type: ignore[attr-defined]
    starts: list[dict[str, Any]] = [
        {"ruleset": ruleset, "scenario": scenario, "opponent": "hotseat", "seed": 4}
        for ruleset, scenario in firsts.items()
    ]
    # a concealed deployment (cards, dummies among them): units hidden from one side
    senlac = dict(read_toml(builtin_scenarios()["into-the-dark/senlac"]))
    senlac["options"] = {**dict(senlac.get("options") or {}), "concealed_deployment": True}
    senlac["options"]["deployment"] = "alternate"
    senlac["red"] = {**senlac["red"], "dummies": 2, "card_width": 3.0, "card_depth": 1.0}
    starts.append(
        {"ruleset": senlac["ruleset"], "scenario": "", "scenario_data": senlac, "opponent": "hotseat"}
    )
    hidden = 0
    for body in starts:
        ruleset = body["ruleset"]
        r = client.post("/api/games", json=body)
        assert r.status_code == 201, r.text
        g = r.json()
        gid, hdr, st = g["game"]["id"], {"X-Shieldwall-Token": g["token"]}, g["game"]
        s = games.get(gid)
        for k in range(10):
            hidden += len(visibility.hidden_in_view(s.full_view(), [s.sides[1]]))
            for sides in ([s.sides[0]], [s.sides[1]], list(s.sides), Viewers(s.sides)):
                assert s.view_for(sides) == visibility.view_for(s.state, sides), (ruleset, k, sides)
            if not st["menu"]:
                break
            body = {"order": st["menu"][-1]["order"], "version": st["version"]}
            r = client.post(f"/api/games/{gid}/orders", json=body, headers=hdr)
            assert r.status_code == 200, (ruleset, r.text)
            st = r.json()["state"]
            assert st["view"] == json_view(visibility.view_for(s.state, g["sides"]))
    assert hidden  # the concealed cards were hidden from the other side


def json_view(view: dict[str, Any]) -> Any:
    """``view`` as the answer's JSON carries it."""
    import json

    return json.loads(json.dumps(view))


def test_a_units_reach_is_computed_once_per_state(
    client: TestClient, start: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``Session.reach``: the answer to an order computes the reach of the unit to move and a click
    on that unit reads it again; another unit's is computed once; after an order (applied to the
    state in place) and under the reference switch it is computed anew, always equal to a fresh one."""
    from shieldwall.core.reference import reference_path
    from shieldwall.web import routes_games

    asked: list[str] = []
    real = context.reach_function

    def counting(ruleset: str) -> Any:
        fn = real(ruleset)

        def reach(state: Any, unit_id: str) -> Any:
            asked.append(unit_id)
            return fn(state, unit_id)

        return reach

    monkeypatch.setattr(context, "reach_function", counting)
    monkeypatch.setattr(routes_games, "reach_function", counting)
    gid, hdr, _ = start()
    s = client.app.state.games.get(gid)  # type: ignore[attr-defined]

    def fresh(unit_id: str) -> None:
        assert s.reach(counting(s.rec.ruleset), unit_id) == real(s.rec.ruleset)(s.state, unit_id)

    played = client.post(f"/api/games/{gid}/orders", json={"order": "activate r1"}, headers=hdr).json()
    assert played["state"]["reach"]["unit"] == "r1" and asked == ["r1"]
    got = client.get(f"/api/games/{gid}/reach/r1", headers=hdr).json()
    assert got["reach"] == played["state"]["reach"] and asked == ["r1"]
    for _ in range(2):
        assert client.get(f"/api/games/{gid}/reach/b1", headers=hdr).status_code == 200
    assert asked == ["r1", "b1"]
    fresh("b1")
    assert client.post(f"/api/games/{gid}/orders", json={"order": "hold r1"}, headers=hdr).status_code == 200
    asked.clear()
    assert client.get(f"/api/games/{gid}/reach/b1", headers=hdr).status_code == 200
    assert asked == ["b1"]
    fresh("b1")
    fresh("r1")
    asked.clear()
    with reference_path():
        for _ in range(2):
            assert client.get(f"/api/games/{gid}/reach/b1", headers=hdr).status_code == 200
    assert asked == ["b1", "b1"]
