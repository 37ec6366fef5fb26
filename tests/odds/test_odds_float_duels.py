"""The float64 duel solvers (the default) against the exact ones: every probability within 1e-12 of
the exact value and within the error bound the float solution states (``error_bound``)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shieldwall import odds
from shieldwall.core.dice import Dist
from shieldwall.odds import float_alternating, float_rounds
from shieldwall.odds.float_solution import gamma
from shieldwall.odds.markov import alternating_duel
from shieldwall.odds.simultaneous import simultaneous_duel
from shieldwall.rulesets.into_the_dark import odds as itd
from shieldwall.rulesets.one_hour import odds as one_hour

OH = "one-hour-dark-ages"
ITD = "into-the-dark"
TOL = 1e-12


def _close(fl: Any, ex: Any, bound: float, fields: tuple[str, ...]) -> float:
    """Every field, and the turn distributions, of the float solution within ``TOL`` and ``bound``
    of the exact one; the same horizon. Returns the largest error seen."""
    worst = 0.0
    assert bound < 1.0
    for name in fields:
        err = abs(getattr(fl, name) - float(getattr(ex, name)))
        assert err <= bound and err < TOL, (name, err, bound)
        worst = max(worst, err)
    assert fl.horizon == ex.horizon
    te, tf = ex.turns, fl.turns
    assert set(tf) == set(te)
    for t, p in te.items():
        err = abs(tf[t] - float(p))
        assert err <= bound and err < TOL, (t, err, bound)
        worst = max(worst, err)
    assert abs(fl.beyond - float(ex.beyond)) <= max(bound, 1e-30)
    return worst


# --- alternating duels (one-hour-dark-ages) -----------------------------------------------------


def test_every_one_hour_pairing_on_every_facing_in_both_dice() -> None:
    """The full matchup table (14 types, 3 facings, d5 and d6: 1,176 duels) in float64 against the
    exact one, cell by cell, and the table's stated bound."""
    for dice in ("d5", "d6"):
        sets = {"types": "all", "dice": dice}
        fl, ex = odds.matrix(OH, sets), odds.matrix(OH, sets, exact=True)
        assert not fl.exact and ex.exact and 0 < fl.error_bound < TOL
        for f in fl.facings:
            for row_f, row_x in zip(fl.first_wins[f], ex.first_wins[f], strict=True):
                for pf, px in zip(row_f, row_x, strict=True):
                    assert (pf is None) == (px is None)
                    if pf is not None and px is not None:
                        assert isinstance(pf, float) and isinstance(px, Fraction)
                        assert abs(pf - float(px)) <= fl.error_bound


@pytest.mark.parametrize(
    ("first", "second", "sets"),
    [
        ("warriors", "infantry", {}),
        ("cavalry", "cavalry", {"facing": "flank"}),
        ("skirmishers-bows", "mounted-servants", {"dice": "d6"}),  # a geometric tail: absorption
        ("raiders", "skirmishers-bows", {"facing": "rear", "terrain": "uphill"}),
        ("warriors", "infantry+elite", {"hit-limit": 20}),
    ],
)
def test_one_hour_duels_with_their_turns(first: str, second: str, sets: dict[str, Any]) -> None:
    fl = odds.duel(OH, first, second, sets)
    ex = odds.duel(OH, first, second, sets, exact=True)
    assert not fl.exact and fl.error_bound < TOL
    for name in ("first_wins", "second_wins", "undecided", "turns_beyond"):
        assert abs(getattr(fl, name) - float(getattr(ex, name))) <= fl.error_bound
    assert fl.horizon == ex.horizon and set(fl.turns) == set(ex.turns)
    for t, p in ex.turns.items():
        assert abs(fl.turns[t] - float(p)) <= fl.error_bound
    assert (fl.mean_turns is None) == (ex.mean_turns is None)
    js = fl.to_json()
    assert js["exact"] is False and js["first_wins"] is None and js["error_bound"] == fl.error_bound


dists = st.dictionaries(st.integers(0, 4), st.integers(1, 9), min_size=1, max_size=4).map(Dist)


@settings(max_examples=150, deadline=None)
@given(a=dists, b=dists, o=dists, l1=st.integers(1, 9), l2=st.integers(1, 9))
def test_alternating_solver_against_the_exact_one(a: Dist, b: Dist, o: Dist, l1: int, l2: int) -> None:
    ex = alternating_duel(a, b, l1, l2, o)
    fl = float_alternating.solve(o, a, b, l1, l2)
    _close(fl, ex, fl.error_bound, ("first_wins", "second_wins", "undecided"))


