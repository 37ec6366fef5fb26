"""Golden playthroughs: seeded battles must reproduce their checked-in records exactly.

Each case has an event log (``<case>.jsonl``) and a playthrough (``<case>.playthrough.txt``: every
decision, its legal menu and the order chosen). If a ruling or a menu changes on purpose, run
``python scripts/regen_golden.py`` and review the diff (CONTRIBUTING.md).
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

#: lines of unified diff shown on a mismatch
SHOWN = 60


def _case_id(g: tuple[str, int, str, str]) -> str:
    return f"{g[0]}-seed{g[1]}-{g[2]}-v-{g[3]}"


def _mismatch(path: Path, want: str, got: str) -> str:
    """A readable account of how ``got`` differs from the golden file ``want``."""
    old, new = want.splitlines(True), got.splitlines(True)
    first = next(
        (i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b), min(len(old), len(new))
    )
    # the playthrough's block (decision N) holding the first difference, if any
    where = next((line.strip() for line in reversed(old[: first + 1]) if line.startswith("decision ")), None)
    diff = list(difflib.unified_diff(old, new, f"{path.name} (golden)", f"{path.name} (now)"))
    more = f"... ({len(diff) - SHOWN} more diff lines)\n" if len(diff) > SHOWN else ""
    return (
        f"{path.name} differs from line {first + 1}"
        + (f", in {where}" if where else "")
        + " (if intended: python scripts/regen_golden.py, then review git diff tests/golden/):\n"
        + "".join(diff[:SHOWN])
        + more
    )


@pytest.mark.parametrize("case", regen.GOLDEN, ids=_case_id)
def test_golden_playthrough(case: tuple[str, int, str, str]) -> None:
    path = regen.path_for(*case)
    want = path.read_text(encoding="utf-8")
    got = regen.transcript(*case)
    if got != want:
        pytest.fail(_mismatch(path, want, got))


@pytest.mark.parametrize("case", regen.GOLDEN, ids=_case_id)
def test_golden_decisions_and_menus(case: tuple[str, int, str, str]) -> None:
    """Every decision, its legal menu in order and the order chosen, as recorded; and the battle
    recorded is the one of the event log (recording the menus changes nothing)."""
    path = regen.playthrough_path_for(*case)
    want = path.read_text(encoding="utf-8")
    got, events = regen.playthrough(*case)
    if got != want:
        pytest.fail(_mismatch(path, want, got))
    log = regen.path_for(*case)
    assert events == log.read_text(encoding="utf-8"), f"the recorded battle is not the one of {log.name}"


def test_every_golden_file_belongs_to_a_case() -> None:
    """No stale golden file is left behind when a case is dropped or renamed."""
    expected = {regen.path_for(*g).name for g in regen.GOLDEN} | {
        regen.playthrough_path_for(*g).name for g in regen.GOLDEN
    }
    present = {p.name for p in (ROOT / "tests/golden").iterdir() if p.suffix in (".jsonl", ".txt")}
    assert present == expected


def test_mismatch_report_names_the_decision() -> None:
    path = Path("x.playthrough.txt")
    want = "# head\n\ndecision 1: side=red kind=k\n  menu (1):\n    0 end\n  chose #0: end\n"
    got = want.replace("chose #0: end", "chose (not in the menu): hold")
    report = _mismatch(path, want, got)
    assert "differs from line 6, in decision 1: side=red kind=k" in report
    assert "+  chose (not in the menu): hold" in report


def test_every_rule_system_has_golden_playthroughs_of_each_pairing() -> None:
    """Each registered rule system has scripted v scripted, scripted v random and random v random."""
    from shieldwall.registry import ids

    for rs in ids():
        pairs = {(red, blue) for scen, _, red, blue in regen.GOLDEN if scen.split("/")[0] == rs}
        assert {("scripted", "scripted"), ("scripted", "random"), ("random", "random")} <= pairs, rs
