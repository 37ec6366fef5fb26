#!/usr/bin/env python3
"""CPU time of seeded one-hour-dark-ages battles, scripted v scripted (issue 16, engine speed).

    .venv/bin/python benchmarks/bench_one_hour_cpu.py [--scenario bryn-glas] [--battles 10] [--repeat 5]
    .venv/bin/python benchmarks/bench_one_hour_cpu.py --src /tmp/before/src   # another tree (git archive)
    .venv/bin/python benchmarks/bench_one_hour_cpu.py --baseline /tmp/before/src   # both, alternated
    .venv/bin/python benchmarks/bench_one_hour_cpu.py --scale 6,12,24,48,96,200 [--baseline /tmp/before/src]

(a tree before the change: ``git archive <commit> src | tar -x -C /tmp/before``.) With ``--baseline``
the two trees' runs alternate (this, baseline, this, ...), so a change of load falls on both, and
the ratio baseline / this is printed.

``--scale``: time per decision against army size, with bryn-glas tiled side by side
(``rulesets.one_hour.tiling``) to N units a side, cut to 2 turns; each N is played in a fresh
process, the whole battle or its first ``--max-decisions`` decisions (0: the whole battle),
whichever ends first. The exponent columns give the growth ``log(t2/t1) / log(N2/N1)`` from the row
before and from the second row (N = 12 in the list above): issue 16 asks for at most 0.3 from 12 to
200.

Each repeat is a fresh process that plays one warm-up battle (seed 10000: imports, data files) and
then seeds 0..N-1, timed with ``time.process_time`` (CPU time, which the load of a shared machine
inflates far less than wall time). Fresh processes matter: the engine's bounded memos of pure
functions (e.g. ``core.polygons._DIST_MEMO``) would otherwise answer a repeat of the same battles
from the previous repeat, and a change that fills them more slowly would look faster than it is.
Prints the median, battles/s/core, ms per decision and the load average before and after.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

WARM_UP_SEED = 10000
#: the tiled scaling battles: turns and seed
SCALE_TURNS = 2
SCALE_SEED = 1


def tiled(n: int, turns: int = SCALE_TURNS) -> Any:
    """bryn-glas tiled side by side to ``n`` units a side (``rulesets.one_hour.tiling``; for a tree
    measured with ``--src`` that has no such module, this tree's module, run on that tree's
    engine)."""
    try:
        from shieldwall.rulesets.one_hour.tiling import tiled_game
    except ImportError:
        import importlib.util

        path = Path(__file__).resolve().parent.parent / "src/shieldwall/rulesets/one_hour/tiling.py"
        spec = importlib.util.spec_from_file_location("_tiling", path)
        assert spec is not None and spec.loader is not None
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        tiled_game = mod.tiled_game
    return tiled_game(n, "bryn-glas", turns)


def scale_run(src: str, n: int, max_decisions: int) -> tuple[float, int]:
    """One tiled battle of ``n`` a side in this process: (CPU seconds, decisions timed)."""
    sys.path.insert(0, str(Path(src).resolve()))
    from shieldwall.ai.base import bot_seed, make_bot
    from shieldwall.io.scenarios import load_game
    from shieldwall.match import play

    warm = load_game("rhyd-y-groes", {"turns": 1})  # imports and data files, other positions
    play(warm, WARM_UP_SEED, "scripted", "scripted")
    game = tiled(n)
    bots = {
        side: make_bot("scripted", bot_seed(SCALE_SEED, i), game.info.id)
        for i, side in enumerate(game.info.sides)
    }
    state = game.new_state(SCALE_SEED)
    decisions = 0
    t0 = time.process_time()
    while not state.is_terminal() and (max_decisions <= 0 or decisions < max_decisions):
        d = state.decision()
        assert d is not None
        state.apply(bots[d.side].choose(state))
        decisions += 1
    return time.process_time() - t0, decisions


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
    ap.add_argument("--scale", default="", help="N values (units a side) for the tiled scaling table")
    ap.add_argument("--max-decisions", type=int, default=600, help="decisions timed per tiled battle")
    ap.add_argument("--baseline", default="", help="another source tree, measured in the same run")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--scale-child", type=int, default=0, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.scale_child:
        secs, decisions = scale_run(args.src, args.scale_child, args.max_decisions)
        print(f"{secs} {decisions}")
        return 0
    if args.scale:
        return scale_table(args)
    if args.child:
        secs, decisions = one_run(args.src, args.scenario, args.battles)
        print(f"{secs} {decisions}")
        return 0
    load0 = os.getloadavg()[0]
    trees = {"this": args.src, **({"baseline": args.baseline} if args.baseline else {})}
    times: dict[str, list[float]] = {k: [] for k in trees}
    decisions: dict[str, int] = {}
    for _ in range(args.repeat):
        for name, src in trees.items():
            out = subprocess.run(
                [sys.executable, __file__, "--child", "--src", src, "--scenario", args.scenario]
                + ["--battles", str(args.battles)],
                check=True,
                capture_output=True,
                text=True,
                env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
            ).stdout.split()
            times[name].append(float(out[0]))
            decisions[name] = int(out[1])
    load1 = os.getloadavg()[0]
    meds = {}
    for name in trees:
        med = meds[name] = statistics.median(times[name])
        print(
            f"{name}: {args.scenario}, scripted v scripted, {args.battles} battles x {args.repeat} "
            f"processes: median CPU {med:.3f} s ({min(times[name]):.3f}..{max(times[name]):.3f}); "
            f"{args.battles / med:.2f} battles/s/core; {1000 * med / decisions[name]:.3f} ms/decision "
            f"({decisions[name] / args.battles:.0f} decisions a battle)"
        )
    if args.baseline:
        same = "same" if decisions["this"] == decisions["baseline"] else "DIFFERENT"
        print(f"baseline / this: {meds['baseline'] / meds['this']:.2f}x ({same} decisions)")
    print(f"load {load0:.1f} -> {load1:.1f}")
    return 0


def _scale_one(src: str, n: int, max_decisions: int) -> tuple[float, int]:
    out = subprocess.run(
        [sys.executable, __file__, "--src", src, "--scale-child", str(n)]
        + ["--max-decisions", str(max_decisions)],
        check=True,
        capture_output=True,
        text=True,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
    ).stdout.split()
    return float(out[0]), int(out[1])


def scale_table(args: argparse.Namespace) -> int:
    """ms/decision against N (tiled bryn-glas), with the growth exponent from the row before and
    from the second row (N = 12 in the default list); the baseline tree beside it when given."""
    ns = [int(x) for x in args.scale.split(",")]
    print(
        f"load {os.getloadavg()[0]:.1f}; tiled bryn-glas, {SCALE_TURNS} turns, seed {SCALE_SEED}, "
        f"at most {args.max_decisions} decisions timed"
    )
    head = "| N a side | decisions | ms/decision | exponent from previous | exponent from N=%d |"
    cols = 5
    if args.baseline:
        head += " baseline ms/decision | baseline exponent from N=%d | baseline / this |"
        cols += 3
    ref_n = ns[min(1, len(ns) - 1)]
    print(head % ((ref_n, ref_n) if args.baseline else ref_n))
    print("|" + "---|" * cols)
    rows: list[tuple[int, float]] = []
    brows: list[tuple[int, float]] = []
    for n in ns:
        secs, dec = _scale_one(args.src, n, args.max_decisions)
        ms = 1000 * secs / dec
        prev = f"{math.log(ms / rows[-1][1]) / math.log(n / rows[-1][0]):.2f}" if rows else ""
        ref = rows[1] if len(rows) > 1 else None
        from_ref = f"{math.log(ms / ref[1]) / math.log(n / ref[0]):.2f}" if ref else ""
        rows.append((n, ms))
        line = f"| {n} | {dec} | {ms:.2f} | {prev} | {from_ref} |"
        if args.baseline:
            bsecs, bdec = _scale_one(args.baseline, n, args.max_decisions)
            bms = 1000 * bsecs / bdec
            bref = brows[1] if len(brows) > 1 else None
            bfrom = f"{math.log(bms / bref[1]) / math.log(n / bref[0]):.2f}" if bref else ""
            brows.append((n, bms))
            same = "" if bdec == dec else " (other decision count!)"
            line += f" {bms:.2f} | {bfrom} | {bms / ms:.1f}x{same} |"
        print(line, flush=True)
    print(f"load {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
