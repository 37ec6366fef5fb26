#!/usr/bin/env python3
"""Where the web server's CPU goes per order: the app in this process, its requests in a row.

    .venv/bin/python benchmarks/profile_web_orders.py [--players 50] [--orders 20] [--top 30]
                                                      [--db FILE] [--no-profile] [--steps] [--hop]

Builds the app (``create_app``) on a fresh SQLite file and plays like ``bench_web_load.py``:
``--players`` games against the scripted bot, then ``--orders`` orders in each, taken in turn
(player 1's first order, player 2's first, ...), each a real ASGI request through FastAPI (body
parsing, validation, the route, the response model, the JSON) with ``httpx.ASGITransport``. The
sync routes run in this thread (FastAPI's thread pool is bypassed), so one ``cProfile`` sees all of
a request. Prints the app's CPU per order (``time.process_time`` inside the ASGI call, not the
client's) and the profile's top entries by cumulative time; with ``--no-profile``, the CPU per
order unprofiled and split into the sections of the order path. With ``--steps`` each player also
asks what the page asks after an order the bot replied to, the step-through of the bot's orders
(``GET .../steps?since=N``), and its CPU counts in the order's. With ``--hop`` a second app on the
same file stands for a second worker (``serve --workers 2``) and each player's orders go to the
two in turn, as a player's new connections go to whichever worker accepts them. What it leaves
out: uvicorn's HTTP parsing and the socket (``bench_web_load.py`` measures the whole server).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import pstats
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import fastapi.dependencies.utils as fdu  # noqa: E402
import fastapi.routing as fr  # noqa: E402
import httpx  # noqa: E402

from shieldwall.web.app import create_app  # noqa: E402

#: CPU per section of the order path (``--no-profile``), inclusive: an indented one is part of the
#: one above it
SPENT: dict[str, float] = {}


def _time_sections() -> None:
    from shieldwall.web import context, routes_replay, sessions

    def timed(owner: Any, attr: str, name: str) -> None:
        inner = getattr(owner, attr, None)
        if inner is None:  # an older tree (an A/B against a baseline)
            return
        SPENT[name] = 0.0

        def wrapper(*a: Any, **k: Any) -> Any:
            t0 = time.process_time()
            try:
                return inner(*a, **k)
            finally:
                SPENT[name] += time.process_time() - t0

        setattr(owner, attr, wrapper)

    timed(context.WebContext, "session_for", "find the game, check the token")
    timed(sessions.Games, "play", "play: parse, check, apply, bots, commit")
    timed(sessions.Games, "_bots_move", "  the bot's replies")
    timed(sessions.Games, "_persist", "  the SQLite commit")
    timed(context.WebContext, "state_out", "the state answer")
    timed(sessions.Session, "view_for", "  the side's view (+ in the log entries)")
    timed(context.WebContext, "active_reach", "  the active unit's reach")
    timed(context, "draw", "  the SVG")
    timed(context.WebContext, "entries", "the log entries of the order")
    timed(routes_replay, "steps_since", "the step-through's replay (--steps)")


async def _inline(func: Any, *args: Any, **kwargs: Any) -> Any:
    return func(*args, **kwargs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=50)
    ap.add_argument("--orders", type=int, default=20)
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--db", help="the SQLite file (default: a fresh one in a temporary folder)")
    ap.add_argument("--stats", help="also write the profile to this file (for pstats)")
    ap.add_argument("--no-profile", action="store_true", help="only the CPU per order and its breakdown")
    ap.add_argument(
        "--steps", action="store_true", help="after an order the bot replied to, GET its steps (as the page)"
    )
    ap.add_argument(
        "--hop",
        action="store_true",
        help="two apps on the file (two workers), each order to the other one than the last",
    )
    args = ap.parse_args()
    if args.no_profile:
        _time_sections()
    fr.run_in_threadpool = _inline  # type: ignore[assignment]
    fdu.run_in_threadpool = _inline  # type: ignore[assignment]
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(args.db) if args.db else Path(tmp) / "profile.sqlite3"
        asyncio.run(_run(db, args))


class _Timed:
    """The app, with the CPU spent inside it (not in the client) added up."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.cpu = 0.0

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        t0 = time.process_time()
        try:
            await self.app(scope, receive, send)
        finally:
            self.cpu += time.process_time() - t0


async def _run(db: Path, args: argparse.Namespace) -> None:
    app = _Timed(create_app(db))
    # --hop: a second app on the same file, as a second worker process (serve --workers 2)
    other = _Timed(create_app(db)) if args.hop else app
    async with (
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c,
        httpx.AsyncClient(transport=httpx.ASGITransport(app=other), base_url="http://t") as c2,
    ):
        games = []
        for i in range(args.players):
            r = await c.post("/api/games", json={"opponent": "scripted", "seed": 1000 + i})
            g = r.json()
            games.append([g["game"]["id"], {"X-Shieldwall-Token": g["token"]}, g["game"], random.Random(i)])
        prof = cProfile.Profile()
        n = asked = 0
        app.cpu = other.cpu = 0.0
        if not args.no_profile:
            prof.enable()
        for k in range(args.orders):
            for i, g in enumerate(games):
                gid, hdr, st, rng = g
                if not st["menu"]:
                    continue
                item = rng.choice(st["menu"])
                body = {"order": item["order"], "client_id": f"prof-{i}-{k}", "version": st["version"]}
                to = c2 if k % 2 else c  # with --hop, each order to the other worker than the last
                r = await to.post(f"/api/games/{gid}/orders", json=body, headers=hdr)
                if r.status_code != 200:
                    raise SystemExit(f"order refused: {r.status_code} {r.text[:300]}")
                played = r.json()
                g[2] = played["state"]
                n += 1
                if args.steps and played["bot_orders"]:
                    r = await to.get(f"/api/games/{gid}/steps?since={st['version'] + 1}", headers=hdr)
                    if r.status_code != 200:
                        raise SystemExit(f"steps refused: {r.status_code} {r.text[:300]}")
                    asked += 1
        prof.disable()
        cpu = app.cpu + (other.cpu if args.hop else 0.0)
    steps = f", {asked} GET steps with them" if args.steps else ""
    print(f"{n} orders{steps}: {cpu / n * 1000:.2f} ms CPU per order (profiled: {not args.no_profile})")
    if args.no_profile:
        for name, t in SPENT.items():
            print(f"  {name:<48} {t / n * 1000:6.2f} ms ({t / cpu:4.0%})")
        return
    out = io.StringIO()
    st = pstats.Stats(prof, stream=out)
    st.sort_stats("cumulative").print_stats(args.top)
    if args.stats:
        st.dump_stats(args.stats)
    print(out.getvalue())


if __name__ == "__main__":
    main()