def test_alternating_solver_where_nobody_can_hurt() -> None:
    zero = Dist({0: 1})
    fl = float_alternating.solve(zero, zero, zero, 3, 3)
    assert (fl.first_wins, fl.second_wins, fl.undecided) == (0.0, 0.0, 1.0)
    ex = alternating_duel(zero, zero, 3, 3)
    assert fl.horizon == ex.horizon and fl.beyond == float(ex.beyond) == 1.0
    with pytest.raises(ValueError, match="at least 1"):
        float_alternating.solve(zero, zero, zero, 0, 3)


# --- simultaneous rounds (into-the-dark) ----------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "second", "flags"),
    [
        ("12 CAF average", "12 CPF average", (False, False, False, False)),
        ("6 LAM elite", "8 CUF levy", (False, False, False, False)),
        ("12 LAM elite", "16 CPF levy", (True, True, False, False)),
        ("12 CUF fanatic warband", "12 CAF average", (True, True, False, False)),
        ("10 CAF average shieldwall", "10 CAF average", (False, False, True, True)),
        ("12 OUF average bow skirmisher", "9 LUF levy sling", (True, False, False, False)),
        ("7 CPF peasant", "5 CEF elite", (False, False, False, False)),
        ("3 CAF average", "3 CAF elite", (False, False, False, False)),  # no dice: morale only
        ("12 LPM average", "12 CUF levy pike", (True, True, True, True)),
        ("24 CPF average shieldwall", "24 CUF average warband", (False, False, False, False)),
    ],
)
def test_rounds_solver_against_the_exact_one(first: str, second: str, flags: tuple[bool, ...]) -> None:
    a, b = itd.side(itd.parse_spec(first)), itd.side(itd.parse_spec(second))
    ex = simultaneous_duel(itd.DuelModel(a, b, *flags))
    fl = float_rounds.solve(itd.DuelModel(a, b, *flags))
    assert 0 < fl.error_bound < 1e-11
    _close(fl, ex, fl.error_bound, ("first_wins", "second_wins", "draw", "undecided"))
    quick = float_rounds.solve(itd.DuelModel(a, b, *flags), max_turns=1)  # as the matrix asks
    for name in ("first_wins", "second_wins", "draw", "undecided"):
        assert getattr(quick, name) == getattr(fl, name)
    assert quick.error_bound <= fl.error_bound


def test_rounds_solver_across_the_troop_types() -> None:
    """Every representative type against three others at 6-9 figures, with impetuous charges,
    uphill and obstacles (as the exact solver's own test): within 1e-12."""
    types = itd.load_troop_types()
    n = len(types)
    for i, ta in enumerate(types):
        for k in (1, 5, 9):
            tb = types[(i + k) % n]
            fa, fb = 6 + (i + k) % 4, 6 + (i * k) % 4
            a = itd.side(itd.parse_spec(ta.spec.replace("12 ", f"{fa} ", 1)))
            b = itd.side(itd.parse_spec(tb.spec.replace("12 ", f"{fb} ", 1)))
            imp = a.unit.mounted or a.unit.has("warband")
            flags = (True, imp, k == 5, k == 9)
            ex = simultaneous_duel(itd.DuelModel(a, b, *flags))
            fl = float_rounds.solve(itd.DuelModel(a, b, *flags))
            _close(fl, ex, fl.error_bound, ("first_wins", "second_wins", "draw", "undecided"))


def test_itd_matrix_in_float_against_exact() -> None:
    fl = odds.matrix(ITD, {"types": "core"})
    ex = odds.matrix(ITD, {"types": "core"}, exact=True)
    assert not fl.exact and 0 < fl.error_bound < TOL
    for grid_f, grid_x in (
        (fl.first_wins["front"], ex.first_wins["front"]),
        (fl.draws["front"], ex.draws["front"]),
    ):
        for row_f, row_x in zip(grid_f, grid_x, strict=True):
            for pf, px in zip(row_f, row_x, strict=True):
                assert pf is not None and px is not None
                assert abs(float(pf) - float(px)) <= fl.error_bound


