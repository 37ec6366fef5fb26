"""The web app: a JSON API over the rules engine, and the page that plays it.

``create_app(db_path)`` builds a FastAPI application whose games live in the SQLite file
``db_path``. Every order goes through ``State.apply``; the page can change nothing else. See
docs/web.md for the API and the security model.

The routes are in four routers sharing one :class:`~shieldwall.web.context.WebContext`
(``app.state.web``): ``routes_reference`` (rule systems, clauses, scenarios, bots),
``routes_games`` (a game and its orders, reach, log, why, undo, save, invitations),
``routes_replay`` and ``routes_pages`` (the page, the clause tables, the rule systems' web pieces).
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from shieldwall.core.errors import IllegalOrder, ShieldwallError
from shieldwall.web import log as L
from shieldwall.web import (
    routes_army,
    routes_games,
    routes_pages,
    routes_ranges,
    routes_reference,
    routes_replay,
)
from shieldwall.web.context import STATIC, TOKEN_HEADER, WebContext
from shieldwall.web.models import ErrorOut
from shieldwall.web.ratelimit import RateLimit, RateLimits
from shieldwall.web.session import ApiError
from shieldwall.web.sessions import Games
from shieldwall.web.store import Store

MAX_BODY = 1_000_000

__all__ = ["MAX_BODY", "STATIC", "TOKEN_HEADER", "BodyLimit", "app_from_environment", "create_app"]


class BodyLimit:
    """Refuse request bodies over ``MAX_BODY`` bytes (413): at once when the declared length is over,
    and otherwise by counting the bytes as they arrive (a chunked body declares no length)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for k, v in scope.get("headers", []):
            if k == b"content-length" and (not v.isdigit() or int(v) > MAX_BODY):
                await _too_large(scope, receive, send)
                return
        received = 0

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > MAX_BODY:  # answered 413 by the app's handler of HTTP errors
                    raise StarletteHTTPException(413, f"request body over {MAX_BODY} bytes")
            return message

        await self.app(scope, counted, send)


#: headers every answer carries: no page of the server framed by another site (clickjacking), no
#: answer's type guessed by the browser, no address of a game (its id is in the path) sent on as a
#: referrer to another site
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", b"frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)


class SecurityHeaders:
    """Add ``SECURITY_HEADERS`` to every HTTP answer (those the app's handlers make too)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                have = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in SECURITY_HEADERS if k not in have]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, with_headers)


async def _too_large(scope: Scope, receive: Receive, send: Send) -> None:
    resp = JSONResponse({"detail": f"request body over {MAX_BODY} bytes"}, status_code=413)
    await resp(scope, receive, send)


def _error(
    status: int, detail: str, rule: str | None = None, reason: str | None = None, version: int | None = None
) -> JSONResponse:
    body = ErrorOut(
        detail=detail, rule=rule, reason=reason, rule_url=L.rule_url(rule) if rule else None, version=version
    )
    return JSONResponse(body.model_dump(exclude_none=True), status_code=status)


def _handlers(app: FastAPI) -> None:
    """Every refusal as a JSON ``ErrorOut``, never a 500."""

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = [
            {
                "loc": [str(x) for x in e.get("loc", ())],
                "msg": str(e.get("msg", "")),
                "type": str(e.get("type", "")),
            }
            for e in exc.errors()
        ]
        words = "; ".join(f"{'.'.join(e['loc'])}: {e['msg']}" for e in errors) or "invalid request"
        body = ErrorOut(detail=f"invalid request: {words}", errors=errors)
        return JSONResponse(body.model_dump(exclude_none=True), status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        resp = _error(exc.status_code, str(exc.detail))
        resp.headers.update(exc.headers or {})
        return resp

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> JSONResponse:
        return _error(exc.status, exc.detail, exc.rule, exc.reason, exc.version)

    @app.exception_handler(IllegalOrder)
    async def _illegal(request: Request, exc: IllegalOrder) -> JSONResponse:
        return _error(422, f"illegal order: {exc.reason}", exc.rule, exc.reason)

    @app.exception_handler(ShieldwallError)
    async def _shieldwall_error(request: Request, exc: ShieldwallError) -> JSONResponse:
        return _error(422, str(exc))


def create_app(
    db_path: str | Path, limits: RateLimits | None = None, max_db_bytes: int | None = None
) -> FastAPI:
    """The shieldwall web app with its games in the SQLite file ``db_path``; with ``limits``, each
    client address is held to them (``shieldwall serve`` passes the defaults); with
    ``max_db_bytes``, no new game starts once the database is that big (507)."""
    store = Store(db_path)
    games = Games(store, max_db_bytes=max_db_bytes)
    app = FastAPI(
        title="shieldwall",
        version="1",
        summary="Play Dark Age wargames in the browser, against a bot or a friend.",
        description=(
            "Every order is validated by the rules engine; an illegal order is answered with the "
            "rule clause that refuses it. Game requests carry the side token in the "
            f"`{TOKEN_HEADER}` header."
        ),
    )
    app.state.games = games
    app.state.store = store
    app.state.web = WebContext(store, games)
    app.add_middleware(BodyLimit)
    if limits is not None:  # (outside the body limit: a refused request is not read at all)
        app.add_middleware(RateLimit, limits=limits)
    app.add_middleware(SecurityHeaders)  # outermost: every answer, refusals included
    _handlers(app)
    for r in (routes_reference, routes_army, routes_games, routes_ranges, routes_replay, routes_pages):
        app.include_router(r.router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


#: the environment variable through which ``shieldwall serve --workers N`` configures each worker
CONFIG_ENV = "SHIELDWALL_SERVE_CONFIG"


def serve_config(db_path: str | Path, limits: RateLimits | None, max_db_bytes: int | None) -> str:
    """The JSON a worker process reads (:func:`app_from_environment`)."""
    return json.dumps(
        {
            "db": str(db_path),
            "limits": None if limits is None else asdict(limits),
            "max_db_bytes": max_db_bytes,
        }
    )


def app_from_environment() -> FastAPI:
    """The app of one worker of ``shieldwall serve --workers N`` (an app factory for uvicorn),
    configured by ``$SHIELDWALL_SERVE_CONFIG``. The workers share the SQLite file: see
    ``web.store`` for how each keeps its games in step with the others'."""
    raw = os.environ.get(CONFIG_ENV)
    if not raw:
        raise RuntimeError(f"{CONFIG_ENV} is not set: start the workers with 'shieldwall serve --workers N'")
    cfg = json.loads(raw)
    limits = None if cfg.get("limits") is None else RateLimits(**cfg["limits"])
    return create_app(cfg["db"], limits, cfg.get("max_db_bytes"))
