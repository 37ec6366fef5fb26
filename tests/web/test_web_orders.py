"""Idempotent, ordered orders: a retry (same client id) is answered once, an order made for an
older state of the game is refused with the current version, two orders sent at the same moment
for the same state play once."""

from __future__ import annotations

import threading
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from shieldwall.web.app import create_app
from shieldwall.web.store import Store


def _order(client: Any, gid: str, hdr: dict[str, str], order: str, **kw: Any) -> Any:
    return client.post(f"/api/games/{gid}/orders", json={"order": order, **kw}, headers=hdr)


def test_a_retried_order_is_answered_as_the_first_time(client: Any, start: Callable[..., Any]) -> None:
    gid, hdr, _ = start()
    _order(client, gid, hdr, "activate r1")
    _order(client, gid, hdr, "hold r1")
    first = _order(client, gid, hdr, "end", client_id="retry-0001", version=2).json()
    assert not first["repeat"] and first["bot_orders"]
    version = first["state"]["version"]
    again = _order(client, gid, hdr, "end", client_id="retry-0001", version=2)
    assert again.status_code == 200, again.text
    a = again.json()
    assert a["repeat"] and a["accepted"] == first["accepted"]
    assert a["bot_orders"] == first["bot_orders"] and a["events"] == first["events"]
    assert a["state"]["version"] == version  # nothing changed
    # even an order text that differs is not played: the client id is the order's identity
    b = _order(client, gid, hdr, "activate r3", client_id="retry-0001").json()
    assert b["repeat"] and b["state"]["version"] == version


def test_an_order_made_for_an_older_version_is_refused(client: Any, start: Callable[..., Any]) -> None:
    gid, hdr, g = start()
    v = g["game"]["version"]
    assert _order(client, gid, hdr, "activate r1", version=v).status_code == 200
    r = _order(client, gid, hdr, "activate r1", version=v)
    assert r.status_code == 409 and r.json()["version"] == v + 1 and "version" in r.json()["detail"]
    assert client.get(f"/api/games/{gid}", headers=hdr).json()["version"] == v + 1
    ok = _order(client, gid, hdr, "hold r1", version=v + 1)
    assert ok.status_code == 200 and ok.json()["state"]["version"] == v + 2


def test_malformed_client_ids_and_versions_are_refused(client: Any, start: Callable[..., Any]) -> None:
    gid, hdr, _ = start()
    for bad in (
        {"client_id": "short"},
        {"client_id": "x" * 65},
        {"client_id": "a b c d e f g"},
        {"version": -1},
    ):
        r = _order(client, gid, hdr, "activate r1", **bad)
        assert r.status_code == 422, (bad, r.text)
    assert client.get(f"/api/games/{gid}", headers=hdr).json()["version"] == 0


def _race(
    client: Any, gid: str, hdr: dict[str, str], cid: str, v: int, gate: threading.Barrier, out: list[Any]
) -> None:
    gate.wait()
    out.append(_order(client, gid, hdr, "end", client_id=cid, version=v))


def test_two_identical_end_orders_at_the_same_moment_play_once(db_path: Path) -> None:
    """The race of the issue: two 'end' orders sent together for the same state. Without versions
    both were accepted (the second ended the next phase too)."""
    with TestClient(create_app(db_path)) as client:
        g = client.post("/api/games", json={"opponent": "hotseat", "seed": 5}).json()
        gid, hdr = g["game"]["id"], {"X-Shieldwall-Token": g["token"]}
        for o in ("activate r1", "hold r1"):
            assert _order(client, gid, hdr, o).status_code == 200
        v = client.get(f"/api/games/{gid}", headers=hdr).json()["version"]
        for same_id in (False, True):
            answers: list[Any] = []
            gate = threading.Barrier(2)
            ids = ["twin-order-0"] * 2 if same_id else ["twin-order-1", "twin-order-2"]
            threads = [
                threading.Thread(target=_race, args=(client, gid, hdr, f"{cid}-{v}", v, gate, answers))
                for cid in ids
            ]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            codes = sorted(a.status_code for a in answers)
            if same_id:
                assert codes == [200, 200]
                assert sorted(a.json()["repeat"] for a in answers) == [False, True]
            else:
                assert codes == [200, 409], [a.text for a in answers]
            now = client.get(f"/api/games/{gid}", headers=hdr).json()["version"]
            assert now == v + 1  # one 'end', not two
            assert len(Store(db_path).orders(gid)) == now
            v = now


def test_a_retry_after_a_restart_is_still_recognised(db_path: Path) -> None:
    with TestClient(create_app(db_path)) as a:
        g = a.post("/api/games", json={"opponent": "scripted", "seed": 5}).json()
        gid, hdr = g["game"]["id"], {"X-Shieldwall-Token": g["token"]}
        first = _order(a, gid, hdr, "activate r1", client_id="before-restart").json()
    with TestClient(create_app(db_path)) as b:
        again = _order(b, gid, hdr, "activate r1", client_id="before-restart").json()
        assert (
            again["repeat"] and again["accepted"] == first["accepted"] and again["events"] == first["events"]
        )
        assert again["state"]["version"] == first["state"]["version"]


def test_a_client_id_of_the_other_side_is_not_answered(client: Any, start: Callable[..., Any]) -> None:
    gid, red, g = start(opponent="remote")
    j = client.post(f"/api/games/{gid}/join", json={"invite": g["invite_url"].split("#invite=")[1]}).json()
    blue = {"X-Shieldwall-Token": j["token"]}
    assert _order(client, gid, red, "activate r1", client_id="red-order-1").status_code == 200
    r = _order(client, gid, blue, "end", client_id="red-order-1")
    assert r.status_code == 409 and "another side" in r.json()["detail"]
