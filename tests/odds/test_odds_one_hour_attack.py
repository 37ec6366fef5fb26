"""One attack in one-hour-dark-ages: exact distributions against brute force, icepool, and seeded
sampling of ``AttackSituation.roll`` (the engine's own sampler); pinned published values."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import icepool_oracle as oracle
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shieldwall import odds
from shieldwall.core.errors import ShieldwallError
from shieldwall.rulesets.one_hour import odds as one_hour

RS = "one-hour-dark-ages"
FACINGS = ("front", "flank", "rear")
TERRAINS = one_hour.TERRAINS


def _allowed(target: str, terrain: str) -> bool:
    return terrain not in oracle.ROUGH_ONLY or oracle.TYPES[target].rough


def test_types_match_the_rules_text_table() -> None:
    """The oracle's type table is the text's; the SPEC ids are the data file's profiles."""
    from shieldwall.rulesets.one_hour.profiles import unit_profiles

    assert set(one_hour.ALL_TYPES) == set(unit_profiles()) == set(oracle.TYPES)


def test_every_melee_attack_matches_brute_force_and_icepool() -> None:
    """Every type against every type, every facing, every terrain, both dice."""
    checked = 0
    for a, t, facing, terrain, dice in itertools.product(
        one_hour.ALL_TYPES, one_hour.ALL_TYPES, FACINGS, TERRAINS, ("d5", "d6")
    ):
        sets = {"facing": facing, "terrain": terrain, "dice": dice}
        if not _allowed(t, terrain):
            with pytest.raises(ShieldwallError, match="cannot be in"):
                odds.attack(RS, a, t, sets)
            continue
        got = odds.attack(RS, a, t, sets).probabilities
        mod = oracle.modifier(a, "melee")
        nh = oracle.halvings(t, "melee", facing, terrain)
        assert got == oracle.brute(oracle.FACES[dice], mod, "melee", facing, nh), (a, t, sets)
        assert got == oracle.die_probs(oracle.hits_die(a, t, "melee", facing, terrain, dice)), (a, t, sets)
        checked += 1
    assert checked > 4000


def test_every_shot_matches_brute_force_and_icepool() -> None:
    shooters = [k for k, v in oracle.TYPES.items() if v.shoot is not None]
    assert len(shooters) == 8
    for a, t, facing, terrain, dice in itertools.product(
        shooters, one_hour.ALL_TYPES, FACINGS, TERRAINS, ("d5", "d6")
    ):
        if not _allowed(t, terrain):
            continue
        sets = {"mode": "shoot", "facing": facing, "terrain": terrain, "dice": dice}
        got = odds.attack(RS, a, t, sets).probabilities
        mod = oracle.modifier(a, "shoot")
        nh = oracle.halvings(t, "shoot", facing, terrain)
        assert got == oracle.brute(oracle.FACES[dice], mod, "shoot", facing, nh), (a, t, sets)
        assert got == oracle.die_probs(oracle.attack_die(oracle.FACES[dice], mod, "shoot", facing, nh))


CHANGES = (None, "household", "levy", "determined", "reluctant", "elite")


def test_upgrades_and_hero_against_icepool() -> None:
    n = 0
    for a, change, hero in itertools.product(one_hour.ALL_TYPES, CHANGES, (False, True)):
        spec = a + (f"+{change}" if change else "") + ("+hero" if hero else "")
        base = oracle.modifier(a, "melee")
        if change in ("household", "levy") and not -2 <= base + oracle.ATTACK_CHANGE[change] <= 2:
            with pytest.raises(ShieldwallError, match="past"):
                odds.attack(RS, spec, "cavalry")
            continue
        for target, facing in (("infantry", "front"), ("cavalry", "rear")):
            got = odds.attack(RS, spec, target, {"facing": facing}).probabilities
            want = oracle.die_probs(oracle.hits_die(a, target, "melee", facing, change=change, hero=hero))
            assert got == want, (spec, target, facing)
            n += 1
    assert n > 300


