"""An order that fails half-way leaves the game as it was: the engine breaks while applying it (after
changing the state), or the store cannot keep it. The server keeps no copy of the state for these
rare failures: it rebuilds the battle from the orders it kept, and the next order plays."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

from shieldwall.web.store import Store


def _order(client: Any, gid: str, hdr: dict[str, str], order: str) -> Any:
    return client.post(f"/api/games/{gid}/orders", json={"order": order}, headers=hdr)


def _seen(client: Any, gid: str, hdr: dict[str, str]) -> dict[str, Any]:
    g = client.get(f"/api/games/{gid}", headers=hdr).json()
    return {k: g[k] for k in ("version", "view", "decision", "log_size", "menu", "svg")}


def test_an_engine_error_half_way_through_an_order_changes_nothing(
    client: Any, app: Any, start: Callable[..., Any]
) -> None:
    gid, hdr, _ = start()
    assert _order(client, gid, hdr, "activate r1").status_code == 200
    before = _seen(client, gid, hdr)
    s = app.state.games.get(gid)
    real = s.state.apply

    def breaks_after_changing(order: Any) -> Any:
        real(order)  # the state has moved on...
        raise RuntimeError("engine bug")  # ...and then the engine fails

    s.state.apply = breaks_after_changing
    r = _order(client, gid, hdr, "hold r1")
    assert r.status_code == 422 and "could not apply" in r.json()["detail"], r.text
    assert _seen(client, gid, hdr) == before
    ok = _order(client, gid, hdr, "hold r1")
    assert ok.status_code == 200 and ok.json()["state"]["version"] > before["version"]


def test_an_order_the_store_cannot_keep_changes_nothing(
    client: Any, app: Any, db_path: Any, start: Callable[..., Any], monkeypatch: Any
) -> None:
    gid, hdr, _ = start()
    assert _order(client, gid, hdr, "activate r1").status_code == 200
    before = _seen(client, gid, hdr)

    def full(*a: Any, **k: Any) -> Any:
        raise sqlite3.OperationalError("database or disk is full")

    with monkeypatch.context() as m:
        m.setattr(app.state.store, "append_orders", full)
        r = _order(client, gid, hdr, "hold r1")
        assert r.status_code == 503, r.text
        assert _seen(client, gid, hdr) == before
    stored = Store(db_path)
    assert len(stored.orders(gid)) == before["version"]
    stored.close()
    ok = _order(client, gid, hdr, "hold r1")
    assert ok.status_code == 200 and ok.json()["state"]["version"] > before["version"]
