"""What each into-the-dark order does: the dispatcher of orders, and the map of the package.

``apply_order`` checks an order against the pending decision and hands it to its handler; the
steps the engine takes by itself are dispatched by ``turns.run_task`` and the legal orders of each
decision listed by ``menus.legal_orders``. The Movement phase is in ``act_move``, charges in
``act_charge``, fire and melee in ``act_combat``, morale in ``act_morale``.

Layers (import-linter style: a module imports only from layers below its own; ``|`` separates
modules of one layer that never import each other; imports under ``TYPE_CHECKING`` do not count -
every rule module names ``state.IntoTheDarkState`` as a type only)::

    game                                    the rules bound to a scenario
    state | reach                           the battle state (the engine); reach for the web
    actions | menus | turns                 dispatch: orders, legal-order menus, queued steps
    act_champions | act_charge | act_combat | act_command | act_contact | act_deploy | act_form
      | act_generals | act_maneuver | act_morale | act_move | act_obey | act_rally | act_retreat
      | act_tests | act_zoc                 handlers: one order or phase each, never each other
    charging | front_rank | shooting        rules in play shared by the handlers ...
    fighting | morale_rolls | moves         ... read and change the state ...
    charge_plan | generals | scenario       ... a charge's path, who commands; the scenario file
    movement                                the geometry of a move
    deep_water                              troops forced into deep water
    spatial                                 contact, zones, sight
    model | morale | order_text             units on the table, exact tests, reading orders
    army | combat | extra_orders            army lists, exact combat dice, more orders
    orders | params | points                order values, rule parameters, point costs
    plugin | profiles                       what hosts know; the data tables
    clauses                                 clause ids

A module that needs something from a layer above takes it as a parameter (``front_rank``'s
``champion_attacks`` is handed ``act_combat``'s terrain checks) instead of importing it.
``scripts/import_cycles.py shieldwall.rulesets.into_the_dark`` checks that no import cycle is left.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from shieldwall.core.errors import IllegalOrder

from . import (
    act_champions,
    act_charge,
    act_command,
    act_contact,
    act_deploy,
    act_form,
    act_generals,
    act_maneuver,
    act_move,
    act_obey,
    act_zoc,
)
from . import extra_orders as M
from . import orders as O
from .act_rally import rally
from .clauses import cite
from .model import other
from .morale_rolls import control_test
from .shooting import aim, fire_problem

if TYPE_CHECKING:
    from .state import IntoTheDarkState


def bad(clause: str, reason: str) -> IllegalOrder:
    return IllegalOrder(cite(clause), reason)


# --- orders ------------------------------------------------------------------------------------

_ALLOWED: dict[str, tuple[type, ...]] = {
    "rally": (O.Rally, O.End),
    "initiative": (O.Keep, O.Pass),
    "movement": (O.Activate, O.Hold, O.Move, O.Charge, O.Frontage, O.Shieldwall, O.Face, O.Reform, O.End)
    + (M.Turn, M.FallBack, M.Careful, M.BreakOff, M.Command, M.Leave),
    "unit": (O.Hold, O.Move, O.Charge, O.Frontage, O.Shieldwall, O.Face, O.Reform)
    + (M.Turn, M.FallBack, M.Careful, M.BreakOff, M.Join),
    "react": (O.Stand, O.CounterCharge, O.Evade, O.Fire),
    "opportunity": (O.Charge, O.Fire, O.Decline),
    "fire": (O.Shoot, O.End),
    "pursue": (O.Pursue, O.Resist),
    "chase": (O.Halt, O.Continue),
    "consent": (O.Allow, O.Refuse),
    "deploy": (M.Deploy,),
    "orders": (M.NewOrders, O.End),
    "declare": (M.Declare, O.End),
}

PROMPTS = {
    "rally": "choose units to rally, or end the Rally phase",
    "initiative": "you won the initiative: keep it (move first) or pass it",
    "movement": "choose a unit to act, or end your movement",
    "unit": "order the unit: move, charge, change frontage, form shieldwall, face, or hold",
    "react": "you are being charged: stand, counter-charge, evade or fire at the charger",
    "opportunity": "an enemy moved in your zone of control: opportunity charge, fire, or decline",
    "fire": "choose a shooter and its target, or end your fire",
    "pursue": "your opponents fell back: pursue (follow up), or test to hold your place",
    "chase": "the unit you charged ran away: stop at its original position, or continue the charge",
    "consent": "a friendly unit is falling back through you: allow it, or refuse",
    "deploy": "place one of your units (or a dummy card) in your deployment zone",
    "orders": "give new orders to your generals, or end",
    "declare": "declare up to 2 dice of a unit at the enemy general leading the unit it fights, or end",
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
    "chase": "movement.charging.target-runs",
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
    if isinstance(order, M.Leave):
        act_champions.leave(st, order)
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
    # into-the-dark:combat.fire-targets.one-target
    if any(uid == u.id for uid, _ in st.fire_orders):
        raise bad("combat.fire-targets", f"{u.id} already has a target: a unit must concentrate its fire")
    prob = fire_problem(st, u)
    if prob:
        raise bad("combat.missile-fire", f"{u.id}: {prob}")
    t = st.unit(order.target)
    if t.side == side or aim(st, u, t) is None:
        raise bad(
            "combat.target-eligibilities",
            f"{t.id} is not an eligible target for {u.id} (arc, range, sight, melee)",
        )
    st.fire_orders.append((u.id, t.id))
    st.log("target", "combat.fire-targets", side=side, unit=u.id, target=t.id)
    st.push(("fire", side))


def _pursue_order(st: IntoTheDarkState, order: Any) -> None:
    # into-the-dark:combat.pursuit.resisted
    assert st.pending is not None
    uid = st.pending["unit"]
    if order.unit != uid:
        raise bad("combat.pursuit", f"the unit to decide is {uid}")
    u = st.units[uid]
    if isinstance(order, O.Resist):
        ok = control_test(st, u, "attempting not to pursue or follow up", "combat.pursuit")
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
    # into-the-dark:combat.driven-back.pushes
    # into-the-dark:combat.rout.friends-refuse: a close order friend allows or refuses a router
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
    "chase": lambda st, order: act_contact.chase_choice(st, order),
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
