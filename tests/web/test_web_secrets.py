"""Secrets that hold: unguessable seeds kept until the end, tokens compared in constant time, and
nothing of a concealed deployment reaching the other side (which card is a dummy, by the clause
its hidden log line cites or by its size, nor how many dummies there are)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from shieldwall.core.datafiles import read_toml
from shieldwall.io.saves import replay
from shieldwall.io.scenarios import builtin_scenarios
from shieldwall.web import store as store_module
from shieldwall.web.session import new_seed
from shieldwall.web.store import Store

RS = "into-the-dark"


def _senlac(dummies: int) -> dict[str, Any]:
    """Senlac with a concealed deployment, ``dummies`` dummy cards of 3 x 1 inches a side."""
    data = dict(read_toml(builtin_scenarios()["into-the-dark/senlac"]))
    data["options"] = {
        **dict(data.get("options") or {}),
        "deployment": "alternate",
        "concealed_deployment": True,
    }
    for side in ("red", "blue"):
        data[side] = {**data[side], "dummies": dummies, "card_width": 3.0, "card_depth": 1.0}
    return data


def _h(token: str) -> dict[str, str]:
    return {"X-Shieldwall-Token": token}


# ---------------------------------------------------------------------------------- seeds


def test_server_seeds_have_128_bits_and_the_engines_take_them() -> None:
    seeds = [new_seed() for _ in range(20)]
    assert len(set(seeds)) == 20 and max(s.bit_length() for s in seeds) > 120
    big = 2**128 - 1
    a = np.random.default_rng(np.random.SeedSequence(big)).integers(1, 7, 10)
    b = np.random.default_rng(np.random.SeedSequence(big)).integers(1, 7, 10)
    assert list(a) == list(b)


def test_the_servers_seed_is_secret_until_the_end_and_the_save_replays(
    client: Any, small: Any, db_path: Path
) -> None:
    r = client.post(
        "/api/games", json={"scenario_data": small(turns=1), "opponent": "scripted", "side": "red"}
    )
    assert r.status_code == 201, r.text
    g = r.json()
    gid, hdr = g["game"]["id"], _h(g["token"])
    seed = Store(db_path).game(gid).seed  # type: ignore[union-attr]
    assert seed.bit_length() > 64  # kept exactly, though SQLite integers have 64 bits
    st = g["game"]
    assert st["seed"] is None and st["seed_text"] is None
    log = client.get(f"/api/games/{gid}/log", headers=hdr).json()["entries"]
    assert str(seed) not in json.dumps(log) and "secret" in log[0]["text"]
    s = client.get(f"/api/games/{gid}/save", headers=hdr)
    assert s.status_code == 409 and "seed" in s.json()["detail"]
    for _ in range(200):  # play the battle to its end: the first order of each menu
        if st["result"] is not None:
            break
        assert st["your_turn"], st["waiting_for"]
        st = client.post(
            f"/api/games/{gid}/orders", json={"order": st["menu"][-1]["order"]}, headers=hdr
        ).json()["state"]
    assert st["result"] is not None and st["seed"] == seed and st["seed_text"] == str(seed)
    text = client.get(f"/api/games/{gid}/save", headers=hdr).text
    assert f'"seed":{seed}' in text.replace(" ", "")
    save = json.loads(text)
    assert save["seed"] == seed
    replayed = replay(save)  # replay checks every event against the save's
    assert replayed.is_terminal() and replayed.view()["units"] == st["view"]["units"]
    # the save resumes as it was (the import takes a 128-bit seed)
    imp = client.post("/api/games/import", json={"save": save, "side": "red", "opponent": "hotseat"})
    assert imp.status_code == 201, imp.text
    assert imp.json()["game"]["result"] == st["result"]


def test_a_seed_the_player_chose_is_shown(client: Any) -> None:
    g = client.post("/api/games", json={"opponent": "scripted", "seed": 12}).json()
    assert g["game"]["seed"] == 12


# ---------------------------------------------------------------------------------- tokens


def test_tokens_are_long_and_compared_in_constant_time(
    client: Any, start: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid, hdr, g = start()
    assert len(g["token"]) >= 32 and re.fullmatch(r"[A-Za-z0-9_-]+", g["token"])
    calls: list[tuple[str, str]] = []
    real = store_module.hmac.compare_digest

    def spy(a: Any, b: Any) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(store_module.hmac, "compare_digest", spy)
    assert client.get(f"/api/games/{gid}", headers=hdr).status_code == 200
    assert calls
    calls.clear()
    wrong = g["token"][:-1] + ("A" if g["token"][-1] != "A" else "B")
    assert client.get(f"/api/games/{gid}", headers=_h(wrong)).status_code == 403
    assert calls  # the wrong token was compared too, not looked up by its own value


# ---------------------------------------------------------------------------------- concealed deployment


def _remote(client: Any, dummies: int) -> tuple[str, dict[str, str]]:
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
    gid = g["game"]["id"]
    blue = client.post(f"/api/games/{gid}/join", json={"invite": g["invite_url"].split("#invite=")[1]}).json()
    return gid, {"red": g["token"], "blue": blue["token"]}


def _place(client: Any, gid: str, tokens: dict[str, str], want_red: str) -> str:
    """Give deploy orders until red has placed a card of the kind ``want_red`` ('dummy' or 'unit');
    blue places whatever comes first."""
    for _ in range(40):
        st = client.get(f"/api/games/{gid}", headers=_h(tokens["red"])).json()
        d = st["decision"]
        assert d is not None and d["kind"] == "deploy"
        side = d["side"]
        mine = client.get(f"/api/games/{gid}", headers=_h(tokens[side])).json()["menu"]
        deploys = [m for m in mine if m["kind"] == "deploy"]
        if side == "red":
            deploys = [m for m in deploys if ("dummy" in m["unit"]) == (want_red == "dummy")] or deploys
        order = deploys[0]
        r = client.post(f"/api/games/{gid}/orders", headers=_h(tokens[side]), json={"order": order["order"]})
        assert r.status_code == 200, r.text
        if side == "red" and ("dummy" in order["unit"]) == (want_red == "dummy"):
            return str(order["unit"])
    raise AssertionError("red never placed such a card")


def test_the_other_sides_cards_look_alike_and_their_hidden_lines_cite_no_dummy(client: Any) -> None:
    gid, tokens = _remote(client, dummies=2)
    _place(client, gid, tokens, "dummy")
    _place(client, gid, tokens, "unit")
    own = client.get(f"/api/games/{gid}", headers=_h(tokens["red"])).json()
    own_sizes = {(c["frontage"], c["depth"]) for c in own["view"]["cards"] if c["side"] == "red"}
    assert len(own_sizes) == 2  # red sees its dummy (3 x 1) and its unit's card as they are
    blue = client.get(f"/api/games/{gid}", headers=_h(tokens["blue"])).json()
    red_cards = [c for c in blue["view"]["cards"] if c["side"] == "red"]
    assert len(red_cards) == 2 and len({(c["frontage"], c["depth"]) for c in red_cards}) == 1
    log = client.get(f"/api/games/{gid}/log", headers=_h(tokens["blue"])).json()["entries"]
    placed = [e["text"] for e in log if e["kind"] == "card-placed" and e["side"] == "red"]
    sizes = {re.sub(r".*width=([0-9.]+), depth=([0-9.]+).*", r"\1 \2", t) for t in placed}
    assert len(placed) == 2 and len(sizes) == 1, placed
    hidden = [e for e in log if e["kind"] == "hidden"]
    assert hidden and {e["rule"] for e in hidden} == {RS}
    # nothing blue gets of red's placements says "dummy" (blue's own log lines may: they are blue's)
    assert "dumm" not in json.dumps([e for e in log if e["side"] != "blue"])
    assert "dumm" not in json.dumps(red_cards) and "red-dummy" not in json.dumps(blue)


def test_ordering_the_other_sides_dummy_tells_nothing(client: Any) -> None:
    gid, tokens = _remote(client, dummies=2)
    for _ in range(10):  # to blue's first deployment decision
        st = client.get(f"/api/games/{gid}", headers=_h(tokens["blue"])).json()
        if st["your_turn"]:
            break
        _place(client, gid, tokens, "unit")
    assert st["your_turn"] and st["decision"]["kind"] == "deploy"
    answers = {}
    for uid in ("red-dummy-1", "red-dummy-2", "red-dummy-3", "red-dummy-9", "nobody"):
        r = client.post(
            f"/api/games/{gid}/orders", headers=_h(tokens["blue"]), json={"order": f"deploy {uid} 30 30 180"}
        )
        answers[uid] = (r.status_code, r.json().get("detail", "").replace(uid, "X"), r.json().get("rule"))
    assert len(set(answers.values())) == 1, answers
