"""What each into-the-dark order does, and the steps the engine takes by itself.

``apply_order`` checks an order against the pending decision and carries it out; ``run_task`` runs
one queued step of the turn sequence (turn-sequence.sequence-of-play). The Movement phase is in
``act_move``, charges in ``act_charge``, fire and melee in ``act_combat``, morale in ``act_morale``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from shieldwall.core.errors import IllegalOrder

from . import (
    act_champions,
    act_charge,
    act_combat,
    act_command,
    act_deploy,
    act_form,
    act_generals,
    act_maneuver,
    act_move,
    act_obey,
    act_tests,
    act_zoc,
)
from . import extra_orders as M
from . import orders as O
from .clauses import cite
from .model import other
from .state import PROMPTS

if TYPE_CHECKING:
    from .state import IntoTheDarkState


def bad(clause: str, reason: str) -> IllegalOrder:
    return IllegalOrder(cite(clause), reason)


# --- orders ------------------------------------------------------------------------------------

_ALLOWED: dict[str, tuple[type, ...]] = {
    "rally": (O.Rally, O.End),
    "initiative": (O.Keep, O.Pass),
    "movement": (O.Activate, O.Hold, O.Move, O.Charge, O.Frontage, O.Shieldwall, O.Face, O.Reform, O.End)
    + (M.Turn, M.FallBack, M.Careful, M.BreakOff, M.Command),
    "unit": (O.Hold, O.Move, O.Charge, O.Frontage, O.Shieldwall, O.Face, O.Reform)
    + (M.Turn, M.FallBack, M.Careful, M.BreakOff, M.Join),
    "react": (O.Stand, O.CounterCharge, O.Evade, O.Fire),
    "opportunity": (O.Charge, O.Fire, O.Decline),
    "fire": (O.Shoot, O.End),
    "pursue": (O.Pursue, O.Resist),
    "consent": (O.Allow, O.Refuse),
    "deploy": (M.Deploy,),
    "orders": (M.NewOrders, O.End),
    "declare": (M.Declare, O.End),
}

_CLAUSE = {
    "rally": "turn-sequence.rallys",
    "initiative": "turn-sequence.initiative",
    "movement": "turn-sequence.movement",
    "unit": "turn-sequence.movement",
    "react": "movement.charging",
    "opportunity": "setup.zone-of-control",
    "fire": "turn-sequence.combat",
    "pursue": "combat.pursuit",
    "consent": "movement.interpenetration",
    "deploy": "setup.deployment",
    "orders": "command.new-orders",
    "declare": "command.general-leading",
}


def apply_order(st: IntoTheDarkState, order: Any) -> None:
    p = st.pending
    if p is None:
        raise bad("turn-sequence.sequence-of-play", "no decision is pending")
    kind = p["kind"]
    if not isinstance(order, _ALLOWED[kind]):
        raise bad(_CLAUSE[kind], f"'{order}' is not an order for this decision ({kind}: {PROMPTS[kind]})")
    _HANDLERS[kind](st, order)
    if st.pending is p:
        st.pending = None


def _rally_order(st: IntoTheDarkState, order: Any) -> None:
    if isinstance(order, O.End):
        st.log("end", "turn-sequence.rallys", side=st.pending["side"] if st.pending else None)
        return
    rally(st, order)


def _initiative_order(st: IntoTheDarkState, order: Any) -> None:
    assert st.pending is not None
    winner = st.pending["side"]
    st.first = winner if isinstance(order, O.Keep) else other(winner)
    st.log(
        "initiative",
        "turn-sequence.initiative",
        side=winner,
        choice="keep" if isinstance(order, O.Keep) else "pass",
        first=st.first,
    )
    a, b = st.first, other(st.first)
    st.push(
        ("move-phase", a),
        ("move-phase", b),
        ("fire", a),
        ("fire", b),
        ("fire-resolve",),
        ("declare", a),
        ("declare", b),
        ("melee",),
        ("morale",),
        ("turn-end",),
    )


def _movement_order(st: IntoTheDarkState, order: Any) -> None:
    act_obey.guard(st, order)
    if isinstance(order, M.Command):
        act_command.command(st, order)
        return
    if isinstance(order, O.End):
        assert st.pending is not None
        st.log("end", "turn-sequence.movement", side=st.pending["side"])
        st.active = None
        return
    if isinstance(order, O.Activate):
        act_move.activate(st, order)
    elif isinstance(order, O.Hold):
        act_move.hold(st, order)
    elif isinstance(order, O.Move):
        act_move.move(st, order)
    elif isinstance(order, O.Charge):
        act_charge.declare(st, order, opportunity=False)
    elif isinstance(order, O.Frontage):
        act_form.frontage(st, order)
    elif isinstance(order, O.Shieldwall):
        act_form.shieldwall(st, order)
    elif isinstance(order, O.Face):
        act_form.face(st, order)
    elif isinstance(order, O.Reform):
        act_form.reform(st, order)
    elif isinstance(order, M.Turn):
        act_maneuver.turning(st, order)
    elif isinstance(order, M.FallBack):
        act_maneuver.fall_back(st, order)
    elif isinstance(order, M.Careful):
        act_maneuver.careful(st, order)
    elif isinstance(order, M.BreakOff):
        act_maneuver.break_off(st, order)
    elif isinstance(order, M.Join):
        act_champions.join(st, order)


def _react_order(st: IntoTheDarkState, order: Any) -> None:
    act_charge.react(st, order)


def _opportunity_order(st: IntoTheDarkState, order: Any) -> None:
    if isinstance(order, O.Charge):
        act_charge.declare(st, order, opportunity=True)
    elif isinstance(order, O.Fire):
        act_zoc.opportunity_fire(st, order)
    else:
        act_zoc.decline(st, order)


def _fire_order(st: IntoTheDarkState, order: Any) -> None:
    assert st.pending is not None
    side = st.pending["side"]
    if isinstance(order, O.End):
        st.log("end", "combat.missile-fire", side=side)
        return
    u = st.unit(order.unit)
    if u.side != side:
        raise bad("combat.missile-fire", f"{u.id} is not one of {side}'s units")
    if any(uid == u.id for uid, _ in st.fire_orders):
        raise bad("combat.fire-targets", f"{u.id} already has a target: a unit must concentrate its fire")
    prob = act_combat.fire_problem(st, u)
    if prob:
        raise bad("combat.missile-fire", f"{u.id}: {prob}")
    t = st.unit(order.target)
    if t.side == side or act_combat.aim(st, u, t) is None:
        raise bad(
            "combat.target-eligibilities",
            f"{t.id} is not an eligible target for {u.id} (arc, range, sight, melee)",
        )
    st.fire_orders.append((u.id, t.id))
    st.log("target", "combat.fire-targets", side=side, unit=u.id, target=t.id)
    st.push(("fire", side))


def _pursue_order(st: IntoTheDarkState, order: Any) -> None:
    assert st.pending is not None
    uid = st.pending["unit"]
    if order.unit != uid:
        raise bad("combat.pursuit", f"the unit to decide is {uid}")
    u = st.units[uid]
    if isinstance(order, O.Resist):
        ok = act_tests.control_test(st, u, "attempting not to pursue or follow up", "combat.pursuit")
        if ok:
            if st.queue and st.queue[0][0] == "pursue" and st.queue[0][1] == uid:
                st.queue.pop(0)
            st.log(
                "holds",
                "combat.pursuit",
                side=u.side,
                unit=uid,
                reason="passed its control test: stays, not disordered",
            )
        elif not u.disordered:
            u.disordered = True
            u.shieldwall = False
            st.log(
                "disordered", "morale.control-tests", side=u.side, unit=uid, reason="failed a control test"
            )


def _consent_order(st: IntoTheDarkState, order: Any) -> None:
    assert st.pending is not None
    fid = st.pending["unit"]
    if order.unit != fid:
        raise bad("movement.interpenetration", f"the unit to decide is {fid}")
    task = st.queue[0]
    f = st.units[fid]
    if task[0] == "rout-move":
        allowed, refused = task[3], task[4]
        if isinstance(order, O.Allow):
            allowed = (*allowed, fid)
        else:
            refused = (*refused, fid)
        st.queue[0] = (task[0], task[1], task[2], allowed, refused, task[5])
        clause = "combat.rout"
    else:
        allowed, refused = task[5], task[6]
        if isinstance(order, O.Allow):
            allowed = (*allowed, fid)
        else:
            refused = (*refused, fid)
        st.queue[0] = (*task[:5], allowed, refused)
        clause = "combat.driven-back"
    st.log("allow" if isinstance(order, O.Allow) else "refuse", clause, side=f.side, unit=fid, mover=task[1])


_HANDLERS: dict[str, Callable[[IntoTheDarkState, Any], None]] = {
    "rally": _rally_order,
    "initiative": _initiative_order,
    "movement": _movement_order,
    "unit": _movement_order,
    "react": _react_order,
    "opportunity": _opportunity_order,
    "fire": _fire_order,
    "pursue": _pursue_order,
    "consent": _consent_order,
    "deploy": lambda st, order: act_deploy.deploy(st, order),
    "orders": lambda st, order: _orders_order(st, order),
    "declare": lambda st, order: _declare_order(st, order),
}


def _declare_order(st: IntoTheDarkState, order: Any) -> None:
    if isinstance(order, O.End):
        st.log("end", "command.general-leading", side=st.pending["side"] if st.pending else None)
        return
    act_generals.declare(st, order)


def _orders_order(st: IntoTheDarkState, order: Any) -> None:
    if isinstance(order, O.End):
        st.log("end", "command.new-orders", side=st.pending["side"] if st.pending else None)
        return
    act_command.new_orders(st, order)


from .act_rally import rally, rally_problem  # noqa: E402  (re-exported for menus)
from .turns import run_task  # noqa: E402  (re-exported for state)

__all__ = ["apply_order", "bad", "rally", "rally_problem", "run_task"]
