"""Generals in the melee (Command & Control; command.generals, command.general-leading).

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
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from shieldwall.core.errors import IllegalOrder

from .clauses import cite
from .combat import MeleeSituation, Troops
from .extra_orders import Declare
from .model import Unit
from .profiles import command as command_rules

if TYPE_CHECKING:
    from .state import IntoTheDarkState


def standing(g: dict[str, Any]) -> bool:
    return not g.get("fallen", False)


def targets(st: IntoTheDarkState, a: Unit) -> list[tuple[str, Unit]]:
    """The generals ``a`` may declare dice at: each standing enemy general who has joined and leads
    a unit that ``a`` fights across that unit's front edge, where he stands in the front rank."""
    from .act_combat import contacts
    from .act_command import on

    if not on(st) or not a.on_table or a.routed or a.caught:
        return []
    out: list[tuple[str, Unit]] = []
    for name, g in st.generals.items():
        if g["side"] == a.side or not g["leading"] or not standing(g):
            continue
        b = st.units.get(g["with"] or "")
        if b is None or not b.on_table:
            continue
        if any(x.other == a.id and x.mine == "front" for x in contacts(st, b)):
            out.append((name, b))
    return out


def menu(st: IntoTheDarkState, side: str) -> list[Declare]:
    declared = st.declared
    out: list[Declare] = []
    most = command_rules().general.dice_at_general
    for a in st.live(side):
        if a.id in declared:
            continue
        for name, _ in targets(st, a):
            out.extend(Declare(a.id, name, n) for n in range(1, most + 1))
    return out


def choice(st: IntoTheDarkState, side: str) -> None:
    """Task: ask ``side`` for its declarations when it has any to make."""
    if menu(st, side):
        st.ask("declare", side)


def declare(st: IntoTheDarkState, order: Declare) -> None:
    assert st.pending is not None
    side = st.pending["side"]
    most = command_rules().general.dice_at_general
    a = st.units.get(order.unit)
    g = st.generals.get(order.general)
    if a is None or a.side != side:
        raise IllegalOrder(cite("command.general-leading"), f"{order.unit} is not one of {side}'s units")
    if g is None or g["side"] == side:
        raise IllegalOrder(cite("command.general-leading"), f"{order.general} is not an enemy general")
    if a.id in st.declared:
        raise IllegalOrder(cite("command.general-leading"), f"{a.id} has already declared its dice")
    if not 1 <= order.dice <= most:
        raise IllegalOrder(
            cite("command.general-leading"),
            f"up to {most} dice may be declared at a general, not {order.dice}",
        )
    if order.general not in {name for name, _ in targets(st, a)}:
        raise IllegalOrder(
            cite("command.general-leading"),
            f"{order.general} is not leading a unit that {a.id} fights on its front, where he stands "
            "(or he has fallen)",
        )
    st.declared[a.id] = {"general": order.general, "unit": g["with"], "dice": order.dice}
    st.log(
        "declare",
        "command.general-leading",
        side=side,
        unit=a.id,
        general=order.general,
        target=g["with"],
        dice=order.dice,
    )
    st.push(("declare", side))


def strike(st: IntoTheDarkState, a: Unit, b: Unit, sit: MeleeSituation) -> tuple[MeleeSituation, Any]:
    """Take the dice ``a`` declared at the general leading ``b`` out of its attack ``sit`` and roll
    them at him. Returns the attack left on the unit and the roll at the general (or None)."""
    d = st.declared.get(a.id)
    if d is None or d["unit"] != b.id:
        return sit, None
    g = st.generals[d["general"]]
    if not standing(g) or not g["leading"] or g["with"] != b.id:
        return sit, None
    k = min(d["dice"], sit.dice)
    if k <= 0:
        return sit, None
    at_general = MeleeSituation(
        sit.attacker,
        Troops.general(mounted=g.get("mounted", True)),
        front=1,
        charging=sit.charging,
        impetuous=sit.impetuous,
        target_uphill=sit.target_uphill,
        obstacle=sit.obstacle if "front" in sit.obstacle else (),
        dice_override=k,
    )
    roll = at_general.roll(st.rng)
    st.log(
        "melee-general",
        "command.general-leading",
        side=a.side,
        unit=a.id,
        target=b.id,
        general=d["general"],
        **roll.to_dict(),
    )
    if roll.hits >= command_rules().general.hits:
        fall(st, d["general"], f"struck by {a.id} in the melee")
    return replace(sit, diverted=k), roll


def fall(st: IntoTheDarkState, name: str, how: str) -> None:
    """ "A general is removed after taking a single hit" (command.generals)."""
    g = st.generals[name]
    g["fallen"] = True
    g["leading"] = False
    g["actions"] = 0
    g["next_orders"] = None
    st.log("general-falls", "command.generals", side=g["side"], general=name, unit=g["with"], how=how)
