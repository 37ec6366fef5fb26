"""Combat (missile fire and melee): one test per clause, exact distributions against icepool, and the
seeded sampler against the exact distribution."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

import icepool
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shieldwall.core.dice import Dist
from shieldwall.rulesets.into_the_dark.combat import (
    Troops,
    fighting_figures,
    hit_probability,
    is_hit,
    need_for,
)
from shieldwall.rulesets.into_the_dark.fire_situation import MissileSituation
from shieldwall.rulesets.into_the_dark.melee_situation import MeleeLoser, MeleeSituation, melee_loser_dist

from .helpers import unit

# --- troop builders ---------------------------------------------------------------------------------


def foot(armour: str = "P", density: str = "C", quality: int = 3, **kw: Any) -> Troops:
    return Troops(quality=quality, armour=armour, density=density, category="F", **kw)  # type: ignore[arg-type]


def horse(armour: str = "A", density: str = "L", quality: int = 3, **kw: Any) -> Troops:
    return Troops(quality=quality, armour=armour, density=density, category="M", **kw)  # type: ignore[arg-type]


def archers(weapon: str = "foot-bow", **kw: Any) -> Troops:
    kw.setdefault("shields", False)
    return foot("U", "L", role="missile", weapon=weapon, **kw)


def groups(sit: MissileSituation | MeleeSituation) -> list[tuple[str, int, int]]:
    """(label, dice, total modifier) of each group of the pool."""
    return [(g.label, g.dice, g.modifier) for g in sit.pool()]


def mod_names(sit: MissileSituation | MeleeSituation, facing_or_band: str) -> dict[str, int]:
    return {m.rule.split(":")[1] + "|" + m.name: m.value for m in sit.modifiers(facing_or_band)}  # type: ignore[arg-type]


# --- icepool oracle -------------------------------------------------------------------------------------


def icepool_hits(spec: list[tuple[int, int, int]]) -> dict[int, Fraction]:
    """Exact casualties of dice groups (n dice, armour number, modifier), straight from the text:
    a die hits when face + modifier >= armour, a natural 1 always misses, a natural 6 always hits."""
    total: Any = icepool.Die([0])
    for n, hit_on, mod in spec:
        die = icepool.d6.map(lambda f, h=hit_on, m=mod: 1 if f == 6 or (f != 1 and f + m >= h) else 0)
        total = total + (n @ die) if n else total
    den = total.denominator()
    return {int(k): Fraction(int(q), den) for k, q in total.items()}


def same(dist: Dist, oracle: dict[int, Fraction]) -> bool:
    mine = {k: v for k, v in dist.probabilities().items() if v}
    return mine == {k: v for k, v in oracle.items() if v}


# --- combat.armour, combat.to-hit, combat.natural-rolls ------------------------------------------------


@pytest.mark.parametrize(("armour", "need"), [("U", 3), ("P", 4), ("A", 5), ("M", 6), ("E", 6)])
def test_combat_armour_to_hit_numbers(armour: str, need: int) -> None:
    t = foot(armour)
    assert need_for(t.hit_on, 0) == need


def test_combat_to_hit_equals_or_beats() -> None:
    assert is_hit(4, 4, 0) and not is_hit(3, 4, 0)
    assert is_hit(3, 4, 1) and not is_hit(4, 4, -1)


def test_combat_natural_one_always_misses() -> None:
    """Clause into-the-dark:combat.natural-rolls."""
    assert not is_hit(1, 3, 5)
    assert need_for(3, 5) == 2
    assert hit_probability(3, 5) == Fraction(5, 6)


def test_combat_natural_six_always_hits() -> None:
    """Clause into-the-dark:combat.natural-rolls."""
    assert is_hit(6, 7, -3)
    assert need_for(7, -3) == 6
    assert hit_probability(6, -2) == Fraction(1, 6)


def test_combat_armour_encased_hit_on_seven_or_natural_six() -> None:
    """combat.armour: encased "hit on a 7+ (or a natural 6)"; a +1 makes it 6+, a +2 5+."""
    assert foot("E").hit_on == 7
    assert [need_for(7, m) for m in (0, 1, 2)] == [6, 6, 5]


def test_combat_need_matches_is_hit_for_every_face() -> None:
    for hit_on in range(3, 8):
        for mod in range(-5, 6):
            need = need_for(hit_on, mod)
            assert [is_hit(f, hit_on, mod) for f in range(1, 7)] == [f >= need for f in range(1, 7)]


# --- combat.dice, combat.long-range, combat.double-dice, combat.bonus-round ------------------------------


@pytest.mark.parametrize(("figs", "dice"), [(0, 0), (3, 0), (4, 1), (7, 1), (8, 2), (16, 4), (23, 5)])
def test_combat_dice_one_per_four_figures_rounded_down(figs: int, dice: int) -> None:
    assert MissileSituation(archers(), foot(), close=figs).dice == dice
    assert MeleeSituation(foot(), foot(), front=figs).dice == dice


def test_combat_dice_no_fractions_carried_between_units() -> None:
    """Two units of 6 each roll 1 die; one unit of 12 rolls 3."""
    one = MeleeSituation(foot(), foot(), front=6)
    assert one.dice + one.dice == 2
    assert MeleeSituation(foot(), foot(), front=12).dice == 3


@pytest.mark.parametrize(("figs", "dice"), [(7, 0), (8, 1), (16, 2), (23, 2), (24, 3)])
def test_combat_long_range_one_per_eight_figures(figs: int, dice: int) -> None:
    assert MissileSituation(archers(), foot(), long=figs).dice == dice


def test_combat_missile_modifiers_text_example() -> None:
    """combat.missile-modifiers: "a 16 figure unit firing at close range would roll 4 dice, or 2 dice at
    long range ... at a loose order foot target unit in leather armour they would need a 5 or 6"."""
    target = foot("P", "L")
    close = MissileSituation(archers(), target, close=16)
    far = MissileSituation(archers(), target, long=16)
    assert (close.dice, far.dice) == (4, 2)
    assert {g.need for g in close.pool()} == {5}
    assert {g.need for g in far.pool()} == {5}


