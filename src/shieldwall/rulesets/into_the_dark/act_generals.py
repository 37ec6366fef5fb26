"""Generals and champions in a front rank, as targets in the melee (command.generals,
command.general-leading, special-troops.champions).

"A general that has joined and is personally leading a unit ... While in the front rank, up to 2 of
his opponent's combat dice (identified before rolling) may be declared as targeting the general."
"A general figure on the battlefield is treated as if he were LMM (or LMF) ... A general is removed
after taking a single hit, and has no value in combat."

Play (docs/rulings/into-the-dark.md, "Generals in the melee"): after the Missile Fire phase and
before the melee dice, each side in initiative order may declare (``declare U G N``) up to 2 of the
melee dice of each of its units that fights the front of a unit led by an enemy general. Those dice
are taken out of the unit's attack on that unit (from the front) and rolled at the general as a
separate attack against LMM (LMF for a general on foot) with the attacker's frontal modifiers; one
hit removes him. A fallen general no longer leads (no freedom from preferences, no morale
modifiers negated), has no command actions and receives no new orders; his points (25 per rating,
"Choosing Your Army") count as lost at the end of the battle.

A champion who has joined a unit (``act_champions``) is "treated as if mixed in with the front rank.
While in the front rank, up to 2 of their opponent's dice may be declared as targeting the champion"
- declared and rolled the same way, against the champion's own armour (open order), his hits taken
as for a champion on his own.

The dice declared here are rolled in the melee round by ``front_rank.strike``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from shieldwall.core.errors import IllegalOrder

from .clauses import cite
from .extra_orders import Declare
from .fighting import contacts
from .front_rank import fall, standing
from .generals import on
from .model import Unit
from .profiles import command as command_rules
from .profiles import special

if TYPE_CHECKING:
    from .state import IntoTheDarkState

__all__ = ["targets", "menu", "choice", "declare", "fall"]  # fall: from front_rank, for the tests


def targets(st: IntoTheDarkState, a: Unit) -> list[tuple[str, Unit]]:
    """What ``a`` may declare dice at: (name, the unit whose front rank he is in) for each standing
    enemy general who has joined and leads a unit that ``a`` fights across that unit's front edge,
    and each enemy champion who has joined such a unit (his unit id is his name)."""
    if not a.on_table or a.routed or a.caught:
        return []
    hosts: dict[str, list[str]] = {}
    if on(st):
        for name, g in st.generals.items():
            if g["side"] != a.side and g["leading"] and standing(g):
                hosts.setdefault(g["with"] or "", []).append(name)
    for c in st.units.values():
        if c.joined and c.side != a.side and not c.destroyed and not c.general:
            hosts.setdefault(c.joined, []).append(c.id)
    out: list[tuple[str, Unit]] = []
    for hid, names in hosts.items():
        b = st.units.get(hid)
        if b is None or not b.on_table:
            continue
        if any(x.other == a.id and x.mine == "front" for x in contacts(st, b)):
            out.extend((n, b) for n in names)
    return out


def menu(st: IntoTheDarkState, side: str) -> list[Declare]:
    declared = st.declared
    out: list[Declare] = []
    most = _most()
    for a in st.live(side):
        if a.id in declared:
            continue
        for name, _ in targets(st, a):
            out.extend(Declare(a.id, name, n) for n in range(1, most + 1))
    return out


def _most() -> int:
    """ "up to 2" - the general's and the champion's numbers (data/command.toml, data/special.toml)."""
    return min(command_rules().general.dice_at_general, special().champion.dice_at_champion)


def choice(st: IntoTheDarkState, side: str) -> None:
    """Task: ask ``side`` for its declarations when it has any to make."""
    if menu(st, side):
        st.ask("declare", side)


def declare(st: IntoTheDarkState, order: Declare) -> None:
    # into-the-dark:command.general-leading.dice-declared
    assert st.pending is not None
    side = st.pending["side"]
    most = _most()
    a = st.units.get(order.unit)
    at = st.units.get(order.at)
    clause = "special-troops.champions" if at is not None and not at.general else "command.general-leading"
    if a is None or a.side != side or not a.on_table:
        raise IllegalOrder(cite(clause), f"{order.unit} is not one of {side}'s units on the table")
    if a.id in st.declared:
        raise IllegalOrder(cite(clause), f"{a.id} has already declared its dice")
    if not 1 <= order.dice <= most:
        raise IllegalOrder(cite(clause), f"up to {most} dice may be declared, not {order.dice}")
    host = dict(targets(st, a)).get(order.at)
    if host is None:
        raise IllegalOrder(
            cite(clause),
            f"{order.at} is not an enemy general or champion in the front rank of a unit {a.id} "
            "fights on its front (or he has fallen)",
        )
    st.declared[a.id] = {"at": order.at, "unit": host.id, "dice": order.dice}
    st.log("declare", clause, side=side, unit=a.id, at=order.at, target=host.id, dice=order.dice)
    st.push(("declare", side))
