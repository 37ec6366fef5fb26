"""Missile fire and melee in Into the Dark, as exact distributions and as seeded samples.

This is the single source of truth for casualties: the game samples ``MissileSituation.roll`` /
``MeleeSituation.roll`` and the odds engine enumerates ``.dist()``; both are built from the same
``pool()`` of dice groups, so they cannot disagree.

The clauses (docs/rules/into-the-dark.md):

* combat.ranks - the first two ranks fight (pike four, disordered in melee only the front rank);
* combat.dice - one d6 per four figures fighting, rounded down, per attacking unit;
* combat.long-range - 1 d6 per 8 figures; combat.double-dice - flank/rear or impetuous 1 per 2, both 1 per
  figure; combat.bonus-round - 1 per figure;
* combat.armour + combat.to-hit - each die that equals or beats the armour number with modifiers
  is a casualty; combat.natural-rolls - a natural 1 always misses, a 6 always hits;
* combat.missile-modifiers, combat.melee-modifiers, combat.shields and the SWAT modifiers
  (swat.longbow, swat.crossbow, swat.polearm, swat.pike, swat.shieldwall);
* special-troops.champions - 2 dice (1 when wounded); up to 2 dice may be declared at a champion
  or general in the front rank (command.generals).

Rulings (docs/rulings/into-the-dark.md): fractions of dice are pooled within one attacking unit
(never between units) and a die made up of pooled fractions rolls at the hardest target number of
the figures that made it; "shieldless or hit from the rear" is one +1, whatever the reasons.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from enum import IntEnum
from fractions import Fraction
from functools import lru_cache
from math import comb, lcm
from typing import TYPE_CHECKING, Any, Literal, Self, TypeVar

from shieldwall.core.dice import Dist

from . import profiles
from .clauses import cite
from .profiles import ArmourLetter, Category, Density, Modifier, Role, WeaponKey

if TYPE_CHECKING:
    import numpy as np

if TYPE_CHECKING:
    from .army import ArmyUnit

Facing = Literal["front", "flank", "rear"]
RangeBand = Literal["close", "long"]
Cover = Literal["none", "light", "heavy"]

FACINGS: tuple[Facing, ...] = ("front", "flank", "rear")


# --- troops -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Troops:
    """Everything about one side of an attack that the combat rules look at.

    The static part comes from the army file (``Troops.from_unit``); the state flags describe the
    unit now. ``shields`` is whether the figures carry shields at all (combat.shields,
    combat.missile-weapons); whether they can use them is decided per attack. ``quality`` is None
    only for a general figure, who "has no value in combat" and is only ever a target.
    """

    # into-the-dark:combat.rout.loose-order

    quality: int | None
    armour: ArmourLetter
    density: Density
    category: Category
    role: Role = "melee"
    weapon: WeaponKey | None = None
    shields: bool = True
    polearm: bool = False
    pike: bool = False
    champion: bool = False
    # state
    shaken: bool = False
    disordered: bool = False
    in_shieldwall: bool = False
    routing: bool = False
    firing: bool = False
    wounded: bool = False

    def __post_init__(self) -> None:
        if self.quality is not None and not 1 <= self.quality <= 5:
            raise ValueError(f"quality level must be 1..5, got {self.quality}")
        if self.in_shieldwall and self.disordered:
            raise ValueError("Disordered units may not be in shieldwall (into-the-dark:swat.shieldwall)")
        if self.wounded and not self.champion:
            raise ValueError("only champions are wounded (into-the-dark:special-troops.champions)")
        if (self.weapon is None) != (self.role == "melee"):
            raise ValueError(
                f"{self.role} troops {'need' if self.weapon is None else 'have no'} a missile weapon"
            )

    @classmethod
    def from_unit(cls, unit: ArmyUnit, **state: bool) -> Troops:
        """From an ``army.ArmyUnit``; ``state`` sets shaken, disordered, in_shieldwall, routing,
        firing, wounded."""
        return cls(
            quality=unit.quality_level,
            armour=unit.armour,
            density=unit.density,
            category=unit.category,
            role=unit.type,
            weapon=unit.missile_weapon,
            shields=unit.has_shields,
            polearm=unit.has("polearm"),
            pike=unit.has("pike"),
            champion=unit.champion,
            **state,
        )

    @classmethod
    def general(cls, mounted: bool = True) -> Troops:
        """A general figure as a target: "treated as if he were LMM (or LMF)" (command.generals)."""
        code = profiles.command().general.code_mounted if mounted else profiles.command().general.code_foot
        d, a, c = profiles.parse_code(code)
        return cls(quality=None, armour=a, density=d, category=c)

    @property
    def effective_density(self) -> Density:
        """Champions are always open order (special-troops.champions); routers are loose order
        "for all purposes" (combat.rout)."""
        if self.champion:
            return "O"
        if self.routing:
            return "L"
        return self.density

    @property
    def hit_on(self) -> int:
        """The armour's to-hit number before modifiers (combat.armour)."""
        return profiles.armour_classes()[self.armour].hit_on


