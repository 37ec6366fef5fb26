"""into-the-dark: the integer fast paths the odds engine (and the game) use give exactly what the
rules' long forms give.

* ``MeleeSituation.dist()`` / ``MissileSituation.dist()`` work out the dice and needs without building
  ``DiceGroup`` / ``Mod`` rows: equal to ``pool_dist(pool())`` (the groups the game rolls) on a
  seeded sample of situations covering every troop flag, facing, band, cover and charge.
* ``modifier_total`` is the sum of ``modifiers()``; ``_Test.level`` is the quality plus the sum of
  ``modifiers()`` on every combination of the morale table's lines.
* ``_Test.quick``, ``from_fields`` and ``with_fields`` build values equal to (and hashing as) the
  dataclass constructor's (``dataclasses.replace``'s), with the same checks.
* The odds plug-in's answers for new questions (memos cleared) equal icepool's distribution built
  from the to-hit numbers and morale levels worked out by hand, and the situations it builds from a
  unit's template and the settings given equal the constructors' from every parsed setting.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
import re
from fractions import Fraction
from typing import Any

import icepool
import pytest

from shieldwall import odds
from shieldwall.core.errors import ShieldwallError
from shieldwall.rulesets.into_the_dark import combat, morale, profiles
from shieldwall.rulesets.into_the_dark import odds as itd
from shieldwall.rulesets.into_the_dark.combat import Troops, pool_dist
from shieldwall.rulesets.into_the_dark.fire_situation import MissileSituation
from shieldwall.rulesets.into_the_dark.melee_situation import MeleeSituation

RS = "into-the-dark"
MELEE_WEAPONS: tuple[Any, ...] = (None,)
MISSILE_WEAPONS = profiles.WEAPON_KEYS


def _troops(rng: random.Random, *, missile: bool = False) -> Troops:
    """A random valid ``Troops`` (any role when not ``missile``)."""
    role: Any = rng.choice(("missile", "cross-trained") if missile else ("melee", "missile", "cross-trained"))
    weapon = None if role == "melee" else rng.choice(MISSILE_WEAPONS)
    champion = rng.random() < 0.1
    disordered = rng.random() < 0.3
    return Troops(
        quality=rng.randint(1, 5),
        armour=rng.choice(("U", "P", "A", "M", "E")),
        density=rng.choice(("C", "L", "O")),
        category=rng.choice(("F", "M")),
        role=role,
        weapon=weapon,
        shields=rng.random() < 0.7,
        polearm=rng.random() < 0.2,
        pike=rng.random() < 0.2,
        champion=champion,
        shaken=rng.random() < 0.3,
        disordered=disordered,
        in_shieldwall=not disordered and rng.random() < 0.4,
        routing=rng.random() < 0.1,
        firing=rng.random() < 0.3,
        wounded=champion and rng.random() < 0.5,
    )


def _figures(rng: random.Random) -> int:
    return rng.choice((0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 16, 23, 24))


def test_melee_fast_dist_matches_the_pool() -> None:
    rng = random.Random(20261123)
    checked = 0
    for _ in range(4000):
        kw: dict[str, Any] = dict(
            front=_figures(rng),
            flank=_figures(rng) if rng.random() < 0.5 else 0,
            rear=_figures(rng) if rng.random() < 0.3 else 0,
            charging=rng.random() < 0.5,
            impetuous=rng.random() < 0.3,
            bonus_round=rng.random() < 0.1,
            target_uphill=rng.random() < 0.3,
            obstacle=tuple(f for f in combat.FACINGS if rng.random() < 0.2),
        )
        if rng.random() < 0.1:
            kw["dice_override"] = rng.randint(0, 2)
        sit = MeleeSituation(_troops(rng), _troops(rng), **kw)
        for facing in combat.FACINGS:
            assert sit.modifier_total(facing) == sum(m.value for m in sit.modifiers(facing))
        assert sit.dist() == pool_dist(sit.pool()), sit
        checked += 1
    assert checked == 4000


def test_missile_fast_dist_matches_the_pool() -> None:
    rng = random.Random(11232026)
    checked = 0
    while checked < 4000:
        shooter = _troops(rng, missile=True)
        close, long = _figures(rng), _figures(rng) if rng.random() < 0.5 else 0
        kw: dict[str, Any] = dict(
            close=close,
            long=long,
            from_rear=rng.random() < 0.2,
            cover=rng.choice(("none", "light", "heavy")),
        )
        if rng.random() < 0.1:
            kw["dice_override"] = rng.randint(0, 2)
        try:
            sit = MissileSituation(shooter, _troops(rng), **kw)
        except ValueError:  # no long range for this weapon
            continue
        for band in ("close", "long"):
            assert sit.modifier_total(band) == sum(m.value for m in sit.modifiers(band))
        assert sit.dist() == pool_dist(sit.pool()), sit
        checked += 1


def test_diverted_dice_still_use_the_pool() -> None:
    t = Troops(quality=3, armour="A", density="C", category="F")
    sit = MeleeSituation(t, t, front=12, diverted=1)
    assert sit.dist() == pool_dist(sit.pool()) == combat.binomial_dist(2, 2)


MORALE_FLAGS = (
    "shaken",
    "disordered",
    "flanked",
    "outnumber_double",
    "long_range_missile_only",
    "fewer_firers",
    "deeper_ranks",
    "supported",
    "unsupported",
    "uphill",
    "in_cover",
    "shieldwall",
)


@pytest.mark.parametrize("quality", [1, 3, 5])
def test_morale_level_is_the_sum_of_the_modifiers(quality: int) -> None:
    ratings = sorted({r.rating for r in profiles.command().ratings.values()})
    n = 0
    for bits in itertools.product((False, True), repeat=len(MORALE_FLAGS)):
        flags = dict(zip(MORALE_FLAGS, bits, strict=True))
        if (flags["shieldwall"] and flags["disordered"]) or (flags["supported"] and flags["unsupported"]):
            continue
        for cas, orig, routing, general in ((0, 12, 0, 0), (7, 12, 2, ratings[-1]), (3, 24, 1, ratings[0])):
            kw: dict[str, Any] = dict(
                quality=quality,
                casualties=cas,
                original=orig,
                friends_routing=routing,
                general=general,
                **flags,
            )
            for cls in (morale.MoraleSituation, morale.ControlSituation):
                sit = cls(**kw)
                assert sit.level == quality + sum(m.value for m in sit.modifiers())
                quick = cls.quick(**kw)
                assert quick == sit and hash(quick) == hash(sit) and quick.dist() == sit.dist()
                n += 1
    assert n > 10000


def test_quick_runs_the_checks() -> None:
    with pytest.raises(ValueError, match="supported and unsupported"):
        morale.MoraleSituation.quick(quality=3, supported=True, unsupported=True)
    with pytest.raises(ValueError, match="shieldwall"):
        morale.MoraleSituation.quick(quality=3, shieldwall=True, disordered=True)
    with pytest.raises(TypeError, match="unknown field"):
        morale.MoraleSituation.quick(quality=3, bravery=True)


# --- the plug-in's new questions against icepool ---------------------------------------------------


def _new() -> None:
    itd.PLUGIN.clear_memo()
    itd.situation_dist.cache_clear()


def _probs(die: icepool.Die) -> dict[int, Fraction]:
    total = die.denominator()
    return {int(k): Fraction(v, total) for k, v in sorted(die.items()) if v}


@pytest.mark.parametrize(
    ("attacker", "target", "sets", "groups"),
    [
        # (dice, need) per group, worked out by hand
        ("12 CAF average", "12 CUF average", {"charging": "yes"}, [(3, 2)]),
        ("12 CAF average", "12 CAF average shieldwall", {}, [(3, 6)]),
        ("13 CAF average", "12 CAF average", {"facing": "flank"}, [(6, 5)]),
        ("24 LUF levy bow", "12 LPF average", {"mode": "shoot", "range": "long"}, [(3, 5)]),
        ("16 LUF levy longbow", "12 CAF average", {"mode": "shoot"}, [(4, 4)]),
        ("8 LUM average javelin", "12 CPF average", {"mode": "shoot", "facing": "rear"}, [(2, 3)]),
        ("12 CAF fanatic", "12 CMF average", {"disordered": "yes"}, [(1, 5)]),
    ],
)
def test_new_attack_matches_icepool(
    attacker: str, target: str, sets: dict[str, str], groups: list[tuple[int, int]]
) -> None:
    _new()
    die: icepool.Die = icepool.Die([0])
    for n, need in groups:
        die = die + n @ (icepool.d6 >= need)
    a = odds.attack(RS, attacker, target, sets)
    assert a.probabilities == _probs(die)
    assert a.dist == pool_dist(a.situation.pool())


@pytest.mark.parametrize(
    ("unit", "sets", "level"),
    [
        ("12 CAF average shieldwall", {"casualties": 6, "shaken": "yes"}, 3 + 1 - 2 - 1),
        ("12 CAF elite", {"flanked": "yes", "general": "good"}, 4 - 3 + 3),
        ("12 CAF levy", {"supported": "yes", "uphill": "yes", "friends-routing": 2}, 2 + 1 + 1 - 2),
        ("12 CAF average", {"test": "control", "disordered": "yes"}, 3 - 1),
    ],
)
def test_new_morale_matches_icepool(unit: str, sets: dict[str, Any], level: int) -> None:
    _new()
    got = odds.morale(RS, unit, sets).outcomes
    if sets.get("test") == "control":
        die = icepool.d6.map(lambda f: 1 if f <= level else 0)
        p = _probs(die)
        assert dict(got) == {"passed": p.get(1, Fraction(0)), "failed": p.get(0, Fraction(0))}
        return
    die = icepool.d6.map(lambda f: 0 if f <= level else 1 if f - level == 1 else 2 if f - level <= 3 else 3)
    p = _probs(die)
    names = ("passed", "shaken", "driven_back", "routed")
    assert dict(got) == {n: p.get(i, Fraction(0)) for i, n in enumerate(names)}


# --- the situations the plug-in builds for new questions -----------------------------------------


def _fields(sit: Any) -> dict[str, Any]:
    return {f.name: getattr(sit, f.name) for f in dataclasses.fields(sit)}


def test_from_fields_and_with_fields_equal_the_constructor() -> None:
    """``from_fields`` (every field) and ``with_fields`` (``dataclasses.replace``) give the
    constructor's value, with its checks and messages."""
    rng = random.Random(24112026)
    checked = 0
    while checked < 2000:
        att, tgt = _troops(rng), _troops(rng)
        kw: dict[str, Any] = dict(
            front=_figures(rng),
            flank=_figures(rng) if rng.random() < 0.3 else 0,
            charging=rng.random() < 0.5,
            impetuous=rng.random() < 0.3,
            target_uphill=rng.random() < 0.3,
            obstacle=tuple(f for f in combat.FACINGS if rng.random() < 0.2),
        )
        base = MeleeSituation(_troops(rng, missile=True), _troops(rng))
        try:
            sit = MeleeSituation(att, tgt, **kw)
        except ValueError as exc:
            with pytest.raises(ValueError, match=re.escape(str(exc))):
                base.with_fields({"attacker": att, "target": tgt, **kw})
            continue
        for fast in (
            MeleeSituation.from_fields(_fields(sit)),
            base.with_fields({"attacker": att, "target": tgt, **kw}),
        ):
            assert fast == sit and hash(fast) == hash(sit)
            assert fast.dist() == sit.dist() and fast.pool() == sit.pool()
        checked += 1
    shooter = Troops(quality=3, armour="U", density="L", category="F", role="missile", weapon="foot-bow")
    shot = MissileSituation(shooter, shooter)
    assert shot.with_fields({"long": 16, "cover": "light"}) == dataclasses.replace(
        shot, long=16, cover="light"
    )
    with pytest.raises(TypeError, match="unknown field"):
        shot.with_fields({"bravery": True})
    with pytest.raises(TypeError, match="missing field"):
        MissileSituation.from_fields({"shooter": shooter})
    test = morale.MoraleSituation(quality=3, original=12, shieldwall=True)
    with pytest.raises(ValueError, match="Disordered units may not be in shieldwall"):
        test.with_fields({"disordered": True})
    assert test.with_fields({"disordered": True, "shieldwall": False}) == morale.MoraleSituation(
        quality=3, original=12, disordered=True
    )
    with pytest.raises(ValueError, match="casualties must be 0..12, got 13"):
        test.with_fields({"casualties": 13})


