#!/usr/bin/env python3
"""CPU time of seeded one-hour-dark-ages battles, scripted v scripted (issue 16, engine speed).

    .venv/bin/python benchmarks/bench_one_hour_cpu.py [--scenario bryn-glas] [--battles 10] [--repeat 5]
    .venv/bin/python benchmarks/bench_one_hour_cpu.py --src /tmp/before/src   # another tree (git archive)

Each repeat is a fresh process that plays one warm-up battle (seed 10000: imports, data files) and
then seeds 0..N-1, timed with ``time.process_time`` (CPU time, which the load of a shared machine
inflates far less than wall time). Fresh processes matter: the engine's bounded memos of pure
functions (e.g. ``core.geometry._DIST_MEMO``) would otherwise answer a repeat of the same battles
from the previous repeat, and a change that fills them more slowly would look faster than it is.
Prints the median, battles/s/core, ms per decision and the load average before and after.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

WARM_UP_SEED = 10000


def one_run(src: str, scenario: str, n: int) -> tuple[float, int]:
    """Play the battles in this process (a child of ``main``): (CPU seconds, decisions)."""
    sys.path.insert(0, str(Path(src).resolve()))
    from shieldwall.io.scenarios import load_game
    from shieldwall.match import play

    game = load_game(scenario)
    play(game, WARM_UP_SEED, "scripted", "scripted")
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
    ap.add_argument(
        "--src", default=str(Path(__file__).resolve().parent.parent / "src"), help="the source tree"
    )
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        secs, decisions = one_run(args.src, args.scenario, args.battles)
        print(f"{secs} {decisions}")
        return 0
    load0 = os.getloadavg()[0]
    times, decisions = [], 0
    for _ in range(args.repeat):
        out = subprocess.run(
            [sys.executable, __file__, "--child", "--src", args.src, "--scenario", args.scenario]
            + ["--battles", str(args.battles)],
            check=True,
            capture_output=True,
            text=True,
            env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
        ).stdout.split()
        times.append(float(out[0]))
        decisions = int(out[1])
    med = statistics.median(times)
    load1 = os.getloadavg()[0]
    print(
        f"{args.scenario}, scripted v scripted, {args.battles} battles x {args.repeat} processes: "
        f"median CPU {med:.3f} s ({min(times):.3f}..{max(times):.3f}); "
        f"{args.battles / med:.2f} battles/s/core; {1000 * med / decisions:.3f} ms/decision "
        f"({decisions / args.battles:.0f} decisions a battle); load {load0:.1f} -> {load1:.1f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
