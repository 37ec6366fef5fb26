"""Bounded everything: the body cap holds for chunked bodies, JSON is bounded in depth, size and
numbers, scenarios in units, figures, table and positions (a 422 naming the field, answered fast),
order bodies refuse unknown fields, and a save's orders are checked as the live route checks them."""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from shieldwall.core.datafiles import read_toml
from shieldwall.io.scenarios import builtin_scenarios
from shieldwall.web.app import MAX_BODY

Started = tuple[str, dict[str, str], dict[str, Any]]

JSON = {"content-type": "application/json"}


def test_a_chunked_body_over_the_cap_is_refused(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:  # no content-length: sent chunked
        yield b'{"scenario_data": {"ruleset": "one-hour-dark-ages", "name": "'
        for _ in range(2 * MAX_BODY // 10_000):
            yield b"x" * 10_000
        yield b'"}}'

    r = client.post("/api/games", content=chunks(), headers=JSON)
    assert r.status_code == 413, r.text[:200]


def test_a_lying_content_length_is_refused(client: TestClient) -> None:
    r = client.post("/api/games", content=b"{}", headers={**JSON, "content-length": "x"})
    assert r.status_code in (400, 413)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ('{"seed": 1, "overrides": {"dice": NaN}}', "overrides"),
        ('{"seed": 1, "overrides": {"dice": Infinity}}', "overrides"),
        ('{"scenario_data": {"ruleset": "one-hour-dark-ages", "x": -Infinity}}', "scenario_data"),
        ('{"scenario_data": ' + "[" * 5 + "]" * 5 + "}", "scenario_data"),
        ('{"scenario_data": {"a": ' + '{"a": ' * 30 + "1" + "}" * 31 + "}", "scenario_data"),
    ],
)
def test_json_out_of_bounds_is_a_422_naming_the_field(client: TestClient, body: str, field: str) -> None:
    r = client.post("/api/games", content=body, headers=JSON)
    assert r.status_code == 422, r.text
    assert field in r.json()["detail"]


def test_very_deep_json_is_refused_not_a_server_error(client: TestClient) -> None:
    r = client.post("/api/games", content="[" * 200_000 + "]" * 200_000, headers=JSON)
    assert 400 <= r.status_code < 500


def _units(n: int, side: str, y: float) -> list[dict[str, Any]]:
    return [
        {"id": f"{side[0]}{i}", "type": "warriors", "x": 4 + (i * 6) % 40, "y": y, "heading": 0}
        for i in range(n)
    ]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d["red"].__setitem__("units", _units(3000, "red", 5)), "red.units"),
        (lambda d: d["table"].__setitem__("width", 1e30), "table.width"),
        (lambda d: d["red"]["units"][0].__setitem__("x", 1e30), "red.units[0].x"),
        (lambda d: d["red"]["units"][0].__setitem__("heading", 1e30), "red.units[0].heading"),
        (lambda d: d["terrain"].append({"id": "h", "kind": "hill", "points": [[0, 0]] * 500}), "points"),
    ],
)
def test_a_scenario_over_the_caps_is_a_fast_422_naming_the_field(
    client: TestClient, small: Callable[..., dict[str, Any]], change: Any, field: str
) -> None:
    data = small()
    change(data)
    t = time.perf_counter()
    r = client.post("/api/games", json={"scenario_data": data, "seed": 1})
    assert r.status_code == 422, r.text[:300]
    assert field in r.json()["detail"], r.json()["detail"]
    assert time.perf_counter() - t < 2.0


def _itd() -> dict[str, Any]:
    return read_toml(builtin_scenarios()["into-the-dark/senlac"])


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d["red"]["deploy"][0].__setitem__("x", 1e30), "red.deploy[0].x"),
        (lambda d: d["red"]["deploy"][0].__setitem__("x", 500), "red.deploy[0].x"),
        (
            lambda d: (
                d["red"]["army"].pop("points_limit"),
                d["red"]["army"]["units"][0].update(figures=101),
            ),
            "figures",
        ),
        (lambda d: d["table"].__setitem__("depth", 1e9), "table.depth"),
    ],
)
def test_an_itd_scenario_over_the_caps_is_a_422_naming_the_field(
    change: Any, field: str, client: TestClient
) -> None:
    data = _itd()
    change(data)
    r = client.post("/api/games", json={"ruleset": "into-the-dark", "scenario_data": data, "seed": 1})
    assert r.status_code == 422, r.text[:300]
    assert field in r.json()["detail"], r.json()["detail"]


