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

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
# the same play-and-hash code as the one-hour script (which also takes --src DIR), for these battles
from event_hashes import main  # noqa: E402

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


if __name__ == "__main__":
    sys.exit(main(CASES, __doc__))
