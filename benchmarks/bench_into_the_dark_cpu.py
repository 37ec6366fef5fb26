#!/usr/bin/env python3
"""CPU time of seeded into-the-dark battles, scripted v scripted, and of loading big armies (issue 16).

    .venv/bin/python benchmarks/bench_into_the_dark_cpu.py [--scenario senlac] [--battles 3] [--repeat 3]
    .venv/bin/python benchmarks/bench_into_the_dark_cpu.py --baseline /tmp/before/src  # ratio to a tree
    .venv/bin/python benchmarks/bench_into_the_dark_cpu.py --only load --units 1000

* battles: each repeat is a fresh process that plays one warm-up battle (seed 10000: imports, data
  files) and then seeds 0..N-1 on ``into-the-dark/<scenario>``, timed with ``time.process_time``
  (CPU time, which the load of a shared machine inflates far less than wall time). Fresh processes
  matter: the engine's memos of pure functions would otherwise answer a repeat from the one before.
  With ``--baseline SRC`` the same runs are made for that source tree (e.g. ``git archive`` of main
  unpacked in /tmp), the two trees taking turns, and the ratio of the medians is printed.
* load: builds a game of ``--units`` units (senlac's units tiled over a table big enough to hold
  them, half a side) and times building the game (the scenario checks: terrain under every unit, no
  two units overlapping) and ``new_state``, in a fresh process for each tree.

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
    """Senlac's scenario (spec, armies) with its units tiled to ``units`` units (half a side): each
    side's units in turn on a grid of 10" by 5" slots (every senlac unit fits in one), the sides
    facing each other across a 30" gap, on a table 240" wide; no terrain (the tiles would cross it).
    A scenario file holds at most 40 units a side, so the checked spec's lists are replaced."""
    import tomllib

    from shieldwall.rulesets.into_the_dark import scenario as _scenario

    path = Path(_scenario.__file__).parent / "scenarios" / "senlac.toml"
    data = tomllib.loads(path.read_text())
    data["terrain"] = []
    per_side = units // 2
    cols = 24
    rows = -(-per_side // cols)
    depth = 2.0 * (15.0 + 5.0 * rows + 5.0)
    data["table"] = {"width": 240.0, "depth": min(240.0, depth)}
    spec, armies = _scenario.build_scenario(data, "<tiled>")
    mid = depth / 2.0
    update: dict[str, Any] = {"table": spec.table.model_copy(update={"depth": depth})}
    for side, sign in (("red", 1.0), ("blue", -1.0)):
        sd = getattr(spec, side)
        src = sd.deploy
        out = []
        for i in range(per_side):
            r, c = divmod(i, cols)
            out.append(
                src[i % len(src)].model_copy(
                    update={
                        "id": f"{side[0]}{i}",
                        "x": 5.0 + 10.0 * c,
                        "y": mid + sign * (15.0 + 5.0 * r),
                        "heading": 180.0 if side == "red" else 0.0,
                        "shieldwall": False,
                    }
                )
            )
        update[side] = sd.model_copy(update={"deploy": out})
    return spec.model_copy(update=update), armies


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
    ap.add_argument("--only", default="battles,load")
    ap.add_argument("--src", default=str(HERE.parent.parent / "src"), help="the source tree measured")
    ap.add_argument("--baseline", default=None, help="another source tree, measured in the same run")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--what", default="battles", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        if args.what == "battles":
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
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
