"""Melee in Into the Dark: one attacking unit (or champion) against one enemy unit in a round, as
an exact distribution and as a seeded sample, and who lost a two-unit melee (split from
``combat.py``, which holds the troops, the to-hit roll and the dice pools it is built from; the
clauses are listed there).

Clauses: combat.melee, combat.melee-weapons, combat.melee-modifiers, combat.shields,
combat.flanks-and-rear, combat.double-dice, combat.bonus-round, combat.dice,
special-troops.champions, morale.melee-test-order and the SWAT weapons.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import IntEnum
from typing import TYPE_CHECKING, Any, Self

from shieldwall.core.dice import Dist

from . import profiles
from .clauses import cite
from .combat import (
    FACINGS,
    AttackRoll,
    DiceGroup,
    Facing,
    Mod,
    PoolPart,
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
        check_declared(self.dice_override, self.diverted)
        if self.dice_override is not None and self.dice_override < 0:
            raise ValueError("dice_override must be >= 0")
        if self.obstacle and any(f not in FACINGS for f in self.obstacle):
            raise ValueError(f"obstacle sides must be among {FACINGS}")

    @classmethod
    def quick(cls, **state: Any) -> Self:
        """``MeleeSituation(**state)``, built faster (``situation_values.quick_value``)."""
        return quick_value(cls, _MELEE_FIELDS, state)

    @classmethod
    def from_fields(cls, state: dict[str, Any]) -> Self:
        """``MeleeSituation(**state)`` for a dict naming every field, which it keeps
        (``situation_values.value_from_fields``)."""
        return value_from_fields(cls, _MELEE_FIELDS, state)

    def with_fields(self, changes: dict[str, Any]) -> Self:
        """``dataclasses.replace(self, **changes)``, built faster (``situation_values.changed_value``)."""
        return changed_value(self, _MELEE_FIELDS, changes)

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
                parts.append(PoolPart(facing, figs, per, self.modifiers(facing), rate, rule))
            groups = assemble(parts, hit_on)
        groups = [g for g in groups if g.dice > 0]
        return divert(groups, self.diverted) if self.diverted else groups

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
        return needs_dist(parts)

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
