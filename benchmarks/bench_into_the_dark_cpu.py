#!/usr/bin/env python3
"""CPU time of seeded into-the-dark battles, scripted v scripted, and of loading big armies (issue 16).

    .venv/bin/python benchmarks/bench_into_the_dark_cpu.py [--scenario senlac] [--battles 3] [--repeat 3]
    .venv/bin/python benchmarks/bench_into_the_dark_cpu.py --baseline /tmp/before/src  # ratio to a tree
    .venv/bin/python benchmarks/bench_into_the_dark_cpu.py --only load --units 1000
    .venv/bin/python benchmarks/bench_into_the_dark_cpu.py --only scale --scale 6,12,24,48,96,200

* battles: each repeat is a fresh process that plays one warm-up battle (seed 10000: imports, data
  files) and then seeds 0..N-1 on ``into-the-dark/<scenario>``, timed with ``time.process_time``
  (CPU time, which the load of a shared machine inflates far less than wall time). Fresh processes
  matter: the engine's memos of pure functions would otherwise answer a repeat from the one before.
  With ``--baseline SRC`` the same runs are made for that source tree (e.g. ``git archive`` of main
  unpacked in /tmp), the two trees taking turns, and the ratio of the medians is printed.
* load: builds a game of ``--units`` units (senlac's units tiled over a table big enough to hold
  them, half a side) and times building the game (the scenario checks: terrain under every unit, no
  two units overlapping) and ``new_state``, in a fresh process for each tree.

* scale: for each N of ``--scale`` (units a side), a fresh process builds the tiled game of 2N units
  (as for ``load``) and plays its first ``--max-decisions`` decisions scripted v scripted (seed 1),
  timed with ``time.process_time``; prints ms per decision and the growth exponent
  ``log(t2/t1) / log(N2/N1)`` between consecutive N and from N = 12 (or the first N) to the last (issue 16's
  target: at most N^0.3 from 12 to 200 units a side).

Prints the medians, battles/s/core, ms per decision and the load average before and after.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

WARM_UP_SEED = 10000
HERE = Path(__file__).resolve()


def battles_run(scenario: str, n: int) -> tuple[float, int]:
    """Play the battles in this process (a child of ``main``): (CPU seconds, decisions)."""
    from shieldwall.io.scenarios import load_game
    from shieldwall.match import play

    game = load_game(f"into-the-dark/{scenario}")
    play(game, WARM_UP_SEED, "scripted", "scripted")
    decisions = 0
    t0 = time.process_time()
    for seed in range(n):
        decisions += len(play(game, seed, "scripted", "scripted").orders)
    return time.process_time() - t0, decisions


def tiled_game_args(units: int) -> tuple[Any, Any]:
    """Senlac's scenario (spec, armies) with its units tiled to ``units`` units (half a side):
    ``rulesets.into_the_dark.tiling`` (10" by 5" slots, 24 to a row, the sides 30" apart, a table
    240" wide, no terrain)."""
    from shieldwall.rulesets.into_the_dark.tiling import tiled_args

    return tiled_args(units // 2)


def load_run(units: int) -> tuple[float, float]:
    """(CPU seconds of building the game, of new_state) for a tiled game of ``units`` units."""
    from shieldwall.rulesets.into_the_dark.game import IntoTheDarkGame

    spec, armies = tiled_game_args(units)
    t0 = time.process_time()
    game = IntoTheDarkGame(spec, armies, None, "<tiled>")
    t1 = time.process_time()
    game.new_state(1)
    t2 = time.process_time()
    assert len(game.initial_units) == 2 * (units // 2)
    return t1 - t0, t2 - t1


def scale_run(per_side: int, max_decisions: int) -> tuple[float, int]:
    """(CPU seconds, decisions) of the first ``max_decisions`` decisions of the tiled game of
    ``per_side`` units a side, scripted v scripted, seed 1 (the bots built as ``match.play`` does)."""
    from shieldwall.ai.base import bot_seed, make_bot
    from shieldwall.rulesets.into_the_dark.game import IntoTheDarkGame

    spec, armies = tiled_game_args(2 * per_side)
    game = IntoTheDarkGame(spec, armies, None, "<tiled>")
    bots = {
        side: make_bot("scripted", bot_seed(1, i), game.info.id) for i, side in enumerate(game.info.sides)
    }
    state = game.new_state(1)
    state.seal()  # (as ``match.play`` does: only orders change it)
    n = 0
    t0 = time.process_time()
    while n < max_decisions and not state.is_terminal():
        d = state.decision()
        assert d is not None
        state.apply(bots[d.side].choose(state))
        n += 1
    return time.process_time() - t0, n


def child(src: str, args: list[str]) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = src
    return subprocess.run(
        [sys.executable, str(HERE), "--child", *args], check=True, capture_output=True, text=True, env=env
    ).stdout.split()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scenario", default="senlac")
    ap.add_argument("--battles", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--units", type=int, default=1000)
    ap.add_argument("--only", default="battles,load", help="comma-separated: battles, load, scale")
    ap.add_argument("--scale", default="6,12,24,48,96,200", help="units a side for the scale section")
    ap.add_argument("--max-decisions", type=int, default=300, help="decisions timed per N (scale)")
    ap.add_argument("--src", default=str(HERE.parent.parent / "src"), help="the source tree measured")
    ap.add_argument("--baseline", default=None, help="another source tree, measured in the same run")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--what", default="battles", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        if args.what == "scale":
            secs, n = scale_run(args.units, args.max_decisions)
            print(f"{secs} {n}")
        elif args.what == "battles":
            secs, n = battles_run(args.scenario, args.battles)
            print(f"{secs} {n}")
        else:
            a, b = load_run(args.units)
            print(f"{a} {b}")
        return 0
    trees = [("this tree", args.src)] + ([("baseline", args.baseline)] if args.baseline else [])
    only = set(args.only.split(","))
    if "battles" in only:
        load0 = os.getloadavg()[0]
        times: dict[str, list[float]] = {name: [] for name, _ in trees}
        decisions: dict[str, int] = {}
        for _ in range(args.repeat):
            for name, src in trees:
                out = child(
                    src, ["--what", "battles", "--scenario", args.scenario, "--battles", str(args.battles)]
                )
                times[name].append(float(out[0]))
                decisions[name] = int(out[1])
        load1 = os.getloadavg()[0]
        meds = {}
        for name, _ in trees:
            med = meds[name] = statistics.median(times[name])
            ts = times[name]
            print(
                f"{name}: {args.scenario}, scripted v scripted, {args.battles} battles x {args.repeat} "
                f"processes: median CPU {med:.3f} s ({min(ts):.3f}..{max(ts):.3f}); "
                f"{args.battles / med:.2f} battles/s/core; {1000 * med / decisions[name]:.2f} ms/decision "
                f"({decisions[name] / args.battles:.0f} decisions a battle)"
            )
        if args.baseline:
            print(f"speed-up: {meds['baseline'] / meds['this tree']:.2f}x (baseline CPU / this tree's)")
        print(f"load {load0:.1f} -> {load1:.1f}")
    if "load" in only:
        for name, src in trees:
            a, b = (float(x) for x in child(src, ["--what", "load", "--units", str(args.units)]))
            print(f"{name}: loading {args.units} units: the game {a:.3f} s CPU, new_state {b:.3f} s CPU")
    if "scale" in only:
        scale(trees, args)
    return 0


def scale(trees: list[tuple[str, str]], args: argparse.Namespace) -> None:
    """The scale section: ms per decision against units a side, and the growth exponents."""
    import math

    try:
        sizes = [int(x) for x in args.scale.split(",")]
    except ValueError:
        raise SystemExit(f"--scale {args.scale!r}: units a side, comma-separated, e.g. 6,12,24") from None
    if not sizes or min(sizes) < 1 or args.max_decisions < 1:
        raise SystemExit("--scale needs units a side >= 1 and --max-decisions >= 1")
    for name, src in trees:
        print(f"{name}: tiled senlac, scripted v scripted, seed 1, first {args.max_decisions} decisions")
        print("| N a side | decisions | CPU s | ms/decision | exponent from the previous N |")
        print("|---:|---:|---:|---:|---:|")
        rows: list[tuple[int, float]] = []
        for n in sizes:
            load0 = os.getloadavg()[0]
            out = child(
                src,
                ["--what", "scale", "--units", str(n), "--max-decisions", str(args.max_decisions)],
            )
            secs, dec = float(out[0]), int(out[1])
            ms = 1000 * secs / max(dec, 1)
            exp = ""
            if rows:
                pn, pms = rows[-1]
                exp = f"{math.log(ms / pms) / math.log(n / pn):.2f}"
            rows.append((n, ms))
            print(f"| {n} | {dec} | {secs:.2f} | {ms:.2f} | {exp} | (load {load0:.1f})", flush=True)
        if len(rows) >= 2:
            # from 12 units a side (the range) when measured, else from the first N
            (n1, t1), (n2, t2) = next((r for r in rows if r[0] == 12), rows[0]), rows[-1]
            print(f"exponent {n1} -> {n2}: {math.log(t2 / t1) / math.log(n2 / n1):.2f} (target <= 0.3)")


if __name__ == "__main__":
    raise SystemExit(main())