def test_itd_duel_query_float_by_default_and_memoised_apart() -> None:
    fl = odds.duel(ITD, "12 CAF average", "12 CPF average", {"charging": "yes"})
    ex = odds.duel(ITD, "12 CAF average", "12 CPF average", {"charging": "yes"}, exact=True)
    assert isinstance(fl.first_wins, float) and isinstance(ex.first_wins, Fraction)
    assert odds.duel(ITD, "12 CAF average", "12 CPF average", {"charging": "yes"}) is fl
    total = fl.first_wins + fl.second_wins + fl.draw + fl.undecided
    assert abs(total - 1) < 4 * fl.error_bound + 1e-15


def test_float_solver_refuses_huge_duels() -> None:
    a, b = itd.side(itd.parse_spec("1000 CPF average")), itd.side(itd.parse_spec("12 CPF average"))
    with pytest.raises(ValueError, match="too big to solve here"):
        float_rounds.solve(itd.DuelModel(a, b, False, False, False, False))


def test_gamma() -> None:
    assert gamma(0) == 0.0 and gamma(10) == pytest.approx(10 * 2.0**-53)
    assert gamma(2**52) == 1.0  # too many roundings for the bound to say anything
    # the bounds the solvers state stay far below 1e-12 for the common duels
    assert 0 < one_hour.PLUGIN.duel_float("warriors", "infantry").error_bound < 1e-13
    assert one_hour.PLUGIN.duel("warriors", "infantry").error_bound == 0  # exact


def test_a_cell_of_tests_at_once_is_the_same_as_one_by_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """``DuelModel.after_melee_cell`` (the float solver's fast path) returns the very objects
    ``after_melee`` does, in the solver's order; the solver gives the same answer without it."""
    from shieldwall.odds.simultaneous import _FLAGS, _LOSER

    a, b = itd.side(itd.parse_spec("12 LAM elite")), itd.side(itd.parse_spec("10 CUF fanatic warband"))
    m = itd.DuelModel(a, b, True, True, True, False)
    for fa, fb in ((1, 1), (12, 10), (5, 9), (12, 1)):
        for later in (False, True):
            one = [m.after_melee(fa, fb, sa, sb, lo, later) for sa, sb in _FLAGS for lo in _LOSER]
            assert all(x is y for x, y in zip(m.after_melee_cell(fa, fb, later), one, strict=True))
    fast = float_rounds.solve(itd.DuelModel(a, b, True, True, True, False))
    monkeypatch.delattr(itd.DuelModel, "after_melee_cell")
    slow = float_rounds.solve(itd.DuelModel(a, b, True, True, True, False))
    assert fast == slow


class _Stalemate:
    """A made-up round model where some duels can never end: after the first round only a shaken
    first unit hurts the other, and a drawn round leaves the flags as they are (so two steady units
    stand for ever); a lost round routs the loser half the time, or shakes both."""

    start = (3, 3)

    def opening(self) -> tuple[tuple[tuple[object, int], ...], int]:
        return (((False, False), 1),), 1

    def casualties(
        self, attacker: str, figures: int, shaken: bool, later: bool
    ) -> tuple[tuple[tuple[int, int], ...], int]:
        if later:
            return (((0, 1), (1, 1)), 2) if attacker == "A" and shaken else (((0, 1),), 1)
        return ((0, 2), (1, 1)) if attacker == "A" else ((0, 1), (1, 1)), 3 if attacker == "A" else 2

    def after_melee(
        self, fa: int, fb: int, sa: bool, sb: bool, loser: str, later: bool
    ) -> tuple[tuple[object, int], ...]:
        if loser == "T":
            return (((sa, sb), 36),)
        return (("B" if loser == "A" else "A", 18), ((True, True), 18))


def test_rounds_solver_where_the_duel_can_stall_for_ever() -> None:
    ex = simultaneous_duel(_Stalemate())  # type: ignore[arg-type]
    fl = float_rounds.solve(_Stalemate())  # type: ignore[arg-type]
    assert ex.undecided > 0 and fl.undecided > 0
    _close(fl, ex, fl.error_bound, ("first_wins", "second_wins", "draw", "undecided"))
    assert fl.beyond == pytest.approx(float(ex.beyond), abs=1e-15) and fl.beyond >= fl.undecided
    assert fl.horizon > 3  # the stuck mass stays in play while the rest is decided
