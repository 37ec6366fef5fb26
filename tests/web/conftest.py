"""Fixtures for the web app: an app on a fresh SQLite file, a test client, and game starters."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from shieldwall.web.app import create_app

Started = tuple[str, dict[str, str], dict[str, Any]]


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
def app(db_path: Path) -> Any:
    return create_app(db_path)


@pytest.fixture
def client(app: Any) -> Iterator[TestClient]:
    with TestClient(app) as c:
        yield c


def small_scenario(turns: int = 15, **top: Any) -> dict[str, Any]:
    """Two units a side, close enough to charge on turn 1 (red cavalry 8" from blue infantry)."""
    return {
        "ruleset": "one-hour-dark-ages",
        "name": "Skirmish at the ford",
        "turns": turns,
        "table": {"width": 48, "depth": 36},
        "terrain": [],
        "red": {
            "name": "Red",
            "units": [
                {"id": "r1", "type": "cavalry", "x": 20, "y": 10, "heading": 0},
                {"id": "r2", "type": "skirmishers-bows", "x": 32, "y": 10, "heading": 0},
                {"id": "r3", "type": "infantry", "x": 6, "y": 4, "heading": 0},
            ],
        },
        "blue": {
            "name": "Blue",
            "home_edge": "north",
            "units": [
                {"id": "b1", "type": "infantry", "x": 20, "y": 20, "heading": 180},
                {"id": "b2", "type": "warriors", "x": 32, "y": 30, "heading": 180},
                {"id": "b3", "type": "infantry", "x": 44, "y": 33, "heading": 180},
            ],
        },
        **top,
    }


@pytest.fixture
def start(client: TestClient) -> Callable[..., Started]:
    """Start a game: returns (game id, token headers, the whole 201 answer)."""

    def _start(**kw: Any) -> Started:
        body: dict[str, Any] = {"opponent": "scripted", "seed": 5, **kw}
        r = client.post("/api/games", json=body)
        assert r.status_code == 201, r.text
        g = r.json()
        return g["game"]["id"], {"X-Shieldwall-Token": g["token"]}, g

    return _start


@pytest.fixture
def small() -> Callable[..., dict[str, Any]]:
    """The small scenario builder (see ``small_scenario``)."""
    return small_scenario