@pytest.mark.parametrize("bonus", [-2, -1, 0, 1, 2])
def test_warriors_bonus_parameter(bonus: int) -> None:
    got = odds.attack(RS, "warriors", "cavalry", {"warriors-bonus": bonus}).probabilities
    assert got == oracle.die_probs(oracle.hits_die("warriors", "cavalry", warriors_bonus=bonus))
    # Scots Nobles' +1 is their own, not the parameter
    scots = odds.attack(RS, "scots-nobles", "cavalry", {"warriors-bonus": bonus}).probabilities
    assert scots == oracle.die_probs(oracle.hits_die("scots-nobles", "cavalry"))


# --- published values, verified by hand --------------------------------------------------------


def test_pinned_warriors_against_infantry_frontally() -> None:
    """d5+1 = 3,4,4,5,5,6; shieldwall halves rounding up: 2,2,2,3,3,3."""
    a = odds.attack(RS, "warriors", "infantry")
    assert a.probabilities == {2: Fraction(1, 2), 3: Fraction(1, 2)}
    assert a.mean == Fraction(5, 2)


def test_pinned_values() -> None:
    # Infantry against Warriors: the plain d5, 2,3,3,4,4,5.
    assert odds.attack(RS, "infantry", "warriors").probabilities == {
        2: Fraction(1, 6),
        3: Fraction(1, 3),
        4: Fraction(1, 3),
        5: Fraction(1, 6),
    }
    # Warriors into the Infantry's flank: doubled 6..12, halved: 3,4,4,5,5,6.
    assert odds.attack(RS, "warriors", "infantry", {"facing": "flank"}).mean == Fraction(9, 2)
    # Bows at Infantry's front: 0,1,1,2,2,3 halved: 0,1,1,1,1,2.
    assert odds.attack(RS, "skirmishers-bows", "infantry", {"mode": "shoot"}).probabilities == {
        0: Fraction(1, 6),
        1: Fraction(2, 3),
        2: Fraction(1, 6),
    }
    # Bows at Infantry's rear: doubled and no shieldwall: 0,2,2,4,4,6.
    assert odds.attack(
        RS, "skirmishers-bows", "infantry", {"mode": "shoot", "facing": "rear"}
    ).mean == Fraction(3)
    # Stacked modifiers: Infantry uphill, attacked in the rear by Warriors: x2 then 1/4 (the cap).
    # 6,8,8,10,10,12 / 4 rounding up = 2,2,2,3,3,3.
    assert odds.attack(RS, "warriors", "infantry", {"terrain": "uphill", "facing": "rear"}).probabilities == {
        2: Fraction(1, 2),
        3: Fraction(1, 2),
    }
    # Javelins with a d6 at a village: 0,1,2,3,4,5 halved: 0,1,1,2,2,3.
    assert odds.attack(
        RS, "skirmishers-javelins", "raiders", {"mode": "shoot", "dice": "d6", "terrain": "village"}
    ).probabilities == {0: Fraction(1, 6), 1: Fraction(1, 3), 2: Fraction(1, 3), 3: Fraction(1, 6)}
    # Shooting at a unit defending a gully or uphill: no halving for shooting.
    assert (
        odds.attack(RS, "skirmishers-javelins", "cavalry", {"mode": "shoot", "terrain": "gully"}).mean
        == odds.attack(RS, "skirmishers-javelins", "cavalry", {"mode": "shoot"}).mean
        == Fraction(5, 2)
    )


def test_distribution_is_the_situation_the_engine_samples() -> None:
    a = odds.attack(RS, "cavalry+household+hero", "infantry", {"facing": "flank", "terrain": "wall"})
    sit = a.situation
    assert a.dist == sit.dist()
    assert (sit.mode, sit.modifier, sit.facing, sit.terrain, sit.shieldwall) == (
        "melee",
        2,
        "flank",
        True,
        True,
    )
    assert sit.notes == ("household +1", "hero +1")
    assert a.details[0].startswith("melee: d5+2")


