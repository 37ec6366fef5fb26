#!/usr/bin/env python3
"""How many actions, and how long, from the start page to a first legal move, as a new user plays.

    .venv/bin/python benchmarks/bench_first_move.py [--runs 5]

Serves the app with uvicorn on 127.0.0.1 (a fresh SQLite file) and drives Debian's Chromium
(/usr/bin/chromium) through what the page tells a newcomer to do on the default scenario (Bryn
Glas, against the default bot), twice:

* **pointer**: open the start page, *Start battle* (the defaults), click one of your units on the
  table (the hint: "Click one of your units, then roll for its move"), *Roll to move*, click the
  table 3" ahead of it;
* **keyboard**: the same from the keyboard alone: Tab to *Start battle* and Enter, ``n`` until the
  pointer names a unit that may act, Enter, ``a`` then Tab to *Roll to move* and Enter, ``t``,
  Shift+Up three times, Enter.

An action is one click or one key press. The time runs from the start of the page load to the
answer that holds the move (the unit's ``move`` event in the log); a script does not read or hesitate,
so it is the page's and the server's part of a new player's time, not a person's.
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

import uvicorn  # noqa: E402

from shieldwall.web.app import create_app  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
IDLE = (
    "window.shieldwall.game && window.shieldwall.game.st && !window.shieldwall.game.busy"
    " && !window.shieldwall.game.stepping"
)


def _serve() -> tuple[uvicorn.Server, str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    srv = uvicorn.Server(
        uvicorn.Config(
            create_app(Path(tempfile.mkdtemp()) / "g.sqlite3"),
            host="127.0.0.1",
            port=port,
            log_level="warning",
        )
    )
    threading.Thread(target=srv.run, daemon=True).start()
    while not srv.started:
        time.sleep(0.05)
    return srv, f"http://127.0.0.1:{port}"


def _moved(page: Any) -> None:
    page.wait_for_function(IDLE)
    page.wait_for_function(
        "[...document.querySelectorAll('#tab-log .entry')].some((e) => / moves /.test(e.textContent))"
    )


def pointer(page: Any, url: str) -> int:
    actions = 0
    page.goto(url + "/")
    page.wait_for_selector("#f-scenario option", state="attached")
    page.click("#f-start")
    actions += 1
    page.wait_for_selector("#board svg .unit")
    page.wait_for_function(IDLE)
    st = page.evaluate("window.shieldwall.game.st")
    uid = next(m["unit"] for m in st["menu"] if m["kind"] == "activate")
    u = next(x for x in st["view"]["units"] if x["id"] == uid)
    pt = page.evaluate(f"window.shieldwall.board.toScreen({u['x']}, {u['y']})")
    page.mouse.click(pt["x"], pt["y"])
    actions += 1
    page.wait_for_selector("#actions button.primary")
    page.click("#actions button.primary")
    actions += 1
    page.wait_for_function(IDLE + " && window.shieldwall.game.st.decision.kind === 'move'")
    ahead = 3 if u["heading"] == 0 else -3
    pt = page.evaluate(f"window.shieldwall.board.toScreen({u['x']}, {u['y'] + ahead})")
    page.mouse.click(pt["x"], pt["y"])
    actions += 1
    _moved(page)
    return actions


def keyboard(page: Any, url: str) -> int:
    actions = 0
    page.goto(url + "/")
    page.wait_for_selector("#f-scenario option", state="attached")
    while page.evaluate("document.activeElement.id") != "f-start":
        page.keyboard.press("Tab")
        actions += 1
    page.keyboard.press("Enter")
    actions += 1
    page.wait_for_selector("#board svg .unit")
    page.wait_for_function(IDLE)
    st = page.evaluate("window.shieldwall.game.st")
    can = {m["unit"] for m in st["menu"] if m["kind"] == "activate"}
    while True:
        page.keyboard.press("n")
        actions += 1
        if page.evaluate("window.shieldwall.game.keys.unitAt()") in can:
            break
    page.keyboard.press("Enter")
    actions += 1
    page.wait_for_selector("#actions button.primary")
    page.keyboard.press("a")
    actions += 1
    while "primary" not in page.evaluate("document.activeElement.className"):
        page.keyboard.press("Tab")
        actions += 1
    page.keyboard.press("Enter")
    actions += 1
    page.wait_for_function(IDLE + " && window.shieldwall.game.st.decision.kind === 'move'")
    for key in ("t", "Shift+ArrowUp", "Shift+ArrowUp", "Shift+ArrowUp", "Enter"):
        page.keyboard.press(key)
        actions += 1
    _moved(page)
    return actions


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    if not CHROMIUM.exists():
        sys.exit("needs Debian's chromium at /usr/bin/chromium")
    from playwright.sync_api import sync_playwright

    srv, url = _serve()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        for name, play in (("pointer", pointer), ("keyboard", keyboard)):
            times, counts = [], []
            for _ in range(a.runs):
                ctx = browser.new_context(viewport={"width": 1366, "height": 768})
                page = ctx.new_page()
                page.set_default_timeout(30_000)
                t0 = time.perf_counter()
                counts.append(play(page, url))
                times.append(time.perf_counter() - t0)
                ctx.close()
            med, lo, hi = statistics.median(times), min(times), max(times)
            print(
                f"{name:9s} actions {counts[0]} (all runs: {sorted(set(counts))}); to the first legal move: "
                f"median {med:.2f} s, min {lo:.2f} s, max {hi:.2f} s ({a.runs} runs)"
            )
        browser.close()
    srv.should_exit = True


if __name__ == "__main__":
    main()
