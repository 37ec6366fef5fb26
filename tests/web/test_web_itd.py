"""The web app playing into-the-dark: start, legal and illegal orders, reach from the engine, the
why of a combat, and hidden information (Concealed Deployment) between two browsers.

The two-browser tests hold two tokens, one per side, and play the deployment through the API; at
every step they collect everything the blue token can get (the game, its log, its replay and
replay frames, the reach of its units, the answers to its orders) and check that no red unit under
a face-down card, nor which red card is a dummy, is in any of it.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from shieldwall.core.datafiles import read_toml
from shieldwall.io.scenarios import builtin_scenarios

RS = "into-the-dark"
SENLAC = "into-the-dark/senlac"
CONCEALED = {"deployment": "alternate", "concealed_deployment": True}


def _senlac(dummies: int = 0) -> dict[str, Any]:
    data = dict(read_toml(builtin_scenarios()[SENLAC]))
    data["options"] = {**dict(data.get("options") or {}), **CONCEALED}
    for side in ("red", "blue"):
        data[side] = {**data[side], "dummies": dummies, "card_width": 3.0, "card_depth": 1.0}
    return data


def _h(token: str) -> dict[str, str]:
    return {"X-Shieldwall-Token": token}


def _to_movement(client: Any, gid: str, h: dict[str, str]) -> dict[str, Any]:
    """Play the human side's decisions (keep the initiative, end rallies) until it is to choose a
    unit to act in its Movement phase; the bot answers in between."""
    st: dict[str, Any] = client.get(f"/api/games/{gid}", headers=h).json()
    for _ in range(40):
        d = st["decision"]
        assert st["your_turn"], st["waiting_for"]
        if d["kind"] == "movement":
            return st
        pick = {"initiative": "keep", "rally": "end", "fire": "end"}.get(d["kind"])
        order: Any = pick if pick else st["menu"][0]["order"]
        r = client.post(f"/api/games/{gid}/orders", headers=h, json={"order": order})
        assert r.status_code == 200, r.text
        st = r.json()["state"]
    raise AssertionError("never reached red's movement")


def test_an_into_the_dark_game_start_legal_illegal_other_side_and_reach(client: Any, start: Any) -> None:
    gid, h, g = start(ruleset=RS, scenario=SENLAC, seed=3)
    st = g["game"]
    assert st["ruleset"] == RS and st["title"] == "Senlac" and "<svg" in st["svg"]
    assert {u["side"] for u in st["view"]["units"]} == {"red", "blue"}
    st = _to_movement(client, gid, h)
    acts = [m for m in st["menu"] if m["kind"] == "activate"]
    assert acts and all(m["unit"].startswith("r") for m in acts)
    # another side's unit: 403, and nothing changes
    r = client.post(f"/api/games/{gid}/orders", headers=h, json={"order": "activate b1"})
    assert r.status_code == 403 and "blue's unit" in r.json()["detail"]
    # a legal order from the engine's menu
    uid = acts[0]["unit"]
    r = client.post(f"/api/games/{gid}/orders", headers=h, json={"order": acts[0]["order"]})
    assert r.status_code == 200, r.text
    st = r.json()["state"]
    d = st["decision"]
    assert d["kind"] == "unit" and d["unit"] == uid
    # the reach of the acting unit comes with the state, computed by the engine
    reach = st["reach"]
    assert reach["unit"] == uid and reach["move"]["now"] and reach["move"]["left"] == reach["move"]["max"] > 0
    assert reach["move"]["rule"] == f"{RS}:movement.distances"
    assert 'class="hl-move-band"' in st["svg"]
    enemies = {u["id"] for u in st["view"]["units"] if u["side"] == "blue" and not u["removed"]}
    assert set(reach["charge_why_not"]) | {c["target"] for c in reach["charges"]} == enemies
    for w in reach["charge_why_not"].values():
        assert w["rule"].startswith(f"{RS}:") and w["reason"]
    # an illegal order: 422 with the clause and the reason, the game unchanged
    version = st["version"]
    r = client.post(f"/api/games/{gid}/orders", headers=h, json={"order": f"move {uid} fwd 40"})
    assert r.status_code == 422, r.text
    body = r.json()
    assert body["rule"].startswith(f"{RS}:movement.") and body["reason"]
    assert body["rule_url"] == "/rules/into-the-dark#" + body["rule"].split(":")[1]
    other = next(m["unit"] for m in acts if m["unit"] != uid)
    r = client.post(f"/api/games/{gid}/orders", headers=h, json={"order": f"hold {other}"})
    assert r.status_code == 422 and r.json()["rule"] == f"{RS}:turn-sequence.movement"
    assert f"the unit acting is {uid}" in r.json()["reason"]
    assert client.get(f"/api/games/{gid}", headers=h).json()["version"] == version
    # the clause table the refusal links to
    page = client.get(body["rule_url"].split("#")[0])
    assert page.status_code == 200 and f'id="{body["rule"].split(":")[1]}"' in page.text
    # malformed order words: 422 naming the order forms, never a 500
    for bad in ("move", f"move {uid} fwd nan", {"kind": "charge", "unit": uid}, f"frontage {uid} many"):
        r = client.post(f"/api/games/{gid}/orders", headers=h, json={"order": bad})
        assert r.status_code == 422, (bad, r.text)
    # a move given as the page gives it (a wheel, then straight on) is accepted
    r = client.post(
        f"/api/games/{gid}/orders",
        headers=h,
        json={"order": {"kind": "move", "unit": uid, "steps": [{"wheel": 5}, {"fwd": 1}]}},
    )
    assert r.status_code == 200, r.text
    assert any(e["kind"] == "move" and e["rule"] == f"{RS}:movement.movement" for e in r.json()["events"])
    # the reach of an enemy unit: its threat, with the clause for every refusal
    foe = sorted(enemies)[0]
    r = client.get(f"/api/games/{gid}/reach/{foe}", headers=h)
    assert r.status_code == 200 and r.json()["reach"]["move"]["max"] > 0
    assert client.get(f"/api/games/{gid}/reach/zz9", headers=h).status_code == 404


def test_into_the_dark_out_of_turn_is_409(client: Any) -> None:
    r = client.post(
        "/api/games", json={"ruleset": RS, "scenario": SENLAC, "opponent": "remote", "seed": 3, "side": "red"}
    )
    assert r.status_code == 201, r.text
    g = r.json()
    gid = g["game"]["id"]
    invite = g["invite_url"].split("#invite=")[1]
    blue = client.post(f"/api/games/{gid}/join", json={"invite": invite}).json()["token"]
    red = g["token"]
    st = client.get(f"/api/games/{gid}", headers=_h(red)).json()
    owner = st["decision"]["side"]
    idle = blue if owner == "red" else red
    r = client.post(f"/api/games/{gid}/orders", headers=_h(idle), json={"order": "keep"})
    assert r.status_code == 409 and "not your turn" in r.json()["detail"]
    assert client.get(f"/api/games/{gid}", headers=_h(idle)).json()["menu"] == []


def test_the_why_of_an_into_the_dark_attack_and_test(client: Any, start: Any, app: Any) -> None:
    """Hotseat, both sides played by the scripted bot's choices sent through the API, until an
    attack: its why has each group's dice, what they need and the modifiers' clauses."""
    from shieldwall.ai.base import make_bot

    gid, h, _ = start(ruleset=RS, scenario=SENLAC, seed=3, opponent="hotseat")
    bots = {"red": make_bot("scripted", 1, RS), "blue": make_bot("scripted", 2, RS)}
    attack = None
    for _ in range(400):
        s = app.state.games.get(gid)
        d = s.state.decision()
        assert d is not None
        order = bots[d.side].choose(s.state.copy())
        r = client.post(f"/api/games/{gid}/orders", headers=h, json={"order": order.to_dict()})
        assert r.status_code == 200, r.text
        ev = [e for e in r.json()["events"] if e["kind"] in ("fire", "melee")]
        if ev:
            attack = ev[0]
            break
    assert attack is not None, "no attack in 400 orders"
    assert attack["why"] and attack["dice"]["faces"] and attack["rule"].startswith(f"{RS}:combat.")
    c = client.get(f"/api/games/{gid}/combat", headers=h).json()
    assert c["kind"] in ("fire", "melee") and c["groups"]
    for grp in c["groups"]:
        assert len(grp["faces"]) == grp["dice"] and grp["need"] is not None
        assert grp["rule"]["rule"].startswith(f"{RS}:combat.") and grp["rule"]["text"]
    c = client.get(f"/api/games/{gid}/combat?index={attack['index']}", headers=h).json()
    assert c["index"] == attack["index"]
    # a morale or control test explains itself too (if one was taken yet)
    log = client.get(f"/api/games/{gid}/log", headers=h).json()["entries"]
    tests = [e for e in log if e["kind"] in ("morale-test", "control-test")]
    for e in tests[:2]:
        t = client.get(f"/api/games/{gid}/combat?index={e['index']}", headers=h).json()["test"]
        assert t["target"] is not None and t["result"] and t["level_rule"]["rule"].startswith(f"{RS}:morale.")
    # a phase change is not an attack
    phase = next(e for e in log if e["kind"] == "phase")
    assert client.get(f"/api/games/{gid}/combat?index={phase['index']}", headers=h).status_code == 404


# ---------------------------------------------------------------------------------- hidden information
def _red_secret_ids(client: Any, gid: str, red: str) -> set[str]:
    """Red's units under face-down cards, as red's own view marks them."""
    v = client.get(f"/api/games/{gid}", headers=_h(red)).json()["view"]
    return {u["id"] for u in v["units"] if "blue" in u.get("hidden_from", [])}


def _everything_blue_gets(client: Any, gid: str, blue: str) -> tuple[str, str, dict[str, Any]]:
    """All the blue token can read: (JSON text without SVGs, the SVGs, the game state)."""
    h = _h(blue)
    st = client.get(f"/api/games/{gid}", headers=h).json()
    texts = [json.dumps({k: v for k, v in st.items() if k != "svg"})]
    svgs = [st["svg"]]
    texts.append(client.get(f"/api/games/{gid}/log", headers=h).text)
    texts.append(client.get(f"/api/games/{gid}/replay", headers=h).text)
    for t in client.get(f"/api/games/{gid}/replay", headers=h).json()["turns"]:
        f = client.get(f"/api/games/{gid}/replay/{t['turn']}", headers=h).json()
        texts.append(json.dumps({k: v for k, v in f.items() if k != "svg"}))
        svgs.append(f["svg"])
    # the step-through of every order so far (the other side's turn, one order at a time)
    for step in client.get(f"/api/games/{gid}/steps?since=0", headers=h).json()["steps"]:
        texts.append(json.dumps({k: v for k, v in step.items() if k != "svg"}))
        svgs.append(step["svg"])
    for u in st["view"]["units"]:
        if u["side"] == "blue" and not u["removed"]:
            r = client.get(f"/api/games/{gid}/reach/{u['id']}", headers=h).json()
            texts.append(json.dumps(r["reach"]))
            svgs.append(r["svg"])
    return "\n".join(texts), "\n".join(svgs), st


def _named(text: str, uid: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(uid)}(?![\w-])", text) is not None


@pytest.mark.parametrize("dummies", [0, 2])
def test_concealed_deployment_between_two_browsers(client: Any, dummies: int) -> None:
    r = client.post(
        "/api/games",
        json={
            "ruleset": RS,
            "scenario": "",
            "scenario_data": _senlac(dummies),
            "opponent": "remote",
            "seed": 11,
            "side": "red",
        },
    )
    assert r.status_code == 201, r.text
    g = r.json()
    gid, red = g["game"]["id"], g["token"]
    blue = client.post(
        f"/api/games/{gid}/join", json={"invite": g["invite_url"].split("#invite=")[1]}
    ).json()["token"]
    tokens = {"red": red, "blue": blue}
    red_ids = {f"r{i}" for i in range(1, 9)}
    checked = 0
    red_dummies_down = 0
    for _ in range(60):
        st = client.get(f"/api/games/{gid}", headers=_h(red)).json()
        d = st["decision"]
        if d is None or d["kind"] != "deploy":
            break
        side = d["side"]
        mine = client.get(f"/api/games/{gid}", headers=_h(tokens[side])).json()
        order = next(m for m in mine["menu"] if m["kind"] == "deploy")
        r = client.post(f"/api/games/{gid}/orders", headers=_h(tokens[side]), json={"order": order["order"]})
        assert r.status_code == 200, r.text
        if side == "red":
            red_dummies_down += "dummy" in order["unit"]
            # what blue's browser polls: no word of which unit went down, or whether a dummy did
            text, svg, bst = _everything_blue_gets(client, gid, blue)
            secret = _red_secret_ids(client, gid, red)
            still = client.get(f"/api/games/{gid}", headers=_h(red)).json()["decision"]
            if still is not None and still["kind"] == "deploy":
                assert secret or "dummy" in order["unit"]
            for uid in red_ids:  # deployed under a card or still waiting: blue cannot tell which
                if still is None or still["kind"] != "deploy":
                    break
                assert not _named(text, uid), (uid, text[:2000])
                assert f'data-unit="{uid}"' not in svg
                rr = client.get(f"/api/games/{gid}/reach/{uid}", headers=_h(blue))
                assert rr.status_code == 404
            assert "red-dummy" not in text
            blue_log = client.get(f"/api/games/{gid}/log", headers=_h(blue)).json()["entries"]
            assert not [e for e in blue_log if e["side"] == "red" and e["kind"] == "deploy"]
            assert [e for e in blue_log if e["side"] == "red" and e["kind"] == "hidden"]
            # the cards themselves are on the table for both (where, not what)
            cards = [c for c in bst["view"]["cards"] if c["side"] == "red"]
            assert cards and all(
                set(c) == {"id", "side", "x", "y", "heading", "frontage", "depth"} for c in cards
            )
            checked += 1
            # red's own browser sees its units under their cards
            own = client.get(f"/api/games/{gid}", headers=_h(red)).json()
            assert secret <= {u["id"] for u in own["view"]["units"]}
    assert checked >= 4
    if dummies:
        assert red_dummies_down == dummies
    # the cards are turned over: now blue sees every red unit where it was placed
    st = client.get(f"/api/games/{gid}", headers=_h(blue)).json()
    seen = {u["id"] for u in st["view"]["units"] if u["side"] == "red" and not u["removed"]}
    assert seen == red_ids
    assert st["view"]["cards"] == []
    log = client.get(f"/api/games/{gid}/log", headers=_h(blue)).json()["entries"]
    assert any(e["kind"] == "hidden" and e["text"] == "(hidden from you)" for e in log)
    assert any(e["kind"] == "reveal" for e in log)


def test_concealed_deployment_against_a_bot(client: Any) -> None:
    """Blue (the scripted bot) conceals its deployment from red: red's answers withhold the bot's
    order words while its cards are down, and the save (it holds every order) waits for the reveal."""
    r = client.post(
        "/api/games",
        json={"ruleset": RS, "scenario": "", "scenario_data": _senlac(1), "opponent": "scripted", "seed": 4},
    )
    assert r.status_code == 201, r.text
    g = r.json()
    gid, h = g["game"]["id"], _h(g["token"])
    blue_ids = {u["id"] for u in client.get(f"/api/games/{gid}", headers=h).json()["view"]["units"]} - {
        f"r{i}" for i in range(1, 9)
    }
    assert blue_ids == set()  # blue's units wait to be placed: red's view does not list them
    hidden_replies = 0
    saw_refused_save = False
    for _ in range(40):
        st = client.get(f"/api/games/{gid}", headers=h).json()
        d = st["decision"]
        if d is None or d["kind"] != "deploy":
            break
        if any(c["side"] == "blue" for c in st["view"]["cards"]):
            s = client.get(f"/api/games/{gid}/save", headers=h)
            assert s.status_code == 409 and "concealed" in s.json()["detail"]
            saw_refused_save = True
        order = next(m for m in st["menu"] if m["kind"] == "deploy")
        r = client.post(f"/api/games/{gid}/orders", headers=h, json={"order": order["order"]})
        assert r.status_code == 200, r.text
        out = r.json()
        for text in out["bot_orders"]:
            if text.startswith("deploy"):
                raise AssertionError(f"the bot's deploy order reached red: {text}")
            hidden_replies += text == "(an order hidden from you)"
        if out["state"]["decision"] and out["state"]["decision"]["kind"] == "deploy":
            body = json.dumps({k: v for k, v in out.items() if k != "state"})
            assert not re.search(r'"b\d+"', body)
    assert hidden_replies >= 1 and saw_refused_save
    # revealed: the save is given, and it holds the bot's deployment
    s = client.get(f"/api/games/{gid}/save", headers=h)
    assert s.status_code == 200 and any(
        isinstance(o, dict) and o.get("kind") == "deploy" and str(o.get("unit", "")).startswith("b")
        for o in s.json()["orders"]
    )
