#!/usr/bin/env python3
"""CPU time of seeded one-hour-dark-ages battles, scripted v scripted (issue 16, engine speed).

    .venv/bin/python benchmarks/bench_one_hour_cpu.py [--scenario bryn-glas] [--battles 10] [--repeat 5]
    .venv/bin/python benchmarks/bench_one_hour_cpu.py --src /tmp/before/src   # another tree (git archive)

Plays seeds 0..N-1 R times in this process and prints the median CPU time (``time.process_time``,
which the load of a shared machine inflates far less than wall time), battles/s/core, ms per
decision and the load average before and after. The battles are the ones
``scripts/event_hashes.py`` checks, so a speed change that passes that check is measured on the very
same play.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

# --src DIR: measure another source tree (e.g. the code before an optimisation, from `git archive`)
_SRC = (
    sys.argv[sys.argv.index("--src") + 1]
    if "--src" in sys.argv
    else str(Path(__file__).resolve().parent.parent / "src")
)
sys.path.insert(0, str(Path(_SRC).resolve()))

from shieldwall.io.scenarios import load_game  # noqa: E402
from shieldwall.match import play  # noqa: E402


def run(scenario: str, n: int) -> tuple[float, int]:
    game = load_game(scenario)
    decisions = 0
    t0 = time.process_time()
    for seed in range(n):
        decisions += len(play(game, seed, "scripted", "scripted").orders)
    return time.process_time() - t0, decisions


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--scenario", default="bryn-glas")
    ap.add_argument("--battles", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--src", help="the source tree to measure (default: this checkout's src)")
    args = ap.parse_args()
    load0 = os.getloadavg()[0]
    run(args.scenario, 1)  # warm-up: imports, data files, memos of pure functions
    times, decisions = [], 0
    for _ in range(args.repeat):
        secs, decisions = run(args.scenario, args.battles)
        times.append(secs)
    med = statistics.median(times)
    load1 = os.getloadavg()[0]
    print(
        f"{args.scenario}, scripted v scripted, {args.battles} battles x {args.repeat}: "
        f"median CPU {med:.3f} s ({min(times):.3f}..{max(times):.3f}); "
        f"{args.battles / med:.2f} battles/s/core; {1000 * med / decisions:.3f} ms/decision "
        f"({decisions / args.battles:.0f} decisions a battle); load {load0:.1f} -> {load1:.1f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