MORALE_KEYS = {k for k, sk in itd.SET_KEYS.items() if "morale" in sk.commands}
YES_NO_MORALE = sorted(k for k in MORALE_KEYS if itd.SET_KEYS[k].choices == ("yes", "no"))
#: --set key -> ``MoraleSituation`` field, written out again for the test
FIELD = {
    "outnumber": "outnumber_double",
    "long-range-only": "long_range_missile_only",
    "fewer-firers": "fewer_firers",
    "deeper-ranks": "deeper_ranks",
    "in-cover": "in_cover",
}


def _expected_test(unit: str, sets: dict[str, Any]) -> Any:
    """The test the settings describe, built with the constructor from the parsed settings."""
    s = itd.PLUGIN.parse_sets(sets, "morale")
    u = itd.side(itd.parse_spec(unit))
    dis = s["disordered"] == "yes"
    gen = s["general"]
    cls = morale.ControlSituation if s["test"] == "control" else morale.MoraleSituation
    return cls(
        quality=u.unit.quality_level,
        casualties=int(s["casualties"] or 0),
        original=u.spec.figures,
        friends_routing=int(s["friends-routing"] or 0),
        shieldwall=u.unit.has("shieldwall") and not dis,
        general=0 if gen == "none" else profiles.command().ratings[gen].rating,  # type: ignore[index]
        **{FIELD.get(k, k): s[k] == "yes" for k in YES_NO_MORALE},
    )


