#!/usr/bin/env python3
"""The Python engine stays the referee (issue 16): seeded battles of every scenario of every
registered rule system, played on the fast paths and on their references, compared event by event.

    .venv/bin/python benchmarks/bench_fast_vs_reference.py                       # 1,000 battles a scenario
    .venv/bin/python benchmarks/bench_fast_vs_reference.py --battles 100 --scenarios knight-hack,dbm-3.2
    nice -n 10 .venv/bin/python benchmarks/bench_fast_vs_reference.py --seconds 600   # <= ~10 min a scenario

Each battle (seeds ``--first-seed`` on, the bot pairings scripted v scripted, scripted v random,
random v scripted, random v random in turn) is played twice in this process: on the fast paths, then
with ``core.reference.reference_path()`` (every fast path on its plain reference). Its record (every
event as JSON, every order, the result; with ``--menus-every K`` also the legal menu after every
order of every K-th battle) is hashed (SHA-256) and the two hashes compared; for a mismatch the
first differing line is printed and saved. The timing ratio fast/reference is the play time of the
fast runs over that of the reference runs (wall clock, the two alternated battle by battle, so the
machine's load falls on both alike).

``--seconds S`` stops a scenario after the first whole round of pairings that ends past S seconds,
so that cheap scenarios play all their battles and the costly ones as many as the time allows; the
JSON says exactly how many each played. Results: ``benchmarks/results/fast_vs_reference-<time>.json``
(or ``--out``). Exit status 1 if any battle's records differ.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from rich.console import Console  # noqa: E402
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn  # noqa: E402
from rich.table import Table  # noqa: E402

from shieldwall.sim import referee as R  # noqa: E402


def _commit() -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
        )
        if out.returncode != 0:
            return os.environ.get("SHIELDWALL_COMMIT", "unknown (not a git checkout)")
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "src"], cwd=ROOT, capture_output=True, text=True
        )
        return out.stdout.strip() + ("+changes" if dirty.stdout.strip() else "")
    except OSError:
        return "unknown"


def _pick(names: str | None) -> list[str]:
    every = R.scenarios()
    if not names:
        return every
    out: list[str] = []
    for n in (x.strip() for x in names.split(",") if x.strip()):
        got = [s for s in every if s == n or s.split("/", 1)[0] == n or s.split("/", 1)[1] == n]
        if not got:
            raise SystemExit(f"no built-in scenario or rule system {n!r}; there are: {', '.join(every)}")
        out += [s for s in got if s not in out]
    return out


def run_scenario(
    scenario: str,
    battles: int,
    first_seed: int,
    seconds: float | None,
    menus_every: int,
    progress: Progress,
    task: Any,
) -> dict[str, Any]:
    games = R.load_both(scenario)
    todo = R.cases(scenario, battles, first_seed)
    rounds = len(R.PAIRS)
    played = 0
    fast_s = ref_s = 0.0
    decisions = 0
    by_pair: dict[str, dict[str, float]] = {}
    mismatches: list[dict[str, str]] = []
    menus_hashed = 0
    stopped = "battles"
    t0 = time.perf_counter()
    for i, case in enumerate(todo):
        if seconds is not None and i % rounds == 0 and i > 0 and time.perf_counter() - t0 > seconds:
            stopped = "time"
            break
        menus = menus_every > 0 and i % menus_every == 0
        v = R.referee(games, case, menus=menus)
        played += 1
        menus_hashed += menus
        fast_s += v.fast.seconds
        ref_s += v.ref.seconds
        decisions += v.fast.decisions
        pair = by_pair.setdefault(f"{case.red} v {case.blue}", {"battles": 0, "fast_s": 0.0, "ref_s": 0.0})
        pair["battles"] += 1
        pair["fast_s"] += v.fast.seconds
        pair["ref_s"] += v.ref.seconds
        diff = v.difference
        if diff is not None:
            mismatches.append({"battle": case.label, "first_difference": diff})
            progress.console.print(f"[red]MISMATCH[/red] {case.label}: {diff[:400]}")
        progress.update(
            task,
            advance=1,
            description=f"{scenario} ({len(mismatches)} bad, fast/ref {fast_s / max(ref_s, 1e-9):.2f})",
        )
    for p in by_pair.values():
        p["ratio"] = p["fast_s"] / p["ref_s"] if p["ref_s"] else float("nan")
    return {
        "battles": played,
        "requested": battles,
        "stopped_by": stopped,
        "seeds": [first_seed, first_seed + played - 1],
        "menus_hashed_battles": menus_hashed,
        "decisions": decisions,
        "fast_seconds": round(fast_s, 3),
        "reference_seconds": round(ref_s, 3),
        "ratio_fast_over_reference": round(fast_s / ref_s, 4) if ref_s else None,
        "by_pairing": {
            k: {**v, "fast_s": round(v["fast_s"], 3), "ref_s": round(v["ref_s"], 3)}
            for k, v in by_pair.items()
        },
        "mismatches": mismatches,
    }


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--battles", type=int, default=1000, help="battles per scenario (default 1000)")
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument(
        "--scenarios",
        help="comma-separated scenarios (<id>/<stem> or stem) or rule-system ids; all by default",
    )
    ap.add_argument(
        "--seconds", type=float, help="stop a scenario after the round that passes this many seconds"
    )
    ap.add_argument(
        "--menus-every", type=int, default=20, help="hash the menus of every K-th battle (0: never)"
    )
    ap.add_argument(
        "--out", type=Path, help="results JSON (default benchmarks/results/fast_vs_reference-<time>.json)"
    )
    args = ap.parse_args(argv)
    if args.battles < 1:
        ap.error("--battles must be at least 1")
    scenarios = _pick(args.scenarios)
    started = datetime.now(UTC)
    out = args.out or ROOT / "benchmarks" / "results" / f"fast_vs_reference-{started:%Y%m%dT%H%M%SZ}.json"
    console = Console(stderr=True)
    load0 = os.getloadavg()
    results: dict[str, Any] = {}
    commit = _commit()
    command = " ".join([Path(sys.argv[0]).name, *(argv if argv is not None else sys.argv[1:])])

    def save(complete: bool) -> dict[str, Any]:
        """Write the results so far (after every scenario, so a run cut short keeps them)."""
        total_fast = sum(r["fast_seconds"] for r in results.values())
        total_ref = sum(r["reference_seconds"] for r in results.values())
        doc = {
            "command": command,
            "commit": commit,
            "complete": complete,
            "started": started.isoformat(timespec="seconds"),
            "finished": datetime.now(UTC).isoformat(timespec="seconds"),
            "load_average_before_after": [round(load0[0], 2), round(os.getloadavg()[0], 2)],
            "battles": sum(r["battles"] for r in results.values()),
            "mismatches": sum(len(r["mismatches"]) for r in results.values()),
            "ratio_fast_over_reference": round(total_fast / total_ref, 4) if total_ref else None,
            "scenarios": results,
        }
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        return doc

    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
    ) as progress:
        for scen in scenarios:
            task = progress.add_task(scen, total=args.battles)
            results[scen] = run_scenario(
                scen, args.battles, args.first_seed, args.seconds, args.menus_every, progress, task
            )
            progress.update(task, total=results[scen]["battles"])
            save(complete=False)
    doc = save(complete=True)
    load1 = doc["load_average_before_after"][1]
    bad = doc["mismatches"]
    table = Table(title=f"fast v reference ({commit}, load {load0[0]:.1f} -> {load1:.1f})")
    for col in ("scenario", "battles", "mismatches", "fast s", "reference s", "fast/ref"):
        table.add_column(col, justify="left" if col == "scenario" else "right")
    for scen, r in results.items():
        table.add_row(
            scen,
            f"{r['battles']}{'' if r['stopped_by'] == 'battles' else ' (time)'}",
            str(len(r["mismatches"])),
            f"{r['fast_seconds']:.1f}",
            f"{r['reference_seconds']:.1f}",
            f"{r['ratio_fast_over_reference']:.2f}",
        )
    Console().print(table)
    print(f"{doc['battles']} battles, {bad} mismatches; saved {out}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
