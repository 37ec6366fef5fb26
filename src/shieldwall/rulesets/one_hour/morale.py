"""Force Morale (optional rule) for one-hour-dark-ages.

Asked by the routs of ``act_melee``; its last free attack is ``attacks.melee_attack``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from shieldwall.rulesets.one_hour import spatial as S
from shieldwall.rulesets.one_hour.attacks import melee_attack
from shieldwall.rulesets.one_hour.model import other

if TYPE_CHECKING:
    from shieldwall.rulesets.one_hour.state import OneHourState


def force_morale(st: OneHourState, side: str) -> bool:
    """ "Force Morale": each time a friendly Unit is destroyed roll a d5, needing more than the number
    of friendly Units destroyed; with a three or four Unit army the die is halved (round up).
    Variants: two dice (either may beat it), +1 if the opponent has lost more Units, a scenario
    bonus, and in a campaign one last free attack by the opposing side. Returns True if the force
    routs (the battle ends)."""
    lost = st.lost[side]
    size = st.game.army_size[side]
    n = 2 if st.params["force_morale_two_dice"] else 1
    clause = "force-morale.two-dice" if n == 2 else "force-morale"
    faces = st.roll(n, clause, "force morale", side=side)
    halved = size <= 4
    values = [-(-f // 2) if halved else f for f in faces]
    bonus = st.game.force_morale_bonus[side]
    checked = ["force-morale"] + (["force-morale.small-army"] if halved else [])
    checked += ["force-morale.two-dice"] if n == 2 else []
    checked += ["force-morale.bonus"] if bonus else []
    emboldened = bool(st.params["force_morale_emboldened"] and st.lost[other(side)] > lost)
    if emboldened:
        bonus += 1
        checked.append("force-morale.emboldened")
    best = max(values) + bonus
    passed = best > lost
    st.log(
        "force-morale",
        "force-morale.small-army" if halved else clause,
        side=side,
        faces=faces,
        values=values,
        bonus=bonus,
        total=best,
        target=lost,
        passed=passed,
        emboldened=emboldened,
        checked=[f"one-hour-dark-ages:{c}" for c in checked],
    )
    if passed:
        return False
    if st.params["force_morale_last_attack"]:
        for u in st.live(other(side)):
            for e, f_mine, _ in S.contacts(u, st.live(side)):
                if f_mine == "front":
                    st.log("last-attack", "force-morale.last-attack", side=u.side, unit=u.id, target=e.id)
                    melee_attack(st, u, e)
                    break
    st.finish(other(side), f"{side}'s force routs (Force Morale: rolled {best} against {lost} Units lost)")
    return True