def test_combat_long_range_partial_range_pools_fractions_ruling() -> None:
    """combat.long-range: firing partly at close and partly at long range; fractions pool within the
    unit (6/4 + 4/8 = 2 dice), and the pooled die rolls at the harder number."""
    sit = MissileSituation(archers("longbow"), foot("P"), close=6, long=4)
    assert sit.dice == 2
    assert groups(sit) == [("close", 1, 1), ("long", 1, 0)]


def test_combat_dice_pooled_die_rolls_at_hardest_number_ruling() -> None:
    sit = MeleeSituation(foot(), foot("P", in_shieldwall=True), front=2, rear=1)
    # front 2/4 + rear 1/2 = 1 die; the front figures face the shieldwall (-1), the rear ones +1.
    assert groups(sit) == [("front", 1, -1)]


def test_combat_flanks_and_rear_double_dice() -> None:
    sit = MeleeSituation(foot(), foot(), front=8, flank=4, rear=2)
    assert groups(sit) == [("front", 2, 0), ("flank", 2, 0), ("rear", 1, 1)]


def test_combat_double_dice_impetuous() -> None:
    assert MeleeSituation(horse(), foot(), front=12, impetuous=True).dice == 6


def test_combat_double_dice_impetuous_and_flank_cumulative() -> None:
    sit = MeleeSituation(horse(), foot(), front=4, flank=3, impetuous=True)
    assert [(g.label, g.dice) for g in sit.pool()] == [("front", 2), ("flank", 3)]


def test_combat_bonus_round_one_per_figure() -> None:
    assert MeleeSituation(foot(), foot(), front=9, bonus_round=True).dice == 9