def test_new_morale_questions_build_the_constructors_test() -> None:
    """Random settings (given in any order, some at their defaults): the plug-in's test (the unit's
    template with the settings given) equals the constructor's from every parsed setting, or fails
    with the same message."""
    rng = random.Random(11242026)
    units = ("12 CAF average shieldwall", "8 LUF levy bow", "16 CPF elite", "6 OUF fanatic warband")
    for _ in range(1500):
        unit = rng.choice(units)
        sets: dict[str, Any] = {k: rng.choice(("yes", "no")) for k in YES_NO_MORALE if rng.random() < 0.25}
        if rng.random() < 0.5:
            sets["casualties"] = rng.randint(0, 18)
        if rng.random() < 0.3:
            sets["friends-routing"] = rng.randint(0, 3)
        if rng.random() < 0.3:
            sets["general"] = rng.choice(("none", "poor", "average", "good"))
        if rng.random() < 0.3:
            sets["test"] = rng.choice(("morale", "control"))
        _new()
        if sets.get("casualties", 0) > itd.parse_spec(unit).figures:  # the plug-in's own check
            with pytest.raises(ShieldwallError, match="is more than the unit's"):
                odds.morale(RS, unit, sets)
            continue
        try:
            want = _expected_test(unit, sets)
        except ValueError as exc:
            with pytest.raises(ShieldwallError) as err:
                odds.morale(RS, unit, sets)
            assert str(err.value) == str(exc)
            continue
        got = odds.morale(RS, unit, sets)
        assert got.situation == want and hash(got.situation) == hash(want)
        assert _fields(got.situation) == _fields(want)
        control = sets.get("test") == "control"
        names = ("failed", "passed") if control else ("passed", "shaken", "driven_back", "routed")
        assert dict(got.outcomes) == {n: want.dist().probability(i) for i, n in enumerate(names)}