# --- the to-hit roll ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Mod:
    """One applied modifier: its name, value and clause."""

    name: str
    value: int
    rule: str

    @classmethod
    def of(cls, m: Modifier, name: str | None = None) -> Mod:
        """The applied form of a table modifier (memoised per table row and name: a ``Mod`` is
        immutable, and building one cites its clause)."""
        key = (id(m), name)
        got = _MOD_OF.get(key)
        if got is not None and got[0] is m and cls is Mod:
            return got[1]
        mod = cls(name or m.text, m.value, m.rule)
        if cls is Mod:
            _MOD_OF[key] = (m, mod)  # the row is kept alive, so its id is not reused
        return mod

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "value": self.value, "rule": self.rule}


_MOD_OF: dict[tuple[int, str | None], tuple[Modifier, Mod]] = {}


def need_for(hit_on: int, modifier: int) -> int:
    """The lowest natural face that hits: a die hits when face + modifier >= hit_on
    (combat.to-hit), but a natural 1 always misses and a natural 6 always hits
    (combat.natural-rolls), so the answer is clamped to 2..6."""
    nat = profiles.combat_tables().natural
    need, lo, hi = hit_on - modifier, nat.always_miss + 1, nat.always_hit
    return lo if need < lo else hi if need > hi else need


def is_hit(face: int, hit_on: int, modifier: int) -> bool:
    """One die (combat.to-hit, combat.natural-rolls)."""
    nat = profiles.combat_tables().natural
    if face == nat.always_miss:
        return False
    if face == nat.always_hit:
        return True
    return face + modifier >= hit_on


def hit_probability(hit_on: int, modifier: int) -> Fraction:
    """Chance that one d6 hits (combat.to-hit, combat.natural-rolls): between 1/6 and 5/6."""
    return Fraction(7 - need_for(hit_on, modifier), 6)


# --- dice pools ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DiceGroup:
    """Dice that share one target number: ``need`` is the lowest natural face that hits."""

    label: str
    dice: int
    hit_on: int
    modifiers: tuple[Mod, ...]
    rate: str
    rate_rule: str

    @property
    def modifier(self) -> int:
        return sum(m.value for m in self.modifiers)

    @property
    def target(self) -> int:
        """The final 'to hit' number (armour minus modifiers), before the natural 1/6 rule."""
        return self.hit_on - self.modifier

    @property
    def need(self) -> int:
        return need_for(self.hit_on, self.modifier)

    @property
    def p_hit(self) -> Fraction:
        return Fraction(7 - self.need, 6)

    def dist(self) -> Dist:
        """Binomial casualties of this group, with exact integer weights C(n,i) k^i (6-k)^(n-i)."""
        return binomial_dist(self.dice, 7 - self.need)

    def to_dict(self, faces: Sequence[int] = ()) -> dict[str, Any]:
        out: dict[str, Any] = {
            "label": self.label,
            "dice": self.dice,
            "rate": self.rate,
            "armour": self.hit_on,
            "modifiers": [m.to_dict() for m in self.modifiers],
            "target": self.target,
            "need": self.need,
            "rule": self.rate_rule,
            "natural": cite("combat.natural-rolls"),
        }
        if faces:
            out["faces"] = list(faces)
            out["hits"] = sum(1 for f in faces if f >= self.need)
        return out


@dataclass(frozen=True, slots=True)
class _Part:
    label: str
    figures: int
    per_die: int
    modifiers: tuple[Mod, ...]
    rate: str
    rate_rule: str