# --- combat.ranks ------------------------------------------------------------------------------------


def test_combat_ranks_first_two_ranks() -> None:
    assert fighting_figures(6, (6, 6, 6)) == 12
    assert fighting_figures(6, (4,)) == 10


def test_combat_ranks_disordered_front_rank_only_in_melee() -> None:
    """movement.disorder: "A disordered unit counts only its front rank figures while in melee"."""
    # also exercises into-the-dark:movement.disorder.counts-only-the-front-rank
    assert fighting_figures(6, (6,), disordered=True) == 6
    assert fighting_figures(6, (6,), melee=False, disordered=True) == 12


def test_combat_ranks_pike_four_ranks() -> None:
    """swat.pike: up to four ranks of a pike armed unit are eligible (in melee)."""
    # also exercises into-the-dark:swat.pike.four-ranks
    assert fighting_figures(4, (4, 4, 4, 4), pike=True) == 16
    assert fighting_figures(4, (4, 4, 4, 4), pike=True, melee=False) == 8
    assert fighting_figures(4, (4, 4, 4), pike=True, disordered=True) == 4


def test_combat_melee_no_overlapping_figures() -> None:
    with pytest.raises(ValueError):
        fighting_figures(4, (6,))


# --- combat.missile-modifiers and SWAT bows -----------------------------------------------------------


@pytest.mark.parametrize(
    ("target", "value"),
    [
        (foot("U", "C"), 0),
        (foot("U", "L"), -1),
        (foot("U", "O"), -2),
        (horse("U", "C"), 0),
        (horse("U", "L"), 0),
        (horse("U", "O"), -1),
    ],
)
def test_combat_missile_modifiers_target_density(target: Troops, value: int) -> None:
    assert sum(m.value for m in MissileSituation(archers(), target, close=4).modifiers("close")) == value


def test_combat_missile_modifiers_champion_is_open_order() -> None:
    champ = foot("A", "C", champion=True)
    assert MissileSituation(archers(), champ, close=4).modifiers("close")[0].value == -2


def test_combat_missile_modifiers_routers_are_loose_order() -> None:
    """combat.rout: "Routers are considered loose order troops for all purposes"."""
    # also exercises into-the-dark:combat.rout.loose-order
    sit = MissileSituation(archers(), foot("U", "C", routing=True), close=4)
    assert [m.value for m in sit.modifiers("close")] == [-1]


def test_combat_missile_modifiers_shieldless_or_rear() -> None:
    shieldless = MissileSituation(archers(), archers(), close=4)
    assert [m.value for m in shieldless.modifiers("close")] == [-1, 1]
    rear = MissileSituation(archers(), foot(), close=4, from_rear=True)
    assert [m.value for m in rear.modifiers("close")] == [1]


def test_combat_missile_modifiers_shieldless_and_rear_is_one_plus_one_ruling() -> None:
    sit = MissileSituation(archers(), foot(shields=False), close=4, from_rear=True)
    assert [m.value for m in sit.modifiers("close")] == [1]


def test_combat_missile_weapons_cross_trained_bow_cannot_use_shields_while_firing() -> None:
    xt = foot("P", "L", role="cross-trained", weapon="foot-bow")
    assert MissileSituation(archers(), xt, close=4).target_shieldless() is None
    assert MissileSituation(archers(), replace(xt, firing=True), close=4).target_shieldless() is not None
    slingers = foot("P", "C", role="missile", weapon="sling", firing=True)
    assert MissileSituation(archers(), slingers, close=4).target_shieldless() is None


def test_combat_missile_modifiers_cover() -> None:
    light = MissileSituation(archers(), foot(), close=4, cover="light")
    heavy = MissileSituation(archers(), foot(), close=4, cover="heavy")
    assert [m.value for m in light.modifiers("close")] == [-1]
    assert [m.value for m in heavy.modifiers("close")] == [-2]


