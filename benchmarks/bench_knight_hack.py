#!/usr/bin/env python3
"""Knight Hack's speed against One-Hour's, measured in the same run: time per decision of a scripted
v scripted battle on each rule system's default scenario (the issue's "a Knight Hack scripted battle
at least as fast per decision as One-Hour's").

    .venv/bin/python benchmarks/bench_knight_hack.py [--battles N] [--repeat R]

The two are interleaved (One-Hour, Knight Hack, One-Hour, ...) so that machine load falls on both
alike; each repeat plays N battles (seeds 0..N-1) of each. Prints the median microseconds per
decision of each, the ratio Knight Hack / One-Hour (below 1: Knight Hack is faster per decision),
and, for the record, Knight Hack's ambush variant.
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

KH = "knight-hack"
ONE_HOUR = "one-hour-dark-ages"


def scenario(rid: str) -> str:
    rs = registry.get(rid)
    return f"{rid}/{rs.default_scenario}"


def per_decision(name: str, n: int) -> tuple[float, int]:
    """(seconds per decision, decisions) over ``n`` scripted v scripted battles."""
    game = load_game(name)
    decisions = 0
    t0 = time.perf_counter()
    for seed in range(n):
        decisions += len(play(game, seed, "scripted", "scripted").orders)
    return (time.perf_counter() - t0) / max(1, decisions), decisions


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--battles", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    names = {ONE_HOUR: scenario(ONE_HOUR), KH: scenario(KH), "kh-ambush": f"{KH}/bourgtheroulde-1124-ambush"}
    times: dict[str, list[float]] = {k: [] for k in names}
    decisions: dict[str, int] = {}
    for _ in range(args.repeat):
        for key, name in names.items():
            secs, dec = per_decision(name, args.battles)
            times[key].append(secs)
            decisions[key] = dec
    print(f"scripted v scripted, {args.battles} battles x {args.repeat} repeats, interleaved, one process")
    print("| scenario | decisions/battle | us/decision (median) | min..max |")
    print("|---|---|---|---|")
    for key, name in names.items():
        ts = [t * 1e6 for t in times[key]]
        print(
            f"| {name} | {decisions[key] / args.battles:.0f} | {statistics.median(ts):.0f} | "
            f"{min(ts):.0f}..{max(ts):.0f} |"
        )
    ratio = statistics.median(times[KH]) / statistics.median(times[ONE_HOUR])
    print(f"ratio Knight Hack / One-Hour per decision: {ratio:.2f} ({'faster' if ratio < 1 else 'slower'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
