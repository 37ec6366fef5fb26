"""scripts/bot_win_rates.py: the scripted-v-random table of docs/simulate.md and
docs/rules/into-the-dark.md is what ``shieldwall simulate`` measures, with its Wilson intervals."""

from __future__ import annotations

from types import ModuleType

import pytest
from tests.file_module import load

from shieldwall.sim.simulate import SimConfig, run
from shieldwall.sim.stats import wilson


def _script() -> ModuleType:
    return load("scripts/bot_win_rates.py")


def test_cell_win_rate_wilson_interval_and_draws() -> None:
    mod = _script()
    summary = {"win_rate": {"red": 0.9}, "ci95": {"red": wilson(90, 100)}, "draws": 0, "draw_rate": 0.0}
    assert mod.cell(summary, "red") == "90.0% (83-94)"
    summary.update(draws=1, draw_rate=0.01)
    assert mod.cell(summary, "red") == "90.0% (83-94), draws 1.0%"


def test_rows_are_simulate_runs_of_each_side(capsys: pytest.CaptureFixture[str]) -> None:
    assert _script().main(["one-hour-dark-ages", "catraeth", "-n", "2", "--seed", "3"]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("| catraeth "))
    want = []
    for side, red, blue in (("red", "scripted", "random"), ("blue", "random", "scripted")):
        d = run(SimConfig("one-hour-dark-ages/catraeth", battles=2, seed=3, workers=1, red=red, blue=blue))
        s = d.to_dict()
        lo, hi = wilson(s["wins"][side], 2)
        want.append(f"{100.0 * s['wins'][side] / 2:.1f}% ({100.0 * lo:.0f}-{100.0 * hi:.0f})")
    assert row.startswith(f"| catraeth | {want[0]}") and f"| {want[1]}" in row