# --- seeded Monte Carlo through AttackSituation.roll --------------------------------------------

MC_CASES = [
    ("warriors", "infantry", {}),
    ("infantry", "warriors", {"facing": "flank"}),
    ("skirmishers-bows", "infantry", {"mode": "shoot", "dice": "d6"}),
    ("cavalry+hero", "raiders", {"facing": "rear", "terrain": "woods"}),
    ("mounted-servants", "roman-militia", {"terrain": "uphill", "dice": "d6"}),
]


@pytest.mark.parametrize(("attacker", "target", "sets"), MC_CASES)
def test_monte_carlo_agrees_within_four_standard_errors(
    attacker: str, target: str, sets: dict[str, str]
) -> None:
    """20,000 seeded rolls of the engine's sampler: every probability and the mean within 4 SE."""
    a = odds.attack(RS, attacker, target, sets)
    rng = np.random.default_rng(20240 + len(attacker))
    n = 20_000
    samples = np.array([a.situation.roll(rng)[1] for _ in range(n)])
    for v, p in a.probabilities.items():
        pf = float(p)
        se = math.sqrt(pf * (1 - pf) / n)
        assert abs(float(np.mean(samples == v)) - pf) <= 4 * se + 1e-12, (v, p)
    assert set(np.unique(samples)) <= set(a.probabilities)
    var = float(sum(p * (v - a.mean) ** 2 for v, p in a.probabilities.items()))
    assert abs(samples.mean() - float(a.mean)) <= 4 * math.sqrt(var / n) + 1e-12


# --- properties ---------------------------------------------------------------------------------


@settings(max_examples=200)
@given(
    a=st.sampled_from(one_hour.ALL_TYPES),
    t=st.sampled_from(one_hour.ALL_TYPES),
    facing=st.sampled_from(FACINGS),
    terrain=st.sampled_from(TERRAINS),
    dice=st.sampled_from(("d5", "d6")),
    hero=st.booleans(),
)
def test_property_exact_and_ordered(a: str, t: str, facing: str, terrain: str, dice: str, hero: bool) -> None:
    if not _allowed(t, terrain):
        return
    spec = a + ("+hero" if hero else "")
    res = odds.attack(RS, spec, t, {"facing": facing, "terrain": terrain, "dice": dice})
    probs = res.probabilities
    assert sum(probs.values()) == 1
    assert list(probs) == sorted(probs) and min(probs) >= 0
    assert min(probs) <= res.mean <= max(probs)
    js = res.to_json()
    assert [d["value"] for d in js["distribution"]] == sorted(probs)
    assert all(Fraction(d["probability"]) == probs[d["value"]] for d in js["distribution"])
    # a flank or rear attack never does fewer hits on average than a frontal one
    front = odds.attack(RS, spec, t, {"facing": "front", "terrain": terrain, "dice": dice})
    assert res.mean >= front.mean or facing == "front"


def test_hits_table_is_every_face_through_hits_for_face() -> None:
    """``AttackSituation.dist`` (the table shared per die, modifier, doubling and halvings) is the
    die's faces mapped through ``hits_for_face``, the engine's per-roll rule, in every situation."""
    from shieldwall.core.dice import DICE
    from shieldwall.rulesets.one_hour.combat import AttackSituation

    n = 0
    for die, mode, facing, terrain, shieldwall, modifier in itertools.product(
        DICE.values(), ("melee", "shoot"), FACINGS, (False, True), (False, True), range(-3, 4)
    ):
        sit = AttackSituation(mode, die, modifier, facing, terrain, shieldwall)  # type: ignore[arg-type]
        assert sit.dist() == die.dist().map(sit.hits_for_face), sit
        n += 1
    assert n == len(DICE) * 2 * 3 * 2 * 2 * 7
