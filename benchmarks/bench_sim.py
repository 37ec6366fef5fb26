#!/usr/bin/env python3
"""Simulator benchmark: battles per second (1 and 2 workers), a profile split, and memory flatness.

    .venv/bin/python benchmarks/bench_sim.py [--battles N] [--repeat R] [--profile M] [--memory 50,400]
                                             [--src DIR] [--red BOT] [--blue BOT] [--skip-workers]

* speed: scripted v scripted on the default scenario. One worker runs in this process (median of R
  runs of N battles, wall and CPU time); two workers run ``shieldwall.sim`` with a local process
  pool of 2 (median of R runs of 2N battles, wall time, process start-up included).
* profile: cProfile of M battles in this process, split into engine (applying orders, legal-order
  menus, state views), bots (the bots' own reasoning) and dice (drawing from the generator), plus the
  top 20 functions by own time.
* memory: peak RSS of a whole ``simulate`` run (driver and workers) for each N given, each in a fresh
  subprocess: flat in N means results are streamed.

``--src DIR`` puts another source tree first on the path (e.g. a copy of the code before an
optimisation), so before/after numbers come from the same command.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _setup_path(src: str | None) -> None:
    path = str(Path(src).resolve()) if src else str(ROOT / "src")
    sys.path.insert(0, path)
    os.environ["PYTHONPATH"] = path + os.pathsep + os.environ.get("PYTHONPATH", "")


def one_worker(red: str, blue: str, n: int, repeat: int) -> dict[str, float]:
    from shieldwall.io.scenarios import load_game
    from shieldwall.match import play
    from shieldwall.sim.seeds import spawned_seeds

    game = load_game(None)
    seeds = spawned_seeds(0, n)
    walls, cpus, decisions = [], [], 0
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        decisions = 0
        for s in seeds:
            decisions += len(play(game, s, red, blue).orders)
        walls.append(time.perf_counter() - w0)
        cpus.append(time.process_time() - c0)
    return {
        "battles": n,
        "bps_wall": n / statistics.median(walls),
        "bps_wall_min": n / max(walls),
        "bps_wall_max": n / min(walls),
        "bps_cpu": n / statistics.median(cpus),
        "decisions_per_battle": decisions / n,
    }


def two_workers(red: str, blue: str, n: int, repeat: int) -> dict[str, float]:
    from shieldwall.sim.simulate import SimConfig, run

    rates = []
    for _ in range(repeat):
        res = run(SimConfig(None, battles=n, seed=0, workers=2, red=red, blue=blue))
        rates.append(res.battles_per_second)
    return {
        "battles": n,
        "bps_wall": statistics.median(rates),
        "bps_wall_min": min(rates),
        "bps_wall_max": max(rates),
    }


def profile(red: str, blue: str, n: int) -> dict[str, object]:
    from shieldwall.io.scenarios import load_game
    from shieldwall.match import play
    from shieldwall.sim.seeds import spawned_seeds

    game = load_game(None)
    play(game, 0, red, blue)  # warm caches and imports outside the profile
    prof = cProfile.Profile()
    prof.enable()
    for s in spawned_seeds(0, n):
        play(game, s, red, blue)
    prof.disable()
    st = pstats.Stats(prof)
    raw = st.stats  # type: ignore[attr-defined]

    def cum(file_part: str, name: str) -> float:
        return float(sum(v[3] for (f, _, fn), v in raw.items() if fn == name and file_part in f))

    total = cum("shieldwall/match.py", "play")
    # ScriptedBot.choose wraps OneHourGeneral.choose: count the outer one only
    choose = cum("one_hour/bots/__init__.py", "choose") + cum("shieldwall/ai/random_bot.py", "choose")
    legal = cum("one_hour/state.py", "legal_orders")
    view = cum("one_hour/state.py", "view")
    apply = cum("one_hour/state.py", "apply")
    new_state = cum("one_hour/game.py", "new_state")
    dice = cum("core/dice.py", "roll") + cum("core/dice.py", "roll_n") + cum("core/dice.py", "sample")
    bots_only = choose - legal - view
    engine = total - bots_only - dice
    top = sorted(raw.items(), key=lambda kv: -kv[1][2])[:20]
    rows = []
    for (f, line, fn), v in top:
        short = f.split("/src/")[-1] if "/src/" in f else f.split("/")[-1]
        rows.append({"function": f"{short}:{line}({fn})", "calls": v[1], "own_s": v[2], "cum_s": v[3]})
    return {
        "battles": n,
        "total_s": total,
        "per_battle_ms": 1000 * total / n,
        "engine_s": engine,
        "engine_parts_s": {
            "apply (orders + automatic steps)": apply - dice,
            "legal_orders (menus)": legal,
            "view (state pictures for bots)": view,
            "new_state": new_state,
        },
        "bots_s": bots_only,
        "dice_s": dice,
        "top20": rows,
    }


def memory(red: str, blue: str, sizes: list[int], src: str | None) -> list[dict[str, float]]:
    out = []
    for n in sizes:
        code = (
            "import resource, json, sys\n"
            "from shieldwall.sim.simulate import SimConfig, run\n"
            f"r = run(SimConfig(None, battles={n}, seed=0, workers=2, red={red!r}, blue={blue!r}))\n"
            "me = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
            "kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
            "print(json.dumps({'driver_kb': me, 'worker_kb': kids, 'bps': r.battles_per_second}))\n"
        )
        env = dict(os.environ)
        t0 = time.perf_counter()
        res = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
        )
        got = json.loads(res.stdout.strip().splitlines()[-1])
        out.append(
            {
                "battles": n,
                "driver_peak_mb": got["driver_kb"] / 1024,
                "worker_peak_mb": got["worker_kb"] / 1024,
                "seconds": time.perf_counter() - t0,
                "bps": got["bps"],
            }
        )
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--battles", type=int, default=10, help="battles per timed run (1 worker; 2N for 2)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--profile", type=int, default=5, help="battles to profile (0: skip)")
    ap.add_argument("--memory", default="", help="comma-separated N for the peak-RSS runs (e.g. 50,400)")
    ap.add_argument("--red", default="scripted")
    ap.add_argument("--blue", default="scripted")
    ap.add_argument("--memory-bots", default="", help="RED,BLUE for the memory runs (default: --red/--blue)")
    ap.add_argument("--src", default=None, help="source tree to benchmark (default: this checkout's src)")
    ap.add_argument("--skip-workers", action="store_true", help="skip the 1- and 2-worker timings")
    ap.add_argument("--json", default=None, help="also write the results to this JSON file")
    args = ap.parse_args()
    sizes: list[int] = []
    if args.memory:
        try:
            sizes = [int(x) for x in args.memory.split(",")]
        except ValueError:
            ap.error(f"--memory {args.memory!r}: comma-separated battle counts, e.g. 50,400")
        if any(n < 1 for n in sizes):
            ap.error(f"--memory {args.memory!r}: each battle count must be at least 1")
    _setup_path(args.src)
    import shieldwall

    result: dict[str, object] = {
        "src": str(Path(shieldwall.__file__).parent),
        "red": args.red,
        "blue": args.blue,
    }
    print(f"shieldwall from {result['src']}; {args.red} v {args.blue}, default scenario")
    if not args.skip_workers:
        one = one_worker(args.red, args.blue, args.battles, args.repeat)
        result["one_worker"] = one
        print(
            f"1 worker : {one['bps_wall']:.3f} battles/s wall (median of {args.repeat}; "
            f"{one['bps_wall_min']:.3f}..{one['bps_wall_max']:.3f}), {one['bps_cpu']:.3f} battles/s of CPU, "
            f"{one['decisions_per_battle']:.0f} decisions/battle"
        )
        two = two_workers(args.red, args.blue, 2 * args.battles, args.repeat)
        result["two_workers"] = two
        print(
            f"2 workers: {two['bps_wall']:.3f} battles/s wall (median of {args.repeat}; "
            f"{two['bps_wall_min']:.3f}..{two['bps_wall_max']:.3f}), pool start-up included"
        )
    if args.profile:
        p = profile(args.red, args.blue, args.profile)
        result["profile"] = p
        tot = float(p["total_s"])  # type: ignore[arg-type]
        print(f"\nprofile of {args.profile} battles: {p['per_battle_ms']:.0f} ms per battle under cProfile")
        for k in ("engine_s", "bots_s", "dice_s"):
            v = float(p[k])  # type: ignore[arg-type]
            print(f"  {k[:-2]:<7} {v:8.3f} s  {100 * v / tot:5.1f}%")
        for k, v in p["engine_parts_s"].items():  # type: ignore[attr-defined]
            print(f"    engine/{k:<34} {v:8.3f} s  {100 * v / tot:5.1f}%")
        print("\n  top 20 by own time:")
        print(f"  {'own s':>8} {'cum s':>8} {'calls':>9}  function")
        for r in p["top20"]:  # type: ignore[attr-defined]
            print(f"  {r['own_s']:8.3f} {r['cum_s']:8.3f} {r['calls']:9d}  {r['function']}")
    if args.memory:
        red, blue = args.memory_bots.split(",") if args.memory_bots else (args.red, args.blue)
        m = memory(red, blue, sizes, args.src)
        result["memory"] = m
        print(f"\npeak RSS ({red} v {blue}, 2 workers):")
        for r in m:
            print(
                f"  N={r['battles']:<5} driver {r['driver_peak_mb']:7.1f} MB, largest worker "
                f"{r['worker_peak_mb']:7.1f} MB, {r['seconds']:.0f} s, {r['bps']:.2f} battles/s"
            )
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
