#!/usr/bin/env python3
"""The web app's speed on loopback: order round trips and the first page load.

    .venv/bin/python benchmarks/bench_web.py [--orders 30] [--games 3]

Serves the app with uvicorn on 127.0.0.1 (a fresh SQLite file) and, over real HTTP:

* plays ``--orders`` orders as red against the scripted bot on the default scenario (Bryn Glas),
  ``--games`` times with different seeds; each round trip is one POST of an order answered with
  the new state (validation, resolution, the bot's replies when the order hands it the turn, the
  SQLite commit, the state with its SVG and menu). Prints the median, p90 and max, overall and for
  the orders the bot answered;
* loads the start page as a browser does on a first visit: the HTML, the scripts, the style, and
  the three API calls the page makes; with /usr/bin/chromium present, also a real page load.
"""

from __future__ import annotations

import argparse
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import httpx  # noqa: E402
import uvicorn  # noqa: E402

from shieldwall.web.app import create_app  # noqa: E402

STATIC = ["app.js", "api.js", "board.js", "log.js", "saved.js", "style.css", "favicon.svg"]
PAGE_API = ["/api/rulesets", "/api/scenarios", "/api/bots"]
CHROMIUM = Path("/usr/bin/chromium")


def serve() -> tuple[str, uvicorn.Server, threading.Thread]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    db = Path(tempfile.mkdtemp(prefix="shieldwall-bench-")) / "games.sqlite3"
    srv = uvicorn.Server(uvicorn.Config(create_app(db), host="127.0.0.1", port=port, log_level="warning"))
    t = threading.Thread(target=srv.run, daemon=True)
    t.start()
    while not srv.started:
        time.sleep(0.02)
    return f"http://127.0.0.1:{port}", srv, t


def choose(st: dict[str, Any]) -> Any:
    """A plain human: move units forward (the engine's 'advance'), charge when it can, end phases."""
    d = st["decision"]
    menu = st["menu"]
    if d["kind"] == "activate":
        acts = [m for m in menu if m["kind"] == "activate"]
        return acts[0]["order"] if acts else "end"
    if d["kind"] == "move":
        charges = [m for m in menu if m["kind"] == "charge"]
        if charges:
            return charges[0]["order"]
        adv = [m for m in menu if m["label"] == "advance"]
        return adv[0]["order"] if adv else menu[0]["order"]
    ends = [m for m in menu if m["kind"] == "end"]
    return ends[0]["order"] if ends else menu[0]["order"]


def round_trips(base: str, n: int, seed: int) -> list[tuple[float, int]]:
    out: list[tuple[float, int]] = []
    with httpx.Client(base_url=base, timeout=30) as c:
        g = c.post("/api/games", json={"opponent": "scripted", "seed": seed}).json()
        hdr = {"X-Shieldwall-Token": g["token"]}
        st = g["game"]
        for _ in range(n):
            if st["result"]:
                break
            order = choose(st)
            t0 = time.perf_counter()
            r = c.post(f"/api/games/{st['id']}/orders", json={"order": order}, headers=hdr)
            body = r.json()
            dt = time.perf_counter() - t0
            assert r.status_code == 200, body
            out.append((dt, len(body["bot_orders"])))
            st = body["state"]
    return out


def page_load(base: str) -> float:
    t0 = time.perf_counter()
    with httpx.Client(base_url=base, timeout=30) as c:
        assert c.get("/").status_code == 200
        for name in STATIC:
            assert c.get(f"/static/{name}").status_code == 200
        for path in PAGE_API:
            assert c.get(path).status_code == 200
    return time.perf_counter() - t0


def browser_load(base: str) -> tuple[float, float] | None:
    """(seconds to a filled start form, the page's load event in seconds) in Chromium already
    running (its renderer started on about:blank) that has never visited the app: cold cache."""
    if not CHROMIUM.exists():
        return None
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    args = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
    ]
    with sync_playwright() as p:
        ctx = p.chromium.launch_persistent_context(
            tempfile.mkdtemp(prefix="shieldwall-bench-chromium-"),
            executable_path=str(CHROMIUM),
            args=args,
            headless=True,
        )
        ctx.new_page().goto("about:blank")
        page = ctx.new_page()
        t0 = time.perf_counter()
        page.goto(base + "/")
        page.wait_for_selector("#f-scenario option", state="attached")
        dt = time.perf_counter() - t0
        load = float(page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd")) / 1000
        ctx.close()
    return dt, load


def ms(x: float) -> str:
    return f"{x * 1000:.1f} ms"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--orders", type=int, default=30)
    ap.add_argument("--games", type=int, default=3)
    args = ap.parse_args()
    base, srv, thread = serve()
    try:
        page_load(base)  # warm the imports and caches once, as a running server would be
        round_trips(base, 3, 999)
        trips: list[tuple[float, int]] = []
        for g in range(args.games):
            trips += round_trips(base, args.orders, 1 + g)
        all_t = sorted(t for t, _ in trips)
        bot_t = sorted(t for t, b in trips if b)
        print(
            f"default scenario, red v the scripted bot, {len(all_t)} orders over {args.games} games"
            " (loopback HTTP)"
        )
        print("| round trips | n | median | p90 | max |")
        print("|---|---|---|---|---|")
        for name, ts in (("all orders", all_t), ("orders the bot answered", bot_t)):
            if ts:
                p90 = ts[min(len(ts) - 1, int(0.9 * len(ts)))]
                print(f"| {name} | {len(ts)} | {ms(statistics.median(ts))} | {ms(p90)} | {ms(ts[-1])} |")
        loads = sorted(page_load(base) for _ in range(5))
        print(
            f"first page load (HTML, {len(STATIC)} static files, {len(PAGE_API)} API calls): "
            f"median {ms(statistics.median(loads))} of 5"
        )
        b = browser_load(base)
        if b is not None:
            print(
                f"first page load in Chromium (never visited, cold cache): load event {ms(b[1])}, "
                f"start form filled from the API {ms(b[0])}"
            )
    finally:
        srv.should_exit = True
        thread.join(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
