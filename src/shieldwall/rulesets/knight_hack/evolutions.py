"""Evolutions and the order of a unit's move (Clarification 1; errata page 11).

"Evolutions are defined as all movement other than wheeling or straight ahead movement": changing
facing, contracting or expanding frontage by up to 4 figures (excluding figures in melee), mounting,
dismounting or disembarking, formation or facing changes and moving back facing the enemy
(``knight-hack:evolution.kinds``, ``knight-hack:evolution.frontage``). The allowance is "based on
Unit Class", open having 1 additional (``knight-hack:evolution.allowance``). A unit makes its
evolutions, then its normal move up to full, then "an additional evolution … at the end of a unit's
normal move if it can perform more than 1" (``knight-hack:move.unit-order``, ruling R13).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from shieldwall.core.errors import IllegalOrder
from shieldwall.rulesets.knight_hack.clauses import rule
from shieldwall.rulesets.knight_hack.tables import Tables

#: the kinds of evolution (page 11), each costing 1 from the allowance and no distance (R13)
EVOLUTION_KINDS = ("face", "frontage", "mount", "dismount", "disembark", "formation", "move-back")
#: most figures a frontage changes by in one evolution
FRONTAGE_STEP = 4


def evolution_allowance(tables: Tables, cls: str, type_id: str) -> int:
    """The class's evolutions, plus 1 for open order."""
    return tables.evolutions(cls) + (1 if tables.types[type_id].formation == "open" else 0)


def check_frontage(old: int, new: int, figures: int, in_melee: int = 0) -> None:
    """One frontage evolution: by at most 4 figures, between the figures in melee (who do not move)
    and the unit's figures."""
    if abs(new - old) > FRONTAGE_STEP:
        raise IllegalOrder(
            rule("evolution.frontage"),
            f"frontage changes by up to {FRONTAGE_STEP} figures, not {abs(new - old)}",
        )
    if not max(1, in_melee) <= new <= figures:
        raise IllegalOrder(
            rule("evolution.frontage"),
            f"a frontage of {new} is not possible with {figures} figures, {in_melee} of them in melee",
        )


@dataclass
class MovePlan:
    """One unit's move in the movement phase, checked step by step as it is given."""

    allowance: int
    normal_move: float
    before: list[str] = field(default_factory=list)
    moved: float | None = None
    after: list[str] = field(default_factory=list)

    def evolve(self, kind: str) -> None:
        if kind not in EVOLUTION_KINDS:
            raise IllegalOrder(
                rule("evolution.kinds"),
                f"{kind!r} is not an evolution; they are: {', '.join(EVOLUTION_KINDS)}",
            )
        used = len(self.before) + len(self.after)
        if used >= self.allowance:
            raise IllegalOrder(
                rule("evolution.allowance"), f"the unit's {self.allowance} evolutions are used"
            )
        if self.moved is None:
            self.before.append(kind)
            return
        if self.allowance < 2 or self.after:
            raise IllegalOrder(
                rule("move.unit-order"),
                "after its move a unit makes at most one more evolution, and only if it can perform "
                "more than 1",
            )
        self.after.append(kind)

    def move(self, distance: float) -> None:
        if self.moved is not None:
            raise IllegalOrder(rule("move.unit-order"), "a unit makes one normal move")
        if not 0 <= distance <= self.normal_move + 1e-9:
            raise IllegalOrder(
                rule("move.unit-order"),
                f"the normal move is up to {self.normal_move:g} in., not {distance:g}",
            )
        self.moved = distance
