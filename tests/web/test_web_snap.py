"""Snapping: an order carries the same order for the points around a click (``near``); when the
rules refuse it, the first of those they allow is played and the answer says why the click was
refused; when none is allowed, the click's own refusal with its clause."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

RS = "one-hour-dark-ages"


def _rolled(client: Any, gid: str, hdr: dict[str, str], uid: str) -> tuple[float, dict[str, Any]]:
    r = client.post(f"/api/games/{gid}/orders", json={"order": f"activate {uid}"}, headers=hdr)
    assert r.status_code == 200, r.text
    st = r.json()["state"]
    u = next(u for u in st["view"]["units"] if u["id"] == uid)
    return float(st["decision"]["data"]["rolled"]), u


def _go(uid: str, x: float, y: float) -> dict[str, Any]:
    return {"kind": "move", "unit": uid, "steps": [{"go": [round(x, 3), round(y, 3)]}]}


def test_a_click_a_little_too_far_snaps_to_the_nearest_legal_point(
    client: Any, start: Callable[..., Any]
) -> None:
    gid, hdr, _ = start()
    rolled, u = _rolled(client, gid, hdr, "r6")
    far = rolled + 0.3  # straight ahead, 0.3" beyond the roll: refused as it is
    near = [_go("r6", u["x"], u["y"] + far - 0.05 * i) for i in range(1, 20)]
    body = {"order": _go("r6", u["x"], u["y"] + far), "near": near, "version": 1}
    r = client.post(f"/api/games/{gid}/orders", json=body, headers=hdr)
    assert r.status_code == 200, r.text
    out = r.json()
    snap = out["snapped"]
    assert snap["rule"] == f"{RS}:movement" and "rolled" in snap["reason"]
    assert snap["rule_url"] == f"/rules/{RS}#movement"
    # the nearest allowed: the 0.3" excess given back (to the step of the points sent)
    assert snap["index"] == 5
    moved = next(v for v in out["state"]["view"]["units"] if v["id"] == "r6")
    assert math.isclose(moved["y"] - u["y"], rolled, abs_tol=0.051) and moved["y"] - u["y"] <= rolled
    # the order kept in the game is the one played
    assert out["accepted"] == f"move r6 go {u['x']:g},{u['y'] + rolled:g}"


def test_no_legal_point_near_the_click_answers_its_own_clause(client: Any, start: Callable[..., Any]) -> None:
    gid, hdr, _ = start()
    rolled, u = _rolled(client, gid, hdr, "r1")
    far = rolled + 5
    near = [_go("r1", u["x"], u["y"] + far - 0.1 * i) for i in range(1, 8)]
    near.append(_go("b1", 20, 20))  # another side's unit: skipped, never an answer of its own
    near.append("not an order at all")  # unreadable: skipped
    r = client.post(
        f"/api/games/{gid}/orders", json={"order": _go("r1", u["x"], u["y"] + far), "near": near}, headers=hdr
    )
    assert r.status_code == 422
    body = r.json()
    assert body["rule"] == f"{RS}:movement" and "rolled" in body["reason"]
    st = client.get(f"/api/games/{gid}", headers=hdr).json()
    assert st["version"] == 1 and st["decision"]["unit"] == "r1"  # nothing changed


def test_a_legal_order_ignores_near_and_near_is_bounded(client: Any, start: Callable[..., Any]) -> None:
    gid, hdr, _ = start()
    rolled, u = _rolled(client, gid, hdr, "r1")
    too_many = [_go("r1", u["x"], u["y"])] * 201
    r = client.post(
        f"/api/games/{gid}/orders",
        json={"order": _go("r1", u["x"], u["y"] + 1), "near": too_many},
        headers=hdr,
    )
    assert r.status_code == 422 and "near" in r.json()["detail"]
    ok = {"order": _go("r1", u["x"], u["y"] + 1), "near": [_go("r1", u["x"], u["y"] + 0.5)]}
    r = client.post(f"/api/games/{gid}/orders", json=ok, headers=hdr)
    assert r.status_code == 200 and r.json()["snapped"] is None
    moved = next(v for v in r.json()["state"]["view"]["units"] if v["id"] == "r1")
    assert math.isclose(moved["y"], u["y"] + 1, abs_tol=1e-6)


def test_check_tries_an_order_without_playing_it(client: Any, start: Callable[..., Any]) -> None:
    gid, hdr, _ = start()
    rolled, u = _rolled(client, gid, hdr, "r6")
    url = f"/api/games/{gid}/check"
    ok = client.post(url, json={"order": _go("r6", u["x"], u["y"] + rolled - 1)}, headers=hdr).json()
    assert ok == {"legal": True, "index": None, "rule": None, "reason": None, "rule_url": None}
    far = u["y"] + rolled + 0.3
    near = [_go("r6", u["x"], far - 0.05 * i) for i in range(1, 20)]
    snap = client.post(url, json={"order": _go("r6", u["x"], far), "near": near}, headers=hdr).json()
    assert snap["legal"] and snap["index"] == 5 and snap["rule"] == f"{RS}:movement"
    no = client.post(url, json={"order": _go("r6", u["x"], far + 5)}, headers=hdr).json()
    assert not no["legal"] and no["index"] is None and "rolled" in no["reason"]
    assert no["rule_url"] == f"/rules/{RS}#movement"
    # nothing was played, and only the deciding side may ask
    st = client.get(f"/api/games/{gid}", headers=hdr).json()
    assert st["version"] == 1 and st["decision"]["unit"] == "r6"
    eye = client.post(f"/api/games/{gid}/spectate", headers=hdr).json()["watch_url"].split("#token=")[1]
    r = client.post(url, json={"order": _go("r6", u["x"], far)}, headers={"X-Shieldwall-Token": eye})
    assert r.status_code == 403
