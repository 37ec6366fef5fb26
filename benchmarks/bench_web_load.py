#!/usr/bin/env python3
"""The web server under load: many players giving orders at once to a real ``shieldwall serve``.

    .venv/bin/python benchmarks/bench_web_load.py [--players 50] [--orders 20] [--opponent scripted]
                                                  [--think 0] [--workers 1] [--page] [--reconnect]
                                                  [--floor]

Starts ``shieldwall serve`` in its own process on a free port with a fresh SQLite file, then runs
``--players`` players concurrently (one ``httpx.AsyncClient`` each, over real HTTP): each starts a
game against ``--opponent`` (a bot name or ``hotseat``) and gives ``--orders`` orders, each picked
from the game's menu and sent with a fresh ``client_id`` and the ``version`` it was made for. One
round trip is one POST answered with the new state (validation, resolution, the bot's replies, the
SQLite commit, the state with its SVG and menu). Prints the median, p90, p99 and max round trip,
the errors (any answer but 200), and the lost orders: orders answered 200 whose client id the
database does not hold afterwards. Targets: p50 < 50 ms, p99 < 250 ms, no error, no lost order.

With ``--think 0`` (the default) every player sends its next order as soon as the last is answered:
the server is saturated and the round trip is mostly waiting in line (players / throughput). With
``--think S`` each player pauses a random 0..2S seconds before each order, as people do.
``--workers N`` starts ``shieldwall serve --workers N`` (N processes on the one SQLite file); the
server CPU printed is then the sum over its processes.

``--page`` also asks what the page asks after an order the bot replied to: the step-through of the
bot's orders (``GET .../steps?since=N``, not in the round trip; its server CPU is). ``--reconnect``
sends every request on a new connection (``Connection: close``), as a browser does after a pause
longer than the server's keep-alive (5 s): with ``--workers N`` a player's orders then go to
whichever worker accepts the connection.

``--floor`` then runs the same players, orders and pauses against ``web_floor_app.py``: the same
HTTP stack (uvicorn, FastAPI, a pydantic body, a sync route, answers of the real run's mean size)
with no game behind it, and prints its round trips and the real server's as a ratio to them. It is
the baseline measured in the same run on the same cores: on a machine where the load client shares
the server's cores, the floor's saturated round trip is what any order would cost.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import httpx  # noqa: E402

from shieldwall.web.store import Store  # noqa: E402


def serve(db: Path, workers: int = 1) -> tuple[subprocess.Popen[bytes], str]:
    return start(
        ["-m", "shieldwall.cli", "serve", "--db", str(db), "--no-rate-limit", "--workers", str(workers)]
    )


def serve_floor(size: int) -> tuple[subprocess.Popen[bytes], str]:
    """The same HTTP stack with no game behind it (``web_floor_app.py``), answers of ``size`` bytes."""
    return start([str(Path(__file__).resolve().parent / "web_floor_app.py"), "--bytes", str(size)])


def start(command: list[str]) -> tuple[subprocess.Popen[bytes], str]:
    """``python COMMAND --port P`` on a free port, once it answers ``/api/health``."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, *command, "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/api/health", timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit(f"{' '.join(command)} did not start")


def _stat(pid: int) -> list[str] | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process and its children now running (Linux ``/proc``), None
    elsewhere."""
    import os

    fields = _stat(pid)
    if fields is None:
        return None
    total = int(fields[11]) + int(fields[12])
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (child := _stat(int(entry.name))) is not None and child[1] == str(pid):
            total += int(child[11]) + int(child[12])
    return total / os.sysconf("SC_CLK_TCK")


class Tally:
    def __init__(self) -> None:
        self.times: list[float] = []
        self.errors: list[str] = []
        self.acked: list[tuple[str, str]] = []  # (game, client id) answered 200
        self.steps = 0  # GET steps asked (--page)
        self.bytes = 0  # the orders' answers, summed


async def new_game(c: httpx.AsyncClient, i: int, opponent: str) -> tuple[str, dict[str, str], dict[str, Any]]:
    r = await c.post("/api/games", json={"opponent": opponent, "seed": 1000 + i})
    if r.status_code != 201:
        raise SystemExit(f"could not start a game: {r.status_code} {r.text[:200]}")
    g = r.json()
    return g["game"]["id"], {"X-Shieldwall-Token": g["token"]}, g["game"]


async def player(
    c: httpx.AsyncClient,
    i: int,
    game: tuple[str, dict[str, str], dict[str, Any]],
    n_orders: int,
    think: float,
    tally: Tally,
    page: bool = False,
    reconnect: bool = False,
) -> None:
    """Give ``n_orders`` orders from the menu, each timed; stop at the first refusal."""
    rng = random.Random(i)
    gid, hdr, st = game
    if reconnect:
        hdr = {**hdr, "Connection": "close"}
    for n in range(n_orders):
        if not st["menu"]:
            break
        if think:
            await asyncio.sleep(rng.uniform(0, 2 * think))
        item = rng.choice(st["menu"])
        cid = f"load-{i}-{n}"
        body = {"order": item["order"], "client_id": cid, "version": st["version"]}
        t0 = time.perf_counter()
        try:
            r = await c.post(f"/api/games/{gid}/orders", json=body, headers=hdr)
        except httpx.HTTPError as exc:
            tally.errors.append(f"{type(exc).__name__}: {exc}")
            return
        tally.times.append(time.perf_counter() - t0)
        if r.status_code != 200:
            tally.errors.append(f"{r.status_code} {r.text[:200]}")
            return
        tally.acked.append((gid, cid))
        tally.bytes += len(r.content)
        played = r.json()
        if page and played["bot_orders"]:
            try:
                s = await c.get(f"/api/games/{gid}/steps?since={st['version'] + 1}", headers=hdr)
            except httpx.HTTPError as exc:
                tally.errors.append(f"steps: {type(exc).__name__}: {exc}")
                return
            if s.status_code != 200:
                tally.errors.append(f"steps: {s.status_code} {s.text[:200]}")
                return
            tally.steps += 1
        st = played["state"]


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))]


async def run(url: str, args: argparse.Namespace, tally: Tally) -> float:
    """Start every player's game, then let all of them give their orders at once."""
    limits = httpx.Limits(max_connections=args.players + 10)
    clients = [httpx.AsyncClient(base_url=url, timeout=60, limits=limits) for _ in range(args.players)]
    try:
        games = [await new_game(c, i, args.opponent) for i, c in enumerate(clients)]
        t0 = time.perf_counter()
        await asyncio.gather(
            *(
                player(c, i, g, args.orders, args.think, tally, args.page, args.reconnect)
                for i, (c, g) in enumerate(zip(clients, games, strict=True))
            )
        )
        return time.perf_counter() - t0
    finally:
        for c in clients:
            await c.aclose()


