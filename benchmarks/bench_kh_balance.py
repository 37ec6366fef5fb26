#!/usr/bin/env python3
"""Knight Hack's scripted bot, measured: the mirror's balance and the bot against ``random``.

    python benchmarks/bench_kh_balance.py        # both built-in Knight Hack scenarios, 200 a pairing
    python benchmarks/bench_kh_balance.py -n 100 --src /tmp/base/src   # another tree (before/after)

On each scenario, four pairings (scripted v scripted, scripted v random, random v scripted, random v
random), battle ``i`` on the seed ``shieldwall simulate --seed 0`` gives it (``sim.seeds.child_seed``),
so the figures are those of ``shieldwall simulate knight-hack/<scenario> -n N --red A --blue B``.
Printed per pairing: red won / blue won / drawn, the battles in which either side lost any points
(ruling R37 counts them), and, where one side is ``scripted`` and the other ``random``, how often
the scripted bot lost, with a 95% Wilson interval.

``--swap`` plays a test copy of each scenario instead: the whole field turned 180 degrees (terrain
and places; a heading turns with it) and the colours swapped, so red plays the army blue had, from
blue's ground turned onto red's edge, and blue red's. The battle is the same but for the colour: a
lean that follows the army is the scenario's; one that stays with the colour is a bias.
"""

from __future__ import annotations

import argparse
import copy
import math
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
_SRC = sys.argv[sys.argv.index("--src") + 1] if "--src" in sys.argv else str(ROOT / "src")
sys.path.insert(0, str(Path(_SRC).resolve()))

PAIRS = [("scripted", "scripted"), ("scripted", "random"), ("random", "scripted"), ("random", "random")]


def wilson(k: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def share(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{k}/{n} ({100 * k / n:.0f}%, {100 * lo:.0f}% to {100 * hi:.0f}%)"


def swapped(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` (a scenario's TOML) with the field turned 180 degrees and the colours swapped."""
    out = copy.deepcopy(data)
    w, d = data["table"]["width"], data["table"]["depth"]
    for t in out.get("terrain", []):
        t["points"] = [[w - x, d - y] for x, y in t["points"]]
    out["red"], out["blue"] = copy.deepcopy(data["blue"]), copy.deepcopy(data["red"])
    for side in ("red", "blue"):
        out[side]["edge"] = data[side]["edge"]
        for p in out[side]["place"]:
            p["x"], p["y"], p["heading"] = w - p["x"], d - p["y"], (p["heading"] + 180) % 360
        if "deploy_zone" in out[side]:
            z = out[side]["deploy_zone"]
            x0, y0, x1, y1 = w - z["x1"], d - z["y1"], w - z["x0"], d - z["y0"]
            out[side]["deploy_zone"] = {"x0": x0, "y0": y0, "x1": x1, "y1": y1}
    return out


def main() -> int:
    from shieldwall.core.datafiles import read_toml
    from shieldwall.io.scenarios import game_from_data, load_game, resolve
    from shieldwall.match import play
    from shieldwall.sim.seeds import child_seed

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, default=200, help="battles a pairing")
    ap.add_argument("--scenarios", nargs="*", default=["bourgtheroulde-1124", "bourgtheroulde-1124-ambush"])
    ap.add_argument("--pairs", default="all", help="all, or e.g. scripted-scripted,scripted-random")
    ap.add_argument("--src", default=None, help="source tree to measure (default: this checkout's src)")
    ap.add_argument("--swap", action="store_true", help="the field turned 180 degrees, colours swapped")
    ap.add_argument("--seed", type=int, default=0, help="battle i plays on child_seed(SEED, i)")
    args = ap.parse_args()
    pairs = PAIRS if args.pairs == "all" else [tuple(p.split("-")) for p in args.pairs.split(",")]
    swap = "; swapped: the field turned 180 degrees, the colours swapped" if args.swap else ""
    print(f"source: {_SRC}{swap}")
    for scen in args.scenarios:
        name = f"knight-hack/{scen}"
        game = game_from_data(swapped(read_toml(resolve(name))), name) if args.swap else load_game(name)
        lost_to_random = [0, 0]
        for red, blue in pairs:
            won = {"red": 0, "blue": 0, None: 0}
            fought = 0
            for i in range(args.n):
                st = play(game, child_seed(args.seed, i), red, blue).state
                r = st.result()
                assert r is not None
                won[r.winner] += 1
                fought += any(st.view()["points_lost"].values())
                if {red, blue} == {"scripted", "random"}:
                    bot_side = "red" if red == "scripted" else "blue"
                    lost_to_random[0] += r.winner not in (None, bot_side)
                    lost_to_random[1] += 1
            print(
                f"{scen} {red} v {blue}: red/blue/drawn {won['red']}/{won['blue']}/{won[None]}; "
                f"any loss {share(fought, args.n)}"
            )
        if lost_to_random[1]:
            print(f"{scen} scripted lost to random, both sides: {share(*lost_to_random)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
