#!/usr/bin/env python3
"""Issue 16 ("Fast core") benchmarks, each against a baseline measured in the same run.

    .venv/bin/python benchmarks/bench_fast_core.py [--quick] [--only duels,queries,sim,memory]
                                                   [--memory-sizes 1000,5000,20000] [--json FILE]

* duels: the float64 duel solvers (the default) against the exact ones (the baseline), cold
  (every memo cleared before each call), medians: the 24 v 24 into-the-dark duel (target < 50 ms),
  the full one-hour-dark-ages matchup table (14 types x 3 facings, 588 duels; target < 2 s), d5 and
  d6, and the into-the-dark table; with the largest error seen against the exact answer and the
  error bound the float solution states.
* queries: into-the-dark morale and shooting queries against icepool building the same
  distribution (the baseline; target >= 20x), three ways: "repeat" (the query memo answers),
  "new" (a question not asked before in a warm process: query, settings and situation memos
  cleared) and "cold" (every memo cleared but the parsed units); the cases take turns in blocks so
  that a change of load falls on all alike.
* sim: ``simulate`` on 2 local workers against 1 worker (the baseline; target >= 1.8x), the same
  battles (a 2-turn copy of bryn-glas, scripted v scripted), runs alternated, medians; also the CPU
  time of each run (this process and its workers) and whether the results are identical.
* memory: peak RSS (driver, and the largest worker) of whole ``simulate`` runs of N battles on 2
  workers, each in a fresh process (a 1-turn copy of bryn-glas, random v random: cheap battles, so
  that large N are reachable): flat in N means results are streamed.

The machine's load (``os.getloadavg``) is printed before and after each section: on a shared
machine the timings are only as good as the load allows. Prints markdown tables.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "odds"))


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.2f} (5 min {five:.2f}) on {os.cpu_count()} cores"


def fmt(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.2f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


def median_cold(fn: Callable[[], object], reps: int, clear: Callable[[], None]) -> float:
    fn()
    times = []
    for _ in range(reps):
        clear()
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


# --- duels ------------------------------------------------------------------------------------


def duels(quick: bool) -> list[dict[str, Any]]:
    from shieldwall import odds
    from shieldwall.core import dice as core_dice
    from shieldwall.odds import float_alternating, markov
    from shieldwall.rulesets.into_the_dark import odds as itd
    from shieldwall.rulesets.one_hour import odds as oh

    def clear() -> None:
        oh.PLUGIN.clear_memo()
        itd.PLUGIN.clear_memo()
        oh.situation_dist.cache_clear()
        itd.situation_dist.cache_clear()
        markov._solve.cache_clear()
        markov._adjugate.cache_clear()
        float_alternating._solve.cache_clear()
        core_dice._uniform.cache_clear()

    def worst(f: Any, e: Any) -> float:
        if hasattr(f, "turns"):
            errs = [abs(getattr(f, k) - float(getattr(e, k))) for k in ("first_wins", "second_wins", "draw")]
            errs += [abs(f.turns[t] - float(p)) for t, p in e.turns.items()]
            return max(errs)
        errs = []
        for fac in f.first_wins:
            for rf, re_ in zip(f.first_wins[fac], e.first_wins[fac], strict=True):
                errs += [abs(float(x) - float(y)) for x, y in zip(rf, re_, strict=True) if x is not None]
        return max(errs)

    itd_a, itd_b = "24 CPF average shieldwall", "24 CUF average warband"
    oh_rs, itd_rs = "one-hour-dark-ages", "into-the-dark"
    cases: list[tuple[str, Callable[[bool], Any], int, str]] = [
        ("into-the-dark duel 24 v 24", lambda ex: odds.duel(itd_rs, itd_a, itd_b, exact=ex), 7, "< 50 ms"),
        (
            "into-the-dark duel 12 v 12",
            lambda ex: odds.duel(itd_rs, "12 CAF average", "12 CPF average", exact=ex),
            9,
            "",
        ),
        (
            "one-hour matchup table, 14 types x 3 facings (588 duels), d5",
            lambda ex: odds.matrix(oh_rs, {"types": "all"}, exact=ex),
            7,
            "< 2 s",
        ),
        (
            "one-hour matchup table, 14 types x 3 facings, d6",
            lambda ex: odds.matrix(oh_rs, {"types": "all", "dice": "d6"}, exact=ex),
            5,
            "< 2 s",
        ),
        (
            "into-the-dark matchup table, 14 types (196 duels)",
            lambda ex: odds.matrix(itd_rs, exact=ex),
            3,
            "",
        ),
    ]
    rows = []
    for label, q, reps, target in cases:
        reps = max(1, reps // 3) if quick else reps
        t_float = median_cold(lambda q=q: q(False), reps, clear)  # type: ignore[misc]
        t_exact = median_cold(lambda q=q: q(True), reps, clear)  # type: ignore[misc]
        f, e = q(False), q(True)
        rows.append(
            {
                "what": label,
                "float64": t_float,
                "exact (baseline)": t_exact,
                "speed-up": t_exact / t_float,
                "target": target,
                "largest error": worst(f, e),
                "stated bound": f.error_bound,
            }
        )
    return rows


# --- queries ------------------------------------------------------------------------------------


def interleaved(
    cases: list[tuple[Callable[[], object], Callable[[], object] | None]], reps: int
) -> list[float]:
    """Median seconds per call of each ``(fn, setup)``, the cases taking turns in blocks of 50."""
    for fn, _ in cases:
        fn()
    times: list[list[float]] = [[] for _ in cases]
    clock = time.perf_counter
    for _ in range(max(1, reps // 50)):
        for (fn, setup), ts in zip(cases, times, strict=True):
            for _ in range(50):
                if setup is not None:
                    setup()
                t0 = clock()
                fn()
                ts.append(clock() - t0)
    return [statistics.median(ts) for ts in times]


def queries(quick: bool) -> list[dict[str, Any]]:
    import icepool
    import icepool_oracle as oracle

    from shieldwall import odds
    from shieldwall.core import dice as core_dice
    from shieldwall.rulesets.into_the_dark import combat as itd_combat
    from shieldwall.rulesets.into_the_dark import morale as itd_morale
    from shieldwall.rulesets.into_the_dark import odds as itd

    rs = "into-the-dark"

    def new() -> None:
        itd.PLUGIN.clear_memo()
        itd.situation_dist.cache_clear()

    def cold() -> None:
        new()
        itd.queries._outcomes.cache_clear()
        itd.sides.cached_troops.cache_clear()
        itd_combat.binomial_dist.cache_clear()
        itd_combat._MOD_OF.clear()
        itd_morale.morale_dist.cache_clear()
        itd_morale.control_dist.cache_clear()
        core_dice._uniform.cache_clear()

    msets = {"casualties": 6, "shaken": "yes"}

    def morale_q() -> object:
        return odds.morale(rs, "12 CAF average shieldwall", msets).outcomes

    def morale_ice() -> object:
        # average 3, shieldwall +1, 6 of 12 lost -2, shaken -1; over the level by 1 shakes, by 2-3
        # drives back, by 4+ routs
        level = 3 + 1 - 2 - 1
        return icepool.d6.map(
            lambda f: 0 if f <= level else 1 if f - level == 1 else 2 if f - level <= 3 else 3
        )

    assert dict(morale_ice().items()) == {0: 1, 1: 1, 2: 2, 3: 2}
    ssets = {"mode": "shoot", "range": "long"}

    def shot_q() -> object:
        return odds.attack(rs, "24 LUF levy bow", "12 LPF average", ssets).dist

    def shot_ice() -> object:
        return 3 @ (icepool.d6 >= max(2, min(6, 4 + 1)))  # 3 d6 at long range, 5+

    assert (
        oracle.die_probs(shot_ice())
        == odds.attack(rs, "24 LUF levy bow", "12 LPF average", ssets).probabilities
    )
    rows = []
    for label, q, ice in [("morale query", morale_q, morale_ice), ("shooting query", shot_q, shot_ice)]:
        reps = 1000 if quick else 5000
        t_rep, t_new, t_cold, t_ice = interleaved([(q, None), (q, new), (q, cold), (ice, None)], reps)
        rows.append(
            {
                "what": f"into-the-dark {label}",
                "icepool (baseline)": t_ice,
                "repeat": t_rep,
                "new": t_new,
                "cold": t_cold,
                "x repeat": t_ice / t_rep,
                "x new": t_ice / t_new,
                "x cold": t_ice / t_cold,
            }
        )
    return rows


# --- simulate -----------------------------------------------------------------------------------


def short_scenario(turns: int) -> str:
    from shieldwall.io.scenarios import resolve

    text, n = re.subn(r"(?m)^turns\s*=\s*\d+", f"turns = {turns}", resolve("bryn-glas").read_text("utf-8"))
    assert n == 1
    path = Path(tempfile.mkdtemp(prefix="bench16-")) / f"bryn-glas-{turns}-turns.toml"
    path.write_text(text, "utf-8")
    return str(path)


def sim(quick: bool) -> dict[str, Any]:
    import resource

    from shieldwall.sim.simulate import SimConfig, run

    scen = short_scenario(2)
    n, reps = (24, 2) if quick else (60, 3)
    walls: dict[int, list[float]] = {1: [], 2: []}
    cpus: dict[int, list[float]] = {1: [], 2: []}
    outs: dict[int, str] = {}

    def cpu() -> float:
        me = resource.getrusage(resource.RUSAGE_SELF)
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime

    for _ in range(reps):
        for w in (1, 2):
            c0, t0 = cpu(), time.perf_counter()
            res = run(SimConfig(scen, battles=n, seed=0, workers=w))
            walls[w].append(time.perf_counter() - t0)
            cpus[w].append(cpu() - c0)
            d = res.to_dict()
            for k in ("seconds", "battles_per_second", "workers"):
                d.pop(k)
            outs.setdefault(w, json.dumps(d, sort_keys=True))
    w1, w2 = statistics.median(walls[1]), statistics.median(walls[2])
    c1, c2 = statistics.median(cpus[1]), statistics.median(cpus[2])
    return {
        "battles": n,
        "runs": reps,
        "1 worker (baseline) s": w1,
        "2 workers s": w2,
        "speed-up": w1 / w2,
        "cpu 1 worker s": c1,
        "cpu 2 workers s": c2,
        # what 2 idle cores would give: the work split in two, its overhead included
        "speed-up on 2 idle cores (cpu)": 2 * c1 / c2,
        "identical results": outs[1] == outs[2],
        "walls": walls,
    }


def memory(sizes: list[int]) -> list[dict[str, Any]]:
    scen = short_scenario(1)
    out = []
    for n in sizes:
        code = (
            "import resource, json\n"
            "from shieldwall.sim.simulate import SimConfig, run\n"
            "if __name__ == '__main__':\n"
            f"    r = run(SimConfig({scen!r}, battles={n}, seed=0, workers=2, red='random', blue='random'))\n"
            "    me = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
            "    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
            "    print(json.dumps({'driver_kb': me, 'worker_kb': kids, 'bps': r.battles_per_second}))\n"
        )
        t0 = time.perf_counter()
        res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        got = json.loads(res.stdout.strip().splitlines()[-1])
        out.append(
            {
                "battles": n,
                "driver peak MB": got["driver_kb"] / 1024,
                "worker peak MB": got["worker_kb"] / 1024,
                "seconds": time.perf_counter() - t0,
                "battles/s": got["bps"],
            }
        )
    return out


def table(rows: list[dict[str, Any]]) -> str:
    keys = [k for k in rows[0] if k != "walls"]
    lines = ["| " + " | ".join(keys) + " |", "|" + "---|" * len(keys)]
    for r in rows:
        cells = []
        for k in keys:
            v = r[k]
            if isinstance(v, float):
                if k.startswith("x ") or k.startswith("speed-up"):
                    cells.append(f"{v:.1f}x")
                elif "error" in k or "bound" in k:
                    cells.append(f"{v:.1e}")
                elif k.endswith("MB") or k.endswith(" s") or k in ("seconds", "battles/s"):
                    cells.append(f"{v:.1f}")
                else:
                    cells.append(fmt(v))
            else:
                cells.append(str(v))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="fewer repetitions")
    ap.add_argument("--only", default="duels,queries,sim,memory", help="sections to run")
    ap.add_argument("--memory-sizes", default="1000,5000,20000", help="N for the peak-RSS runs")
    ap.add_argument("--json", default=None, help="also write the results to this JSON file")
    args = ap.parse_args()
    only = set(args.only.split(","))
    result: dict[str, Any] = {}
    print(f"shieldwall from {ROOT / 'src'}; {load()}\n")
    if "duels" in only:
        result["duels"] = duels(args.quick)
        print("## Duels to the finish: float64 (default) against exact (baseline), cold\n")
        print(table(result["duels"]) + f"\n\n{load()}\n")
    if "queries" in only:
        result["queries"] = queries(args.quick)
        print("## Morale and shooting queries against icepool (baseline)\n")
        print(table(result["queries"]) + f"\n\n{load()}\n")
    if "sim" in only:
        result["sim"] = sim(args.quick)
        print("## simulate: 2 local workers against 1 (baseline), bryn-glas cut to 2 turns\n")
        print(table([result["sim"]]) + f"\n\n{load()}\n")
    if "memory" in only:
        sizes = [int(x) for x in args.memory_sizes.split(",") if x]
        result["memory"] = memory(sizes)
        print("## simulate: peak RSS against N (2 workers, bryn-glas cut to 1 turn, random v random)\n")
        print(table(result["memory"]) + f"\n\n{load()}\n")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2, default=str), "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