def test_combat_swat_longbow_close_plus_one() -> None:
    sit = MissileSituation(archers("longbow"), foot("A"), close=8, long=8)
    assert groups(sit) == [("close", 2, 1), ("long", 1, 0)]
    assert sit.modifiers("close")[-1].rule == "into-the-dark:swat.longbow"


def test_combat_swat_heavy_crossbow_close_plus_one() -> None:
    # also exercises into-the-dark:swat.crossbow.heavy
    sit = MissileSituation(archers("heavy-crossbow"), foot("M"), close=4)
    assert [(m.value, m.rule) for m in sit.modifiers("close")] == [(1, "into-the-dark:swat.crossbow")]
    assert sit.pool()[0].need == 5


def test_combat_missile_ranges_javelin_has_no_long_range() -> None:
    with pytest.raises(ValueError, match="no long range"):
        MissileSituation(foot(role="missile", weapon="javelin"), foot(), long=8)


def test_combat_melee_troops_do_not_shoot() -> None:
    with pytest.raises(ValueError):
        MissileSituation(foot(), foot(), close=4)


# --- combat.melee-modifiers and SWAT melee -----------------------------------------------------------


def mods(sit: MeleeSituation, facing: str = "front") -> list[int]:
    return [m.value for m in sit.modifiers(facing)]  # type: ignore[arg-type]


def test_combat_melee_modifiers_charging() -> None:
    assert mods(MeleeSituation(foot(), foot(), front=4, charging=True)) == [1]


def test_combat_melee_modifiers_steady_fanatics() -> None:
    """Clause into-the-dark:morale.morale-states."""
    assert mods(MeleeSituation(foot(quality=5), foot(), front=4)) == [1]
    assert mods(MeleeSituation(foot(quality=5, shaken=True), foot(), front=4)) == []


def test_combat_melee_modifiers_peasants() -> None:
    assert mods(MeleeSituation(foot(quality=1), foot(), front=4)) == [-1]


def test_combat_melee_modifiers_missile_troops_unless_cross_trained() -> None:
    assert mods(MeleeSituation(foot(role="missile", weapon="sling"), foot(), front=4)) == [-1]
    assert mods(MeleeSituation(foot(role="cross-trained", weapon="sling"), foot(), front=4)) == []


def test_combat_melee_modifiers_peasant_missile_troops_single_minus_one_ruling() -> None:
    assert mods(MeleeSituation(foot(quality=1, role="missile", weapon="sling"), foot(), front=4)) == [-1]


def test_combat_shields_enemy_without_shields() -> None:
    assert mods(MeleeSituation(foot(), foot(shields=False), front=4)) == [1]
    assert mods(MeleeSituation(foot(), archers(), front=4)) == [1]


def test_combat_shields_not_counted_from_rear() -> None:
    sit = MeleeSituation(foot(), foot(), rear=4)
    assert mods(sit, "rear") == [1]
    assert mods(sit, "flank") == []


def test_combat_melee_modifiers_enemy_uphill_and_obstacle() -> None:
    sit = MeleeSituation(foot(), foot(), front=4, flank=4, target_uphill=True, obstacle=("front",))
    assert mods(sit, "front") == [-1, -1]
    assert mods(sit, "flank") == [-1]


def test_combat_swat_polearm_plus_one() -> None:
    assert mods(MeleeSituation(foot(polearm=True), foot(), front=4)) == [1]


def test_combat_swat_polearm_gives_opponent_shieldless() -> None:
    sit = MeleeSituation(foot(), foot(polearm=True), front=4)
    assert mods(sit) == [1]
    assert "polearm" in (sit.target_shieldless("front") or "")
    # ... only in melee: "When not in melee they may use their shields normally."
    assert MissileSituation(archers(), foot(polearm=True), close=4).target_shieldless() is None


