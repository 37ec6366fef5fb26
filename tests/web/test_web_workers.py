"""Several server processes on one SQLite file (``shieldwall serve --workers N``), and the storage
cap on new games (``--max-db-mb``).

Two apps on the same file stand for two worker processes: each keeps games in memory, and each must
see the other's orders and never write on top of a game the other has changed."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
import warnings
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from tests.browser_fixtures import free_port, wait_up
from tests.web.test_web_serve_process import _serve

from shieldwall.web.app import create_app
from shieldwall.web.store import OrderRow, Store, StoreConflict


def _order(c: TestClient, gid: str, hdr: dict[str, str], st: dict[str, Any], cid: str) -> dict[str, Any]:
    item = st["menu"][0]
    r = c.post(
        f"/api/games/{gid}/orders",
        json={"order": item["order"], "client_id": cid, "version": st["version"]},
        headers=hdr,
    )
    assert r.status_code == 200, r.text
    return dict(r.json()["state"])


def test_two_processes_on_one_file_see_each_others_orders(db_path: Path) -> None:
    with TestClient(create_app(db_path)) as a, TestClient(create_app(db_path)) as b:
        r = a.post("/api/games", json={"opponent": "hotseat", "seed": 3})
        assert r.status_code == 201, r.text
        gid, hdr = r.json()["game"]["id"], {"X-Shieldwall-Token": r.json()["token"]}
        st_b = b.get(f"/api/games/{gid}", headers=hdr).json()  # b now holds the game in memory too
        st = a.get(f"/api/games/{gid}", headers=hdr).json()
        for i in range(6):  # alternate: each process must build on the other's last order
            st = _order(a if i % 2 == 0 else b, gid, hdr, st, f"order-{i:04d}")
        st_a = a.get(f"/api/games/{gid}", headers=hdr).json()
        st_b = b.get(f"/api/games/{gid}", headers=hdr).json()
        assert st_a["version"] == st_b["version"] == st["version"] >= 6
        assert st_a["view"] == st_b["view"] == st["view"] and st_a["svg"] == st_b["svg"]
        assert (
            a.get(f"/api/games/{gid}/save", headers=hdr).json()
            == b.get(f"/api/games/{gid}/save", headers=hdr).json()
        )


def test_a_repeated_order_is_answered_by_the_other_process_too(db_path: Path) -> None:
    with TestClient(create_app(db_path)) as a, TestClient(create_app(db_path)) as b:
        r = a.post("/api/games", json={"opponent": "hotseat", "seed": 3})
        gid, hdr = r.json()["game"]["id"], {"X-Shieldwall-Token": r.json()["token"]}
        st = a.get(f"/api/games/{gid}", headers=hdr).json()
        b.get(f"/api/games/{gid}", headers=hdr)
        body = {"order": st["menu"][0]["order"], "client_id": "twice-0001", "version": st["version"]}
        first = a.post(f"/api/games/{gid}/orders", json=body, headers=hdr)
        again = b.post(f"/api/games/{gid}/orders", json=body, headers=hdr)
        assert first.status_code == again.status_code == 200
        assert again.json()["repeat"] is True
        assert again.json()["state"]["version"] == first.json()["state"]["version"]


def test_an_undo_in_one_process_is_seen_by_the_other(db_path: Path) -> None:
    with TestClient(create_app(db_path)) as a, TestClient(create_app(db_path)) as b:
        r = a.post("/api/games", json={"opponent": "hotseat", "seed": 3})
        gid, hdr = r.json()["game"]["id"], {"X-Shieldwall-Token": r.json()["token"]}
        st = a.get(f"/api/games/{gid}", headers=hdr).json()
        st = _order(a, gid, hdr, st, "order-0001")
        b.get(f"/api/games/{gid}", headers=hdr)  # b holds the game after the order
        u = a.post(f"/api/games/{gid}/undo", headers=hdr)
        assert u.status_code == 200, u.text
        seen = b.get(f"/api/games/{gid}", headers=hdr).json()
        assert seen["version"] == st["version"] - 1
        # an order b makes now builds on the undone game, not on b's old memory of it
        after = _order(b, gid, hdr, seen, "order-0002")
        assert a.get(f"/api/games/{gid}", headers=hdr).json()["version"] == after["version"]


def test_the_store_writes_only_on_the_revision_it_was_given(tmp_path: Path) -> None:
    from shieldwall.web.store import GameRecord

    store = Store(tmp_path / "g.db")
    rec = GameRecord("g1", 0.0, "one-hour-dark-ages", "x", {}, {}, 1, True, "hotseat", {"red": "human"})
    store.create_game(rec, [("token-aaaaaaaa", ["red"])])
    assert store.revision("g1") == 0
    assert store.append_orders("g1", [OrderRow(0, "red", "human", {"kind": "end"})], 0) == 1
    with pytest.raises(StoreConflict):  # a process that still thinks the game is at revision 0
        store.append_orders("g1", [OrderRow(1, "red", "human", {"kind": "end"})], 0)
    with pytest.raises(StoreConflict):
        store.truncate_orders("g1", 0, 0)
    assert store.orders_at("g1") == (1, [OrderRow(0, "red", "human", {"kind": "end"})])
    assert store.truncate_orders("g1", 0, 1) == 2
    assert store.orders_at("g1") == (2, [])
    assert store.revision("nope") is None
    store.close()


def test_no_new_game_once_the_database_is_full_but_games_go_on(db_path: Path) -> None:
    with TestClient(create_app(db_path)) as roomy:
        r = roomy.post("/api/games", json={"opponent": "hotseat", "seed": 3})
        gid, hdr = r.json()["game"]["id"], {"X-Shieldwall-Token": r.json()["token"]}
    with TestClient(create_app(db_path, max_db_bytes=1)) as full:
        n = full.post("/api/games", json={"opponent": "scripted", "seed": 4})
        assert n.status_code == 507, n.text
        assert "storage for games is full" in n.json()["detail"]
        imp = full.post("/api/games/import", json={"save": {"scenario": {}, "orders": []}})
        assert imp.status_code in (422, 507)
        st = full.get(f"/api/games/{gid}", headers=hdr).json()
        assert _order(full, gid, hdr, st, "order-0001")["version"] == st["version"] + 1
    assert Store(db_path).game_count() == 1


@pytest.mark.slow
def test_serve_with_two_workers_plays_one_game_in_step(tmp_path: Path) -> None:
    port = free_port()
    proc = _serve(tmp_path, port, "--workers", "2", "--no-rate-limit")
    url = f"http://127.0.0.1:{port}"

    def call(path: str, body: dict[str, Any] | None = None, hdr: dict[str, str] | None = None) -> Any:
        req = urllib.request.Request(
            url + path,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Content-Type": "application/json", **(hdr or {})},
            method="GET" if body is None else "POST",
        )
        with urllib.request.urlopen(req, timeout=30) as r:  # a new connection each time: any worker
            return json.loads(r.read())

    try:
        wait_up(proc, url)
        g = call("/api/games", {"opponent": "hotseat", "seed": 9})
        gid, hdr = g["game"]["id"], {"X-Shieldwall-Token": g["token"]}
        st = g["game"]
        for i in range(16):
            body = {"order": st["menu"][0]["order"], "client_id": f"order-{i:04d}", "version": st["version"]}
            st = call(f"/api/games/{gid}/orders", body, hdr)["state"]
        for _ in range(6):  # whichever worker answers, it shows the same game
            assert call(f"/api/games/{gid}", hdr=hdr)["version"] == st["version"] == 16
    except urllib.error.HTTPError as e:
        raise AssertionError(f"{e.code}: {e.read().decode()}") from None
    finally:
        proc.terminate()
        proc.wait(10)
    assert proc.returncode is not None


def test_a_process_catches_up_with_the_others_orders_without_a_replay(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A player's requests may go to either process (a new connection goes to whichever accepts
    it): a process that kept the game applies only the orders the other stored since
    (``Games._caught_up``), and its battle is the one a rebuild from the store gives; after an undo
    in the other process, and under the reference switch, it rebuilds the game."""
    from shieldwall.core.reference import reference_path
    from shieldwall.web.sessions import Games

    replays: list[int] = []
    real = Games._replayed

    def counting(self: Games, rec: Any, rows: list[OrderRow]) -> Any:
        replays.append(len(rows))
        return real(self, rec, rows)

    monkeypatch.setattr(Games, "_replayed", counting)

    def same_battle(c: TestClient, gid: str) -> None:
        games = c.app.state.games  # type: ignore[attr-defined]
        s = games.get(gid)
        rebuilt = games._rebuild(s.rec, games.store.orders(gid))
        assert s.state.events == rebuilt.state.events and s.marks == rebuilt.marks
        assert s.full_view() == rebuilt.state.view() and s.orders == rebuilt.orders

    with TestClient(create_app(db_path)) as a, TestClient(create_app(db_path)) as b:
        r = a.post("/api/games", json={"opponent": "scripted", "seed": 8})
        assert r.status_code == 201, r.text
        gid, hdr, st = r.json()["game"]["id"], {"X-Shieldwall-Token": r.json()["token"]}, r.json()["game"]
        b.get(f"/api/games/{gid}", headers=hdr)
        replays.clear()
        for i in range(16):  # alternate, as a player whose connections land on either process
            if not st["menu"]:
                break
            st = _order(a if i % 2 else b, gid, hdr, st, f"hop-{i:04d}")
        assert replays == [] and st["version"] > 16 and st["menu"]
        for c in (a, b):
            same_battle(c, gid)
        replays.clear()
        with reference_path():  # the plain path: a rebuild from the store
            st = _order(a, gid, hdr, st, "hop-ref-1")
            b.get(f"/api/games/{gid}", headers=hdr)
        assert replays == [st["version"]]

        # an undo in one process (the first order of this battle rolls no die): the other rebuilds
        h = a.post("/api/games", json={"opponent": "hotseat", "seed": 2}).json()
        hid, hh = h["game"]["id"], {"X-Shieldwall-Token": h["token"]}
        first = _order(a, hid, hh, h["game"], "undo-0001")
        assert b.get(f"/api/games/{hid}", headers=hh).json()["version"] == first["version"] == 1
        assert a.post(f"/api/games/{hid}/undo", headers=hh).status_code == 200
        again = a.get(f"/api/games/{hid}", headers=hh).json()
        st = _order(a, hid, hh, {**again, "menu": again["menu"][1:]}, "undo-0002")  # another first order
        assert st["version"] == 1
        replays.clear()
        assert b.get(f"/api/games/{hid}", headers=hh).json() == a.get(f"/api/games/{hid}", headers=hh).json()
        assert replays == [1]  # b rebuilt it: its first order is not the one b kept
        same_battle(b, hid)
