"""Per-client rate limits: a token bucket for every request and a slower one for new games.

A client is the address the server sees (``scope["client"]``; behind a reverse proxy on 127.0.0.1
uvicorn puts the ``X-Forwarded-For`` address there). Each client has two buckets:

* **requests**: ``per_second`` tokens a second, at most ``burst`` saved up; every request takes one;
* **new games**: ``games_per_hour`` a hour, at most ``games_burst`` saved up; each ``POST`` that
  makes a game (``/api/games``, ``/api/games/import``) takes one.

An empty bucket is answered ``429`` with a ``Retry-After`` header (whole seconds) and a JSON
``ErrorOut`` body; nothing of the request reaches the app, so no state changes. The table of
clients is bounded (``max_clients``, least recently seen forgotten first), so a flood of
addresses costs bounded memory. The clock is injected (tests drive it by hand).
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

#: The paths whose ``POST`` makes a game (and a row in the database).
NEW_GAME_PATHS = frozenset({"/api/games", "/api/games/import"})


@dataclass(frozen=True, slots=True)
class RateLimits:
    """The limits of one client. The defaults let a person play at any speed, several tabs open, and
    stop one address from filling the database or a core."""

    per_second: float = 20.0
    burst: int = 120
    games_per_hour: float = 60.0
    games_burst: int = 20
    max_clients: int = 10_000

    def __post_init__(self) -> None:
        for name in ("per_second", "burst", "games_per_hour", "games_burst", "max_clients"):
            value = getattr(self, name)
            if not (isinstance(value, int | float) and math.isfinite(value) and value > 0):
                raise ValueError(f"rate limit {name} must be a positive number, not {value!r}")


class _Bucket:
    __slots__ = ("stamp", "tokens")

    def __init__(self, tokens: float, stamp: float) -> None:
        self.tokens = tokens
        self.stamp = stamp

    def take(self, now: float, rate: float, cap: float) -> float:
        """Take one token; 0.0 if it was there, else the seconds until one will be."""
        self.tokens = min(cap, self.tokens + (now - self.stamp) * rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return 0.0
        return (1.0 - self.tokens) / rate


class RateLimit:
    """ASGI middleware applying :class:`RateLimits` per client address."""

    def __init__(self, app: ASGIApp, limits: RateLimits, clock: Callable[[], float] = time.monotonic) -> None:
        self.app = app
        self.limits = limits
        self.clock = clock
        self._clients: OrderedDict[str, tuple[_Bucket, _Bucket]] = OrderedDict()

    def _buckets(self, client: str, now: float) -> tuple[_Bucket, _Bucket]:
        found = self._clients.get(client)
        if found is None:
            lim = self.limits
            found = (_Bucket(float(lim.burst), now), _Bucket(float(lim.games_burst), now))
            self._clients[client] = found
            while len(self._clients) > lim.max_clients:
                self._clients.popitem(last=False)
        else:
            self._clients.move_to_end(client)
        return found

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        key = str(client[0]) if client else "?"
        now = self.clock()
        requests, games = self._buckets(key, now)
        lim = self.limits
        wait = requests.take(now, lim.per_second, lim.burst)
        what = "requests"
        if not wait and scope.get("method") == "POST" and scope.get("path") in NEW_GAME_PATHS:
            wait = games.take(now, lim.games_per_hour / 3600.0, lim.games_burst)
            what = "new games"
        if wait:
            retry = max(1, math.ceil(wait))
            detail = f"too many {what} from {key}: try again in {retry} s (rate limit, see docs/security.md)"
            resp = JSONResponse({"detail": detail}, status_code=429, headers={"Retry-After": str(retry)})
            await resp(scope, receive, send)
            return
        await self.app(scope, receive, send)


__all__ = ["NEW_GAME_PATHS", "RateLimit", "RateLimits"]
