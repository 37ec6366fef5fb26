"""Every endpoint of the web API, with good and bad input: refusals are 4xx with a message."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from shieldwall.io.saves import replay

RS = "one-hour-dark-ages"


def _msg(r: Any) -> str:
    body = r.json()
    assert isinstance(body["detail"], (str, list)) and body["detail"], body
    return json.dumps(body)


# ---------------------------------------------------------------------------------- reference


def test_health_rulesets_scenarios_bots(client: Any) -> None:
    assert client.get("/api/health").json() == {"status": "ok"}
    rs = client.get("/api/rulesets").json()
    one = next(r for r in rs if r["id"] == RS)
    assert one["board"] == "tabletop" and one["sides"] == ["red", "blue"]
    assert {p["name"] for p in one["parameters"]} >= {"dice", "arc", "personalities"}
    sc = client.get("/api/scenarios").json()
    assert any(s["name"] == f"{RS}/bryn-glas" and s["default"] for s in sc)
    assert all(s["ruleset"] == RS for s in client.get("/api/scenarios", params={"ruleset": RS}).json())
    bad = client.get("/api/scenarios", params={"ruleset": "nope"})  # an unknown name is an error, not []
    assert bad.status_code == 422 and "unknown rule system 'nope'" in _msg(bad) and RS in _msg(bad)
    assert set(client.get("/api/bots").json()) >= {"random", "scripted"}


def test_clause_table(client: Any) -> None:
    rows = client.get(f"/api/rulesets/{RS}/clauses").json()
    ids = {r["id"] for r in rows}
    assert {"movement", "charging.arc", "melee.dice"} <= ids
    arc = next(r for r in rows if r["id"] == "charging.arc")
    assert arc["rule"] == f"{RS}:charging.arc" and arc["url"] == f"/rules/{RS}#charging.arc"
    r = client.get("/api/rulesets/no-such-rules/clauses")
    assert r.status_code == 404 and "no clause table" in _msg(r)
    assert client.get("/api/rulesets/bad%20name/clauses").status_code == 422


# ---------------------------------------------------------------------------------- new games


def test_new_game_against_a_bot(start: Callable[..., Any]) -> None:
    gid, hdr, g = start()
    st = g["game"]
    assert g["sides"] == ["red"] and g["invite_url"] is None
    assert g["play_url"].endswith(f"/play/{gid}#token={g['token']}")
    assert st["mode"] == "bot" and st["players"] == {"red": "human", "blue": "bot:scripted"}
    assert st["your_turn"] and st["decision"]["kind"] == "activate" and st["decision"]["side"] == "red"
    assert st["svg"].startswith("<svg") and 'data-unit="r1"' in st["svg"]
    assert {m["text"] for m in st["menu"]} >= {"end", "activate r1"}
    assert st["seed"] == 5 and st["version"] == 0 and not st["can_undo"]


def test_new_game_as_blue_lets_the_bot_open(start: Callable[..., Any]) -> None:
    _, _, g = start(side="blue", opponent="random")
    st = g["game"]
    # red (the scenario's attacker) is the bot: it has played its whole first turn already
    assert st["decision"]["side"] == "blue" and st["version"] > 0 and st["your_turn"]


@pytest.mark.parametrize(
    "body, words",
    [
        ({"scenario": "nowhere"}, "unknown scenario"),
        ({"scenario": "../../../etc/passwd.toml"}, "unknown scenario"),
        ({"ruleset": "no-such-rules"}, "unknown rule system"),
        ({"side": "green"}, "side must be one of"),
        ({"opponent": "skynet"}, "opponent must be"),
        ({"overrides": {"no_such_rule": True}}, "unknown parameter"),
        ({"overrides": {"dice": "d7"}}, "d7"),
        ({"overrides": {"turns": "many"}}, "turns"),
        ({"seed": -1}, "seed"),
        ({"seed": "abc"}, "seed"),
        ({"colour": "red"}, "colour"),
        ({"scenario_data": {"ruleset": RS, "name": "broken"}}, "validate"),
        ({"scenario_data": {"ruleset": "into-the-dark"}}, "not 'one-hour-dark-ages'"),
    ],
)
def test_new_game_bad_input_is_422_with_a_message(client: Any, body: dict[str, Any], words: str) -> None:
    r = client.post("/api/games", json=body)
    assert r.status_code == 422, r.text
    assert words in _msg(r)


def test_malformed_json_and_wrong_types_are_422(client: Any) -> None:
    for content in (b"{not json", b"[1, 2]", b'"text"', b"null"):
        r = client.post("/api/games", content=content, headers={"Content-Type": "application/json"})
        assert r.status_code == 422, (content, r.text)
    assert client.post("/api/games").status_code == 422


def test_custom_scenario_data(client: Any, small: Callable[..., dict[str, Any]]) -> None:
    r = client.post("/api/games", json={"scenario_data": small(), "seed": 1, "opponent": "random"})
    assert r.status_code == 201, r.text
    st = r.json()["game"]
    assert st["title"] == "Skirmish at the ford" and st["scenario"] == "Skirmish at the ford"
    assert sorted(u["id"] for u in st["view"]["units"]) == ["b1", "b2", "b3", "r1", "r2", "r3"]


def test_an_absurdly_big_table_is_refused_at_once(client: Any, small: Callable[..., dict[str, Any]]) -> None:
    # a 1e9-inch table with a wood as big: before, the SVG's 6" grid and the trees kept the server
    # busy for minutes on one request; then the drawing used sparser marks (render.svg_base.MAX_MARKS);
    # now a table is at most core.limits.MAX_TABLE on a side and such a scenario is refused
    import time

    big = 1e9
    sc = small(table={"width": big, "depth": big})
    sc["terrain"] = [{"id": "w", "kind": "woods", "points": [[0, 40], [big, 40], [big, big]]}]
    t0 = time.perf_counter()
    r = client.post("/api/games", json={"scenario_data": sc, "seed": 1, "opponent": "random"})
    assert r.status_code == 422, r.text
    assert "table.width" in r.json()["detail"]
    assert time.perf_counter() - t0 < 2.0


def test_huge_body_is_413(client: Any) -> None:
    r = client.post(
        "/api/games", content=b"{" + b" " * 1_100_000 + b"}", headers={"Content-Type": "application/json"}
    )
    assert r.status_code == 413


# ---------------------------------------------------------------------------------- tokens


def test_game_needs_its_own_token(client: Any, start: Callable[..., Any]) -> None:
    gid, hdr, _ = start()
    gid2, hdr2, _ = start()
    assert client.get(f"/api/games/{gid}", headers=hdr).status_code == 200
    for headers in ({}, {"X-Shieldwall-Token": "guess"}, hdr2):
        r = client.get(f"/api/games/{gid}", headers=headers)
        assert r.status_code == 403 and "token" in _msg(r)
        r = client.post(f"/api/games/{gid}/orders", json={"order": "end"}, headers=headers)
        assert r.status_code == 403
    r = client.get("/api/games/nosuchgame", headers=hdr)
    assert r.status_code == 404 and "no game" in _msg(r)
    assert client.get("/api/games/bad$id", headers=hdr).status_code == 422


# ---------------------------------------------------------------------------------- orders


def test_orders_move_a_unit_and_log_the_dice(client: Any, start: Callable[..., Any]) -> None:
    gid, hdr, _ = start()
    r = client.post(f"/api/games/{gid}/orders", json={"order": "activate r6"}, headers=hdr)
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["accepted"] == "activate r6" and out["bot_orders"] == []
    roll = next(e for e in out["events"] if e["kind"] == "roll")
    assert roll["dice"]["die"] == "d5" and len(roll["dice"]["faces"]) == 3
    assert roll["rule"] == f"{RS}:movement.dice" and roll["rule_url"] == f"/rules/{RS}#movement.dice"
    st = out["state"]
    rolled = st["decision"]["data"]["rolled"]
    assert st["decision"]["kind"] == "move" and st["decision"]["unit"] == "r6"
    assert st["reach"]["unit"] == "r6" and st["reach"]["move"]["rolled"] == rolled
    assert "hl-move-band" in st["svg"]
    u = next(u for u in st["view"]["units"] if u["id"] == "r6")
    order = {"kind": "move", "unit": "r6", "steps": [{"go": [u["x"], u["y"] + rolled - 1]}]}
    r = client.post(f"/api/games/{gid}/orders", json={"order": order}, headers=hdr)
    assert r.status_code == 200, r.text
    mv = next(e for e in r.json()["events"] if e["kind"] == "move")
    assert mv["rule"] == f"{RS}:movement" and any(c["rule"] == f"{RS}:movement" for c in mv["checked"])
    assert r.json()["state"]["version"] == 2


def test_illegal_orders_answer_the_clause_and_the_reason(client: Any, start: Callable[..., Any]) -> None:
    gid, hdr, _ = start()
    client.post(f"/api/games/{gid}/orders", json={"order": "activate r1"}, headers=hdr)
    # too far for the roll
    r = client.post(f"/api/games/{gid}/orders", json={"order": "move r1 go 14,12"}, headers=hdr)
    assert r.status_code == 422
    body = r.json()
    assert body["rule"] == f"{RS}:movement" and "rolled" in body["reason"]
    assert body["rule_url"] == f"/rules/{RS}#movement"
    # not an order for this decision
    r = client.post(f"/api/games/{gid}/orders", json={"order": "shoot r5 b1"}, headers=hdr)
    assert r.status_code == 422 and r.json()["rule"] == f"{RS}:play-sequence"
    # the refused orders changed nothing
    st = client.get(f"/api/games/{gid}", headers=hdr).json()
    assert st["version"] == 1 and st["decision"]["unit"] == "r1"


@pytest.mark.parametrize(
    "order, status, words",
    [
        ("activate zz9", 422, "no unit"),
        ({"kind": "activate", "unit": "zz9"}, 422, "no unit"),
        ("activate b1", 403, "b1 is blue's unit"),
        ({"kind": "hold", "unit": "b2"}, 403, "blue's unit"),
        ("charge", 422, "cannot read order"),
        ("", 422, "empty order"),
        ("fly r1 to the moon", 422, "cannot read order"),
        ({"kind": "teleport", "unit": "r1"}, 422, "unknown order kind"),
        ({"kind": "activate"}, 422, "it needs the field 'unit'"),
        ({"kind": "charge", "unit": "r1", "target": "b1"}, 422, "it needs the field 'facing'"),
        ({"kind": ["end"]}, 422, "malformed order"),
        ({}, 422, "malformed order"),
        ({"kind": "move", "unit": "r1", "steps": [{"go": [1e300, 5]}]}, 422, "not a usable number"),
        ({"kind": "move", "unit": "r1", "steps": [{"go": ["x", 5]}]}, 422, "malformed"),
        ("move r1 go nan,nan", 422, "not a usable number"),
        ("move r1 go inf,3", 422, "not a usable number"),
        ("move r1 turn 720@centre", 422, "not an order for this decision"),
    ],
)
def test_bad_orders_are_4xx_with_a_message(
    client: Any, start: Callable[..., Any], order: Any, status: int, words: str
) -> None:
    gid, hdr, _ = start()
    r = client.post(f"/api/games/{gid}/orders", json={"order": order}, headers=hdr)
    assert r.status_code == status, r.text
    assert words in _msg(r)


def test_nan_in_json_is_refused(client: Any, start: Callable[..., Any]) -> None:
    gid, hdr, _ = start()
    client.post(f"/api/games/{gid}/orders", json={"order": "activate r1"}, headers=hdr)
    raw = b'{"order": {"kind": "move", "unit": "r1", "steps": [{"go": [NaN, Infinity]}]}}'
    r = client.post(
        f"/api/games/{gid}/orders", content=raw, headers={**hdr, "Content-Type": "application/json"}
    )
    assert r.status_code == 422 and "usable number" in _msg(r)


@pytest.mark.parametrize("body", [{}, {"order": 5}, {"order": None}, {"order": ["end"]}, {"orders": "end"}])
def test_malformed_order_bodies(client: Any, start: Callable[..., Any], body: Any) -> None:
    gid, hdr, _ = start()
    r = client.post(f"/api/games/{gid}/orders", json=body, headers=hdr)
    assert r.status_code == 422, r.text


def test_an_order_out_of_turn_is_409(client: Any, start: Callable[..., Any]) -> None:
    gid, red, g = start(opponent="remote")
    invite = g["invite_url"].split("#invite=")[1]
    blue = {
        "X-Shieldwall-Token": client.post(f"/api/games/{gid}/join", json={"invite": invite}).json()["token"]
    }
    r = client.post(f"/api/games/{gid}/orders", json={"order": "activate b1"}, headers=blue)
    assert r.status_code == 409 and "not your turn" in _msg(r) and "red" in _msg(r)
    # red ends its turn's phases; now blue decides and red is out of turn
    for _ in range(3):
        st = client.get(f"/api/games/{gid}", headers=red).json()
        if st["decision"]["side"] != "red":
            break
        client.post(f"/api/games/{gid}/orders", json={"order": "end"}, headers=red)
    assert client.get(f"/api/games/{gid}", headers=blue).json()["your_turn"]
    r = client.post(f"/api/games/{gid}/orders", json={"order": "end"}, headers=red)
    assert r.status_code == 409 and "blue" in _msg(r)
    r = client.post(f"/api/games/{gid}/orders", json={"order": "activate b1"}, headers=blue)
    assert r.status_code == 200, r.text


def test_the_bot_replies_until_it_is_your_turn(client: Any, start: Callable[..., Any]) -> None:
    gid, hdr, _ = start(opponent="scripted")
    r = client.post(f"/api/games/{gid}/orders", json={"order": "end"}, headers=hdr).json()
    assert r["bot_orders"], "the bot should have played blue's turn"
    assert r["state"]["decision"]["side"] == "red" and r["state"]["your_turn"]
    assert any(e["side"] == "blue" and e["kind"] == "move" for e in r["events"])
    assert r["state"]["view"]["turn"] == 2


def test_a_finished_battle_takes_no_orders(client: Any, small: Callable[..., Any]) -> None:
    g = client.post(
        "/api/games", json={"scenario_data": small(turns=1), "seed": 2, "opponent": "random"}
    ).json()
    gid, hdr = g["game"]["id"], {"X-Shieldwall-Token": g["token"]}
    st = g["game"]
    for _ in range(10):
        if st["result"]:
            break
        st = client.post(f"/api/games/{gid}/orders", json={"order": "end"}, headers=hdr).json()["state"]
    assert st["result"] is not None and st["decision"] is None
    r = client.post(f"/api/games/{gid}/orders", json={"order": "end"}, headers=hdr)
    assert r.status_code == 409 and "over" in _msg(r)


# ---------------------------------------------------------------------------------- reach


def test_reach_of_a_unit(client: Any, small: Callable[..., Any]) -> None:
    g = client.post("/api/games", json={"scenario_data": small(), "seed": 3, "opponent": "random"}).json()
    gid, hdr = g["game"]["id"], {"X-Shieldwall-Token": g["token"]}
    r = client.get(f"/api/games/{gid}/reach/r1", headers=hdr)
    assert r.status_code == 200
    body = r.json()
    reach = body["reach"]
    assert reach["move"]["max"] == 17 and reach["move"]["dice"] == "3d5+2" and not reach["charges_now"]
    assert [c["target"] for c in reach["charges"]] == ["b1"]
    assert "hl-move-band" in body["svg"] and "hl-charge-target" in body["svg"] and "hl-arc" in body["svg"]
    bow = client.get(f"/api/games/{gid}/reach/r2", headers=hdr).json()["reach"]
    assert (
        bow["shooting"]["targets"] == ["b1"] and "shooting.range" in bow["shooting"]["why_not"]["b2"]["rule"]
    )
    enemy = client.get(f"/api/games/{gid}/reach/b2", headers=hdr).json()["reach"]
    assert enemy["side"] == "blue" and enemy["move"]["max"] == 12
    r = client.get(f"/api/games/{gid}/reach/zz", headers=hdr)
    assert r.status_code == 404 and "no unit" in _msg(r)
    assert client.get(f"/api/games/{gid}/reach/r1").status_code == 403


def test_charge_by_the_api_then_combat_why(client: Any, small: Callable[..., Any]) -> None:
    g = client.post("/api/games", json={"scenario_data": small(), "seed": 3, "opponent": "random"}).json()
    gid, hdr = g["game"]["id"], {"X-Shieldwall-Token": g["token"]}
    assert client.get(f"/api/games/{gid}/combat", headers=hdr).json() is None
    st = client.post(f"/api/games/{gid}/orders", json={"order": "activate r1"}, headers=hdr).json()["state"]
    ch = st["reach"]["charges"][0]["facings"][0]
    r = client.post(f"/api/games/{gid}/orders", json={"order": ch["order"]}, headers=hdr).json()
    assert any(e["kind"] == "charge" for e in r["events"])
    # end movement, then shooting: the melee is fought
    for _ in range(3):
        if r["state"]["view"]["side"] != "red" or r["state"]["view"]["phase"] not in ("movement", "shooting"):
            break
        r = client.post(f"/api/games/{gid}/orders", json={"order": "end"}, headers=hdr).json()
    log = client.get(f"/api/games/{gid}/log", headers=hdr).json()
    melee = [e for e in log["entries"] if e["kind"] == "melee"]
    assert melee and melee[0]["dice"]["faces"] and melee[0]["rule"] == f"{RS}:melee.dice"
    why = client.get(f"/api/games/{gid}/combat", headers=hdr).json()
    assert why["kind"] in ("melee", "shot") and why["faces"] and why["modifiers"]
    assert all(m["url"].startswith(f"/rules/{RS}#") for m in why["modifiers"])
    assert why["rule"]["section"]
    first = client.get(f"/api/games/{gid}/combat", params={"index": melee[0]["index"]}, headers=hdr).json()
    assert first["attacker"] == "r1" and first["target"] == "b1"
    r = client.get(f"/api/games/{gid}/combat", params={"index": 0}, headers=hdr)
    assert r.status_code == 404 and "not an attack" in _msg(r)
    r = client.get(f"/api/games/{gid}/combat", params={"index": 99999}, headers=hdr)
    assert r.status_code == 404
    assert client.get(f"/api/games/{gid}/combat", params={"index": -1}, headers=hdr).status_code == 422


# ---------------------------------------------------------------------------------- log


def test_log_from_an_index(client: Any, start: Callable[..., Any]) -> None:
    gid, hdr, _ = start()
    client.post(f"/api/games/{gid}/orders", json={"order": "end"}, headers=hdr)
    full = client.get(f"/api/games/{gid}/log", headers=hdr).json()
    assert full["size"] == len(full["entries"]) > 10
    assert [e["index"] for e in full["entries"]] == list(range(full["size"]))
    part = client.get(f"/api/games/{gid}/log", params={"since": 5}, headers=hdr).json()
    assert part["entries"] == full["entries"][5:]
    assert client.get(f"/api/games/{gid}/log", params={"since": 10**6}, headers=hdr).json()["entries"] == []
    assert client.get(f"/api/games/{gid}/log", params={"since": -1}, headers=hdr).status_code == 422
    assert client.get(f"/api/games/{gid}/log", params={"since": "x"}, headers=hdr).status_code == 422
    first = full["entries"][0]
    assert first["kind"] == "battle" and "seed 5" in first["text"]


# ---------------------------------------------------------------------------------- undo


def test_undo_back_to_the_start_of_the_decision(client: Any, start: Callable[..., Any]) -> None:
    gid, hdr, _ = start()
    r = client.post(f"/api/games/{gid}/undo", headers=hdr)
    assert r.status_code == 409 and "nothing to undo" in _msg(r)
    a1 = client.post(f"/api/games/{gid}/orders", json={"order": "activate r1"}, headers=hdr).json()
    assert a1["state"]["decision"]["data"]["rolled"] and not a1["state"]["can_undo"]
    s1 = client.post(f"/api/games/{gid}/orders", json={"order": "hold r1"}, headers=hdr).json()["state"]
    assert s1["can_undo"]  # holding rolled no die: it may be taken back
    u = client.post(f"/api/games/{gid}/undo", headers=hdr).json()
    assert u["dropped"] == 1 and u["state"]["view"] == a1["state"]["view"] and u["state"]["version"] == 1
    assert u["state"]["decision"] == a1["state"]["decision"]
    client.post(f"/api/games/{gid}/orders", json={"order": "hold r1"}, headers=hdr)
    after_end = client.post(f"/api/games/{gid}/orders", json={"order": "end"}, headers=hdr).json()
    assert after_end["bot_orders"] and not after_end["state"]["can_undo"]  # the bot rolled


def test_undo_cannot_bring_back_a_roll_already_seen(client: Any, start: Callable[..., Any]) -> None:
    """An order whose dice were rolled stands: otherwise a player could look at an activation roll,
    take the order back and choose which unit spends the same roll."""
    gid, hdr, _ = start()
    a1 = client.post(f"/api/games/{gid}/orders", json={"order": "activate r1"}, headers=hdr).json()
    rolled = a1["state"]["decision"]["data"]["rolled"]
    r = client.post(f"/api/games/{gid}/undo", headers=hdr)
    assert r.status_code == 409 and "dice were rolled" in _msg(r)
    st = client.get(f"/api/games/{gid}", headers=hdr).json()
    assert st["version"] == 1 and st["decision"]["data"]["rolled"] == rolled and not st["can_undo"]


def test_undo_is_not_for_two_browsers(client: Any, start: Callable[..., Any]) -> None:
    gid, red, _ = start(opponent="remote")
    client.post(f"/api/games/{gid}/orders", json={"order": "activate r1"}, headers=red)
    r = client.post(f"/api/games/{gid}/undo", headers=red)
    assert r.status_code == 409 and "hotseat" in _msg(r)
    assert client.post(f"/api/games/{gid}/undo").status_code == 403


# ---------------------------------------------------------------------------------- save, import


def test_save_replays_and_imports(client: Any, start: Callable[..., Any]) -> None:
    gid, hdr, _ = start()
    for o in ("activate r1", "hold r1", "end", "end"):
        client.post(f"/api/games/{gid}/orders", json={"order": o}, headers=hdr)
    st = client.get(f"/api/games/{gid}", headers=hdr).json()
    save = client.get(f"/api/games/{gid}/save", headers=hdr).json()
    assert (
        save["format"] == "shieldwall-save/1" and save["seed"] == 5 and len(save["orders"]) == st["version"]
    )
    replayed = replay(save)  # every event identical
    assert replayed.view()["units"] == st["view"]["units"]
    r = client.post("/api/games/import", json={"save": save, "side": "red", "opponent": "scripted"})
    assert r.status_code == 201, r.text
    new = r.json()["game"]
    assert new["view"] == st["view"] and new["decision"] == st["decision"] and new["id"] != gid
    # imported orders are history: there is nothing of yours to undo in the new game
    assert not new["can_undo"]
    nh = {"X-Shieldwall-Token": r.json()["token"]}
    assert client.post(f"/api/games/{new['id']}/orders", json={"order": "end"}, headers=nh).status_code == 200
    assert client.get(f"/api/games/{gid}/save").status_code == 403


@pytest.mark.parametrize(
    "save, words",
    [
        ({}, "not a shieldwall save"),
        ({"scenario": {}, "orders": []}, "no known rule system"),
        ({"scenario": {"ruleset": RS}, "orders": "end"}, "not a shieldwall save"),
        ({"scenario": {"ruleset": RS}, "orders": [1]}, "object or a text"),
        ({"scenario": {"ruleset": RS}, "orders": [], "seed": "x"}, "seed"),
        ({"scenario": {"ruleset": RS}, "orders": [], "overrides": []}, "overrides"),
        ({"scenario": {"ruleset": RS, "name": "x"}, "orders": []}, "validate"),
    ],
)
def test_import_bad_saves(client: Any, save: dict[str, Any], words: str) -> None:
    r = client.post("/api/games/import", json={"save": save})
    assert r.status_code == 422, r.text
    assert words in _msg(r)


def test_import_a_save_with_an_illegal_order(client: Any, start: Callable[..., Any]) -> None:
    gid, hdr, _ = start()
    client.post(f"/api/games/{gid}/orders", json={"order": "activate r1"}, headers=hdr)
    save = client.get(f"/api/games/{gid}/save", headers=hdr).json()
    save["orders"].append({"kind": "move", "unit": "r1", "steps": [{"go": [14, 12]}]})
    r = client.post("/api/games/import", json={"save": save})
    assert r.status_code == 422 and "orders[1]" in _msg(r) and r.json()["rule"] == f"{RS}:movement"


# ---------------------------------------------------------------------------------- two browsers


def test_two_browsers_each_side_its_own_secret(client: Any, start: Callable[..., Any], db_path: Path) -> None:
    gid, red, g = start(opponent="remote", seed=None)
    assert g["sides"] == ["red"] and g["invite_url"] and "#invite=" in g["invite_url"]
    st = g["game"]
    assert st["joined"] == {"red": True, "blue": False} and st["seed"] is None
    invite = g["invite_url"].split("#invite=")[1]
    r = client.post(f"/api/games/{gid}/join", json={"invite": invite})
    assert r.status_code == 200 and r.json()["side"] == "blue"
    blue_token = r.json()["token"]
    blue = {"X-Shieldwall-Token": blue_token}
    # an invitation works once
    r = client.post(f"/api/games/{gid}/join", json={"invite": invite})
    assert r.status_code == 403 and "already been used" in _msg(r)
    assert client.post(f"/api/games/{gid}/join", json={"invite": "guess"}).status_code == 403
    assert client.post(f"/api/games/{gid}/join", json={}).status_code == 422
    assert client.post("/api/games/nosuch/join", json={"invite": invite}).status_code == 404
    # no answer to red's token ever holds blue's token (nor the seed, secret till the end)
    for path in ("", "/log", "/replay", "/replay/0", "/reach/b1", "/combat", "/steps"):
        r = client.get(f"/api/games/{gid}{path}", headers=red)
        assert r.status_code == 200, (path, r.text)
        assert blue_token not in r.text
    log = client.get(f"/api/games/{gid}/log", headers=red).json()["entries"]
    assert "seed stays secret" in log[0]["text"]
    r = client.get(f"/api/games/{gid}/save", headers=red)
    assert r.status_code == 409 and "seed" in _msg(r)
    # red's token cannot give blue's orders, blue's cannot give red's
    r = client.post(f"/api/games/{gid}/orders", json={"order": "activate r1"}, headers=blue)
    assert r.status_code == 409
    assert client.get(f"/api/games/{gid}", headers=blue).json()["you"] == ["blue"]
    # both players see the same table
    assert (
        client.get(f"/api/games/{gid}", headers=blue).json()["view"]
        == client.get(f"/api/games/{gid}", headers=red).json()["view"]
    )
    # the database holds digests only
    with sqlite3.connect(db_path) as db:
        dump = "\n".join(db.iterdump())
    assert blue_token not in dump and red["X-Shieldwall-Token"] not in dump and invite not in dump
    # the seat is taken: no new invitation
    r = client.post(f"/api/games/{gid}/invite", headers=red)
    assert r.status_code == 409


def test_a_new_invitation_replaces_the_old(client: Any, start: Callable[..., Any]) -> None:
    gid, red, g = start(opponent="remote")
    old = g["invite_url"].split("#invite=")[1]
    r = client.post(f"/api/games/{gid}/invite", headers=red)
    assert r.status_code == 200 and r.json()["side"] == "blue"
    new = r.json()["invite_url"].split("#invite=")[1]
    assert client.post(f"/api/games/{gid}/join", json={"invite": old}).status_code == 403
    assert client.post(f"/api/games/{gid}/join", json={"invite": new}).status_code == 200
    assert client.post(f"/api/games/{gid}/invite").status_code == 403


def test_hotseat_one_token_both_sides(client: Any, start: Callable[..., Any]) -> None:
    gid, hdr, g = start(opponent="hotseat")
    assert g["sides"] == ["red", "blue"] and g["game"]["mode"] == "hotseat"
    st = g["game"]
    seen = set()
    for _ in range(12):
        seen.add(st["decision"]["side"])
        assert st["your_turn"]
        st = client.post(f"/api/games/{gid}/orders", json={"order": "end"}, headers=hdr).json()["state"]
    assert seen == {"red", "blue"}
    assert client.post(f"/api/games/{gid}/undo", headers=hdr).json()["dropped"] == 1


# ---------------------------------------------------------------------------------- replay


def test_replay_turn_by_turn(client: Any, start: Callable[..., Any]) -> None:
    gid, hdr, _ = start(opponent="scripted")
    for _ in range(4):
        client.post(f"/api/games/{gid}/orders", json={"order": "end"}, headers=hdr)
    rp = client.get(f"/api/games/{gid}/replay", headers=hdr).json()
    turns = [t["turn"] for t in rp["turns"]]
    assert turns[0] == 0 and turns[1:] == list(range(1, len(turns)))
    assert all(t["complete"] for t in rp["turns"][:-1]) and not rp["finished"]
    f1 = client.get(f"/api/games/{gid}/replay/1", headers=hdr).json()
    assert f1["svg"].startswith("<svg") and all(e["turn"] == 1 for e in f1["events"])
    assert f1["view"]["turn"] == 2  # the table as turn 1 ends
    last = client.get(f"/api/games/{gid}/replay/{turns[-1]}", headers=hdr).json()
    assert last["view"] == client.get(f"/api/games/{gid}", headers=hdr).json()["view"]
    r = client.get(f"/api/games/{gid}/replay/99", headers=hdr)
    assert r.status_code == 404 and "no turn 99" in _msg(r)
    assert client.get(f"/api/games/{gid}/replay/-1", headers=hdr).status_code == 422


# ---------------------------------------------------------------------------------- pages


def test_pages_and_static_files(client: Any) -> None:
    for path in ("/", "/play/abc", "/join/abc"):
        r = client.get(path)
        assert r.status_code == 200 and '<script type="module" src="/static/app.js">' in r.text
    for name in (
        "app.js",
        "api.js",
        "board.js",
        "log.js",
        "reach.js",
        "saved.js",
        "tools.js",
        "steps.js",
        "style.css",
        "favicon.svg",
    ):
        assert client.get(f"/static/{name}").status_code == 200, name
    assert client.get("/static/nope.js").status_code == 404
    r = client.get(f"/rules/{RS}")
    assert (
        r.status_code == 200 and 'id="charging.arc"' in r.text and "one attacking Unit per facing" in r.text
    )
    assert client.get("/rules/nothing").status_code == 404


def test_openapi_describes_every_endpoint(client: Any) -> None:
    spec = client.get("/openapi.json").json()
    paths = set(spec["paths"])
    assert paths == {
        "/api/health",
        "/api/rulesets",
        "/api/rulesets/{ruleset}/clauses",
        "/api/rulesets/{ruleset}/army",
        "/api/scenarios",
        "/api/bots",
        "/api/games",
        "/api/games/import",
        "/api/games/{game_id}",
        "/api/games/{game_id}/orders",
        "/api/games/{game_id}/reach/{unit_id}",
        "/api/games/{game_id}/ranges/{unit_id}",
        "/api/games/{game_id}/log",
        "/api/games/{game_id}/combat",
        "/api/games/{game_id}/undo",
        "/api/games/{game_id}/save",
        "/api/games/{game_id}/join",
        "/api/games/{game_id}/invite",
        "/api/games/{game_id}/replay",
        "/api/games/{game_id}/replay/{turn}",
        "/api/games/{game_id}/steps",
        "/api/games/{game_id}/report",
        "/api/games/{game_id}/spectate",
        "/api/games/{game_id}/check",
    }
    order = spec["paths"]["/api/games/{game_id}/orders"]["post"]
    assert {"403", "404", "409", "422"} <= set(order["responses"])
    params = {p["name"] for p in order["parameters"]}
    assert "X-Shieldwall-Token" in params