def report(label: str, tally: Tally, wall: float) -> list[float]:
    """Print the round trips' quantiles; return them (ms) as median, p90, p99."""
    ms = [t * 1000 for t in tally.times]
    if not ms:
        print(f"{label}: no round trip")
        return []
    figures = [statistics.median(ms), pct(ms, 90), pct(ms, 99)]
    print(
        f"{label}: median {figures[0]:.0f} ms, p90 {figures[1]:.0f} ms, "
        f"p99 {figures[2]:.0f} ms, max {max(ms):.0f} ms; {len(ms) / wall:.0f} orders/s"
    )
    return figures


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=50)
    ap.add_argument("--orders", type=int, default=20, help="orders per player")
    ap.add_argument("--opponent", default="scripted", help="a bot name, or hotseat")
    ap.add_argument("--think", type=float, default=0.0, help="mean pause before each order, seconds")
    ap.add_argument("--workers", type=int, default=1, help="server processes (shieldwall serve --workers)")
    ap.add_argument("--page", action="store_true", help="after a bot's reply, GET its steps (as the page)")
    ap.add_argument("--reconnect", action="store_true", help="every request on a new connection")
    ap.add_argument(
        "--floor",
        action="store_true",
        help="then the same load on the same HTTP stack with no game behind it (web_floor_app.py)",
    )
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "load.sqlite3"
        proc, url = serve(db, args.workers)
        tally = Tally()
        try:
            cpu0 = cpu_seconds(proc.pid)
            wall = asyncio.run(run(url, args, tally))
            cpu1 = cpu_seconds(proc.pid)
        finally:
            proc.terminate()
            proc.wait(timeout=30)
        store = Store(db)
        held: dict[str, set[str | None]] = {}
        for gid, _ in tally.acked:
            if gid not in held:
                held[gid] = {r.client_id for r in store.orders(gid)}
        lost = [cid for gid, cid in tally.acked if cid not in held[gid]]
        store.close()
    n = len(tally.times)
    print(
        f"{args.players} players x {args.orders} orders against {args.opponent}, think {args.think:g} s, "
        f"{args.workers} worker(s){', page' if args.page else ''}{', reconnect' if args.reconnect else ''}: "
        f"{n} round trips in {wall:.1f} s" + (f", {tally.steps} GET steps" if args.page else "")
    )
    real = report("order round trip", tally, wall)
    if cpu0 is not None and cpu1 is not None and n:
        # steadier than the times when other work shares the cores: the server's own CPU per order
        print(f"server CPU: {(cpu1 - cpu0) / n * 1000:.1f} ms per order (the games' start included)")
    print(f"errors: {len(tally.errors)}{' (first: ' + tally.errors[0] + ')' if tally.errors else ''}")
    print(f"lost orders (answered 200, not in the database): {len(lost)}")
    if args.floor and n:
        size = tally.bytes // n
        proc, url = serve_floor(size)
        floor = Tally()
        try:
            cpu0 = cpu_seconds(proc.pid)
            floor_args = argparse.Namespace(**{**vars(args), "page": False, "opponent": "hotseat"})
            floor_wall = asyncio.run(run(url, floor_args, floor))
            cpu1 = cpu_seconds(proc.pid)
        finally:
            proc.terminate()
            proc.wait(timeout=30)
        print(
            f"the floor (web_floor_app.py: the same load and HTTP stack, no game, answers of {size} bytes):"
        )
        low = report("  floor round trip", floor, floor_wall)
        if cpu0 is not None and cpu1 is not None and floor.times:
            print(f"  floor server CPU: {(cpu1 - cpu0) / len(floor.times) * 1000:.2f} ms per order")
        if floor.errors:
            print(f"  floor errors: {len(floor.errors)} (first: {floor.errors[0]})")
        if real and low:
            ratios = ", ".join(
                f"{name} {a / b:.1f}x" for name, a, b in zip(("p50", "p90", "p99"), real, low, strict=True)
            )
            print(f"  the server's round trips over the floor's: {ratios}")


if __name__ == "__main__":
    main()
