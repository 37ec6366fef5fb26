"""Spectators: a read-only link a player makes (POST /api/games/{id}/spectate). Its token sees what
both sides may see — no unit, order or event hidden from either side, no seed before the end — and
gives no orders, undoes nothing, invites no one and saves only a finished battle."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("web_itd", ROOT / "tests/web/test_web_itd.py")
assert _spec and _spec.loader
_itd = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_itd)


def _watch(client: Any, gid: str, hdr: dict[str, str]) -> dict[str, str]:
    r = client.post(f"/api/games/{gid}/spectate", headers=hdr)
    assert r.status_code == 200, r.text
    url = r.json()["watch_url"]
    assert f"/play/{gid}#token=" in url
    return {"X-Shieldwall-Token": url.split("#token=")[1]}


def test_a_spectator_watches_and_gives_no_orders(client: Any, start: Callable[..., Any]) -> None:
    gid, hdr, _ = start(opponent="scripted", seed=5)
    client.post(f"/api/games/{gid}/orders", json={"order": "activate r6"}, headers=hdr)
    eye = _watch(client, gid, hdr)
    st = client.get(f"/api/games/{gid}", headers=eye).json()
    mine = client.get(f"/api/games/{gid}", headers=hdr).json()
    assert st["spectator"] is True and st["you"] == [] and not st["your_turn"] and st["menu"] == []
    assert st["reach"] is None and not st["can_undo"]
    assert st["view"]["units"] == mine["view"]["units"] and st["version"] == mine["version"]
    # the player chose the seed and sees it; a spectator does not, before the end
    assert mine["seed"] == 5 and st["seed"] is None and st["seed_text"] is None
    log = client.get(f"/api/games/{gid}/log", headers=eye).json()["entries"]
    assert len(log) == len(client.get(f"/api/games/{gid}/log", headers=hdr).json()["entries"])
    assert all("seed" not in str(e.get("data", {})) or "5" not in str(e["data"].get("seed")) for e in log)
    # it may look at anything both sides may see: a unit's reach, the replay, the step-through
    for path in ("/reach/b1", "/replay", "/replay/0", "/steps?since=0"):
        assert client.get(f"/api/games/{gid}{path}", headers=eye).status_code == 200, path
    # and change nothing
    for method, path, body in (
        ("post", "/orders", {"order": "hold r6"}),
        ("post", "/undo", None),
        ("post", "/invite", None),
        ("post", "/spectate", None),
    ):
        r = getattr(client, method)(f"/api/games/{gid}{path}", headers=eye, json=body)
        assert r.status_code == 403 and "spectator" in r.json()["detail"], (path, r.text)
    r = client.get(f"/api/games/{gid}/save", headers=eye)
    assert r.status_code == 409 and "over" in r.json()["detail"]
    assert client.get(f"/api/games/{gid}", headers=hdr).json()["version"] == mine["version"]


def test_a_spectator_sees_no_concealed_unit_of_either_side(client: Any) -> None:
    r = client.post(
        "/api/games",
        json={
            "ruleset": _itd.RS,
            "scenario": "",
            "scenario_data": _itd._senlac(1),
            "opponent": "remote",
            "seed": 11,
        },
    )
    assert r.status_code == 201, r.text
    g = r.json()
    gid, red = g["game"]["id"], g["token"]
    blue = client.post(
        f"/api/games/{gid}/join", json={"invite": g["invite_url"].split("#invite=")[1]}
    ).json()["token"]
    tokens = {"red": red, "blue": blue}
    eye = _watch(client, gid, _itd._h(red))["X-Shieldwall-Token"]
    ids = {f"r{i}" for i in range(1, 9)}
    ids |= {u["id"] for u in client.get(f"/api/games/{gid}", headers=_itd._h(blue)).json()["view"]["units"]}
    assert any(i.startswith("b") for i in ids)
    checked = 0
    for _ in range(60):
        st = client.get(f"/api/games/{gid}", headers=_itd._h(red)).json()
        d = st["decision"]
        if d is None or d["kind"] != "deploy":
            break
        mine = client.get(f"/api/games/{gid}", headers=_itd._h(tokens[d["side"]])).json()
        order = next(m for m in mine["menu"] if m["kind"] == "deploy")
        r = client.post(
            f"/api/games/{gid}/orders", headers=_itd._h(tokens[d["side"]]), json={"order": order["order"]}
        )
        assert r.status_code == 200, r.text
        still = client.get(f"/api/games/{gid}", headers=_itd._h(red)).json()["decision"]
        if still is None or still["kind"] != "deploy":
            break
        # while the cards are down, the spectator can tell no unit of either side: not which
        # card holds which unit, nor which units wait to be placed
        text, svg, est = _itd._everything_blue_gets(client, gid, eye)
        assert est["spectator"] and est["view"]["units"] == []
        for uid in ids:
            assert not _itd._named(text, uid), (uid, text[:1500])
            assert f'data-unit="{uid}"' not in svg
        assert "red-dummy" not in text and "blue-dummy" not in text  # which cards are dummies
        checked += 1
    assert checked >= 4
    # once the cards are turned over, both sides and the spectator see the table alike
    est = client.get(f"/api/games/{gid}", headers=_itd._h(eye)).json()
    red_view = client.get(f"/api/games/{gid}", headers=_itd._h(red)).json()["view"]
    assert {u["id"] for u in est["view"]["units"]} == {u["id"] for u in red_view["units"]}
