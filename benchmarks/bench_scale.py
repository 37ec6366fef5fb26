#!/usr/bin/env python3
"""CPU time per decision against army size, for any rule system whose package has a ``tiling``
module (issue 16: time per decision grows at most as N^0.3 from 12 to 200 units a side).

    .venv/bin/python benchmarks/bench_scale.py dbm-3.2 [--sizes 6,12,24,48,96,150,200]
    .venv/bin/python benchmarks/bench_scale.py spi-dark-ages --baseline /tmp/base/src [--repeat 3]

For each N of ``--sizes`` (units or elements a side) a fresh process imports
``<the rule system's package>.tiling`` (found through the registry's plugin, so this script names no
rule system), builds ``tiled_game(N)`` (a built-in scenario tiled to N a side) and plays its first
``--max-decisions`` decisions scripted v scripted, seed 1 (the bots built as ``match.play`` does),
timed with ``time.process_time`` (CPU time, which a shared machine's load inflates far less than
wall time). With ``--baseline SRC`` the same runs are made for that source tree (e.g. ``git archive``
of a commit unpacked in /tmp, with the tiling module copied in), the two trees taking turns at every
N and repeat. Prints, per tree, ms per decision (the median of ``--repeat`` processes), the growth
exponent ``log(t2/t1) / log(N2/N1)`` from the previous N and from N = 12 (or the first N) to the
last, and with a baseline the speed-up at each N and whether both trees played the same decisions.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import math
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve()


def scale_run(ruleset: str, per_side: int, max_decisions: int) -> tuple[float, int, str]:
    """(CPU seconds, decisions, a digest of the orders) of the first ``max_decisions`` decisions of
    the tiled game of ``per_side`` a side, scripted v scripted, seed 1."""
    from shieldwall import registry
    from shieldwall.ai.base import bot_seed, make_bot

    plugin = registry.get(ruleset)
    try:
        tiling = importlib.import_module(f"{plugin.package}.tiling")
    except ModuleNotFoundError:
        raise SystemExit(f"{ruleset}: its package {plugin.package} has no tiling module") from None
    game = tiling.tiled_game(per_side)
    bots = {
        side: make_bot("scripted", bot_seed(1, i), game.info.id) for i, side in enumerate(game.info.sides)
    }
    state = game.new_state(1)
    state.seal()  # (as ``match.play`` does: only orders change it)
    n = 0
    orders = hashlib.sha256()
    t0 = time.process_time()
    while n < max_decisions and not state.is_terminal():
        d = state.decision()
        assert d is not None
        order = bots[d.side].choose(state)
        state.apply(order)
        orders.update(f"{order}\n".encode())
        n += 1
    return time.process_time() - t0, n, orders.hexdigest()[:16]


def child(src: str, ruleset: str, per_side: int, max_decisions: int) -> tuple[float, int, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = src
    done = subprocess.run(
        [sys.executable, str(HERE), ruleset, "--child", str(per_side), "--max-decisions", str(max_decisions)],
        capture_output=True,
        text=True,
        env=env,
    )
    if done.returncode != 0:
        why = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise SystemExit(f"{ruleset}, {per_side} a side, in {src}: {why}")
    out = done.stdout.split()
    return float(out[0]), int(out[1]), out[2]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("ruleset", help="a rule system id")
    ap.add_argument("--sizes", default="6,12,24,48,96,150,200", help="units a side, comma-separated")
    ap.add_argument("--max-decisions", type=int, default=300, help="decisions timed per N")
    ap.add_argument("--repeat", type=int, default=1, help="processes per N and tree (the median is kept)")
    ap.add_argument("--src", default=str(HERE.parent.parent / "src"), help="the source tree measured")
    ap.add_argument("--baseline", default=None, help="another source tree, measured in the same run")
    ap.add_argument("--child", type=int, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child is not None:
        cpu, n, digest = scale_run(args.ruleset, args.child, args.max_decisions)
        print(f"{cpu} {n} {digest}")
        return 0
    try:
        sizes = [int(x) for x in args.sizes.split(",")]
    except ValueError:
        raise SystemExit(f"--sizes {args.sizes!r}: units a side, comma-separated, e.g. 6,12,24") from None
    if not sizes or min(sizes) < 1 or args.max_decisions < 1 or args.repeat < 1:
        raise SystemExit("--sizes needs units a side >= 1, --max-decisions and --repeat >= 1")
    trees = [("this tree", args.src)] + ([("baseline", args.baseline)] if args.baseline else [])
    ms: dict[str, dict[int, float]] = {name: {} for name, _ in trees}
    decisions: dict[str, dict[int, int]] = {name: {} for name, _ in trees}
    digests: dict[str, dict[int, str]] = {name: {} for name, _ in trees}
    load0 = os.getloadavg()[0]
    print(
        f"{args.ruleset}: tiled, scripted v scripted, seed 1, first {args.max_decisions} decisions, "
        f"{args.repeat} process(es) per N and tree"
    )
    for n in sizes:
        secs: dict[str, list[float]] = {name: [] for name, _ in trees}
        for _ in range(args.repeat):
            for name, src in trees:
                s, d, digest = child(src, args.ruleset, n, args.max_decisions)
                secs[name].append(s)
                decisions[name][n], digests[name][n] = d, digest
        for name, _ in trees:
            ms[name][n] = 1000 * statistics.median(secs[name]) / max(decisions[name][n], 1)
        line = " ".join(f"{name} {ms[name][n]:.2f}" for name, _ in trees)
        print(f"  N={n}: {line} ms/decision (load {os.getloadavg()[0]:.1f})", file=sys.stderr, flush=True)
    head = "| N a side | decisions | ms/decision | exponent from the previous N |"
    for name, _ in trees:
        print(f"\n{name}:\n{head}\n|---:|---:|---:|---:|")
        prev: tuple[int, float] | None = None
        for n in sizes:
            exp = "" if prev is None else f"{math.log(ms[name][n] / prev[1]) / math.log(n / prev[0]):.2f}"
            print(f"| {n} | {decisions[name][n]} | {ms[name][n]:.2f} | {exp} |")
            prev = (n, ms[name][n])
        if len(sizes) >= 2:
            n1 = 12 if 12 in sizes else sizes[0]
            n2 = sizes[-1]
            e = math.log(ms[name][n2] / ms[name][n1]) / math.log(n2 / n1)
            print(f"exponent {n1} -> {n2}: {e:.2f} (target <= 0.3)")
    if args.baseline:
        print("\n| N a side | speed-up baseline/this | same decisions |\n|---:|---:|---|")
        for n in sizes:
            same = digests["this tree"][n] == digests["baseline"][n]
            print(f"| {n} | {ms['baseline'][n] / ms['this tree'][n]:.2f}x | {same} |")
    print(f"\nload average {load0:.1f} -> {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