def test_combat_swat_polearm_and_rear_single_shieldless_ruling() -> None:
    # also exercises into-the-dark:swat.polearm.gives-opponent-shieldless
    assert mods(MeleeSituation(foot(), foot(polearm=True), rear=4), "rear") == [1]


def test_combat_swat_pike_shieldless_only_for_pikes_and_flank_rear() -> None:
    # also exercises into-the-dark:swat.pike.shieldless
    pikes = foot(pike=True)
    assert mods(MeleeSituation(foot(), pikes, front=4)) == []
    assert mods(MeleeSituation(foot(pike=True), pikes, front=4)) == [1]
    assert mods(MeleeSituation(foot(), pikes, flank=4), "flank") == [1]
    assert mods(MeleeSituation(foot(), pikes, rear=4), "rear") == [1]


def test_combat_swat_shieldwall_minus_one_frontal_only() -> None:
    sw = foot("A", in_shieldwall=True)
    sit = MeleeSituation(foot(), sw, front=8, flank=4)
    assert mods(sit, "front") == [-1]
    assert mods(sit, "flank") == []
    with pytest.raises(ValueError, match="Disordered units may not be in shieldwall"):
        foot(in_shieldwall=True, disordered=True)


def test_combat_melee_modifiers_cumulative() -> None:
    sit = MeleeSituation(
        foot(quality=5, polearm=True), foot("A", shields=False), front=8, charging=True, target_uphill=True
    )
    assert sum(mods(sit)) == 1 + 1 + 1 + 1 - 1
    assert sit.pool()[0].need == 2


# --- champions and generals ----------------------------------------------------------------------------


def test_special_troops_champions_two_dice_one_when_wounded() -> None:
    champ = foot("A", "O", quality=4, champion=True)
    assert MeleeSituation(champ, foot(), front=0).dice == 2
    assert MeleeSituation(replace(champ, wounded=True), foot()).dice == 1


def test_special_troops_champions_dice_not_doubled() -> None:
    # also exercises into-the-dark:special-troops.champions.two-dice
    champ = foot("A", "O", quality=4, champion=True)
    assert MeleeSituation(champ, foot(), impetuous=True).dice == 2


def test_special_troops_champions_long_range_halves_ruling() -> None:
    champ = foot("U", "O", quality=4, champion=True, role="missile", weapon="foot-bow", shields=False)
    assert MissileSituation(champ, foot(), close=1).dice == 2
    assert MissileSituation(champ, foot(), long=1).dice == 1
    assert MissileSituation(replace(champ, wounded=True), foot(), long=1).dice == 0


def test_special_troops_champions_dice_declared_at_champion() -> None:
    """Up to 2 of the opponent's dice may target a champion (or general) in the front rank."""
    # also exercises into-the-dark:special-troops.champions.targeted
    unit_attack = MeleeSituation(foot(), foot(), front=12, diverted=2)
    at_champion = MeleeSituation(foot(), foot("A", champion=True), front=12, dice_override=2)
    assert unit_attack.dice == 1
    assert at_champion.dice == 2
    with pytest.raises(ValueError):
        MeleeSituation(foot(), foot(), front=4, diverted=2).pool()


def test_command_generals_treated_as_lmm_and_no_value_in_combat() -> None:
    # also exercises into-the-dark:command.generals.figure
    g = Troops.general()
    assert (g.density, g.armour, g.category) == ("L", "M", "M")
    assert Troops.general(mounted=False).category == "F"
    assert MeleeSituation(foot(), g, dice_override=2).pool()[0].need == 6
    with pytest.raises(ValueError, match="no value in combat"):
        MeleeSituation(g, foot(), front=4)


def test_troops_from_unit() -> None:
    t = Troops.from_unit(unit(code="LUF", type="missile", options=["longbow"]), firing=True)
    assert (t.quality, t.armour, t.density, t.category, t.weapon, t.shields, t.firing) == (
        3,
        "U",
        "L",
        "F",
        "longbow",
        False,
        True,
    )
    champ = Troops.from_unit(unit(code="CAF", figures=1, frontage=None, options=["champion"]))
    assert champ.champion and champ.density == "O"


