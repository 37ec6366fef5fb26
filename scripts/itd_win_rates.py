#!/usr/bin/env python3
"""Win rates of into-the-dark's scripted bot against the random bot, per scenario and side.

    python scripts/itd_win_rates.py [-n 30] [--seed 1000] [--variant KEY=VALUE ...] [SCENARIO ...]

Plays ``match.play`` battles with seeds ``seed .. seed+n-1``: the scripted bot as red against the
random bot, then as blue, on each scenario (default: every built-in into-the-dark scenario), with the
given rule parameters (e.g. ``--variant command_and_control=true``), one process. Prints the
Command & Control table of docs/rules/into-the-dark.md ("The bots on the corrected rules"); the
table with default options and 95% Wilson intervals is ``scripts/bot_win_rates.py``'s.
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

SCENARIOS = ["into-the-dark/senlac", "into-the-dark/wye-fords"]


def _value(raw: str) -> Any:
    return {"true": True, "false": False}.get(raw.lower(), raw)


def main(argv: list[str] | None = None) -> int:
    from shieldwall.io.scenarios import load_game
    from shieldwall.match import play

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenarios", nargs="*", default=SCENARIOS)
    ap.add_argument("-n", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--variant", action="append", default=[], metavar="KEY=VALUE")
    a = ap.parse_args(argv)
    opts = {k: _value(v) for k, _, v in (x.partition("=") for x in a.variant)}
    print("| Scenario | Scripted side | Won | Drawn | Lost | Win rate |")
    print("| --- | --- | --- | --- | --- | --- |")
    t0 = time.perf_counter()
    for scen in a.scenarios:
        game = load_game(scen, opts or None)
        for side in ("red", "blue"):
            red, blue = ("scripted", "random") if side == "red" else ("random", "scripted")
            won = drawn = lost = 0
            for seed in range(a.seed, a.seed + a.n):
                result = play(game, seed, red, blue).state.result()
                assert result is not None
                if result.winner is None:
                    drawn += 1
                elif result.winner == side:
                    won += 1
                else:
                    lost += 1
            rate = 100.0 * won / max(1, a.n)
            print(f"| `{scen}` | {side} | {won} | {drawn} | {lost} | {rate:.0f}% |", flush=True)
    print(f"({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
