"""Missile fire in Into the Dark: one missile unit (or champion) shooting at one target, as an
exact distribution and as a seeded sample (split from ``combat.py``, which holds the troops, the
to-hit roll and the dice pools it is built from; the clauses are listed there).

Clauses: combat.long-range, combat.missile-modifiers, combat.shields, combat.dice,
special-troops.champions and the SWAT bows (swat.longbow, swat.crossbow).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, Self

from shieldwall.core.dice import Dist

from . import profiles
from .clauses import cite
from .combat import (
    AttackRoll,
    Cover,
    DiceGroup,
    Mod,
    PoolPart,
    RangeBand,
    Troops,
    assemble,
    check_declared,
    divert,
    need_for,
    needs_dist,
    pool_dist,
    roll_pool,
)
from .situation_values import changed_value, quick_value, value_from_fields

if TYPE_CHECKING:
    import numpy as np


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
        check_declared(self.dice_override, self.diverted)
        if self.long and self.weapon.long is None:
            raise ValueError(f"{self.weapon.name} has no long range (into-the-dark:combat.missile-ranges)")
        if self.dice_override is not None and not self.dice_override >= 0:
            raise ValueError("dice_override must be >= 0")

    @classmethod
    def quick(cls, **state: Any) -> Self:
        """``MissileSituation(**state)``, built faster (``situation_values.quick_value``)."""
        return quick_value(cls, _MISSILE_FIELDS, state)

    @classmethod
    def from_fields(cls, state: dict[str, Any]) -> Self:
        """``MissileSituation(**state)`` for a dict naming every field, which it keeps
        (``situation_values.value_from_fields``)."""
        return value_from_fields(cls, _MISSILE_FIELDS, state)

    def with_fields(self, changes: dict[str, Any]) -> Self:
        """``dataclasses.replace(self, **changes)``, built faster (``situation_values.changed_value``)."""
        return changed_value(self, _MISSILE_FIELDS, changes)

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
                    PoolPart(
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
                    PoolPart(
                        "long",
                        self.long,
                        d.long_range_figures_per_die,
                        self.modifiers("long"),
                        f"1 per {d.long_range_figures_per_die} figures (long range)",
                        cite("combat.long-range"),
                    )
                )
            groups = assemble(parts, hit_on)
        groups = [g for g in groups if g.dice > 0]
        return divert(groups, self.diverted) if self.diverted else groups

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
        return needs_dist(parts)

    def roll(self, rng: np.random.Generator) -> AttackRoll:
        """Roll the attack with the battle's generator; ``.hits`` has the same law as ``dist()``."""
        return roll_pool("missile", self.pool(), rng, [{"note": n} for n in self.notes])


_MISSILE_FIELDS = frozenset(f.name for f in fields(MissileSituation))
