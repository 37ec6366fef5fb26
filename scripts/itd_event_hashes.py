#!/usr/bin/env python3
"""Equivalence check for into-the-dark speed work: hash the event logs of seeded battles.

    python scripts/itd_event_hashes.py --save FILE     # record the hashes of the current code
    python scripts/itd_event_hashes.py --check FILE    # compare; exit 1 on any difference
    python scripts/itd_event_hashes.py --check FILE --src /tmp/before/src   # another tree

benchmarks/itd_event_hashes.json holds the hashes of the code as it stands (regenerate it, like the
goldens, only when a ruling changes on purpose). The into-the-dark counterpart of
scripts/event_hashes.py (which plays one-hour battles).

Plays a fixed set of battles on both built-in into-the-dark scenarios (scripted v scripted,
scripted v random, random v scripted, random v random; some with the optional rules of Part III:
Command & Control, Difficult Maneuvers, alternate and concealed deployment, 15mm scale) and hashes,
per battle, the event log (as the golden files write it), the orders given and the result. For a
few battles it also hashes the full legal-order menu at every decision, so a change in a menu shows
even when the bots would not have noticed it. Any optimisation must leave every hash unchanged.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# --src DIR: check another source tree (e.g. a copy of the code before an optimisation)
_SRC = sys.argv[sys.argv.index("--src") + 1] if "--src" in sys.argv else str(ROOT / "src")
sys.path.insert(0, str(Path(_SRC).resolve()))

SCENARIOS = ["into-the-dark/senlac", "into-the-dark/wye-fords"]
PAIRS = [("scripted", "scripted"), ("scripted", "random"), ("random", "scripted"), ("random", "random")]

#: (scenario, seed, red, blue, overrides, hash menus)
CASES: list[tuple[str, int, str, str, dict[str, Any], bool]] = []
for i, scen in enumerate(SCENARIOS):
    for j, (red, blue) in enumerate(PAIRS):
        CASES.append((scen, 200 + 7 * i + j, red, blue, {}, j in (0, 3)))
for seed in (5, 6):
    CASES.append(
        ("into-the-dark/senlac", seed, "scripted", "scripted", {"command_and_control": True}, seed == 5)
    )
    CASES.append(
        ("into-the-dark/wye-fords", seed, "scripted", "random", {"difficult_maneuvers": True}, False)
    )
    CASES.append(
        (
            "into-the-dark/senlac",
            seed,
            "random",
            "scripted",
            {"deployment": "alternate", "scale": "15mm"},
            False,
        )
    )
    CASES.append(
        (
            "into-the-dark/wye-fords",
            seed,
            "scripted",
            "scripted",
            {"deployment": "alternate", "concealed_deployment": True},
            seed == 6,
        )
    )


def one(case: tuple[str, int, str, str, dict[str, Any], bool]) -> tuple[str, str, float]:
    from shieldwall.io.scenarios import load_game
    from shieldwall.match import play

    scen, seed, red, blue, overrides, menus = case
    game = load_game(scen, overrides) if overrides else load_game(scen)
    h_menu = hashlib.sha256()

    def on_order(state: Any, order: Any) -> None:
        if menus and not state.is_terminal():
            for o in state.legal_orders():
                h_menu.update(str(o).encode())
                h_menu.update(b"\x00")
            h_menu.update(b"\x01")

    t0 = time.perf_counter()
    played = play(game, seed, red, blue, on_order=on_order)
    secs = time.perf_counter() - t0
    h = hashlib.sha256()
    for e in played.state.events:
        h.update(json.dumps(e.to_dict(), sort_keys=True, ensure_ascii=False).encode())
        h.update(b"\n")
    for o in played.orders:
        h.update(str(o).encode())
        h.update(b"\n")
    h.update(repr(played.state.result()).encode())
    if menus:
        h.update(h_menu.digest())
    opts = json.dumps(overrides, sort_keys=True)
    label = f"{scen} seed{seed} {red}-v-{blue} {opts}{' +menus' if menus else ''}"
    return label, h.hexdigest(), secs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--save", type=Path)
    g.add_argument("--check", type=Path)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--src", default=None, help="source tree to check (default: this checkout's src)")
    args = ap.parse_args()
    t0 = time.perf_counter()
    os.environ["PYTHONPATH"] = _SRC + os.pathsep + os.environ.get("PYTHONPATH", "")
    with ProcessPoolExecutor(args.workers) as ex:
        got = {lab: h for lab, h, _ in ex.map(one, CASES)}
    print(f"{len(got)} battles in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    if args.save:
        args.save.write_text(json.dumps(got, indent=1) + "\n", encoding="utf-8")
        print(f"saved {len(got)} hashes to {args.save}")
        return 0
    want = json.loads(args.check.read_text(encoding="utf-8"))
    bad = [k for k in want if got.get(k) != want[k]]
    for k in bad:
        print(f"DIFFERS: {k}")
    print(f"{len(want) - len(bad)}/{len(want)} battles identical")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
