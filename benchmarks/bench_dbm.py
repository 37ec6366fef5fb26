#!/usr/bin/env python3
"""DBM 3.2's scripted battle speed (issue 19: "a 12-element-a-side scripted battle >= 20
battles/s/core"), as a ratio to a baseline tree measured in the same run.

    .venv/bin/python benchmarks/bench_dbm.py --baseline /tmp/dbm-base/src [--battles 20] [--repeat 5]

``dbm-3.2/ford-of-ash`` (12 elements and 6 baggage a side, illustrative sample data), scripted v
scripted, seeds 0..N-1. Each repeat runs two fresh processes, this tree's and the baseline's
(e.g. ``git archive <commit> src | tar -x -C /tmp/dbm-base``), one after the other, so that machine
load falls on both alike; each plays one warm-up battle (seed 10000) and then the N battles, timed
with ``time.process_time`` (CPU time: the load of a shared machine inflates it far less than wall
time). Prints the median CPU seconds, battles/s/core and ms per decision of each, the ratio
baseline/this (above 1: this tree is faster), whether the event logs of both are identical (a
SHA-256 of every battle's events), and the load average before and after.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

SCENARIO = "dbm-3.2/ford-of-ash"
WARM_UP_SEED = 10000
HERE = str(Path(__file__).resolve().parent.parent / "src")


def one_run(src: str, n: int) -> tuple[float, int, str]:
    """Play the battles in this process (a child of ``main``): (CPU seconds, decisions, hash)."""
    sys.path.insert(0, str(Path(src).resolve()))
    from shieldwall.io.scenarios import load_game
    from shieldwall.match import play

    game = load_game(SCENARIO)
    play(game, WARM_UP_SEED, "scripted", "scripted")
    decisions = 0
    results = []
    t0 = time.process_time()
    for seed in range(n):
        results.append(play(game, seed, "scripted", "scripted"))
    secs = time.process_time() - t0
    h = hashlib.sha256()
    for r in results:
        decisions += len(r.orders)
        for e in r.state.events:
            h.update(json.dumps(e.to_dict(), sort_keys=True).encode())
    return secs, decisions, h.hexdigest()


def child(src: str, n: int) -> tuple[float, int, str]:
    out = subprocess.run(
        [sys.executable, __file__, "--child", "--src", src, "--battles", str(n)],
        check=True,
        capture_output=True,
        text=True,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
    ).stdout.split()
    return float(out[0]), int(out[1]), out[2]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--battles", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--src", default=HERE, help="the tree measured (default: this one)")
    ap.add_argument("--baseline", required=False, help="the baseline tree's src folder")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        secs, decisions, digest = one_run(args.src, args.battles)
        print(f"{secs} {decisions} {digest}")
        return 0
    trees = {"this": args.src} | ({"baseline": args.baseline} if args.baseline else {})
    load0 = os.getloadavg()[0]
    times: dict[str, list[float]] = {k: [] for k in trees}
    decisions: dict[str, int] = {}
    digests: dict[str, str] = {}
    for _ in range(args.repeat):
        for key, src in trees.items():
            secs, dec, digest = child(src, args.battles)
            times[key].append(secs)
            decisions[key], digests[key] = dec, digest
    load1 = os.getloadavg()[0]
    print(f"{SCENARIO}, scripted v scripted, {args.battles} battles x {args.repeat} processes a tree")
    print("| tree | median CPU s | battles/s/core | ms/decision | decisions/battle |")
    print("|---|---|---|---|---|")
    for key in trees:
        med = statistics.median(times[key])
        print(
            f"| {key} | {med:.3f} ({min(times[key]):.3f}..{max(times[key]):.3f}) | "
            f"{args.battles / med:.2f} | {1000 * med / decisions[key]:.3f} | "
            f"{decisions[key] / args.battles:.0f} |"
        )
    if args.baseline:
        ratio = statistics.median(times["baseline"]) / statistics.median(times["this"])
        same = digests["this"] == digests["baseline"]
        print(f"speed-up baseline/this: {ratio:.2f}x; event logs identical: {same}")
    print(f"load average {load0:.1f} -> {load1:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