def test_new_attack_questions_build_the_constructors_situation() -> None:
    """Random melee and missile settings: the plug-in's situation (the attacker's template with the
    settings given) equals the constructor's from every parsed setting, or fails alike."""
    rng = random.Random(23112026)
    units = (
        "12 CAF average",
        "24 LUF levy bow",
        "12 CPF elite shieldwall",
        "8 LAM elite javelin",
        "16 CMF average pike",
    )
    yes_no = ("charging", "impetuous", "uphill", "obstacle", "shaken", "disordered", "target-disordered")
    for _ in range(1500):
        a, t = rng.choice(units), rng.choice(units)
        sets: dict[str, Any] = {k: rng.choice(("yes", "no")) for k in yes_no if rng.random() < 0.2}
        if rng.random() < 0.4:
            sets["facing"] = rng.choice(("front", "flank", "rear"))
        if rng.random() < 0.4:
            sets["mode"] = "shoot"
            for k in ("charging", "impetuous", "uphill", "obstacle"):
                sets.pop(k, None)
            if rng.random() < 0.5:
                sets["range"] = rng.choice(("close", "long"))
            if rng.random() < 0.5:
                sets["cover"] = rng.choice(("none", "light", "heavy"))
            if rng.random() < 0.3:
                sets["target-firing"] = rng.choice(("yes", "no"))
        _new()
        s = itd.PLUGIN.parse_sets(sets, "attack")
        sa, st_ = itd.side(itd.parse_spec(a)), itd.side(itd.parse_spec(t))
        dis = s["disordered"] == "yes"
        att = sa.troops(shaken=s["shaken"] == "yes", disordered=dis)
        tgt = st_.troops(disordered=s["target-disordered"] == "yes", firing=s["target-firing"] == "yes")
        facing = str(s["facing"])
        try:
            if s["mode"] == "melee":
                want: Any = MeleeSituation(
                    att,
                    tgt,
                    **{facing: sa.fighting(sa.figures, dis)},
                    charging=s["charging"] == "yes",
                    impetuous=s["impetuous"] == "yes",
                    target_uphill=s["uphill"] == "yes",
                    obstacle=(facing,) if s["obstacle"] == "yes" else (),
                )
            else:
                want = MissileSituation(
                    att,
                    tgt,
                    **{str(s["range"]): sa.fighting(sa.figures, dis, melee=False)},
                    from_rear=facing == "rear",
                    cover=s["cover"],
                )
        except ValueError as exc:
            want = exc
        try:
            got = odds.attack(RS, a, t, sets)
        except ShieldwallError as err:
            if not re.search("cannot shoot|cannot charge impetuously", str(err)):  # the plug-in's own
                assert isinstance(want, ValueError) and str(err) == str(want)
            continue
        assert got.situation == want and _fields(got.situation) == _fields(want)
        assert got.dist == want.dist() == pool_dist(want.pool())
