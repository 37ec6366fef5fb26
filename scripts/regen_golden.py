#!/usr/bin/env python3
"""Regenerate the golden playthroughs in tests/golden/: seeded battles whose event logs are checked in.

    python scripts/regen_golden.py                      # every case
    python scripts/regen_golden.py into-the-dark        # only one rule system's cases

When a ruling changes, run this and review the diff of tests/golden/ before committing it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from shieldwall.io.scenarios import load_game  # noqa: E402
from shieldwall.match import play  # noqa: E402

#: (scenario, seed, red bot, blue bot)
GOLDEN = [
    ("one-hour-dark-ages/bryn-glas", 1, "scripted", "scripted"),
    ("one-hour-dark-ages/bryn-glas", 7, "scripted", "random"),
    ("one-hour-dark-ages/bryn-glas", 11, "random", "random"),
    ("into-the-dark/senlac", 1, "scripted", "scripted"),
    ("into-the-dark/wye-fords", 4, "scripted", "random"),
    ("into-the-dark/senlac", 9, "random", "random"),
]


def path_for(scenario: str, seed: int, red: str, blue: str) -> Path:
    return ROOT / "tests/golden" / f"{scenario.replace('/', '__')}__seed{seed}__{red}-v-{blue}.jsonl"


def transcript(scenario: str, seed: int, red: str, blue: str) -> str:
    played = play(load_game(scenario), seed, red, blue)
    lines: list[str] = []
    for e in played.state.events:
        lines.append(json.dumps(e.to_dict(), sort_keys=True, ensure_ascii=False))
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    only = set(sys.argv[1:] if argv is None else argv)
    for g in GOLDEN:
        if only and g[0].split("/")[0] not in only:
            continue
        p = path_for(*g)
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(transcript(*g), encoding="utf-8")
        print(f"wrote {p.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
