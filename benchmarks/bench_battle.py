#!/usr/bin/env python3
"""Battles per second of one process: scripted v scripted (and random v random) on the default scenario.

    .venv/bin/python benchmarks/bench_battle.py [--battles N] [--repeat R]

Prints the median over R repeats of N battles (seeds 0..N-1), plus decisions and events per second.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from shieldwall.io.scenarios import load_game  # noqa: E402
from shieldwall.match import play  # noqa: E402


def run(red: str, blue: str, n: int) -> tuple[float, int, int]:
    game = load_game(None)
    decisions = events = 0
    t0 = time.perf_counter()
    for seed in range(n):
        p = play(game, seed, red, blue)
        decisions += len(p.orders)
        events += len(p.state.events)
    return time.perf_counter() - t0, decisions, events


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--battles", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    print(f"default scenario, {args.battles} battles x {args.repeat} repeats, one process")
    print("| bots | battles/s (median) | min..max | decisions/s | events/battle |")
    print("|---|---|---|---|---|")
    for red, blue in (("scripted", "scripted"), ("random", "random")):
        rates, dps, epb = [], [], []
        for _ in range(args.repeat):
            secs, dec, ev = run(red, blue, args.battles)
            rates.append(args.battles / secs)
            dps.append(dec / secs)
            epb.append(ev / args.battles)
        print(
            f"| {red} v {blue} | {statistics.median(rates):.2f} | {min(rates):.2f}..{max(rates):.2f} | "
            f"{statistics.median(dps):.0f} | {statistics.median(epb):.0f} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
