"""Rate limits per client address: 429 with Retry-After past them, nothing of a refused request
reaches the games, the table of clients is bounded (the clock is driven by hand, nothing is timed)."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from shieldwall.web.app import create_app
from shieldwall.web.ratelimit import RateLimit, RateLimits

NEW = {"opponent": "scripted", "seed": 5}


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _app(tmp_path: Path, limits: RateLimits, clock: Clock) -> Any:
    app = create_app(tmp_path / "games.sqlite3", limits)
    # the middleware stack is built on first use: swap the clock in the RateLimit options
    for m in app.user_middleware:
        if m.cls is RateLimit:
            m.kwargs["clock"] = clock
    return app


def test_requests_past_the_burst_are_429_with_retry_after_and_refill_with_time(tmp_path: Path) -> None:
    clock = Clock()
    app = _app(tmp_path, RateLimits(per_second=2, burst=5), clock)
    with TestClient(app) as c:
        codes = [c.get("/api/health").status_code for _ in range(7)]
        assert codes == [200] * 5 + [429] * 2
        r = c.get("/api/health")
        assert r.status_code == 429 and r.headers["retry-after"] == "1"
        assert "too many requests" in r.json()["detail"] and "rate limit" in r.json()["detail"]
        clock.now += 1.0  # two tokens back
        assert [c.get("/api/health").status_code for _ in range(3)] == [200, 200, 429]


def test_new_games_have_their_own_slower_bucket_and_a_refused_one_makes_no_game(tmp_path: Path) -> None:
    clock = Clock()
    app = _app(tmp_path, RateLimits(per_second=100, burst=100, games_per_hour=60, games_burst=2), clock)
    with TestClient(app) as c:
        made = [c.post("/api/games", json=NEW) for _ in range(3)]
        assert [r.status_code for r in made] == [201, 201, 429]
        assert "too many new games" in made[2].json()["detail"]
        assert made[2].headers["retry-after"] == "60"  # one game a minute
        assert c.get("/api/health").status_code == 200  # other requests still served
        assert app.state.store.game_count() == 2
        clock.now += 60.0
        assert c.post("/api/games", json=NEW).status_code == 201


def test_clients_are_counted_apart_and_the_table_of_clients_is_bounded() -> None:
    clock = Clock()
    seen: list[str] = []

    async def inner(scope: Any, receive: Any, send: Any) -> None:
        seen.append(scope["client"][0])
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    mw = RateLimit(inner, RateLimits(per_second=1, burst=1, max_clients=3), clock)
    import asyncio

    statuses: list[int] = []

    async def call(ip: str) -> None:
        async def receive() -> Any:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message: Any) -> None:
            if message["type"] == "http.response.start":
                statuses.append(message["status"])

        scope = {"type": "http", "method": "GET", "path": "/", "client": (ip, 1), "headers": []}
        await mw(scope, receive, send)

    async def run() -> None:
        for ip in ("a", "b", "a", "c", "d", "e"):
            await call(ip)

    asyncio.run(run())
    assert statuses == [200, 200, 429, 200, 200, 200]
    assert len(mw._clients) == 3 and list(mw._clients) == ["c", "d", "e"]


@pytest.mark.parametrize("field", ["per_second", "burst", "games_per_hour", "games_burst", "max_clients"])
@pytest.mark.parametrize("bad", [0, -1, float("nan"), float("inf")])
def test_limits_must_be_positive_numbers(field: str, bad: float) -> None:
    with pytest.raises(ValueError, match=f"rate limit {field} must be a positive number"):
        RateLimits(**{field: bad})
