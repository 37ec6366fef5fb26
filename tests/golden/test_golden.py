"""Golden playthroughs: seeded battles must reproduce their checked-in event logs exactly.

If a ruling changes on purpose, run ``python scripts/regen_golden.py`` and review the diff.
"""

from __future__ import annotations

import difflib
import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("regen_golden", ROOT / "scripts/regen_golden.py")
assert _spec and _spec.loader
regen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(regen)


@pytest.mark.parametrize("case", regen.GOLDEN, ids=lambda g: f"{g[0]}-seed{g[1]}-{g[2]}-v-{g[3]}")
def test_golden_playthrough(case: tuple[str, int, str, str]) -> None:
    path = regen.path_for(*case)
    want = path.read_text(encoding="utf-8")
    got = regen.transcript(*case)
    if got != want:
        diff = "".join(
            list(difflib.unified_diff(want.splitlines(True), got.splitlines(True), "golden", "now"))[:40]
        )
        pytest.fail(f"{path.name} differs (run scripts/regen_golden.py if intended):\n{diff}")


def test_every_rule_system_has_golden_playthroughs_of_each_pairing() -> None:
    """Each registered rule system has scripted v scripted, scripted v random and random v random."""
    from shieldwall.registry import ids

    for rs in ids():
        pairs = {(red, blue) for scen, _, red, blue in regen.GOLDEN if scen.split("/")[0] == rs}
        assert {("scripted", "scripted"), ("scripted", "random"), ("random", "random")} <= pairs, rs
