"""Problems an exploratory test of the web server found (28 November 2026), each fixed:

* an order naming a unit hidden from the player (a concealed enemy) was refused with a 403 naming
  the unit's side, which told the player the unit exists; now it is left to the rules, which refuse
  it as they refuse an id that names nothing;
* Knight Hack's melee decision names the pair by the enemy's unit first, and the owner check
  refused the menu's own orders: the player could not fight;
* an undo after the battle's end reopened it after its seed and save had been made public.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

ENDS = ("end", "pass", "done", "finish", "no", "skip", "hold", "stand", "decline")


def _pick(menu: list[dict[str, Any]], rng: random.Random, endbias: float) -> dict[str, Any]:
    ends = [m for m in menu if any(m["kind"].startswith(e) for e in ENDS)]
    if ends and rng.random() < endbias:
        return rng.choice(ends)
    return rng.choice(menu)


def _order(client: TestClient, gid: str, hdr: dict[str, str], order: Any) -> Any:
    return client.post(f"/api/games/{gid}/orders", json={"order": order}, headers=hdr)


def test_an_order_naming_a_hidden_unit_is_refused_as_an_unknown_id(client: TestClient) -> None:
    r = client.post(
        "/api/games",
        json={
            "ruleset": "into-the-dark",
            "scenario": "senlac",
            "seed": 3,
            "opponent": "scripted",
            "side": "blue",
            "overrides": {"concealed_deployment": True, "deployment": "alternate"},
        },
    )
    assert r.status_code == 201, r.text
    g = r.json()
    gid, hdr = g["game"]["id"], {"X-Shieldwall-Token": g["token"]}
    seen = {u["id"] for u in g["game"]["view"]["units"]}
    hidden = [f"r{i}" for i in range(1, 9) if f"r{i}" not in seen]
    assert hidden, "red's units are all hidden from blue while it deploys concealed"
    answers = {}
    for uid in [*hidden, "zz"]:
        c = client.post(
            f"/api/games/{gid}/check", json={"order": {"kind": "activate", "unit": uid}}, headers=hdr
        )
        assert c.status_code == 200, (uid, c.text)  # not a 403 naming red
        answers[uid] = str(c.json()).replace(uid, "ID")
    assert len(set(answers.values())) == 1, answers  # a hidden unit and an id that names nothing alike


def test_knight_hack_melee_orders_on_the_menu_are_the_deciding_side_s(client: TestClient) -> None:
    """Seed 7 against ``random``, the menu's orders picked as the exploring script picked them: the
    battle comes to red's choice of the next melee, whose orders name blue's unit first."""
    r = client.post(
        "/api/games",
        json={"ruleset": "knight-hack", "scenario": "bourgtheroulde-1124", "seed": 7, "opponent": "random"},
    )
    assert r.status_code == 201, r.text
    g = r.json()
    gid, hdr = g["game"]["id"], {"X-Shieldwall-Token": g["token"]}
    st = g["game"]
    rng = random.Random(9)
    mine = {u["id"] for u in st["view"]["units"] if u["side"] == "red"}
    foreign_played = 0
    for _ in range(120):
        if st["result"] is not None or st["decision"] is None:
            break
        menu = st["menu"]
        foreign = [m for m in menu if m["order"].get("unit") not in mine and m["kind"] == "fight"]
        m = foreign[0] if foreign else _pick(menu, rng, 0.6)
        rr = _order(client, gid, hdr, m["order"])
        assert rr.status_code == 200, (m, rr.text)  # every order of the menu is the player's to give
        foreign_played += bool(foreign)
        st = rr.json()["state"]
    assert foreign_played, "the battle came to a melee choice naming the enemy's unit first"


def test_no_undo_once_the_battle_is_over(client: TestClient, start: Callable[..., Any]) -> None:
    gid, hdr, g = start(overrides={"turns": 1})
    st = g["game"]
    rng = random.Random(1)
    for _ in range(300):
        if st["result"] is not None:
            break
        rr = _order(client, gid, hdr, _pick(st["menu"], rng, 0.9)["order"])
        assert rr.status_code == 200, rr.text
        st = rr.json()["state"]
    assert st["result"] is not None and st["can_undo"] is False
    u = client.post(f"/api/games/{gid}/undo", headers=hdr)
    assert u.status_code == 409 and "over" in u.json()["detail"], u.text
    assert client.get(f"/api/games/{gid}", headers=hdr).json()["result"] == st["result"]


def test_one_order_is_bounded(client: TestClient, start: Callable[..., Any]) -> None:
    """A move of 14,500 way-points (a 319 KB request) was accepted and stored whole; a 900 KB text
    order was echoed twice in the refusal. Now an order has at most ``MAX_ORDER_NODES`` values or
    ``MAX_ORDER_TEXT`` characters, refused with a 422 that does not repeat it, and the game is
    unchanged."""
    from shieldwall.web.bounds import MAX_ORDER_NODES, MAX_ORDER_TEXT

    gid, hdr, g = start()
    before = client.get(f"/api/games/{gid}", headers=hdr).json()
    steps = [{"go": [10.0 + i * 1e-4, 5.0]} for i in range(MAX_ORDER_NODES // 4 + 1)]
    r = _order(client, gid, hdr, {"kind": "move", "unit": "r1", "steps": steps})
    assert r.status_code == 422 and f"more than {MAX_ORDER_NODES} values" in r.text, r.text[:300]
    text = "move r1 " + "go 10,5 " * (MAX_ORDER_TEXT // 8 + 10)
    r = _order(client, gid, hdr, text)
    assert r.status_code == 422 and f"at most {MAX_ORDER_TEXT} characters" in r.text
    assert len(r.content) < 2_000  # (the refusal does not repeat the order)
    assert client.get(f"/api/games/{gid}", headers=hdr).json() == before
    save = dict(client.get(f"/api/games/{gid}/save", headers=hdr).json())
    save["orders"] = [text]
    r = client.post("/api/games/import", json={"save": save})
    assert r.status_code == 422 and "save.orders[0]" in r.text and len(r.content) < 2_000


def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    """The server sent no header against framing or type sniffing (found by the exploratory test)."""
    from shieldwall.web.app import SECURITY_HEADERS

    for r in (
        client.get("/"),
        client.get("/api/rulesets"),
        client.get("/api/games/nope"),
        client.post("/api/games", json={"ruleset": "nope"}),
    ):
        for k, v in SECURITY_HEADERS:
            assert r.headers.get(k.decode()) == v.decode(), (r.url, k)
