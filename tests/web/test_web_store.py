"""Games survive a restart: the SQLite store holds every accepted order, the state is rebuilt."""

from __future__ import annotations

import sqlite3
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from shieldwall.ai.base import bot_seed
from shieldwall.web.app import create_app
from shieldwall.web.session import decision_seed
from shieldwall.web.store import GameRecord, OrderRow, Store, StoreConflict, digest

HUMAN_ORDERS = ["activate r1", "hold r1", "activate r6", "hold r6", "end", "end"]


def _play(client: TestClient, gid: str, hdr: dict[str, str], orders: list[str]) -> None:
    for o in orders:
        r = client.post(f"/api/games/{gid}/orders", json={"order": o}, headers=hdr)
        assert r.status_code == 200, r.text


def test_a_restart_sees_the_same_game(db_path: Path) -> None:
    with TestClient(create_app(db_path)) as a:
        g = a.post("/api/games", json={"opponent": "scripted", "seed": 11}).json()
        gid, hdr = g["game"]["id"], {"X-Shieldwall-Token": g["token"]}
        _play(a, gid, hdr, HUMAN_ORDERS)
        before = a.get(f"/api/games/{gid}", headers=hdr).json()
        log_before = a.get(f"/api/games/{gid}/log", headers=hdr).json()
    # a new server process on the same file
    with TestClient(create_app(db_path)) as b:
        after = b.get(f"/api/games/{gid}", headers=hdr).json()
        assert after == before
        assert b.get(f"/api/games/{gid}/log", headers=hdr).json() == log_before
        # and the game goes on
        r = b.post(f"/api/games/{gid}/orders", json={"order": "end"}, headers=hdr)
        assert r.status_code == 200


def test_bots_choose_the_same_after_a_restart(db_path: Path, tmp_path: Path) -> None:
    """A bot's seed depends on the battle seed and the order number only, so a game rebuilt after
    a restart continues exactly as one that never left memory."""
    with TestClient(create_app(tmp_path / "one.sqlite3")) as c:
        g = c.post("/api/games", json={"opponent": "scripted", "seed": 4}).json()
        gid, hdr = g["game"]["id"], {"X-Shieldwall-Token": g["token"]}
        _play(c, gid, hdr, HUMAN_ORDERS + ["end", "end"])
        straight = c.get(f"/api/games/{gid}/log", headers=hdr).json()["entries"]
    with TestClient(create_app(db_path)) as c:
        g = c.post("/api/games", json={"opponent": "scripted", "seed": 4}).json()
        gid, hdr = g["game"]["id"], {"X-Shieldwall-Token": g["token"]}
        _play(c, gid, hdr, HUMAN_ORDERS)
    with TestClient(create_app(db_path)) as c:
        _play(c, gid, hdr, ["end", "end"])
        restarted = c.get(f"/api/games/{gid}/log", headers=hdr).json()["entries"]
    assert restarted == straight


def test_a_crash_before_the_bot_replied_is_caught_up(db_path: Path) -> None:
    """The human's order is committed before the bot thinks; a crash in between leaves the bot's
    reply owed, and the next server plays it."""
    with TestClient(create_app(db_path)) as a:
        g = a.post("/api/games", json={"opponent": "scripted", "seed": 2}).json()
        gid, hdr = g["game"]["id"], {"X-Shieldwall-Token": g["token"]}
    store = Store(db_path)
    store.append_orders(gid, [OrderRow(0, "red", "human", {"kind": "end"})])
    store.close()
    with TestClient(create_app(db_path)) as b:
        st = b.get(f"/api/games/{gid}", headers=hdr).json()
        assert st["your_turn"] and st["version"] > 1
        orders = Store(db_path).orders(gid)
        assert orders[0].by == "human" and all(o.by == "bot" for o in orders[1:])


def test_the_database_keeps_digests_and_runs_in_wal(db_path: Path, start: Callable[..., Any]) -> None:
    _, hdr, g = start()
    token = hdr["X-Shieldwall-Token"]
    with sqlite3.connect(db_path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        digests = [r[0] for r in db.execute("SELECT digest FROM tokens")]
    assert digest(token) in digests and token not in digests


def _rec(gid: str) -> GameRecord:
    return GameRecord(gid, 0.0, "one-hour-dark-ages", "x", {}, {}, 1, True, "bot", {"red": "human"})


def test_store_appends_in_order_and_truncates(tmp_path: Path) -> None:
    s = Store(tmp_path / "s.sqlite3")
    s.create_game(_rec("g1"), [("tok", ["red", "blue"])], [("blue", "inv")])
    assert s.token_sides("g1", "tok") == ["red", "blue"]
    assert s.token_sides("g1", "nope") is None and s.token_sides("g2", "tok") is None
    s.append_orders(
        "g1", [OrderRow(0, "red", "human", {"kind": "end"}), OrderRow(1, "blue", "bot", {"kind": "end"})]
    )
    with pytest.raises(StoreConflict):
        s.append_orders("g1", [OrderRow(1, "red", "human", {"kind": "end"})])
    s.truncate_orders("g1", 1)
    assert [o.seq for o in s.orders("g1")] == [0]
    assert s.invites("g1") == {"blue": False}
    assert s.claim_invite("g1", "wrong", "t2") is None
    assert s.claim_invite("g1", "inv", "t2") == "blue"
    assert s.claim_invite("g1", "inv", "t3") is None
    assert s.token_sides("g1", "t2") == ["blue"] and s.invites("g1") == {"blue": True}
    assert not s.reissue_invite("g1", "blue", "again")
    assert s.game("g1") == _rec("g1") and s.game("nope") is None and s.game_count() == 1
    s.close()


def test_decision_seeds_are_pure() -> None:
    assert decision_seed(5, 1, 10) == decision_seed(5, 1, 10)
    # the kept side seed gives the seed derived from scratch
    for seed, side, seq in ((5, 1, 10), (2**127 + 3, 0, 0), (7, 0, 499)):
        fresh = np.random.SeedSequence([bot_seed(seed, side), seq]).generate_state(1)[0]
        assert decision_seed(seed, side, seq) == int(fresh)
    assert len({decision_seed(5, 1, n) for n in range(50)}) == 50
    assert decision_seed(5, 0, 3) != decision_seed(5, 1, 3)


def test_concurrent_appends_share_commits_and_a_refused_one_fails_alone(tmp_path: Path) -> None:
    """Group commit: appends from many threads at once all land, each game in order; an append whose
    ``seq`` does not follow is refused without taking the others of its commit down with it."""
    import threading

    s = Store(tmp_path / "g.sqlite3")
    games = [f"g{i}" for i in range(12)]
    for gid in games:
        s.create_game(_rec(gid), [(f"tok-{gid}", ["red"])])
    errors: list[Exception] = []
    gate = threading.Barrier(len(games) + 1)

    def writer(gid: str) -> None:
        gate.wait()
        for seq in range(5):
            s.append_orders(gid, [OrderRow(seq, "red", "human", {"kind": "end"}, f"{gid}-{seq}")])

    def intruder() -> None:
        gate.wait()
        try:
            s.append_orders("g0", [OrderRow(99, "red", "human", {"kind": "end"})])
        except StoreConflict as exc:
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(g,)) for g in games] + [
        threading.Thread(target=intruder)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(errors) == 1
    for gid in games:
        assert [(o.seq, o.client_id) for o in s.orders(gid)] == [(n, f"{gid}-{n}") for n in range(5)]
    s.close()
