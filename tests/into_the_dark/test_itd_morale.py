"""Morale tests, control tests and the new-orders roll: one test per clause, exact and sampled."""

from __future__ import annotations

from fractions import Fraction

import icepool
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shieldwall.rulesets.into_the_dark.morale import (
    ControlOutcome,
    ControlSituation,
    MoraleOutcome,
    MoraleSituation,
    NewOrdersTest,
    casualty_steps,
    outnumbers_double,
)

P, S, D, R = MoraleOutcome.PASSED, MoraleOutcome.SHAKEN, MoraleOutcome.DRIVEN_BACK, MoraleOutcome.ROUTED


def test_morale_levels_are_quality_levels() -> None:
    """Clause into-the-dark:morale.morale, into-the-dark:morale.morale-levels."""
    for q in range(1, 6):
        assert MoraleSituation(q).level == q


def test_morale_results_by_how_much_over() -> None:
    """morale.results: equal or less passed; over by 1 shaken; 2 or 3 driven back; 4+ routed."""
    s = MoraleSituation(2)
    assert [s.outcome(f) for f in range(1, 7)] == [P, P, S, D, D, R]
    assert MoraleSituation(1).outcome(6) == R and MoraleSituation(1).outcome(5) == R


def test_morale_results_no_natural_roll_rule_ruling() -> None:
    """A modified level of 6 or more always passes; a 1 can still rout (no natural-1 pass)."""
    assert MoraleSituation(5, supported=True).dist().probability(P) == 1
    assert MoraleSituation(1, flanked=True).dist().probabilities() == {D: Fraction(1, 6), R: Fraction(5, 6)}
    assert MoraleSituation(1, flanked=True, unsupported=True).dist().probability(R) == 1


def test_morale_dist_exact() -> None:
    d = MoraleSituation(3).dist()
    assert d.probabilities() == {0: Fraction(1, 2), 1: Fraction(1, 6), 2: Fraction(1, 3)}


@pytest.mark.parametrize(
    ("kw", "delta"),
    [
        ({"shaken": True}, -1),
        ({"disordered": True}, -1),
        ({"flanked": True}, -3),
        ({"outnumber_double": True}, 1),
        ({"long_range_missile_only": True}, 1),
        ({"fewer_firers": True}, 1),
        ({"deeper_ranks": True}, -1),
        ({"supported": True}, 1),
        ({"friends_routing": 2}, -2),
        ({"unsupported": True}, -2),
        ({"uphill": True}, 1),
        ({"in_cover": True}, 1),
        ({"shieldwall": True}, 1),
        ({"casualties": 6, "original": 12}, -2),
    ],
)
def test_morale_modifiers_each(kw: dict[str, object], delta: int) -> None:
    """Clause into-the-dark:morale.morale-states."""
    s = MoraleSituation(3, **kw)  # type: ignore[arg-type]
    assert s.level == 3 + delta
    assert all(m.rule.startswith("into-the-dark:") for m in s.modifiers())


def test_morale_modifiers_shieldwall_cites_swat() -> None:
    # also exercises into-the-dark:swat.shieldwall.morale
    assert MoraleSituation(3, shieldwall=True).modifiers()[0].rule == "into-the-dark:swat.shieldwall"


def test_morale_modifiers_cumulative() -> None:
    s = MoraleSituation(
        4, shaken=True, disordered=True, casualties=3, original=12, friends_routing=1, uphill=True
    )
    assert s.level == 4 - 1 - 1 - 1 - 1 + 1


def test_morale_modifiers_casualties_per_full_25_percent() -> None:
    assert [casualty_steps(c, 12) for c in (0, 2, 3, 5, 6, 8, 9, 11, 12)] == [0, 0, 1, 1, 2, 2, 3, 3, 4]
    assert casualty_steps(4, 10) == 1  # 40% is one full 25%
    with pytest.raises(ValueError):
        casualty_steps(13, 12)


def test_morale_modifiers_outnumber_double_or_more() -> None:
    assert outnumbers_double(16, 8) and not outnumbers_double(15, 8) and not outnumbers_double(4, 0)


def test_morale_modifiers_supported_and_unsupported_exclusive() -> None:
    with pytest.raises(ValueError):
        MoraleSituation(3, supported=True, unsupported=True)


