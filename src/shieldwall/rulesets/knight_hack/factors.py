"""The melee target number T (Clarification 3, ``knight-hack:casualties.target``).

"find melee factor by type of combatants add to this all applicable modifiers": T is the Melee
Casualty Chart's factor for the attacker's type against the defender's, plus every melee modifier
of the data set whose condition holds (:data:`schemas.MELEE_CONDITIONS`, a closed vocabulary), plus
the attacker's best weapon bonus against the defender (``weapons.toml`` ``factor_vs``). Each term is
kept with its source so logs, odds and the "why" panel can show every modifier.
"""

from __future__ import annotations

from dataclasses import dataclass

from shieldwall.rulesets.knight_hack.casualties import AutoMode, CasualtySituation
from shieldwall.rulesets.knight_hack.schemas import MELEE_PER_STEP
from shieldwall.rulesets.knight_hack.tables import Tables


@dataclass(frozen=True, slots=True)
class Fighter:
    """A unit as the melee chart sees it."""

    type: str
    cls: str
    figures: int
    weapons: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class MeleeConditions:
    """The attacker's situation against its target this round (each a condition of the vocabulary)."""

    flank: bool = False
    rear: bool = False
    disordered: bool = False
    target_disordered: bool = False
    charging_first_round: bool = False
    uphill: bool = False
    fanatic: bool = False
    leader: bool = False
    #: ranks fighting behind the front rank (the caller caps it by the weapon's ``ranks_fighting``)
    extra_ranks: int = 0

    def holds(self, when: str) -> bool:
        return bool(getattr(self, when.replace("-", "_")))


@dataclass(frozen=True, slots=True)
class Term:
    """One addend of T: ``source`` is ``chart``, ``weapon:<id>`` or ``modifier:<id>``."""

    source: str
    value: int
    note: str


@dataclass(frozen=True, slots=True)
class Target:
    """T, the chart's automatic casualties, and how T was made."""

    value: int
    automatic: int
    terms: tuple[Term, ...]

    def situation(self, figures_left: int, auto: AutoMode = "floor") -> CasualtySituation:
        return CasualtySituation(self.value, self.automatic, figures_left, auto)


def weapon_bonus(tables: Tables, weapons: tuple[str, ...], defender_type: str) -> tuple[str, int] | None:
    """The attacker's best ``factor_vs`` bonus against the defender (a type id wins over its
    formation), or None when no weapon has one."""
    formation = tables.types[defender_type].formation
    best: tuple[str, int] | None = None
    for wid in weapons:
        vs = tables.weapons[wid].factor_vs
        v = vs.get(defender_type, vs.get(formation))
        if v is not None and (best is None or v > best[1]):
            best = (wid, v)
    return best


def melee_target(tables: Tables, attacker: Fighter, defender: Fighter, cond: MeleeConditions) -> Target:
    """T for ``attacker`` rolling against ``defender`` (knight-hack:casualties.target)."""
    entry = tables.chart[(attacker.type, defender.type)]
    terms = [Term("chart", entry.factor, f"{attacker.type} against {defender.type}")]
    wb = weapon_bonus(tables, attacker.weapons, defender.type)
    if wb is not None and wb[1]:
        terms.append(Term(f"weapon:{wb[0]}", wb[1], f"{wb[0]} against {defender.type}"))
    steps = {
        "class-step": tables.class_rank(defender.cls) - tables.class_rank(attacker.cls),
        "rank-beyond-first": cond.extra_ranks,
    }
    for m in tables.melee_modifiers.modifier:
        if m.when in MELEE_PER_STEP:
            n = steps[m.when]
            if n:
                terms.append(Term(f"modifier:{m.id}", m.value * n, f"{m.when} x{n}"))
        elif cond.holds(m.when):
            terms.append(Term(f"modifier:{m.id}", m.value, m.when))
    return Target(sum(t.value for t in terms), entry.automatic, tuple(terms))
