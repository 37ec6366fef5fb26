"""What a unit that is neither led nor ordered may do under its division's orders (command.orders)
and its combat preferences (command.combat-preferences) in its Movement phase; see act_command and
docs/rulings 63. What its orders allow when it is charged is ``generals.reaction_allowed``."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from shieldwall.core.errors import IllegalOrder

from . import orders as O
from .charging import charge_orders
from .generals import free, on, unit_orders_of
from .model import Unit
from .moves import bad, can_move, plan_careful, plan_fall_back, plan_move, remaining
from .profiles import missile_weapons
from .spatial import gap

if TYPE_CHECKING:
    from .state import IntoTheDarkState


# --- what a unit that is not free may do --------------------------------------------------------


def _nearest(st: IntoTheDarkState, u: Unit) -> tuple[float, Unit | None]:
    enemies = [e for e in st.live() if e.side != u.side and not e.routed]
    if not enemies:
        return math.inf, None
    e = min(enemies, key=lambda e: gap(u.fp, e.fp))
    return gap(u.fp, e.fp), e


def in_charge_range(st: IntoTheDarkState, u: Unit) -> bool:
    return _nearest(st, u)[0] <= st.d(u.allowance) + 1e-9


def in_close_range(st: IntoTheDarkState, u: Unit) -> bool:
    w = u.majority.missile_weapon
    return w is not None and _nearest(st, u)[0] <= st.d(missile_weapons()[w].close) + 1e-9


def check_action(st: IntoTheDarkState, u: Unit, order: Any, before: tuple[float, float], after: Any) -> None:
    """Raise if ``order`` goes against the unit's orders or preferences. ``before`` is the distance
    to the nearest enemy and the allowance left before the order; ``after`` the planned trace of a
    move (or None)."""
    # into-the-dark:command.orders.fall-back
    # into-the-dark:command.orders.hold
    # into-the-dark:command.orders.attack
    if free(st, u):
        return
    orders = unit_orders_of(st, u)
    near, left = before
    charge_range = near <= st.d(u.allowance) + 1e-9
    kind = type(order).__name__
    why = None
    if kind == "Charge":
        if orders == "fall-back":
            why = "a unit falling back does not charge"
        elif not u.mounted and not free(st, u):
            why = "foot prefer to stand and wait for the enemy to make the first move"
    elif kind in ("Move", "Careful", "FallBack"):
        steps = getattr(order, "steps", ())
        only_turns = kind == "Move" and all(isinstance(s, (O.Wheel, O.About)) for s in steps)
        travel = after.travel if after is not None else 0.0
        end_near = _end_gap(st, u, after)
        if orders == "fall-back":
            if (
                only_turns
                and not charge_range
                or not only_turns
                and (end_near <= near + 1e-6 or (not charge_range and travel < left / 2.0 - 1e-6))
            ):
                why = "Fall Back: move away from all enemy at 1/2 speed or greater"
        elif charge_range:
            if u.mounted and not only_turns:
                why = "mounted in charge range prefer to charge"
            elif not u.mounted and not only_turns and end_near < near - 1e-6:
                why = "foot in charge range stand and wait (no advance)"
        elif u.has_missiles and in_close_range(st, u) and end_near < near - 1e-6:
            why = "missile troops within close range stop advancing and open fire"
        elif orders == "hold" and not only_turns:
            why = "Hold: no movement except wheeling (or turning) to face approaching enemy"
        elif orders == "attack" and (travel < left / 2.0 - 1e-6 or end_near >= near - 1e-6):
            why = "Attack: advance towards the enemy at 1/2 speed or greater"
    elif kind == "Hold":
        if charge_range and u.mounted and orders != "fall-back" and _can_charge(st, u):
            why = "mounted in charge range prefer to charge"
        elif not charge_range and orders in ("attack", "fall-back") and not _blocked(st, u, orders):
            why = f"{orders.replace('-', ' ').title()}: the unit must move at 1/2 speed or greater"
    if why:
        clause = (
            "command.orders"
            if why.split(":")[0] in ("Attack", "Hold", "Fall Back")
            else "command.combat-preferences"
        )
        if kind == "Charge" and orders == "fall-back":
            clause = "command.orders"
        raise bad(clause, f"{u.id} ({orders} orders): {why}; a general's command action may free it")


def _can_charge(st: IntoTheDarkState, u: Unit) -> bool:
    enemies = sorted((e for e in st.live() if e.side != u.side), key=lambda e: gap(u.fp, e.fp))
    return bool(charge_orders(st, u, enemies[:4]))


def must_still_move(st: IntoTheDarkState, side: str) -> list[str]:
    """Units of ``side`` that their orders oblige to move and have not acted: the side may not end
    its movement before they have (command.orders)."""
    if not on(st):
        return []
    out = []
    for u in st.live(side):
        if u.acted or free(st, u) or can_move(st, u) is not None:
            continue
        orders = unit_orders_of(st, u)
        if orders in ("attack", "fall-back") and not in_charge_range(st, u) and not _blocked(st, u, orders):
            out.append(u.id)
    return out


def guard(st: IntoTheDarkState, order: Any) -> None:
    """Check a Movement-phase order against orders and preferences (before it is carried out)."""
    if not on(st):
        return
    if isinstance(order, O.End):
        assert st.pending is not None
        left = must_still_move(st, st.pending["side"])
        if left:
            raise bad("command.orders", f"{', '.join(left)} must still move under their orders")
        return
    uid = getattr(order, "unit", None)
    if (
        uid is None
        or uid not in st.units
        or type(order).__name__ not in ("Move", "Careful", "FallBack", "Charge", "Hold")
    ):
        return
    u = st.units[uid]
    before = (_nearest(st, u)[0], remaining(st, u))
    tr = None
    kind = type(order).__name__
    if kind == "Move":
        tr = plan_move(st, u, order.steps)
    elif kind == "Careful":
        tr = plan_careful(st, u, order.steps)
    elif kind == "FallBack":
        tr = plan_fall_back(st, u, order.distance)
    check_action(st, u, order, before, tr)


def _end_gap(st: IntoTheDarkState, u: Unit, tr: Any) -> float:
    if tr is None:
        return _nearest(st, u)[0]
    enemies = [e for e in st.live() if e.side != u.side and not e.routed]
    if not enemies:
        return math.inf
    from shieldwall.core.polygons import footprint_distance

    return min(footprint_distance(tr.fp, e.fp) for e in enemies)


def _blocked(st: IntoTheDarkState, u: Unit, orders: str) -> bool:
    """No legal move of the kind the orders ask for (then the unit may halt)."""
    left = remaining(st, u)
    near = _nearest(st, u)[0]
    tries: list[tuple[O.Step, ...]] = [(O.Fwd(left / 2.0),), (O.Fwd(left),)]
    if orders == "fall-back":
        tries = [(O.About(), O.Fwd(max(0.1, left / 2.0 - 0.01))), (O.About(),)]
    for steps in tries:
        try:
            tr = plan_move(st, u, steps)
        except IllegalOrder:
            continue
        if orders == "attack" and _end_gap(st, u, tr) < near - 1e-6:
            return False
        if orders == "fall-back" and _end_gap(st, u, tr) > near + 1e-6:
            return False
    return True