def test_an_order_body_with_unknown_fields_is_a_422(
    client: TestClient, start: Callable[..., Started]
) -> None:
    gid, tok, _ = start(opponent="hotseat")
    r = client.post(f"/api/games/{gid}/orders", json={"order": "end", "junk": 1}, headers=tok)
    assert r.status_code == 422 and "junk" in r.json()["detail"]
    assert client.get(f"/api/games/{gid}", headers=tok).json()["version"] == 0


def _save(client: TestClient, start: Callable[..., Started]) -> dict[str, Any]:
    gid, tok, _ = start(opponent="hotseat")
    return dict(client.get(f"/api/games/{gid}/save", headers=tok).json())


def test_a_save_whose_orders_are_text_imports(client: TestClient, start: Callable[..., Started]) -> None:
    sv = _save(client, start)
    menu = client.post("/api/games/import", json={"save": {**sv, "orders": []}, "opponent": "hotseat"})
    first = menu.json()["game"]["menu"][0]["text"]
    r = client.post("/api/games/import", json={"save": {**sv, "orders": [first]}, "opponent": "hotseat"})
    assert r.status_code == 201, r.text
    assert r.json()["game"]["version"] == 1
    gid, tok = r.json()["game"]["id"], {"X-Shieldwall-Token": r.json()["token"]}
    saved = client.get(f"/api/games/{gid}/save", headers=tok).json()["orders"]
    assert isinstance(saved[0], dict)  # kept in dict form, as the live route keeps it


@pytest.mark.parametrize(
    "order",
    [
        '{"kind": "move", "unit": "r1", "steps": [{"toward": [Infinity, Infinity]}]}',
        '{"kind": "move", "unit": "r1", "steps": [{"go": [NaN, 1]}]}',
        '{"kind": "move", "unit": "r1", "steps": [{"go": [1e300, 1]}]}',
        '"move r1 go 1e30,9"',
        '"end"',
        '"charge"',
        '{"kind": 5}',
        "[1, 2]",
    ],
)
def test_garbage_orders_in_a_save_are_refused_cleanly(
    client: TestClient, start: Callable[..., Started], order: str
) -> None:
    sv = _save(client, start)
    body = json.dumps({"save": {**sv, "orders": ["ORDER"]}, "opponent": "hotseat"}).replace('"ORDER"', order)
    r = client.post("/api/games/import", content=body, headers=JSON)
    assert r.status_code in (201, 422), r.text
    if r.status_code == 422:
        assert r.json()["detail"]


def test_a_save_with_too_many_orders_is_refused(client: TestClient, start: Callable[..., Started]) -> None:
    sv = copy.deepcopy(_save(client, start))
    sv["orders"] = ["end"] * 20_001
    r = client.post("/api/games/import", json={"save": sv})
    assert r.status_code == 422 and "save.orders" in r.json()["detail"]


def test_a_seed_may_have_128_bits_but_no_other_number_is_that_big() -> None:
    import pytest as _pytest

    from shieldwall.web.bounds import MAX_SEED, check_json

    check_json({"seed": MAX_SEED - 1, "events": [{"data": {"seed": MAX_SEED - 1}}]}, "save")
    with _pytest.raises(ValueError, match="save.seed"):
        check_json({"seed": MAX_SEED}, "save")
    with _pytest.raises(ValueError, match="save.seed"):
        check_json({"seed": -1.5e13}, "save")
    with _pytest.raises(ValueError, match=r"save.orders\[0\].x"):
        check_json({"orders": [{"x": 2**100}]}, "save")
