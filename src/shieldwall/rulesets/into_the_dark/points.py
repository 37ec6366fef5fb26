"""Point costs of Into the Dark ("Point Cost of Troops", Champions, SWAT, Generals).

Troop cost per figure (troops.troop-cost) = quality level + armour cost, then the multipliers that
are "calculated in the same way": x2 mounted (troops.category), x2 cross-trained
(troops.weapon-cost), x1.5 longbow (swat.longbow), x1.5 pike (swat.pike); then +1 per figure for
Shieldwall (swat.shieldwall). Unit cost (troops.unit-cost) = troop cost x figures + quality x 10.
A champion (special-troops.champions) costs 10 x the troop cost of a warrior outfitted identically,
with no command cost; a general (command.generals) 25 per rating level, added to his champion's
cost when he is one (command.champion-generals).

Rounding ruling: troop costs are kept exact (a 1.5x cost may end in a half point); only the unit
total is rounded, up, to a whole point (a half remains only for an odd number of figures).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal

from . import profiles
from .clauses import cite
from .profiles import CostFactor

if TYPE_CHECKING:
    # army entries are read, never built, here; army.py checks a points limit through army_cost
    from .army import Army, ArmyUnit, General, Option

Kind = Literal["unit", "champion", "general", "champion-general"]


def _num(x: Fraction) -> int | float:
    return int(x) if x.denominator == 1 else float(x)


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a cost calculation: what it is, the running value after it, and its clause."""

    name: str
    value: Fraction
    rule: str

    def to_dict(self) -> dict[str, Any]:
        return {"step": self.name, "value": _num(self.value), "rule": self.rule}


def troop_cost_steps(unit: ArmyUnit) -> list[Step]:
    """The troop cost of one figure, step by step (troops.troop-cost, troops.weapon-cost, SWAT)."""
    q = profiles.qualities()[unit.quality]
    a = profiles.armour_classes()[unit.armour]
    tt = profiles.troop_types()
    c = profiles.costs()
    v = Fraction(q.level)
    steps = [Step(f"quality {unit.quality} {q.level}", v, cite("troops.troop-quality"))]
    v += a.cost
    steps.append(Step(f"armour {a.name} +{a.cost}", v, cite(a.cost_clause)))
    cat = tt.category[unit.category]
    if cat.cost_multiplier != 1:
        v *= cat.cost_multiplier
        steps.append(Step(f"{cat.name.lower()} x{cat.cost_multiplier}", v, cite(cat.clause)))
    role = tt.role[unit.type]
    if role.cost_multiplier != 1:
        v *= role.cost_multiplier
        steps.append(Step(f"{role.name.lower()} x{role.cost_multiplier}", v, cite(role.clause)))
    swat: tuple[tuple[Option, CostFactor], ...] = (("longbow", c.longbow), ("pike", c.pike))
    for opt, factor in swat:
        if unit.has(opt):
            v *= factor.value
            steps.append(Step(f"{opt} x{_num(factor.value)}", v, cite(factor.clause)))
    if unit.has("shieldwall"):
        v += c.shieldwall.value
        steps.append(Step(f"shieldwall +{_num(c.shieldwall.value)}", v, cite(c.shieldwall.clause)))
    return steps


def troop_cost(unit: ArmyUnit) -> Fraction:
    """Exact troop cost of one figure (may be a half point with longbow or pike)."""
    return troop_cost_steps(unit)[-1].value


def command_cost(unit: ArmyUnit) -> int:
    """ "add the troop quality level x 10" (troops.unit-cost); none for champions."""
    if unit.champion:
        return 0
    return int(profiles.costs().command.value * unit.quality_level)


@dataclass(frozen=True, slots=True)
class CostRow:
    """One line of a costed order of battle."""

    name: str
    kind: Kind
    division: str | None
    code: str
    quality: str
    type: str
    figures: int
    troop_cost: Fraction
    command: int
    points: int
    steps: tuple[Step, ...]

    @property
    def rule(self) -> str:
        """The clause that prices this row."""
        return cite(
            {
                "unit": "troops.unit-cost",
                "champion": "special-troops.champions",
                "general": "command.generals",
                "champion-general": "command.champion-generals",
            }[self.kind]
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "points": self.points,
            "rule": self.rule,
            "kind": self.kind,
            "division": self.division,
            "code": self.code,
            "quality": self.quality,
            "type": self.type,
            "figures": self.figures,
            "troop_cost": _num(self.troop_cost),
            "command": self.command,
            "breakdown": [s.to_dict() for s in self.steps],
        }