def test_swat_shieldwall_disordered_units_may_not_be_in_shieldwall() -> None:
    # also exercises into-the-dark:swat.shieldwall.not-when-disordered
    with pytest.raises(ValueError):
        MoraleSituation(3, shieldwall=True, disordered=True)


def test_command_general_leading_negates_negative_modifiers() -> None:
    """The text's example: an average general (2) leading a shaken (-1) disordered (-1) unit
    negates the -2."""
    s = MoraleSituation(3, shaken=True, disordered=True, general=2)
    assert s.level == 3
    assert s.modifiers()[-1].rule == "into-the-dark:command.general-leading"


def test_command_general_leading_not_more_than_negatives() -> None:
    assert MoraleSituation(3, shaken=True, general=3).level == 3
    assert MoraleSituation(3, uphill=True, general=3).level == 4
    assert MoraleSituation(3, flanked=True, general=1).level == 1
    with pytest.raises(ValueError):
        MoraleSituation(3, general=4)


def test_morale_control_tests_pass_fail() -> None:
    c = ControlSituation(3, disordered=True)
    assert [c.outcome(f) for f in range(1, 7)] == [ControlOutcome.PASSED] * 2 + [ControlOutcome.FAILED] * 4
    assert c.dist().probabilities() == {0: Fraction(2, 3), 1: Fraction(1, 3)}


def test_command_new_orders_sum_of_ratings() -> None:
    # also exercises into-the-dark:command.new-orders.subordinate
    t = NewOrdersTest(3, 2)
    assert t.dist().probability(ControlOutcome.PASSED) == Fraction(5, 6)
    assert NewOrdersTest(3, 3).dist().probability(ControlOutcome.PASSED) == 1
    assert t.roll(np.random.default_rng(1)).to_dict()["rule"] == "into-the-dark:command.new-orders"


# --- exact and sampled ------------------------------------------------------------------------------


morale_st = st.builds(
    MoraleSituation,
    quality=st.integers(1, 5),
    shaken=st.booleans(),
    flanked=st.booleans(),
    outnumber_double=st.booleans(),
    deeper_ranks=st.booleans(),
    friends_routing=st.integers(0, 3),
    uphill=st.booleans(),
    in_cover=st.booleans(),
    general=st.sampled_from([0, 1, 2, 3]),
)


@settings(max_examples=80)
@given(morale_st)
def test_morale_dist_matches_icepool(s: MoraleSituation) -> None:
    """Oracle straight from the result table, with icepool's d6."""
    lvl = s.level

    def result(f: int) -> int:
        over = f - lvl
        return 0 if over <= 0 else 1 if over == 1 else 2 if over <= 3 else 3

    die = icepool.d6.map(result)
    den = die.denominator()
    oracle = {int(k): Fraction(int(q), den) for k, q in die.items()}
    assert s.dist().probabilities() == oracle
    c = ControlSituation(**{f: getattr(s, f) for f in ("quality", "shaken", "flanked", "uphill", "general")})
    assert c.dist().probability(ControlOutcome.PASSED) == Fraction(min(max(c.level, 0), 6), 6)


def test_morale_roll_matches_dist_seeded() -> None:
    """Frequencies over 12,000 seeded rolls within 5 standard errors of the exact probabilities."""
    s = MoraleSituation(3, shaken=True, in_cover=True, casualties=4, original=12)
    d = s.dist()
    rng = np.random.default_rng(5)
    n = 12_000
    counts = {k: 0 for k in MoraleOutcome}
    for _ in range(n):
        counts[s.roll(rng).outcome] += 1
    for k, p in d.probabilities().items():
        se = (float(p) * (1 - float(p)) / n) ** 0.5
        assert abs(counts[MoraleOutcome(k)] / n - float(p)) <= 5 * se


def test_morale_roll_event_data() -> None:
    r = MoraleSituation(4, shaken=True, general=1).roll(np.random.default_rng(3))
    d = r.to_dict()
    assert d["rule"] == "into-the-dark:morale.morale-tests"
    assert d["faces"] == [r.face]
    assert d["target"] == 4
    assert d["result"] == MoraleOutcome(r.outcome).name.lower().replace("_", " ")
    c = ControlSituation(2).roll(np.random.default_rng(3)).to_dict()
    assert c["rule"] == "into-the-dark:morale.control-tests"
