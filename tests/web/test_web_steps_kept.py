"""The step-through's replay is kept with the session and carried on from one ``/steps`` answer to
the next (``web.steps``): every answer equals the plain one, a replay of the battle from its seed,
after each order as the page asks, after an undo, and for an earlier point than the kept replay."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from shieldwall.core.reference import reference_path
from shieldwall.web import steps as W
from shieldwall.web.session import Session


def _plain(s: Session, sides: list[str], since: int) -> list[dict[str, Any]]:
    """The steps replayed from the seed, on a copy of the session without its kept replay."""
    return W.steps_since(dataclasses.replace(s, replay=None), sides, since)


def _kept(s: Session, sides: list[str], since: int) -> list[dict[str, Any]]:
    with s.lock:
        got = W.steps_since(s, sides, since)
        assert got == _plain(s, sides, since)
        assert s.replay is not None and s.replay[1] == s.orders  # it holds every order now
        return got


def test_the_kept_replay_gives_the_plain_steps_after_every_order(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    g = client.post("/api/games", json={"opponent": "scripted", "seed": 11}).json()
    gid, hdr, st = g["game"]["id"], {"X-Shieldwall-Token": g["token"]}, g["game"]
    games = client.app.state.games  # type: ignore[attr-defined]
    s = games.get(gid)
    applied: list[int] = []
    real = W._replay_from

    def counting(of: Session, since: int) -> Any:
        state, done = real(of, since)
        applied.append(len(of.orders) - done)
        return state, done

    monkeypatch.setattr(W, "_replay_from", counting)

    def steps(since: int) -> Any:
        """The route's answer, checked against the plain one (the kept replay set aside for it)."""
        page = client.get(f"/api/games/{gid}/steps?since={since}", headers=hdr)
        assert page.status_code == 200, page.text
        kept, s.replay = s.replay, None
        plain = client.get(f"/api/games/{gid}/steps?since={since}", headers=hdr)
        s.replay = kept
        assert page.json() == plain.json()
        return page.json()

    rng = random.Random(3)
    replies = 0
    for k in range(60):
        if not st["menu"]:
            break
        before = st["version"]
        body = {"order": rng.choice(st["menu"])["order"], "client_id": f"kept-{k:04d}", "version": before}
        r = client.post(f"/api/games/{gid}/orders", json=body, headers=hdr)
        assert r.status_code == 200, r.text
        st = r.json()["state"]
        applied.clear()
        got = steps(before + 1)  # as the page asks: the orders after its own
        assert [x["index"] for x in got["steps"]] == list(range(before + 1, st["version"]))
        replies += len(got["steps"])
        if k:  # only the orders given since the last answer were replayed
            assert applied[0] == st["version"] - before
    assert st["version"] > 40 and replies > 10
    # an earlier point than the kept replay (the page's "replay the last turn"): from the seed
    steps(max(0, st["version"] - 80))
    steps(1)
    # under the reference switch every answer is the plain replay
    applied.clear()
    with reference_path():
        _kept(s, ["red"], st["version"])
    assert applied[0] == st["version"]


def test_an_undo_starts_the_replay_again(client: TestClient) -> None:
    h = client.post("/api/games", json={"opponent": "hotseat", "seed": 2}).json()
    hid, hh, st = h["game"]["id"], {"X-Shieldwall-Token": h["token"]}, h["game"]
    games = client.app.state.games  # type: ignore[attr-defined]
    s = games.get(hid)
    sides = ["red", "blue"]

    def play(text: str, version: int) -> dict[str, Any]:
        r = client.post(f"/api/games/{hid}/orders", json={"order": text, "version": version}, headers=hh)
        assert r.status_code == 200, r.text
        return dict(r.json()["state"])

    assert st["menu"][0]["text"] == "end"  # rolls no die: it may be taken back
    play("end", 0)
    _kept(s, sides, 0)
    assert s.replay is not None and len(s.replay[1]) == 1
    assert client.post(f"/api/games/{hid}/undo", headers=hh).status_code == 200
    after = play("activate r1", 0)
    play(after["menu"][0]["text"], 1)
    # the kept replay holds one order, as many as the steps skip, but not this battle's first order
    _kept(s, sides, 1)