def unit_cost(unit: ArmyUnit, general: General | None = None) -> CostRow:
    """The cost of a unit (troops.unit-cost) or champion (special-troops.champions); ``general`` is
    the general this champion is (command.champion-generals). It reproduces the three worked
    examples of the text (troops.cost-examples): Town Militia 44, Knight 242, Combat Archer 160."""
    # into-the-dark:troops.unit-organisation.mixed - a mixed unit costs each type per figure
    steps = troop_cost_steps(unit)
    tc = steps[-1].value
    c = profiles.costs()
    if unit.champion:
        raw = tc * c.champion.value
        steps.append(
            Step(f"champion x{_num(c.champion.value)}, no command cost", raw, cite(c.champion.clause))
        )
    elif unit.is_mixed:
        # a mixed unit: each troop type's cost times its figures (troops.unit-organisation, ruling 76)
        raw = Fraction(0)
        for p in unit.parts():
            raw += troop_cost(p) * p.figures
            steps.append(
                Step(
                    f"{p.code} {p.quality} {p.type}: {_num(troop_cost(p))} x {p.figures} figures",
                    raw,
                    cite("troops.unit-organisation"),
                )
            )
        cmd = command_cost(unit)
        raw += cmd
        steps.append(
            Step(f"command {unit.quality_level} x {_num(c.command.value)}", raw, cite(c.command.clause))
        )
    else:
        raw = tc * unit.figures
        steps.append(Step(f"x {unit.figures} figures", raw, cite("troops.unit-cost")))
        cmd = command_cost(unit)
        raw += cmd
        steps.append(
            Step(f"command {unit.quality_level} x {_num(c.command.value)}", raw, cite(c.command.clause))
        )
    kind: Kind = "champion" if unit.champion else "unit"
    if general is not None:
        add = general.rating_level * c.general.value
        raw += add
        steps.append(
            Step(
                f"general {general.rating} {general.rating_level} x {_num(c.general.value)}",
                raw,
                cite("command.champion-generals"),
            )
        )
        kind = "champion-general"
    points = math.ceil(raw)
    if points != raw:
        steps.append(Step("round the half point up", Fraction(points), cite("troops.unit-cost")))
    return CostRow(
        name=unit.name,
        kind=kind,
        division=unit.division,
        code="+".join(p.code for p in unit.parts()),
        quality=unit.quality,
        type=unit.type,
        figures=unit.figures,
        troop_cost=tc,
        command=command_cost(unit),
        points=points,
        steps=tuple(steps),
    )


@lru_cache(maxsize=4096)
def unit_points(unit: ArmyUnit) -> int:
    """``unit_cost(unit).points``, kept per unit entry (a frozen, hashable army entry; the cost
    data it reads are loaded once, ``profiles``): the end-of-battle count (``state.losses``,
    ``turns.casualty_shares``) and the search's score ask it for every unit at every playout's end,
    and the steps of the breakdown cost fifty times the lookup."""
    # into-the-dark:troops.unit-cost
    return unit_cost(unit).points


def general_cost(general: General) -> CostRow:
    """A general figure who is not a champion: 25 points per rating level (command.generals)."""
    # into-the-dark:command.generals.points
    c = profiles.costs().general
    pts = general.rating_level * c.value
    step = Step(f"general {general.rating} {general.rating_level} x {_num(c.value)}", pts, cite(c.clause))
    return CostRow(
        name=general.name,
        kind="general",
        division=general.division,
        code=general.code,
        quality=general.rating,
        type="general",
        figures=1,
        troop_cost=Fraction(0),
        command=0,
        points=int(pts),
        steps=(step,),
    )


@dataclass(frozen=True, slots=True)
class ArmyCost:
    """A costed order of battle: generals first, then the units in file order."""

    name: str
    rows: tuple[CostRow, ...]
    points_limit: int | None = None

    @property
    def total(self) -> int:
        """ "An army's value is the total cost of all its units" (troops.unit-cost), generals included."""
        return sum(r.points for r in self.rows)

    def to_dict(self) -> dict[str, Any]:
        return {"units": [r.to_dict() for r in self.rows], "total": self.total}


def army_cost(army: Army) -> ArmyCost:
    """The army's value, the total of its rows, "so different armies of equal value can fight each
    other on an even basis" (troops.point-costs)."""
    champion_generals = {g.champion: g for g in army.generals if g.champion is not None}
    rows = [general_cost(g) for g in army.generals if g.champion is None]
    rows += [unit_cost(u, champion_generals.get(u.name)) for u in army.units]
    return ArmyCost(army.name, tuple(rows), army.points_limit)
