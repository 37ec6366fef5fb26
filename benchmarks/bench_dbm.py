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

    .venv/bin/python benchmarks/bench_dbm.py --baseline DIR --search 6          # the search bot
    .venv/bin/python benchmarks/bench_dbm.py --baseline DIR --search 2 --instructions

``--search N``: instead of battles, N decisions of the search bot at DBM's default (``mcts``), taken
after 12 scripted decisions of a Ford of Ash battle (seed 0), on copies of the states the scripted
bots reach; the hash is of its choices and its root statistics, so "identical" says the search
chose and counted alike. ``--instructions``: each child once under Valgrind's callgrind, the count
of instructions it executed (less a child that does the set-up and no work): on a shared machine
whose CPU seconds wander by a third from run to run, a count that does not wander (slow: about
50 times the run's time; needs ``valgrind``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SCENARIO = "dbm-3.2/ford-of-ash"
WARM_UP_SEED = 10000
#: ``--search``: scripted decisions played before the searched ones
SEARCH_AFTER = 12
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


def search_run(src: str, n: int) -> tuple[float, int, str]:
    """N searched decisions in this process (a child of ``main``): (CPU seconds, decisions, hash of
    the choices and root statistics)."""
    sys.path.insert(0, str(Path(src).resolve()))
    from shieldwall.ai.base import make_bot
    from shieldwall.io.scenarios import load_game

    game = load_game(SCENARIO)
    st = game.new_state(0)
    bots = {s: make_bot("scripted", i, game.info.id) for i, s in enumerate(game.info.sides)}
    for _ in range(SEARCH_AFTER):
        d = st.decision()
        assert d is not None
        st.apply(bots[d.side].choose(st))
    states = []
    for _ in range(n):
        d = st.decision()
        if d is None:
            break
        states.append(st.copy())
        st.apply(bots[d.side].choose(st))
    search = make_bot("mcts", 7, game.info.id)
    out: list[str] = []
    t0 = time.process_time()
    for s in states:
        out.append(str(search.choose(s)))
        root = getattr(search, "last_root", None)
        kids = root.children.items() if root is not None else []
        out.append(repr(sorted((k, v.paired, round(v.gain, 9)) for k, v in kids)))
    secs = time.process_time() - t0
    return secs, len(states), hashlib.sha256("\n".join(out).encode()).hexdigest()


def _line(src: str, n: int, search: bool) -> list[str]:
    return [sys.executable, __file__, "--child", "--src", src, "--battles", str(n)] + (
        ["--search-child"] if search else []
    )


def child(src: str, n: int, search: bool = False, instructions: bool = False) -> tuple[float, int, str]:
    cmd = _line(src, n, search)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if not instructions:
        out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env).stdout.split()
        return float(out[0]), int(out[1]), out[2]
    with tempfile.TemporaryDirectory() as tmp:
        counts = []
        for work in (n, 0):  # the run, then the same set-up with no work
            cg = Path(tmp) / f"cg.{work}"
            done = subprocess.run(
                ["valgrind", "--tool=callgrind", f"--callgrind-out-file={cg}", *_line(src, work, search)],
                check=True,
                capture_output=True,
                text=True,
                env=env,
            )
            if work == n:
                out = done.stdout.split()
            summary = next(x for x in cg.read_text().splitlines() if x.startswith("summary:"))
            counts.append(int(summary.split()[1]))
        return float(counts[0] - counts[1]), int(out[1]), out[2]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--battles", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--src", default=HERE, help="the tree measured (default: this one)")
    ap.add_argument("--baseline", required=False, help="the baseline tree's src folder")
    ap.add_argument("--search", type=int, metavar="N", help="N decisions of the search bot, not battles")
    ap.add_argument("--instructions", action="store_true", help="count instructions (callgrind), once a tree")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--search-child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        run = search_run if args.search_child else one_run
        secs, decisions, digest = run(args.src, args.battles)
        print(f"{secs} {decisions} {digest}")
        return 0
    if args.instructions and shutil.which("valgrind") is None:
        print("--instructions needs valgrind (e.g. apt-get install valgrind)", file=sys.stderr)
        return 2
    search = args.search is not None
    work = args.search if search else args.battles
    repeat = 1 if args.instructions else args.repeat
    trees = {"this": args.src} | ({"baseline": args.baseline} if args.baseline else {})
    load0 = os.getloadavg()[0]
    times: dict[str, list[float]] = {k: [] for k in trees}
    decisions: dict[str, int] = {}
    digests: dict[str, str] = {}
    for _ in range(repeat):
        for key, src in trees.items():
            secs, dec, digest = child(src, work, search, args.instructions)
            times[key].append(secs)
            decisions[key], digests[key] = dec, digest
    load1 = os.getloadavg()[0]
    what = f"{work} searched decisions (mcts)" if search else f"scripted v scripted, {work} battles"
    print(f"{SCENARIO}, {what} x {repeat} processes a tree")
    if args.instructions:
        print("| tree | instructions (callgrind, set-up subtracted) | a decision |")
        print("|---|---|---|")
        for key in trees:
            count = times[key][0]
            print(f"| {key} | {count / 1e9:.3f} G | {count / max(1, decisions[key]) / 1e6:.1f} M |")
    elif search:
        print("| tree | median CPU s | s/decision |")
        print("|---|---|---|")
        for key in trees:
            med = statistics.median(times[key])
            spread = f"{min(times[key]):.3f}..{max(times[key]):.3f}"
            print(f"| {key} | {med:.3f} ({spread}) | {med / max(1, decisions[key]):.3f} |")
    else:
        print("| tree | median CPU s | battles/s/core | ms/decision | decisions/battle |")
        print("|---|---|---|---|---|")
        for key in trees:
            med = statistics.median(times[key])
            print(
                f"| {key} | {med:.3f} ({min(times[key]):.3f}..{max(times[key]):.3f}) | "
                f"{work / med:.2f} | {1000 * med / decisions[key]:.3f} | "
                f"{decisions[key] / work:.0f} |"
            )
    if args.baseline:
        ratio = statistics.median(times["baseline"]) / statistics.median(times["this"])
        same = digests["this"] == digests["baseline"]
        kind = "instructions" if args.instructions else "speed-up"
        alike = "choices and statistics identical" if search else "event logs identical"
        print(f"{kind} baseline/this: {ratio:.2f}x; {alike}: {same}")
    print(f"load average {load0:.1f} -> {load1:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
