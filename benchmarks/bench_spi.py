#!/usr/bin/env python3
"""SPI Dark Ages's speed: Tours, scripted v scripted, in battles per second per core (the issue's
"a Tours scripted battle at >= 20 battles/s/core"), with One-Hour's default scenario measured in
the same run as the baseline (its time per decision: the machine's speed and load at that moment).

    .venv/bin/python benchmarks/bench_spi.py [--battles N] [--repeat R]

The two are interleaved (One-Hour, Tours, One-Hour, ...) so that load falls on both alike; each
repeat plays N battles (seeds 0..N-1) of each in this one process. Time is the process's CPU time
(``time.process_time``: one core's work, whatever else the machine runs) and, for the record,
wall-clock time. Prints the median battles/s/core of Tours, microseconds per decision of each and
the ratio Tours / One-Hour per decision.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from shieldwall import registry  # noqa: E402
from shieldwall.io.scenarios import load_game  # noqa: E402
from shieldwall.match import play  # noqa: E402

SPI = "spi-dark-ages/tours"
ONE_HOUR = "one-hour-dark-ages"
TARGET = 20.0  # battles/s/core (issue 20)


def run(name: str, n: int) -> tuple[float, float, int]:
    """(CPU seconds, wall seconds, decisions) of ``n`` scripted v scripted battles."""
    game = load_game(name)
    decisions = 0
    c0, w0 = time.process_time(), time.perf_counter()
    for seed in range(n):
        decisions += len(play(game, seed, "scripted", "scripted").orders)
    return time.process_time() - c0, time.perf_counter() - w0, decisions


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--battles", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    one_hour = f"{ONE_HOUR}/{registry.get(ONE_HOUR).default_scenario}"
    names = {"one-hour": one_hour, "tours": SPI}
    cpu: dict[str, list[float]] = {k: [] for k in names}
    wall: dict[str, list[float]] = {k: [] for k in names}
    decisions: dict[str, int] = {}
    for _ in range(args.repeat):
        for key, name in names.items():
            c, w, d = run(name, args.battles)
            cpu[key].append(c)
            wall[key].append(w)
            decisions[key] = d
    n = args.battles
    print(f"scripted v scripted, {n} battles x {args.repeat} repeats, interleaved, one process")
    head = "| scenario | decisions/battle | battles/s/core (CPU, median) | min..max | battles/s (wall) |"
    print(head + " us/decision (CPU) |")
    print("|---|---|---|---|---|---|")
    for key, name in names.items():
        rates = [n / c for c in cpu[key]]
        us = statistics.median(cpu[key]) / decisions[key] * 1e6
        print(
            f"| {name} | {decisions[key] / n:.0f} | {statistics.median(rates):.1f} | "
            f"{min(rates):.1f}..{max(rates):.1f} | {n / statistics.median(wall[key]):.1f} | {us:.0f} |"
        )
    per_dec = {k: statistics.median(cpu[k]) / decisions[k] for k in names}
    tours = statistics.median(n / c for c in cpu["tours"])
    print(f"ratio Tours / One-Hour per decision (CPU): {per_dec['tours'] / per_dec['one-hour']:.2f}")
    print(
        f"Tours: {tours:.1f} battles/s/core, target {TARGET:.0f}: {'met' if tours >= TARGET else 'NOT met'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
