"""Durable orders: an order is answered only once committed (SQLite in WAL mode, synchronous=FULL),
so a server killed with SIGKILL in the middle of a stream of orders loses none it acknowledged, and
the games rebuilt by a new process replay to the same state."""

from __future__ import annotations

import random
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from shieldwall.io.saves import replay
from shieldwall.web.store import Store

PLAYERS = 6


def serve(db: Path) -> tuple[subprocess.Popen[bytes], str]:
    """``shieldwall serve`` in its own process on a free port; returns (process, base URL)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "shieldwall.cli", "serve", "--port", str(port), "--db", str(db)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/api/health", timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise AssertionError("shieldwall serve did not start")


def test_the_store_commits_each_order_durably(tmp_path: Path) -> None:
    store = Store(tmp_path / "d.sqlite3")
    db = store._db
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL: fsync at every commit
    store.close()


def _player(
    url: str, i: int, acked: list[tuple[str, str, int]], tokens: dict[str, str], stop: threading.Event
) -> None:
    """Start a hotseat game and give orders from its menu until stopped (or the server dies),
    keeping (game, client id, version after) of every order the server answered 200."""
    rng = random.Random(i)
    with httpx.Client(base_url=url, timeout=30) as c:
        g = c.post("/api/games", json={"opponent": "hotseat", "seed": 100 + i}).json()
        gid, hdr = g["game"]["id"], {"X-Shieldwall-Token": g["token"]}
        tokens[gid] = g["token"]
        st = g["game"]
        n = 0
        while not stop.is_set() and st["menu"]:
            item = rng.choice(st["menu"])
            cid = f"p{i}-order-{n}"
            n += 1
            try:
                r = c.post(
                    f"/api/games/{gid}/orders",
                    json={"order": item["order"], "client_id": cid, "version": st["version"]},
                    headers=hdr,
                )
            except httpx.HTTPError:
                return  # the server is gone: this order was never acknowledged
            assert r.status_code == 200, r.text
            st = r.json()["state"]
            acked.append((gid, cid, st["version"]))


def test_a_server_killed_mid_stream_loses_no_acknowledged_order(tmp_path: Path) -> None:
    """SIGKILL the real server (no shutdown, no flush) while several players are sending orders:
    a new process on the same file holds every order that was answered, and each game replays
    from its seed to the state the new server shows."""
    db = tmp_path / "games.sqlite3"
    proc, url = serve(db)
    acked: list[tuple[str, str, int]] = []
    tokens: dict[str, str] = {}
    stop = threading.Event()
    threads = [threading.Thread(target=_player, args=(url, i, acked, tokens, stop)) for i in range(PLAYERS)]
    try:
        for t in threads:
            t.start()
        deadline = time.monotonic() + 60
        while len(acked) < 60 and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        proc.send_signal(signal.SIGKILL)  # while orders are in flight
        proc.wait(timeout=30)
        stop.set()
        for t in threads:
            t.join(timeout=60)
    assert len(acked) >= 60 and len(tokens) == PLAYERS
    proc, url = serve(db)
    try:
        store = Store(db)
        for gid, token in tokens.items():
            rows = store.orders(gid)
            ids = [r.client_id for r in rows]
            for g, cid, v in acked:
                if g == gid:
                    assert cid in ids, f"acknowledged order {cid} of game {gid} is lost"
                    assert ids.index(cid) == v - 1  # at the place it was acknowledged
            # the game replays from its seed to the state the restarted server shows
            hdr = {"X-Shieldwall-Token": token}
            st = httpx.get(f"{url}/api/games/{gid}", headers=hdr).json()
            assert st["version"] == len(rows)
            save: dict[str, Any] = httpx.get(f"{url}/api/games/{gid}/save", headers=hdr).json()
            assert len(save["orders"]) == len(rows)
            assert replay(save).view() == httpx.get(f"{url}/api/games/{gid}", headers=hdr).json()["view"]
        store.close()
    finally:
        proc.kill()
        proc.wait(timeout=30)
