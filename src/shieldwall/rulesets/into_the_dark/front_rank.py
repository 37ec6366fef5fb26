"""Generals and champions in a front rank, in the melee round (command.general-leading,
command.generals, special-troops.champions): the dice declared at them rolled (``strike``), a
general's fall, and each joined champion's own attack (``champion_attacks``). Declaring the dice
is ``act_generals``; a champion joining a unit is ``act_champions``; the melee is ``act_combat``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from . import generals
from .combat import Troops
from .fighting import contacts, troops
from .melee_situation import MeleeSituation
from .model import Unit
from .profiles import command as command_rules

if TYPE_CHECKING:
    from .state import IntoTheDarkState


def standing(g: dict[str, Any]) -> bool:
    return not g.get("fallen", False)


def strike(st: IntoTheDarkState, a: Unit, b: Unit, sit: MeleeSituation) -> tuple[MeleeSituation, Any]:
    """Take the dice ``a`` declared at a general or champion in ``b``'s front rank out of its attack
    ``sit`` and roll them at him. Returns the attack left on the unit and the roll (or None)."""
    # into-the-dark:command.general-leading.dice-declared
    # into-the-dark:special-troops.champions.two-hits
    d = st.declared.get(a.id)
    if d is None or d["unit"] != b.id:
        return sit, None
    champ = st.units.get(d["at"])
    if champ is not None and champ.general:
        champ = None  # a general's figure: rolled at as a general (command.general-leading)
    if champ is not None:
        if champ.destroyed or champ.joined != b.id:
            return sit, None
        target = troops(champ)
    else:
        g = st.generals[d["at"]]
        if not standing(g) or not g["leading"] or g["with"] != b.id:
            return sit, None
        target = Troops.general(mounted=g.get("mounted", True))
    k = min(d["dice"], sit.dice)
    if k <= 0:
        return sit, None
    aimed = MeleeSituation(
        sit.attacker,
        target,
        front=1,
        charging=sit.charging,
        impetuous=sit.impetuous,
        target_uphill=sit.target_uphill,
        obstacle=sit.obstacle if "front" in sit.obstacle else (),
        dice_override=k,
    )
    roll = aimed.roll(st.rng)
    if champ is not None:
        taken = champ.lose(roll.hits)
        st.log(
            "melee-champion",
            "special-troops.champions",
            side=a.side,
            unit=a.id,
            target=b.id,
            champion=champ.id,
            taken=taken,
            wounds=champ.wounds,
            **roll.to_dict(),
        )
        if champ.destroyed:
            st.log(
                "destroyed",
                "special-troops.champions",
                side=champ.side,
                unit=champ.id,
                reason=f"the champion in {b.id}'s front rank took his last hit",
            )
    else:
        st.log(
            "melee-general",
            "command.general-leading",
            side=a.side,
            unit=a.id,
            target=b.id,
            general=d["at"],
            **roll.to_dict(),
        )
        if roll.hits >= command_rules().general.hits:
            fall(st, d["at"], f"struck by {a.id} in the melee")
    return replace(sit, diverted=k), roll


def fall(st: IntoTheDarkState, name: str, how: str) -> None:
    """ "A general is removed after taking a single hit" (command.generals)."""
    generals.fall(st, name, how)


def champion_attacks(
    st: IntoTheDarkState, uphill_of: Any, obstacle_between: Any
) -> list[tuple[Unit, Unit, Any]]:
    """Each joined champion's attack this round: (champion, enemy, situation), against the enemy
    with the longest contact on his unit's front edge."""
    out: list[tuple[Unit, Unit, Any]] = []
    for c in st.units.values():
        if not c.joined or c.destroyed or c.general:
            continue
        h = st.units.get(c.joined)
        if h is None or not h.on_table or h.routed or h.caught:
            continue
        front = [x for x in contacts(st, h) if x.mine == "front"]
        if not front:
            continue
        x = max(front, key=lambda t: t.a1 - t.a0)
        e = st.units[x.other]
        sit = MeleeSituation(
            troops(c),
            troops(e),
            front=1,
            charging=h.charge_turn == st.turn,
            target_uphill=uphill_of(e, h),
            obstacle=("front",) if obstacle_between(st, h, e) else (),
        )
        out.append((c, e, sit))
    return out
