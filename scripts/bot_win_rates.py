#!/usr/bin/env python3
"""Win rates of a rule system's scripted bot against its random bot, per scenario and side.

    python scripts/bot_win_rates.py RULESET [-n 100] [--seed 17] [--workers 1] [SCENARIO ...]

For each scenario (default: every built-in scenario of RULESET) it runs what

    shieldwall simulate RULESET/SCENARIO -n N --seed S --red scripted --blue random --json
    shieldwall simulate RULESET/SCENARIO -n N --seed S --red random --blue scripted --json

run (``shieldwall.sim.simulate.run``, the same code, the same seeds) and prints the Markdown table
of docs/simulate.md and docs/rules/into-the-dark.md: the scripted side's win rate with its 95%
Wilson interval (``sim.stats.wilson``), and the draws where there were any. Run it under
``nice -n 10`` on a shared machine.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "src") not in sys.path:
    sys.path.insert(0, str(ROOT / "src"))


def cell(summary: dict[str, Any], side: str) -> str:
    """``97.5% (94-99)``, with ``, draws 1.0%`` when there were draws."""
    lo, hi = summary["ci95"][side]
    text = f"{100.0 * summary['win_rate'][side]:.1f}% ({100.0 * lo:.0f}-{100.0 * hi:.0f})"
    if summary["draws"]:
        text += f", draws {100.0 * summary['draw_rate']:.1f}%"
    return text


def main(argv: list[str] | None = None) -> int:
    from shieldwall.io.scenarios import builtin_scenarios
    from shieldwall.sim.simulate import SimConfig, run

    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("ruleset", help="rule system id, e.g. one-hour-dark-ages, into-the-dark")
    ap.add_argument("scenarios", nargs="*", help="scenario names (default: the rule system's built-ins)")
    ap.add_argument("-n", "--battles", type=int, default=100, help="battles per scenario and side")
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--workers", type=int, default=1)
    a = ap.parse_args(argv)
    names = [k.split("/", 1)[1] for k in builtin_scenarios() if k.split("/", 1)[0] == a.ruleset]
    scenarios = a.scenarios or names
    if not scenarios:
        print(f"no built-in scenarios of {a.ruleset!r}", file=sys.stderr)
        return 2
    print(
        f"{a.ruleset}: the scripted bot against the random bot, {a.battles} battles per scenario and "
        f"side, seed {a.seed}; win rate of the scripted side (95% Wilson interval)\n"
    )
    print("| scenario | scripted as red v random | scripted as blue v random |")
    print("|---|---|---|")
    t0 = time.perf_counter()
    for scen in scenarios:
        cells = []
        for side in ("red", "blue"):
            red, blue = ("scripted", "random") if side == "red" else ("random", "scripted")
            config = SimConfig(
                f"{a.ruleset}/{scen}", battles=a.battles, seed=a.seed, workers=a.workers, red=red, blue=blue
            )
            cells.append(cell(run(config).to_dict(), side))
        print(f"| {scen} | {cells[0]} | {cells[1]} |", flush=True)
    print(f"\n({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
