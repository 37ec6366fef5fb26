#!/usr/bin/env python3
"""Equivalence check for speed work: hash the event logs of seeded one-hour battles.

    python scripts/event_hashes.py --save FILE     # record the hashes of the current code
    python scripts/event_hashes.py --check FILE    # compare; exit 1 on any difference

benchmarks/event_hashes.json holds the hashes of the code as it stands (regenerate it, like the
goldens, only when a ruling changes on purpose).

Plays a fixed set of battles (scripted v scripted, scripted v random, random v scripted, random v
random, on several built-in one-hour scenarios, some with rule variants) and hashes, per battle,
the event log (as the golden files write it), the orders given and the result. For a few battles
it also hashes the full legal-order menu at every decision, so a change in a menu shows even when
the bots would not have noticed it. Any optimisation must leave every hash unchanged.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# --src DIR: check another source tree (e.g. a copy of the code before an optimisation)
_SRC = sys.argv[sys.argv.index("--src") + 1] if "--src" in sys.argv else str(ROOT / "src")
sys.path.insert(0, str(Path(_SRC).resolve()))

SCENARIOS = ["bryn-glas", "rhyd-y-groes", "catraeth", "coed-celyddon", "llanbadarn", "mynydd-baddon"]
PAIRS = [("scripted", "scripted"), ("scripted", "random"), ("random", "scripted"), ("random", "random")]

#: (scenario, seed, red, blue, overrides, hash menus)
CASES: list[tuple[str, int, str, str, dict[str, Any], bool]] = []
for i, scen in enumerate(SCENARIOS):
    for j, (red, blue) in enumerate(PAIRS):
        CASES.append((scen, 100 + 7 * i + j, red, blue, {}, j == 0 and i < 2))
for seed in (3, 4):
    CASES.append(("bryn-glas", seed, "scripted", "scripted", {"dice": "d6", "hit_limit": 12}, seed == 3))
    CASES.append(("bryn-glas", seed, "scripted", "random", {"fall_back": True, "personalities": True}, False))
    CASES.append(("rhyd-y-groes", seed, "random", "random", {"warriors_bonus": 2}, True))


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
    res = played.state.result()
    h.update(repr(res).encode())
    if menus:
        h.update(h_menu.digest())
    opts = json.dumps(overrides, sort_keys=True)
    label = f"{scen} seed{seed} {red}-v-{blue} {opts}{' +menus' if menus else ''}"
    return label, h.hexdigest(), secs


def main(
    cases: list[tuple[str, int, str, str, dict[str, Any], bool]] = CASES, doc: str | None = __doc__
) -> int:
    """Play ``cases`` (this script's one-hour battles unless another script, e.g.
    ``itd_event_hashes.py``, passes its own), then save or check their hashes."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--save", type=Path)
    g.add_argument("--check", type=Path)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--src", default=None, help="source tree to check (default: this checkout's src)")
    args = ap.parse_args()
    t0 = time.perf_counter()
    import os

    os.environ["PYTHONPATH"] = _SRC + os.pathsep + os.environ.get("PYTHONPATH", "")
    with ProcessPoolExecutor(args.workers) as ex:
        got = {lab: h for lab, h, _ in ex.map(one, cases)}
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
