"""Commands: PIP dice and costs, unreliable allies, losses in element equivalents, demoralisation,
the end-of-game victory-point transfer.

Clauses: dbm-3.2:pip.march-extra, dbm-3.2:ally.unreliable-b, dbm-3.2:loss.ee, dbm-3.2:loss.baggage,
dbm-3.2:demor.flee, dbm-3.2:victory.quarter, dbm-3.2:flank.both, dbm-3.2:size.el-general,
dbm-3.2:group.limits. The demoralisation threshold, the PIP costs and the 0-10 VP scoring are base
rules: user data (``game.toml``, ``pips.toml``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any

from shieldwall.core.errors import IllegalOrder
from shieldwall.rulesets.dbm.clauses import rule
from shieldwall.rulesets.dbm.tables import Tables

HEAVY = ("Kn", "WWg", "El")


@dataclass(frozen=True)
class Mover:
    """What the PIP rules read of one element of a moving group."""

    code: str
    grade: str = "O"
    regular: bool = True
    general: bool = False
    double_based_with_general: bool = False
    skirmisher: bool = False
    #: an elephant general regular by its list: Irregular in all respects but PIP allocation
    el_general_regular: bool = False


def march_surcharge(group: Sequence[Mover], march_number: int, single_column: bool) -> int:
    """dbm-3.2:pip.march-extra: +1 if the group marches for the 4th or later time this bound, or the
    3rd if it has knights, war wagons or elephants (but a general and those double based with him),
    hordes or expendables, or non-skirmisher irregulars not in a 1-element-wide column."""
    heavy = any(
        (m.code in HEAVY and not (m.general or m.double_based_with_general)) or m.code in ("Hd", "Exp")
        for m in group
    )
    irregular = any(not m.regular and not m.skirmisher for m in group) and not single_column
    threshold = 3 if heavy or irregular else 4
    return 1 if march_number >= threshold else 0


def pip_cost(
    tables: Tables, action: str, group: Sequence[Mover], march_number: int = 0, single_column: bool = False
) -> int:
    """Cost of an action: the user's base cost, plus the text's march surcharge."""
    try:
        base = tables.pips.cost[action]
    except KeyError:
        raise IllegalOrder(rule("pip.march-extra"), f"no PIP cost for {action!r} in pips.toml") from None
    if action == "march_move":
        base += march_surcharge(group, march_number, single_column)
    return base


def pip_regular(m: Mover) -> bool:
    """dbm-3.2:size.el-general: an elephant general Regular by his list counts as Regular for PIPs."""
    return m.regular or m.el_general_regular


def check_group_move(lines_up_with_enemy_within_bw: bool, mounting: bool) -> None:
    """dbm-3.2:group.limits: a group move cannot include lining up with enemy within 1 BW (other
    than the one shift of move.lineup-shift: ruling R15), nor mounting, dismounting or (dis)embarking."""
    if lines_up_with_enemy_within_bw:
        raise IllegalOrder(rule("group.limits"), "a group move cannot line up with enemy within 1 base width")
    if mounting:
        raise IllegalOrder(rule("group.limits"), "a group move cannot mount, dismount, embark or disembark")


def check_formation_change(rear_before: Sequence[float], rear_after: Sequence[float]) -> None:
    """dbm-3.2:group.formation: no element ends further to its rear than before the formation
    change (positions measured along the group's facing after any initial 180 degree turn)."""
    for i, (b, a) in enumerate(zip(rear_before, rear_after, strict=True)):
        if a < b - 1e-6:
            raise IllegalOrder(
                rule("group.formation"), f"element {i} would end {b - a:g} p further to its rear"
            )


# --- losses ---------------------------------------------------------------------------------------


def ee(code: str, grade: str, regular: bool = True) -> Fraction:
    """dbm-3.2:loss.ee: WWg(I) 3; Ps, Hd except (I), Bts(F), Irr Ax(I) 1/2; Exp and Hd(I) 0; else 1."""
    if code == "WWg" and grade == "I":
        return Fraction(3)
    if code == "Exp" or (code == "Hd" and grade == "I"):
        return Fraction(0)
    if (
        code in ("Ps", "Hd")
        or (code == "Bts" and grade == "F")
        or (code == "Ax" and grade == "I" and not regular)
    ):
        return Fraction(1, 2)
    if code == "Bge":
        return Fraction(0)  # loss.baggage: not in a command's original EE
    return Fraction(1)


def baggage_loss(how: str) -> int:
    """dbm-3.2:loss.baggage: 2 if destroyed in close combat, 1 if lost any other way, 0 if only
    demoralised. Added to army losses for defeat and tie break only (ruling R18)."""
    return {"cc": 2, "other": 1, "demoralised": 0}[how]


@dataclass
class CommandState:
    name: str
    side: str
    original_ee: Fraction
    lost_ee: Fraction = Fraction(0)
    demoralised: bool = False
    ally: bool = False
    irregular_general: bool = False
    nation: str = ""
    civil_war: bool = False
    elements: list[str] = field(default_factory=list)
    #: an off-table flank march not yet arrived: "left" or "right" (its side's view), else ""
    off_table: str = ""

    @property
    def quarter_lost(self) -> bool:
        return self.lost_ee * 4 >= self.original_ee and self.original_ee > 0


@lru_cache(maxsize=64)
def data_fraction(x: float) -> Fraction:
    """A fraction of the user's data (``demoralised_at_fraction``, ``army_defeat_fraction``) as the
    exact fraction it stands for: ``Fraction(x).limit_denominator(1000)`` (1/3 for 0.333...), worked
    out once a value (asked at every loss and every bound's end: issue 16)."""
    return Fraction(x).limit_denominator(1000)


def check_demoralised(tables: Tables, c: CommandState) -> bool:
    """The base threshold (user data ``demoralised_at_fraction``) against EE lost."""
    return c.lost_ee >= data_fraction(tables.game.demoralised_at_fraction) * c.original_ee


def unreliable(c: CommandState, main_nation: str) -> bool:
    """dbm-3.2:ally.unreliable-b: irregular and of a different nation, or any ally in a civil war."""
    return c.ally and ((c.irregular_general and c.nation != main_nation) or c.civil_war)


def ally_flips(commands: Iterable[CommandState], main_nation: Mapping[str, str]) -> list[dict[str, Any]]:
    """Commands that change sides now: their own side has a demoralised command (ruling R22: checked
    whenever a command becomes demoralised; it plays for the other side from its next bound)."""
    cmds = list(commands)
    out = []
    for c in cmds:
        if not unreliable(c, main_nation.get(c.side, "")) or c.demoralised:
            continue
        if any(o.side == c.side and o.demoralised for o in cmds if o is not c):
            old = c.side
            c.side = next(s for s in sorted(main_nation) if s != old)
            out.append(
                {
                    "kind": "ally-changes-sides",
                    "command": c.name,
                    "from": old,
                    "to": c.side,
                    "rule": rule("ally.unreliable-b"),
                }
            )
    return out


def must_flee_demoralised(
    mobile: bool, in_fort_circuit: bool, in_tower: bool, front_in_contact: bool
) -> bool:
    """dbm-3.2:demor.flee: other mobile elements of a demoralised command flee in spontaneous
    retreat, unless within a fort circuit not entered by enemy, in a tower, or their front edge is
    in contact with enemy."""
    return mobile and not (in_fort_circuit or in_tower or front_in_contact)


def quarter_transfer(
    vp: dict[str, int], commands: Iterable[CommandState]
) -> tuple[dict[str, int], dict[str, Any] | None]:
    """dbm-3.2:victory.quarter: with no demoralised commands at the end, 1 VP passes from the side
    with more commands that lost at least a quarter of their original EE to the side with fewer."""
    cmds = list(commands)
    if any(c.demoralised for c in cmds):
        return vp, None
    n: dict[str, int] = {s: 0 for s in vp}
    for c in cmds:
        n[c.side] = n.get(c.side, 0) + (1 if c.quarter_lost else 0)
    if len(n) != 2 or not any(n.values()):
        return vp, None
    (s1, n1), (s2, n2) = sorted(n.items())
    if n1 == n2:
        return vp, None
    giver, taker = (s1, s2) if n1 > n2 else (s2, s1)
    out = dict(vp)
    out[giver] -= 1
    out[taker] += 1
    return out, {
        "kind": "vp-transfer",
        "from": giver,
        "to": taker,
        "counts": n,
        "rule": rule("victory.quarter"),
    }


def flank_march_compare(a_elements: int, b_elements: int) -> str:
    """dbm-3.2:flank.both: both sides flank marching on one flank compare element totals; which side
    is larger ("a", "b" or "equal"); the consequence is the base rule's."""
    return "a" if a_elements > b_elements else "b" if b_elements > a_elements else "equal"
