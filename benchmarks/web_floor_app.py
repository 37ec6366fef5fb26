#!/usr/bin/env python3
"""The floor under ``bench_web_load.py --floor``: the same HTTP stack with no game behind it.

    .venv/bin/python benchmarks/web_floor_app.py --port PORT --bytes N

A FastAPI app served by uvicorn as ``shieldwall serve`` serves (one process, ``log_level``
"warning"), with the API's shape that the load client uses and nothing else: ``GET /api/health``,
``POST /api/games`` (a game whose menu holds one order) and ``POST /api/games/{id}/orders`` (a sync
route, run in FastAPI's thread pool as the real one is, with a pydantic body of the same fields),
answering a state of about ``--bytes`` bytes of JSON (``bench_web_load.py`` passes the mean size
of the real server's answers in the same run). No rules, no bot, no database, no SVG drawn: what
is left of a round trip is the cost of the client, the socket, uvicorn, FastAPI and the JSON. So
the real server's round trips, as a ratio to this floor measured in the same run on the same
cores, say how much of them the shieldwall order is.
"""

from __future__ import annotations

import argparse
from typing import Any

import uvicorn
from fastapi import FastAPI
from pydantic import BaseModel, ConfigDict


class Order(BaseModel):
    model_config = ConfigDict(extra="forbid")
    order: str
    client_id: str
    version: int


def make_app(size: int) -> FastAPI:
    app = FastAPI()
    games: dict[str, int] = {}
    pad = "x" * max(0, size - 200)

    def state(version: int) -> dict[str, Any]:
        return {"version": version, "menu": [{"order": "end"}], "svg": pad}

    @app.get("/api/health")
    def health() -> dict[str, str]:
        return {"status": "ok"}

    @app.post("/api/games", status_code=201)
    def new_game() -> dict[str, Any]:
        gid = f"g{len(games)}"
        games[gid] = 0
        return {"game": {"id": gid, **state(0)}, "token": "t"}

    @app.post("/api/games/{gid}/orders")
    def order(gid: str, body: Order) -> dict[str, Any]:
        games[gid] = body.version + 1
        return {"state": state(games[gid]), "bot_orders": []}

    return app


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--bytes", type=int, default=20_000, help="the size of an answer, about")
    args = ap.parse_args()
    uvicorn.run(make_app(args.bytes), host="127.0.0.1", port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
