"""Missile fire and melee in Into the Dark: the troops, the to-hit roll, the dice pools and ranks.

This is the single source of truth for casualties: the game samples ``MissileSituation.roll``
(``fire_situation.py``) / ``MeleeSituation.roll`` (``melee_situation.py``) and the odds engine
enumerates ``.dist()``; both are built from the same ``pool()`` of dice groups, assembled here
(``assemble``, ``divert``, ``pool_dist``, ``roll_pool``), so they cannot disagree. This module holds
the troops, the to-hit roll, the dice pools and the ranks; the two situations have a module each.

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
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb, lcm
from typing import TYPE_CHECKING, Any, Literal

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
class PoolPart:
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


def assemble(parts: Sequence[PoolPart], hit_on: int) -> list[DiceGroup]:
    """The dice groups of one attacking unit (``_whole_dice``)."""
    dice = _whole_dice(
        [(p.figures, p.per_die, need_for(hit_on, sum(m.value for m in p.modifiers))) for p in parts]
    )
    return [
        DiceGroup(p.label, n, hit_on, p.modifiers, p.rate, p.rate_rule)
        for p, n in zip(parts, dice, strict=True)
        if n > 0
    ]


def needs_dist(parts: Sequence[tuple[int, int, int]]) -> Dist:
    """``pool_dist`` of the groups ``assemble`` makes of ``parts`` (``_whole_dice``), from the
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


def divert(groups: list[DiceGroup], n: int) -> list[DiceGroup]:
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


def check_declared(dice_override: int | None, diverted: int) -> None:
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
