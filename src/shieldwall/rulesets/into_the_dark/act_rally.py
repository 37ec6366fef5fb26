"""Rallies (turn-sequence.rallys, combat.rallying): the Rally phase's choices, routers rallying
by a morale test or routing on, evaders turning back."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shieldwall.core.geometry import Footprint, normalize_angle

from . import orders as O
from .model import Unit, other
from .morale import MoraleOutcome
from .morale_rolls import control_test, home_heading, morale_test
from .movement import max_straight
from .moves import bad, base_allowance

if TYPE_CHECKING:
    from .state import IntoTheDarkState


# --- rallies -----------------------------------------------------------------------------------


def rally_problem(st: IntoTheDarkState, u: Unit) -> str | None:
    """ "During the Rally phase, a unit may attempt to - stop routing, recover from shaken, re-order,
    or stop evading. Fanatics may attempt to stop pursuing ... A unit in melee may not attempt to
    rally." (combat.rallying) Routers and evaders rally by themselves."""
    if not u.on_table:
        return "not on the table"
    if u.routed or u.evading:
        return "routers and evaders rally by themselves"
    if u.rallying:
        return "already rallying"
    if st.in_melee(u):
        return "a unit in melee may not attempt to rally"
    if u.morale != "shaken" and not u.disordered and not u.pursuing:
        return "steady, in order and not pursuing: nothing to rally from"
    return None


def rally(st: IntoTheDarkState, order: O.Rally) -> None:
    # into-the-dark:combat.rallying.shaken
    # into-the-dark:combat.rallying.from-disorder
    assert st.pending is not None
    side = st.pending["side"]
    u = st.unit(order.unit)
    if u.side != side:
        raise bad("combat.rallying", f"{u.id} is not one of {side}'s units")
    prob = rally_problem(st, u)
    if prob:
        raise bad("combat.rallying", f"{u.id}: {prob}")
    st.log("rally-attempt", "combat.rallying", side=side, unit=u.id)
    u.rallying = True
    u.acted = True  # into-the-dark:movement.movement.rallied-do-not-move: it does nothing else this turn
    if u.pursuing:
        ok = control_test(st, u, "fanatics stopping their pursuit", "combat.rallying")
        if not ok:
            u.rallying = False
            u.acted = False
            st.log("still-pursuing", "combat.pursuit", side=side, unit=u.id, quarry=u.pursuing)
            st.push(("rally", side))
            return
        st.log("pursuit-stopped", "combat.rallying", side=side, unit=u.id, quarry=u.pursuing)
        u.pursuing = None
    if u.morale == "shaken":
        ok = control_test(st, u, "rallying from shaken", "combat.rallying")
        if ok:
            u.morale = "steady"
            st.log("steady", "combat.rallying", side=side, unit=u.id, reason="rallied from shaken")
        else:
            st.log(
                "still-shaken", "combat.rallying", side=side, unit=u.id, reason="failing does NOT disorder"
            )
    if u.disordered:
        u.rally_disorder = True
        st.log(
            "reordering",
            "combat.rallying",
            side=side,
            unit=u.id,
            reason="disorder removed at the end of the turn if it does not move, fire or fight",
        )
    st.push(("rally", side))


def rally_auto(st: IntoTheDarkState) -> None:
    """Task: routers attempt to rally (a morale test) and failures rout on; evaders turn back."""
    # into-the-dark:combat.rallying.evaders
    tasks: list[tuple[Any, ...]] = []
    first = st.last_first or "red"
    for side in (first, other(first)):
        for u in st.live(side):
            if u.routed:
                tasks.append(("rally-router", u.id))
            elif u.evading:
                # "An evading unit will rally automatically, and face back the way it came. Since
                # turning around normally only takes a half turn, the unit may still fire"
                fp = u.fp
                u.place(Footprint(fp.x, fp.y, normalize_angle(fp.heading + 180.0), fp.frontage, fp.depth))
                u.evading = False
                u.used = base_allowance(st, u) / 2.0
                st.log("evader-rallies", "combat.rallying", side=side, unit=u.id, heading=round(u.heading, 2))
    st.push(*tasks)


def rally_router(st: IntoTheDarkState, uid: str) -> None:
    """ "A routed unit may attempt to rally by passing a morale test. If it succeeds, it stops and
    faces back the way it came ... It is still disordered. If it fails, it must immediately make
    another rout move." (combat.rallying, morale.results)"""
    # into-the-dark:combat.rallying.routers
    u = st.units[uid]
    if not u.on_table or not u.routed:
        return
    u.acted = True
    u.rallying = True
    if st.in_melee(u):
        st.log(
            "cannot-rally",
            "combat.rallying",
            side=u.side,
            unit=uid,
            reason="a unit in melee may not attempt to rally",
        )
        st.push(("rout-again", uid))
        return
    out = morale_test(st, u, "rallying from rout", "combat.rallying")
    if out == MoraleOutcome.ROUTED:
        st.push(("rout-again", uid))
        return
    if out == MoraleOutcome.DRIVEN_BACK:
        u.morale = "shaken"
        d, tr = max_straight(u, u.fp, st.d(4), st.world(), allow_off=True)
        if tr is not None and tr.off_table:
            u.gone = True
            st.log("rout-off-table", "combat.rout", side=u.side, unit=uid, reason="retreated off the table")
            return
        if tr is not None:
            u.place(tr.fp)
            u.travelled += d
        st.log("rally-retreat", "morale.results", side=u.side, unit=uid, distance=round(d, 3))
    u.morale = "steady" if out == MoraleOutcome.PASSED else "shaken"
    fp = u.fp
    u.place(Footprint(fp.x, fp.y, normalize_angle(fp.heading + 180.0), fp.frontage, fp.depth))
    st.log(
        "rallied",
        "combat.rallying",
        side=u.side,
        unit=uid,
        morale=u.morale,
        disordered=True,
        heading=round(u.heading, 2),
    )


def rout_again(st: IntoTheDarkState, uid: str) -> None:
    """ "On subsequent turns, they move towards their own base edge by the shortest route."""
    # into-the-dark:combat.rout.later-moves
    u = st.units[uid]
    if not u.on_table:
        return
    h = home_heading(st, u)
    fp = u.fp
    u.extra["pre_rout_heading"] = u.heading
    u.place(Footprint(fp.x, fp.y, h, fp.frontage, fp.depth))
    faces = st.roll_d6(u.rout_dice)
    d = st.d(sum(faces))
    st.log(
        "rout",
        "combat.rout",
        side=u.side,
        unit=uid,
        die="d6",
        faces=faces,
        distance=d,
        heading=round(h, 2),
        towards="own base edge",
    )
    st.push(("rout-move", uid, d, (), (), ()))


def rally_choice(st: IntoTheDarkState, side: str) -> None:
    st.phase = "rally"
    if any(rally_problem(st, u) is None for u in st.live(side)):
        st.ask("rally", side)
