"""Melee and the end of a player turn in one-hour-dark-ages ("Melee", "Routs and Rallies",
"Initiative").

One melee attack (``melee_attack``) is in ``attacks``, below: "Fall Back!" and "Force Morale"
make it too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from shieldwall.core.dice import AVERAGE_DIE, D6
from shieldwall.rulesets.one_hour import orders as O
from shieldwall.rulesets.one_hour.act_common import _active, _enemy, bad
from shieldwall.rulesets.one_hour.attacks import melee_attack
from shieldwall.rulesets.one_hour.clauses import rule
from shieldwall.rulesets.one_hour.model import Unit, other
from shieldwall.rulesets.one_hour.morale import force_morale

if TYPE_CHECKING:
    from shieldwall.rulesets.one_hour.state import OneHourState

# --- Melee ------------------------------------------------------------------------------------


def fight(st: OneHourState, order: O.Fight) -> None:
    """The unit whose melee is being fought attacks one of the enemies at its front ("Melee")."""
    u = _active(st, order.unit)
    targets = [e for e, f_mine, _ in st.touching(u) if f_mine == "front"]
    t = _enemy(st, order.target)
    if t not in targets:
        raise bad("melee.front-only", f"{t.id} is not in contact with {u.id}'s front facing")
    melee_attack(st, u, t)
    st.melee_queue.pop(0)
    st.active = None


def melee_step(st: OneHourState) -> bool:
    """Fight every melee of the phasing player ("Melee": Units fight only to their Front, one enemy
    Unit in contact with the Front Facing). Returns True when a choice of target is needed."""
    while st.melee_queue:
        uid = st.melee_queue[0]
        u = st.units[uid]
        if u.removed:
            st.melee_queue.pop(0)
            continue
        targets = [e for e, f_mine, _ in st.touching(u) if f_mine == "front"]
        if not targets:
            st.melee_queue.pop(0)
            continue
        if len(targets) == 1:
            st.melee_queue.pop(0)
            melee_attack(st, u, targets[0])
            continue
        st.active = uid
        return True
    return False


# --- Routs and rallies ------------------------------------------------------------------------


def routs_and_rallies(st: OneHourState) -> None:
    """ "Routs and Rallies": remove every Unit at its hit limit; then Banners and Priests rally."""
    for u in list(st.units.values()):
        if u.removed or u.hits < u.max_hits:
            continue
        u.set_removed(True)
        st.lost[u.side] += 1
        st.lost_types[u.side][u.type] = st.lost_types[u.side].get(u.type, 0) + 1
        gone = [p.id for p in st.personalities.values() if p.unit == u.id]
        for pid in gone:
            st.personalities[pid].unit = None
        st.log(
            "removed",
            "routs-and-rallies.removal",
            side=u.side,
            unit=u.id,
            hits=u.hits,
            limit=u.max_hits,
            personalities_lost=gone,
            checked=[rule("routs-and-rallies.removal")]
            + ([rule("variable-quality")] if u.quality else [])
            + ([rule("army-lists.variations")] if u.upgrade in ("determined", "reluctant") else [])
            + ([rule(u.profile.clause)] if u.profile.hits is not None else []),
        )
        if gone:
            st.log("personality-lost", "personalities.fate", side=u.side, unit=u.id, personalities=gone)
        if st.params["force_morale"] and force_morale(st, u.side):
            return
    for side in ("red", "blue"):
        if not st.live(side):
            st.finish(other(side), f"{side} has no Units left on the table")
            return
    if st.params["personalities"]:
        for u in st.live(st.side):
            rally(st, u)


def rally(st: OneHourState, u: Unit) -> None:
    """Banner: rally 1-3 Hits (d5 halved, rounded up); Priest: 2-4 (halved +1); only a Unit not in
    melee that has not moved or shot. Rally variation: not below 5 once it has taken 5."""
    pers = st.personalities_of(u)
    kinds = [p for p in pers if p.banner or p.kind == "priest"]
    if not kinds or u.hits <= 0:
        return
    if st.in_melee(u) or u.moved or u.shot or u.moving_shot:
        return
    for p in kinds:
        if u.hits <= 0:
            break
        clause = "personalities.priest" if p.kind == "priest" else "personalities.banner"
        face_ = st.roll(1, clause, "rally", unit=u.id)[0]
        amount = -(-face_ // 2) + (1 if p.kind == "priest" else 0)
        floor = 5 if (st.params["rally_variation"] and u.reached_five) else 0
        new = max(floor, u.hits - amount, 0) if u.hits > floor else u.hits
        checked = [rule("routs-and-rallies.rally")] + (
            [rule("personalities.rally-variation")] if floor else []
        )
        st.log(
            "rally",
            clause,
            unit=u.id,
            personality=p.id,
            rallied=u.hits - new,
            hits=new,
            variation=floor > 0,
            checked=checked,
        )
        u.set_hits(new)


def initiative_roll(st: OneHourState) -> None:
    """ "Initiative": from turn 2 roll off, the Initiative side adding +3 (+2/+4 options; -1 per routed
    Unit option); if it loses, the Initiative passes and the other side goes first.

    The roll-off die is the declared parameter ``initiative_die``, a d6 by default whatever the
    battle's die (rulings R26, R49: with the d5 and +3 the initiative could never change hands,
    against the text's "it is likely to only change once")."""
    holder = st.initiative
    chal = other(holder)
    die = D6 if st.params["initiative_die"] == "d6" else AVERAGE_DIE
    fh = st.roll(1, "initiative", "initiative", side=holder, die=die)[0]
    fc = st.roll(1, "initiative", "initiative", side=chal, die=die)[0]
    bonus = int(st.params["initiative_bonus"])
    th, tc = fh + bonus, fc
    if st.params["initiative_routed_penalty"]:
        th -= st.lost[holder]
        tc -= st.lost[chal]
    changed = th < tc
    if changed:
        st.initiative = chal
    st.order = (st.initiative, other(st.initiative))
    st.log(
        "initiative",
        "initiative.bonus" if bonus != 3 else "initiative",
        side=st.initiative,
        holder=holder,
        totals={holder: th, chal: tc},
        bonus=bonus,
        changed=changed,
        checked=[rule("initiative")]
        + ([rule("initiative.bonus")] if bonus != 3 else [])
        + ([rule("initiative.routed")] if st.params["initiative_routed_penalty"] else []),
    )
