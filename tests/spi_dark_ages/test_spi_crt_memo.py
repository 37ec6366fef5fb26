"""The CRT column look-up kept (``combat.lookup``, issue 16): a pure function of the table and the
two strengths, so its answers are kept per table (``combat._LOOKUPS``). Checked here against the
look-up worked out (``lookup_reference``) for every strength pair on a grid of attacks and
defences (whole and fractional, zero included), asked twice (worked out, then kept), on both tables
of every built-in scenario's charts; on the reference path nothing is kept; the answers per table
are bounded."""

from __future__ import annotations

from fractions import Fraction

import pytest

from shieldwall import registry
from shieldwall.core.reference import reference_path
from shieldwall.io.scenarios import load_game
from shieldwall.rulesets.spi_dark_ages import combat as C
from shieldwall.rulesets.spi_dark_ages.state import DarkAgesState

SCENARIOS = [f"spi-dark-ages/{f}" for f in registry.get("spi-dark-ages").scenario_files()]
STRENGTHS = [Fraction(0), Fraction(1, 4), Fraction(1, 2), Fraction(7, 2)]
STRENGTHS += [Fraction(n) for n in range(1, 25)]


def _charts(scenario: str) -> C.Charts:
    st = load_game(scenario).new_state(0)
    assert isinstance(st, DarkAgesState)
    return st.board.charts


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_kept_answer_is_the_worked_out_one(scenario: str) -> None:
    charts = _charts(scenario)
    C._LOOKUPS.clear()
    for table in (charts.crt.melee, charts.crt.fire):
        pairs = [(a, d) for a in STRENGTHS for d in STRENGTHS]
        want = [C.lookup_reference(table, a, d) for a, d in pairs]
        assert [C.lookup(table, a, d) for a, d in pairs] == want  # worked out and kept
        assert C._LOOKUPS[id(table)][0] is table and len(C._LOOKUPS[id(table)][1]) == len(set(pairs))
        assert [C.lookup(table, a, d) for a, d in pairs] == want  # read back
        assert len(set(want)) > 3  # (the grid reaches several columns and fixed results)


def test_the_reference_path_keeps_nothing_and_the_answers_are_bounded() -> None:
    table = _charts(SCENARIOS[0]).crt.melee
    C._LOOKUPS.clear()
    three = (Fraction(3), Fraction(1))
    with reference_path():
        assert C.lookup(table, *three) == C.lookup_reference(table, *three)
    assert C._LOOKUPS == {}
    for k in range(C.LOOKUPS_KEPT):
        C.lookup(table, Fraction(k + 1, 7), Fraction(1))
    assert len(C._LOOKUPS[id(table)][1]) == C.LOOKUPS_KEPT
    assert C.lookup(table, Fraction(1), Fraction(9)) == C.lookup_reference(table, Fraction(1), Fraction(9))
    assert len(C._LOOKUPS[id(table)][1]) == 1  # emptied when full, then the new answer kept