# --- exact distributions: icepool oracle ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("sit", "spec"),
    [
        (MissileSituation(archers(), foot("P", "L"), close=16), [(4, 4, -1)]),
        (MissileSituation(archers("longbow"), foot("A"), close=8, long=16), [(2, 5, 1), (2, 5, 0)]),
        (MissileSituation(archers(), foot("E"), close=12, cover="heavy"), [(3, 7, -2)]),
        (
            MeleeSituation(horse("M", quality=5), foot("P"), front=12, charging=True, impetuous=True),
            [(6, 4, 2)],
        ),
        (MeleeSituation(foot(), foot("A", in_shieldwall=True), front=12, flank=4), [(3, 5, -1), (2, 5, 0)]),
        (MeleeSituation(foot(quality=1), foot("U", shields=False), front=8, rear=4), [(2, 3, 0), (2, 3, 0)]),
        (MeleeSituation(foot(), foot("E"), front=24), [(6, 7, 0)]),
    ],
)
def test_combat_dist_matches_icepool(
    sit: MissileSituation | MeleeSituation, spec: list[tuple[int, int, int]]
) -> None:
    assert [(g.dice, g.hit_on, g.modifier) for g in sit.pool()] == spec
    assert same(sit.dist(), icepool_hits(spec))


def test_combat_dist_weights_are_integers_out_of_six_to_the_dice() -> None:
    sit = MeleeSituation(foot(), foot("A"), front=12)
    d = sit.dist()
    assert 6**3 % d.total == 0
    assert d.mean() == 3 * Fraction(2, 6)


troops_st = st.builds(
    Troops,
    quality=st.integers(1, 5),
    armour=st.sampled_from(["U", "P", "A", "M", "E"]),
    density=st.sampled_from(["C", "L", "O"]),
    category=st.sampled_from(["F", "M"]),
    shields=st.booleans(),
    polearm=st.booleans(),
    pike=st.booleans(),
    shaken=st.booleans(),
    in_shieldwall=st.booleans(),
)

melee_st = st.builds(
    MeleeSituation,
    attacker=troops_st,
    target=troops_st,
    front=st.integers(0, 20),
    flank=st.integers(0, 9),
    rear=st.integers(0, 9),
    charging=st.booleans(),
    impetuous=st.booleans(),
    target_uphill=st.booleans(),
    obstacle=st.sampled_from([(), ("front",), ("front", "flank", "rear")]),
)


@settings(max_examples=60)
@given(melee_st)
def test_combat_melee_dist_property_icepool(sit: MeleeSituation) -> None:
    spec = [(g.dice, g.hit_on, g.modifier) for g in sit.pool()]
    assert same(sit.dist(), icepool_hits(spec))
    exact = Fraction(sit.front, 4 // (1 + sit.impetuous)) + Fraction(
        sit.flank + sit.rear, 2 // (1 + sit.impetuous)
    )
    assert sit.dice == int(exact)  # pooled within the unit, rounded down
    assert sit.dist().mean() == sum((g.dice * g.p_hit for g in sit.pool()), Fraction(0))


@settings(max_examples=40)
@given(
    target=troops_st,
    weapon=st.sampled_from(["foot-bow", "sling", "longbow", "heavy-crossbow"]),
    close=st.integers(0, 24),
    long=st.integers(0, 24),
    rear=st.booleans(),
    cover=st.sampled_from(["none", "light", "heavy"]),
)
def test_combat_missile_dist_property_icepool(
    target: Troops, weapon: str, close: int, long: int, rear: bool, cover: str
) -> None:
    sit = MissileSituation(archers(weapon), target, close=close, long=long, from_rear=rear, cover=cover)  # type: ignore[arg-type]
    spec = [(g.dice, g.hit_on, g.modifier) for g in sit.pool()]
    assert same(sit.dist(), icepool_hits(spec))
    assert sit.dice == int(Fraction(close, 4) + Fraction(long, 8))