def _whole_dice(parts: Sequence[tuple[int, int, int]]) -> list[int]:
    """Dice for one attacking unit (combat.dice), from its parts ``(figures, figures per die, need)``:
    each part gives figures // per_die whole dice; the leftover fractions of all parts are pooled
    ("you do not carry over fractions from unit to unit" - within a unit they add up) and each whole
    die they make rolls with the modifiers of the contributing part that is hardest to hit with
    (the highest need; docs/rulings/into-the-dark.md)."""
    if len(parts) == 1:  # nothing to pool with
        return [parts[0][0] // parts[0][1]]
    dice = [figures // per_die for figures, per_die, _ in parts]
    rems = [i for i, (figures, per_die, _) in enumerate(parts) if figures % per_die]
    if len(rems) > 1:  # whole dice in the pooled fractions: floor(sum of rem / per), in integers
        per = lcm(*(parts[i][1] for i in rems))
        extra = sum((parts[i][0] % parts[i][1]) * (per // parts[i][1]) for i in rems) // per
        if extra:
            dice[max(rems, key=lambda i: parts[i][2])] += extra
    return dice


def _assemble(parts: Sequence[_Part], hit_on: int) -> list[DiceGroup]:
    """The dice groups of one attacking unit (``_whole_dice``)."""
    dice = _whole_dice(
        [(p.figures, p.per_die, need_for(hit_on, sum(m.value for m in p.modifiers))) for p in parts]
    )
    return [
        DiceGroup(p.label, n, hit_on, p.modifiers, p.rate, p.rate_rule)
        for p, n in zip(parts, dice, strict=True)
        if n > 0
    ]


def _needs_dist(parts: Sequence[tuple[int, int, int]]) -> Dist:
    """``pool_dist`` of the groups ``_assemble`` makes of ``parts`` (``_whole_dice``), from the
    dice and needs alone (no ``DiceGroup`` or ``Mod`` is built)."""
    if len(parts) == 1:  # one group: nothing pooled
        figures, per_die, need = parts[0]
        n = figures // per_die
        return binomial_dist(n, 7 - need) if n > 0 else Dist.constant(0)
    out: Dist | None = None
    for (_, _, need), n in zip(parts, _whole_dice(parts), strict=True):
        if n > 0:
            d = binomial_dist(n, 7 - need)
            out = d if out is None else out + d
    return Dist.constant(0) if out is None else out


def _divert(groups: list[DiceGroup], n: int) -> list[DiceGroup]:
    """Remove ``n`` dice declared at a champion or general (special-troops.champions,
    command.generals), taken from the first groups (the front first)."""
    out: list[DiceGroup] = []
    for g in groups:
        take = min(n, g.dice)
        n -= take
        if g.dice - take:
            out.append(DiceGroup(g.label, g.dice - take, g.hit_on, g.modifiers, g.rate, g.rate_rule))
    if n:
        raise ValueError("more dice declared at a champion or general than the attack has")
    return out


def _check_declared(dice_override: int | None, diverted: int) -> None:
    """ "up to 2 of their opponent's dice may be declared as targeting the champion" (and the general):
    special-troops.champions, command.generals."""
    # into-the-dark:special-troops.champions.targeted
    if not diverted and dice_override is None:  # nothing declared
        return
    most = max(profiles.special().champion.dice_at_champion, profiles.command().general.dice_at_general)
    if diverted > most or (dice_override is not None and dice_override > most):
        raise ValueError(f"at most {most} dice may be declared at a champion or general")


@lru_cache(maxsize=1024)
def binomial_dist(n: int, k: int) -> Dist:
    """Hits of ``n`` d6 that each hit on ``k`` faces of 6: exact integer weights
    C(n,i) k^i (6-k)^(n-i) (math.comb, no convolution), memoised per (n, k)."""
    return Dist({i: comb(n, i) * k**i * (6 - k) ** (n - i) for i in range(n + 1)})


def pool_dist(groups: Sequence[DiceGroup]) -> Dist:
    """Exact casualties of a pool: the sum of independent binomials (integer weights, 6^dice)."""
    if not groups:
        return Dist.constant(0)
    out = groups[0].dist()
    for g in groups[1:]:
        out = out + g.dist()
    return out


@dataclass(frozen=True, slots=True)
class AttackRoll:
    """A rolled attack: the natural faces in pool order, the groups they were rolled for, the hits."""

    kind: Literal["missile", "melee"]
    groups: tuple[DiceGroup, ...]
    faces: tuple[int, ...]
    hits: int
    notes: tuple[dict[str, Any], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """Event data: faces, modifiers and target numbers with the clause of each."""
        out: list[dict[str, Any]] = []
        i = 0
        for g in self.groups:
            out.append(g.to_dict(self.faces[i : i + g.dice]))
            i += g.dice
        return {
            "rule": cite("combat.missile-fire" if self.kind == "missile" else "combat.melee"),
            "die": "d6",
            "faces": list(self.faces),
            "groups": out,
            "hits": self.hits,
            "notes": list(self.notes),
        }


def roll_pool(
    kind: Literal["missile", "melee"],
    groups: Sequence[DiceGroup],
    rng: np.random.Generator,
    notes: Sequence[dict[str, Any]] = (),
) -> AttackRoll:
    """Roll every die of the pool with the battle's generator (one ``integers`` call)."""
    n = sum(g.dice for g in groups)
    faces = tuple(int(f) for f in rng.integers(1, 7, size=n)) if n else ()
    hits = 0
    i = 0
    for g in groups:
        hits += sum(1 for f in faces[i : i + g.dice] if f >= g.need)
        i += g.dice
    return AttackRoll(kind, tuple(groups), faces, hits, tuple(notes))


# --- ranks --------------------------------------------------------------------------------------


def fighting_ranks(*, melee: bool, disordered: bool = False, pike: bool = False) -> int:
    """How many ranks fight: two (combat.ranks), four for pikes in melee (swat.pike), only the front
    rank for a disordered unit in melee (movement.disorder)."""
    # into-the-dark:swat.pike.four-ranks
    # into-the-dark:movement.disorder.counts-only-the-front-rank
    r = profiles.combat_tables().ranks
    if melee and disordered:
        return r.disordered_melee_ranks
    if melee and pike:
        return r.pike_ranks
    return r.ranks


def fighting_figures(
    front: int,
    behind: Sequence[int] = (),
    *,
    melee: bool = True,
    disordered: bool = False,
    pike: bool = False,
) -> int:
    """Figures that count (combat.ranks, combat.melee): ``front`` figures facing the enemy (in base
    contact for melee), plus ``behind[i]`` figures of rank i+2 directly behind them, for the ranks
    that fight. Overlapping figures never count, so no rank may count more than ``front``
    (into-the-dark:combat.melee.no-overlapping)."""
    if front < 0 or any(b < 0 or b > front for b in behind):
        raise ValueError("ranks behind may only count figures directly behind the front figures")
    ranks = fighting_ranks(melee=melee, disordered=disordered, pike=pike)
    return front + sum(behind[: ranks - 1])


# --- missile fire -------------------------------------------------------------------------------


_S = TypeVar("_S")


def _quick(cls: type[_S], names: frozenset[str], state: dict[str, Any]) -> _S:
    """``cls(**state)`` for the odds engine's hot path: an equal value (same hash, same checks in
    ``__post_init__``), built without the generated ``__init__`` (fields not given keep their class
    defaults: the situations have no ``__slots__`` for this)."""
    if not names.issuperset(state):
        raise TypeError(f"unknown field(s) {sorted(set(state) - names)}")
    obj = object.__new__(cls)
    obj.__dict__.update(state)
    obj.__post_init__()  # type: ignore[attr-defined]
    return obj


def _with_fields(obj: _S, names: frozenset[str], changes: dict[str, Any]) -> _S:
    """``dataclasses.replace(obj, **changes)`` for the odds engine's hot path: an equal value (same
    hash, same checks in ``__post_init__``), built from a copy of ``obj``'s ``__dict__`` without the
    generated ``__init__``."""
    if not names.issuperset(changes):
        raise TypeError(f"unknown field(s) {sorted(set(changes) - names)}")
    state = obj.__dict__.copy()
    state.update(changes)
    new = object.__new__(type(obj))
    object.__setattr__(new, "__dict__", state)
    new.__post_init__()  # type: ignore[attr-defined]
    return new


def _from_fields(cls: type[_S], names: frozenset[str], state: dict[str, Any]) -> _S:
    """``cls(**state)`` for a ``state`` that names every field: an equal value (same hash, same checks
    in ``__post_init__``) whose ``__dict__`` is ``state`` itself (the caller gives the dict away), so
    its fields are read as fast as a constructed situation's. The odds engine's hot path."""
    if state.keys() != names:
        unknown, missing = sorted(set(state) - names), sorted(names - set(state))
        raise TypeError(f"unknown field(s) {unknown}" if unknown else f"missing field(s) {missing}")
    obj = object.__new__(cls)
    object.__setattr__(obj, "__dict__", state)
    obj.__post_init__()  # type: ignore[attr-defined]
    return obj


@dataclass(frozen=True)
class MissileSituation:
    """One missile unit (or champion) shooting at one target unit.

    ``close`` / ``long``: figures firing at each range band (combat.long-range: "Figures in a second
    rank use the range of the figure in front"); ``from_rear``: the target is being hit from the
    rear; ``cover``: the target's cover. ``dice_override``: a fixed number of dice instead of
    figures (dice declared at a champion or general, at most 2); ``diverted``: dice of this attack
    declared at a champion or general instead (rolled by another situation with dice_override).
    """

    # into-the-dark:combat.long-range.partial-range

    shooter: Troops
    target: Troops
    close: int = 0
    long: int = 0
    from_rear: bool = False
    cover: Cover = "none"
    dice_override: int | None = None
    diverted: int = 0
    notes: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        if self.shooter.weapon is None:
            raise ValueError("melee troops do not shoot (into-the-dark:troops.troop-types)")
        if self.close < 0 or self.long < 0 or self.diverted < 0:
            raise ValueError("figure and dice counts must be >= 0")
        _check_declared(self.dice_override, self.diverted)
        if self.long and self.weapon.long is None:
            raise ValueError(f"{self.weapon.name} has no long range (into-the-dark:combat.missile-ranges)")
        if self.dice_override is not None and not self.dice_override >= 0:
            raise ValueError("dice_override must be >= 0")

    @classmethod
    def quick(cls, **state: Any) -> Self:
        """``MissileSituation(**state)``, built faster (``_quick``)."""
        return _quick(cls, _MISSILE_FIELDS, state)

    @classmethod
    def from_fields(cls, state: dict[str, Any]) -> Self:
        """``MissileSituation(**state)`` for a dict naming every field, which it keeps
        (``_from_fields``)."""
        return _from_fields(cls, _MISSILE_FIELDS, state)

    def with_fields(self, changes: dict[str, Any]) -> Self:
        """``dataclasses.replace(self, **changes)``, built faster (``_with_fields``)."""
        return _with_fields(self, _MISSILE_FIELDS, changes)

    @property
    def weapon(self) -> profiles.MissileWeapon:
        assert self.shooter.weapon is not None
        return profiles.missile_weapons()[self.shooter.weapon]

    def target_shieldless(self) -> str | None:
        """Why the target counts as shieldless against this fire (combat.missile-modifiers,
        combat.missile-weapons, combat.shields), or None."""
        t = self.target
        if not t.shields:
            return "target has no shields"
        if self.from_rear:
            return "hit from the rear"
        # into-the-dark:combat.missile-weapons.cross-trained-bow: bows cannot use shields while firing;
        # into-the-dark:combat.missile-weapons.sling-and-javelins-keep-shields: other weapons can
        if t.firing and t.weapon is not None and profiles.missile_weapons()[t.weapon].shields == "bow":
            return "target cannot use shields while firing"
        return None

    def modifiers(self, band: RangeBand) -> tuple[Mod, ...]:
        """Every modifier of "Missile Weapons: Modifiers" and the SWAT bows, cumulative."""
        m = profiles.combat_tables().missile
        out: list[Mod] = []
        t = self.target
        dens = t.effective_density
        if t.category == "F" and dens == "O":
            out.append(Mod.of(m.target_open_foot, "target open order foot"))
        elif (t.category == "F" and dens == "L") or (t.category == "M" and dens == "O"):
            out.append(
                Mod.of(m.target_loose_foot_or_open_mounted, "target loose order foot or open order mounted")
            )
        why = self.target_shieldless()
        if why:
            out.append(Mod.of(m.target_shieldless_or_rear, f"shieldless or hit from the rear ({why})"))
        if self.cover == "light":
            out.append(Mod.of(m.light_cover, "target in light cover"))
        elif self.cover == "heavy":
            out.append(Mod.of(m.heavy_cover, "target in heavy cover"))
        if band == "close" and self.weapon.close_bonus:
            mod = m.longbow_close if self.shooter.weapon == "longbow" else m.heavy_crossbow_close
            out.append(Mod(f"{self.weapon.name} at close range", self.weapon.close_bonus, mod.rule))
        return tuple(out)

    def modifier_total(self, band: RangeBand) -> int:
        """The sum of the values of ``modifiers(band)``, without building them (the same tests; the
        two are checked against each other in tests/odds/test_odds_itd_fast.py)."""
        m = profiles.combat_tables().missile
        t = self.target
        dens = t.effective_density
        v = 0
        if t.category == "F" and dens == "O":
            v += m.target_open_foot.value
        elif (t.category == "F" and dens == "L") or (t.category == "M" and dens == "O"):
            v += m.target_loose_foot_or_open_mounted.value
        if self.target_shieldless():
            v += m.target_shieldless_or_rear.value
        if self.cover == "light":
            v += m.light_cover.value
        elif self.cover == "heavy":
            v += m.heavy_cover.value
        if band == "close":
            v += self.weapon.close_bonus
        return v

    def pool(self) -> list[DiceGroup]:
        """The dice of this attack, grouped by target number."""
        d = profiles.combat_tables().dice
        hit_on = self.target.hit_on
        if self.dice_override is not None:
            band: RangeBand = "close" if self.close or not self.long else "long"
            groups = [
                DiceGroup(
                    "declared",
                    self.dice_override,
                    hit_on,
                    self.modifiers(band),
                    "declared dice",
                    cite("special-troops.champions"),
                )
            ]
        elif self.shooter.champion:
            ch = profiles.special().champion
            n = ch.dice_wounded if self.shooter.wounded else ch.dice
            band = "close" if self.close or not self.long else "long"
            if band == "long":
                n //= 2
            groups = [
                DiceGroup(
                    "champion",
                    n,
                    hit_on,
                    self.modifiers(band),
                    "champion dice" + (" halved at long range" if band == "long" else ""),
                    cite("special-troops.champions"),
                )
            ]
        else:
            parts = []
            if self.close:  # a band without figures gives no dice (and no pooled fraction)
                parts.append(
                    _Part(
                        "close",
                        self.close,
                        d.figures_per_die,
                        self.modifiers("close"),
                        f"1 per {d.figures_per_die} figures",
                        cite("combat.dice"),
                    )
                )
            if self.long:
                parts.append(
                    _Part(
                        "long",
                        self.long,
                        d.long_range_figures_per_die,
                        self.modifiers("long"),
                        f"1 per {d.long_range_figures_per_die} figures (long range)",
                        cite("combat.long-range"),
                    )
                )
            groups = _assemble(parts, hit_on)
        groups = [g for g in groups if g.dice > 0]
        return _divert(groups, self.diverted) if self.diverted else groups

    @property
    def dice(self) -> int:
        return sum(g.dice for g in self.pool())

    def dist(self) -> Dist:
        """Exact distribution of casualties inflicted on the target: ``pool_dist(self.pool())``,
        for figures firing worked out from the dice counts and needs alone."""
        if self.dice_override is not None or self.shooter.champion or self.diverted:
            return pool_dist(self.pool())
        d = profiles.combat_tables().dice
        hit_on = self.target.hit_on
        parts = []
        if self.close:
            parts.append((self.close, d.figures_per_die, need_for(hit_on, self.modifier_total("close"))))
        if self.long:
            parts.append(
                (self.long, d.long_range_figures_per_die, need_for(hit_on, self.modifier_total("long")))
            )
        return _needs_dist(parts)

    def roll(self, rng: np.random.Generator) -> AttackRoll:
        """Roll the attack with the battle's generator; ``.hits`` has the same law as ``dist()``."""
        return roll_pool("missile", self.pool(), rng, [{"note": n} for n in self.notes])


_MISSILE_FIELDS = frozenset(f.name for f in fields(MissileSituation))


# --- melee --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MeleeSituation:
    """One attacking unit (or champion) against one enemy unit in a round of melee. There is no
    weapon factor: "most weapons have an equivalent effect and the only important factor is the
    quality of the warrior" (combat.melee-weapons); the exceptions are the optional SWAT weapons.

    ``front`` / ``flank`` / ``rear``: attacking figures that count (see ``fighting_figures``) in
    contact with each side of the target. ``charging``: charged or counter-charged this round;
    ``impetuous``: charged impetuously (first round only); ``bonus_round``: the pursuit bonus round
    (1 d6 per figure eligible to fight). ``target_uphill``: the target is uphill of the attacker;
    ``obstacle``: the target's sides that it defends behind an obstacle. ``dice_override`` and
    ``diverted`` as for ``MissileSituation``.
    """

    # into-the-dark:combat.shields.not-counted-from-rear
    # into-the-dark:swat.pike.shieldless
    # into-the-dark:swat.polearm.gives-opponent-shieldless

    # into-the-dark:special-troops.champions.two-dice
    # into-the-dark:swat.shieldwall.minus-one

    attacker: Troops
    target: Troops
    front: int = 0
    flank: int = 0
    rear: int = 0
    charging: bool = False
    impetuous: bool = False
    bonus_round: bool = False
    target_uphill: bool = False
    obstacle: tuple[Facing, ...] = ()
    dice_override: int | None = None
    diverted: int = 0
    notes: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        if self.attacker.quality is None:
            raise ValueError("a general has no value in combat (into-the-dark:command.generals)")
        if min(self.front, self.flank, self.rear, self.diverted) < 0:
            raise ValueError("figure and dice counts must be >= 0")
        _check_declared(self.dice_override, self.diverted)
        if self.dice_override is not None and self.dice_override < 0:
            raise ValueError("dice_override must be >= 0")
        if self.obstacle and any(f not in FACINGS for f in self.obstacle):
            raise ValueError(f"obstacle sides must be among {FACINGS}")

    @classmethod
    def quick(cls, **state: Any) -> Self:
        """``MeleeSituation(**state)``, built faster (``_quick``)."""
        return _quick(cls, _MELEE_FIELDS, state)

    @classmethod
    def from_fields(cls, state: dict[str, Any]) -> Self:
        """``MeleeSituation(**state)`` for a dict naming every field, which it keeps (``_from_fields``)."""
        return _from_fields(cls, _MELEE_FIELDS, state)

    def with_fields(self, changes: dict[str, Any]) -> Self:
        """``dataclasses.replace(self, **changes)``, built faster (``_with_fields``)."""
        return _with_fields(self, _MELEE_FIELDS, changes)

    def target_shieldless(self, facing: Facing) -> str | None:
        """Why the target is "without shields or unable to use them" against figures on ``facing``
        (combat.melee-modifiers, combat.shields, swat.polearm, swat.pike), or None."""
        t, a = self.target, self.attacker
        if not t.shields:
            return "target has no shields"
        if facing == "rear":
            return "shields are not counted when attacked from the rear"
        if t.polearm:
            return "target's polearms need both hands"
        if t.pike and (a.pike or facing == "flank"):
            return "target's pikes need both hands" + (
                " (pike against pike)" if a.pike else " (flank contact)"
            )
        return None

    def modifiers(self, facing: Facing) -> tuple[Mod, ...]:
        """Every modifier of "Melee Weapons: Modifiers" and the SWAT rules, cumulative."""
        m = profiles.combat_tables().melee
        a, t = self.attacker, self.target
        out: list[Mod] = []
        # into-the-dark:combat.melee-modifiers.charging
        if self.charging:
            out.append(Mod.of(m.charging, "charging or counter-charging"))
        # into-the-dark:combat.melee-modifiers.steady-fanatics
        if a.quality == 5 and not a.shaken:
            out.append(Mod.of(m.steady_fanatic, "steady fanatics"))
        # into-the-dark:combat.melee-modifiers.peasants
        # into-the-dark:combat.melee-modifiers.missile-troops (role "missile": not cross trained)
        if a.quality == 1 or a.role == "missile":
            why = "peasants" if a.quality == 1 else "missile troops (not cross trained)"
            out.append(Mod.of(m.peasant_or_missile, why))
        if a.polearm:
            out.append(Mod.of(m.polearm, "polearms"))
        # into-the-dark:combat.melee-modifiers.enemy-shieldless
        shieldless = self.target_shieldless(facing)
        if shieldless:
            out.append(
                Mod.of(m.enemy_shieldless, f"enemy without shields or unable to use them ({shieldless})")
            )
        # into-the-dark:combat.melee-modifiers.enemy-uphill
        if self.target_uphill:
            out.append(Mod.of(m.enemy_uphill, "enemy uphill of attacking unit"))
        # into-the-dark:combat.melee-modifiers.enemy-obstacle
        if facing in self.obstacle:
            out.append(Mod.of(m.enemy_obstacle, "enemy defending an obstacle"))
        if t.in_shieldwall and facing == "front":
            out.append(Mod.of(m.enemy_shieldwall_front, "enemy in shieldwall, frontal contact"))
        return tuple(out)

    def modifier_total(self, facing: Facing) -> int:
        """The sum of the values of ``modifiers(facing)``, without building them (the same tests; the
        two are checked against each other in tests/odds/test_odds_itd_fast.py)."""
        m = profiles.combat_tables().melee
        a = self.attacker
        v = 0
        if self.charging:
            v += m.charging.value
        if a.quality == 5 and not a.shaken:
            v += m.steady_fanatic.value
        if a.quality == 1 or a.role == "missile":
            v += m.peasant_or_missile.value
        if a.polearm:
            v += m.polearm.value
        if self.target_shieldless(facing):
            v += m.enemy_shieldless.value
        if self.target_uphill:
            v += m.enemy_uphill.value
        if facing in self.obstacle:
            v += m.enemy_obstacle.value
        if self.target.in_shieldwall and facing == "front":
            v += m.enemy_shieldwall_front.value
        return v

    def _figures_per_die(self, facing: Facing) -> int:
        """Figures per die on ``facing`` (the rate of ``_per_die``)."""
        d = profiles.combat_tables().dice
        if self.bonus_round:
            return d.bonus_round_figures_per_die
        doubled = (facing != "front") + self.impetuous
        if doubled == 2:
            return d.both_doubled_figures_per_die
        if doubled == 1:
            return d.doubled_figures_per_die
        return d.figures_per_die

    def _per_die(self, facing: Facing) -> tuple[int, str, str]:
        per = self._figures_per_die(facing)
        if self.bonus_round:
            return per, "1 per figure (pursuit bonus round)", cite("combat.bonus-round")
        doubled = (facing != "front") + self.impetuous
        if doubled == 2:
            return per, "1 per figure (impetuous into flank/rear)", cite("combat.double-dice")
        if doubled == 1:
            why = "impetuous" if self.impetuous else f"{facing} contact"
            return (
                per,
                f"1 per {per} figures ({why})",
                cite("combat.double-dice" if self.impetuous else "combat.flanks-and-rear"),
            )
        return per, f"1 per {per} figures", cite("combat.dice")

    def pool(self) -> list[DiceGroup]:
        """The dice of this attack, grouped by target number."""
        hit_on = self.target.hit_on
        if self.dice_override is not None:
            groups = [
                DiceGroup(
                    "declared",
                    self.dice_override,
                    hit_on,
                    self.modifiers("front"),
                    "declared dice",
                    cite("special-troops.champions"),
                )
            ]
        elif self.attacker.champion:
            ch = profiles.special().champion
            n = ch.dice_wounded if self.attacker.wounded else ch.dice
            groups = [
                DiceGroup(
                    "champion",
                    n,
                    hit_on,
                    self.modifiers("front"),
                    f"champion {n} d6",
                    cite("special-troops.champions"),
                )
            ]
        else:
            parts = []
            contacts: tuple[tuple[Facing, int], ...] = (
                ("front", self.front),
                ("flank", self.flank),
                ("rear", self.rear),
            )
            for facing, figs in contacts:
                if not figs:  # no dice from this side (and no pooled fraction)
                    continue
                per, rate, rule = self._per_die(facing)
                parts.append(_Part(facing, figs, per, self.modifiers(facing), rate, rule))
            groups = _assemble(parts, hit_on)
        groups = [g for g in groups if g.dice > 0]
        return _divert(groups, self.diverted) if self.diverted else groups

    @property
    def dice(self) -> int:
        return sum(g.dice for g in self.pool())

    def dist(self) -> Dist:
        """Exact distribution of casualties inflicted on the target: ``pool_dist(self.pool())``,
        for figures in contact worked out from the dice counts and needs alone."""
        if self.dice_override is not None or self.attacker.champion or self.diverted:
            return pool_dist(self.pool())
        hit_on = self.target.hit_on
        parts = []
        contacts: tuple[tuple[Facing, int], ...] = (
            ("front", self.front),
            ("flank", self.flank),
            ("rear", self.rear),
        )
        for facing, figs in contacts:
            if figs:  # no dice from this side (and no pooled fraction)
                parts.append(
                    (figs, self._figures_per_die(facing), need_for(hit_on, self.modifier_total(facing)))
                )
        return _needs_dist(parts)

    def roll(self, rng: np.random.Generator) -> AttackRoll:
        """Roll the attack with the battle's generator; ``.hits`` has the same law as ``dist()``."""
        return roll_pool("melee", self.pool(), rng, [{"note": n} for n in self.notes])


_MELEE_FIELDS = frozenset(f.name for f in fields(MeleeSituation))


# --- melee outcome --------------------------------------------------------------------------------


class MeleeLoser(IntEnum):
    """Who lost a two-unit melee: "the unit(s) that received the most casualities"
    (morale.melee-test-order). Outcome ints of ``melee_loser_dist``."""

    TIE = 0
    FIRST = 1
    SECOND = 2


def melee_loser_dist(first_attacks: MeleeSituation, second_attacks: MeleeSituation) -> Dist:
    """Exact distribution of the loser of a round between two units attacking each other (all
    melee is simultaneous, combat.melee): FIRST lost when it received more casualties."""
    to_second = first_attacks.dist()
    to_first = second_attacks.dist()
    w: dict[int, int] = {}
    for a, wa in to_second.items():
        for b, wb in to_first.items():
            k = MeleeLoser.TIE if a == b else (MeleeLoser.FIRST if b > a else MeleeLoser.SECOND)
            w[int(k)] = w.get(int(k), 0) + wa * wb
    return Dist(w)