# --- seeded sampling against the exact distribution -------------------------------------------------


def empirical_close(sampler: Any, dist: Dist, n: int, seed: int) -> None:
    """Every outcome's frequency over ``n`` seeded draws lies within 5 standard errors
    (sqrt(p(1-p)/n)) of its exact probability, plus 0.002 for outcomes with tiny p."""
    rng = np.random.default_rng(seed)
    counts: dict[int, int] = {}
    for _ in range(n):
        k = sampler(rng)
        counts[k] = counts.get(k, 0) + 1
    assert set(counts) <= set(dist)
    for k, p in dist.probabilities().items():
        freq = counts.get(k, 0) / n
        se = (float(p) * (1 - float(p)) / n) ** 0.5
        assert abs(freq - float(p)) <= 5 * se + 0.002, (k, freq, float(p))


def test_combat_missile_roll_matches_dist_seeded() -> None:
    sit = MissileSituation(archers("longbow"), foot("A", "L"), close=8, long=13)
    empirical_close(lambda rng: sit.roll(rng).hits, sit.dist(), 20_000, seed=2024)


def test_combat_melee_roll_matches_dist_seeded() -> None:
    sit = MeleeSituation(
        horse("M", quality=5), foot("P", in_shieldwall=True), front=10, flank=3, charging=True, impetuous=True
    )
    empirical_close(lambda rng: sit.roll(rng).hits, sit.dist(), 20_000, seed=7)


def test_combat_roll_is_reproducible_and_logs_faces() -> None:
    sit = MeleeSituation(foot(), foot("A"), front=12, flank=4)
    a = sit.roll(np.random.default_rng(99))
    b = sit.roll(np.random.default_rng(99))
    assert a == b
    assert len(a.faces) == sit.dice
    d = a.to_dict()
    assert d["rule"] == "into-the-dark:combat.melee"
    assert d["faces"] == list(a.faces)
    assert sum(g["hits"] for g in d["groups"]) == a.hits == d["hits"]
    for g in d["groups"]:
        assert g["rule"].startswith("into-the-dark:")
        assert all(m["rule"].startswith("into-the-dark:") for m in g["modifiers"])
        assert g["hits"] == sum(1 for f in g["faces"] if f >= g["need"])


def test_combat_roll_no_dice() -> None:
    sit = MeleeSituation(foot(), foot(), front=3)
    assert sit.dist() == Dist.constant(0)
    assert sit.roll(np.random.default_rng(0)).faces == ()


# --- morale.melee-test-order: who lost ---------------------------------------------------------------


def test_morale_melee_test_order_loser_dist() -> None:
    """Clause into-the-dark:combat.combat-results."""
    a = MeleeSituation(foot(), foot("A"), front=8)
    b = MeleeSituation(foot("A"), foot(), front=4)
    d = melee_loser_dist(a, b)
    # brute force over both exact distributions
    pa, pb = a.dist().probabilities(), b.dist().probabilities()
    first_lost = sum((x * y for i, x in pa.items() for j, y in pb.items() if j > i), Fraction(0))
    tie = sum((x * y for i, x in pa.items() for j, y in pb.items() if j == i), Fraction(0))
    assert d.probability(MeleeLoser.FIRST) == first_lost
    assert d.probability(MeleeLoser.TIE) == tie
    assert sum(d.probabilities().values()) == 1


def test_special_troops_champions_at_most_two_dice_declared() -> None:
    # also exercises into-the-dark:special-troops.champions.targeted
    with pytest.raises(ValueError, match="at most 2"):
        MeleeSituation(foot(), foot("A", champion=True), dice_override=3)
    with pytest.raises(ValueError, match="at most 2"):
        MissileSituation(archers(), foot(), close=16, diverted=3)
