"""Command & Control (optional, ``options.command_and_control``; command.*).

"All troops will ALWAYS follow their combat preferences unless ordered to act counter to these
preferences by the general commanding them" (command.combat-preferences), within the orders of
their division's general: Attack, Hold or Fall Back (command.orders). A general stands with one unit
of his division (the scenario's ``generals`` table); if he has joined it and personally leads it he
frees it of its preferences and orders and negates negative morale modifiers up to his rating
(command.general-leading); otherwise he has command actions, his rating per turn
(command.command-actions): ``command G U`` frees one unit within 12" for the turn, and new orders
(command.new-orders) are given at the start of the Initiative phase (``orders G attack``).

What the engine enforces for a unit that is not free (docs/rulings): in its Movement phase,
* Attack: beyond charge range it must advance towards the enemy at half speed or more; within
  charge range it follows its preferences;
* Hold: no movement except wheeling or turning; within charge range it follows its preferences;
* Fall Back: it must move away from all enemy at half speed or more (it may halt and turn to face
  an enemy close enough to charge); it never charges;
* preferences within charge range: mounted charge (if any charge is possible they may do nothing
  else), foot stand (no charge, no advance), missile troops in close range stop and shoot.
When charged: Attack - mounted and foot counter-charge (foot charged by mounted stand); Hold - foot
do not counter-charge; Fall Back - no counter-charge, missile troops must evade.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from shieldwall.core.errors import IllegalOrder

from . import orders as O
from .clauses import cite
from .extra_orders import Command, NewOrders
from .model import Unit
from .morale import NewOrdersTest
from .profiles import command as command_rules
from .profiles import missile_weapons
from .spatial import gap

if TYPE_CHECKING:
    from .state import IntoTheDarkState

ORDERS = ("attack", "hold", "fall-back")


def bad(clause: str, reason: str) -> IllegalOrder:
    return IllegalOrder(cite(clause), reason)


def on(st: IntoTheDarkState) -> bool:
    return bool(st.params["command_and_control"])


def setup(st: IntoTheDarkState) -> None:
    """The generals of both armies, from the army files and the scenario's ``generals`` table
    (command.generals, command.divisions); "All generals begin the game with orders chosen by the
    controlling player" (command.orders)."""
    st.generals = {}
    if not on(st):
        return
    for side in ("red", "blue"):
        army = st.game.armies[side]
        placed = {p.name: p for p in getattr(st.game.spec, side).generals}
        for i, g in enumerate(army.generals):
            p = placed.get(g.name)
            division_units = [
                u.id for u in st.units.values() if u.side == side and u.spec.division == g.division
            ]
            with_ = p.unit if p is not None and p.unit else (division_units[0] if division_units else None)
            st.generals[f"{side}-g{i + 1}"] = {
                "name": g.name,
                "side": side,
                "rating": g.rating_level,
                "division": g.division,
                "commanding": g.commanding or len(army.generals) == 1,
                "with": with_,
                "leading": bool(p.leading) if p is not None else False,
                "orders": p.orders if p is not None else "attack",
                "next_orders": None,
                "actions": g.rating_level,
                "commanded": [],
            }
    st.log(
        "generals",
        "command.generals",
        generals={
            k: {x: v[x] for x in ("name", "side", "rating", "division", "with", "leading", "orders")}
            for k, v in st.generals.items()
        },
    )


def general_of(st: IntoTheDarkState, u: Unit) -> dict[str, Any] | None:
    for g in st.generals.values():
        if g["side"] == u.side and g["division"] == u.spec.division:
            return g
    return None


def free(st: IntoTheDarkState, u: Unit) -> bool:
    """Free of preferences and orders: led by a general who has joined it, or ordered this turn."""
    if not on(st):
        return True
    g = general_of(st, u)
    if g is None:
        return True
    return (g["leading"] and g["with"] == u.id) or u.id in g["commanded"]


def leading_rating(st: IntoTheDarkState, u: Unit) -> int:
    """The rating of a general who has joined and leads ``u`` (command.general-leading), else 0."""
    if not on(st):
        return 0
    for g in st.generals.values():
        if g["leading"] and g["with"] == u.id and g["side"] == u.side:
            return int(g["rating"])
    return 0


def turn_start(st: IntoTheDarkState) -> None:
    """Task: each general's command actions for the turn; orders given last turn take effect."""
    for name, g in st.generals.items():
        g["actions"] = g["rating"]
        g["commanded"] = []
        if g["next_orders"]:
            g["orders"], g["next_orders"] = g["next_orders"], None
            st.log(
                "orders", "command.new-orders", side=g["side"], general=name, orders=g["orders"], delayed=True
            )


def orders_choice(st: IntoTheDarkState, side: str) -> None:
    """Task: "This is done at the start of the Initiative Phase" (command.new-orders)."""
    if on(st) and orders_menu(st, side)[1:]:
        st.ask("orders", side)


def _pos(st: IntoTheDarkState, g: dict[str, Any]) -> Unit | None:
    u = st.units.get(g["with"] or "")
    return u if u is not None and u.on_table else None


def new_orders_problem(st: IntoTheDarkState, side: str, name: str, what: str) -> str | None:
    g = st.generals.get(name)
    if g is None or g["side"] != side:
        return f"{name} is not one of {side}'s generals"
    if what not in ORDERS:
        return f"orders are {', '.join(ORDERS)}"
    if what == g["orders"] or what == g["next_orders"]:
        return f"{name} already has {what} orders"
    if g["actions"] < 1:
        return f"{name} has no command action left this turn"
    if g["commanding"]:
        return None
    boss = next((x for x in st.generals.values() if x["side"] == side and x["commanding"]), None)
    if boss is None or boss["actions"] < 1:
        return "the commanding general has no command action left"
    a, b = _pos(st, boss), _pos(st, g)
    if a is None or b is None:
        return "a general's unit is off the table"
    reach = st.d(command_rules().new_orders.range)
    if gap(a.fp, b.fp) > reach + 1e-9:
        return f'{name} is more than {reach:g}" from the commanding general'
    return None


def orders_menu(st: IntoTheDarkState, side: str) -> list[O.Order]:
    out: list[Any] = [O.End()]
    for name, g in st.generals.items():
        for what in ORDERS:
            if g["side"] == side and new_orders_problem(st, side, name, what) is None:
                out.append(NewOrders(name, what))
    return out


def new_orders(st: IntoTheDarkState, order: NewOrders) -> None:
    assert st.pending is not None
    side = st.pending["side"]
    prob = new_orders_problem(st, side, order.general, order.orders)
    if prob:
        raise bad("command.new-orders", prob)
    g = st.generals[order.general]
    g["actions"] -= 1
    if g["commanding"]:
        # "The commanding general may automatically change his own orders of course (still costing 1 action)."
        g["orders"] = order.orders
        st.log(
            "orders", "command.new-orders", side=side, general=order.general, orders=order.orders, own=True
        )
    else:
        boss = next(x for x in st.generals.values() if x["side"] == side and x["commanding"])
        boss["actions"] -= 1
        roll = NewOrdersTest(boss["rating"], g["rating"]).roll(st.rng)
        data = dict(roll.data)
        data.pop("rule", None)
        if roll.outcome:
            g["orders"] = order.orders
        else:
            g["next_orders"] = order.orders
        st.log("orders", "command.new-orders", side=side, general=order.general, orders=order.orders, **data)
    st.push(("orders", side))


def command_problem(st: IntoTheDarkState, side: str, name: str, uid: str) -> str | None:
    """ "He may also 'order' the units under his command to act counter to their combat preferences
    ... These units must be within 12 inches, and he may not order more units per turn than the
    number of command actions he has." (command.command-actions)"""
    if not on(st):
        return "Command & Control is not in use in this battle (options.command_and_control)"
    g = st.generals.get(name)
    if g is None or g["side"] != side:
        return f"{name} is not one of {side}'s generals"
    if g["leading"]:
        return f"{name} has joined a unit: a leading general has no command actions"
    if g["actions"] < 1:
        return f"{name} has no command action left this turn"
    u = st.units.get(uid)
    if u is None or not u.on_table or u.side != side or u.spec.division != g["division"]:
        return f"{uid} is not a unit of {name}'s division on the table"
    if uid in g["commanded"]:
        return f"{uid} already has its orders this turn"
    here = _pos(st, g)
    reach = st.d(command_rules().general.order_radius)
    if here is None or (here.id != uid and gap(here.fp, u.fp) > reach + 1e-9):
        return f'{uid} is more than {reach:g}" from {name}'
    return None


def command(st: IntoTheDarkState, order: Command) -> None:
    assert st.pending is not None
    side = st.pending["side"]
    prob = command_problem(st, side, order.general, order.unit)
    if prob:
        raise bad("command.command-actions", prob)
    g = st.generals[order.general]
    g["actions"] -= 1
    g["commanded"].append(order.unit)
    st.log("command", "command.command-actions", side=side, general=order.general, unit=order.unit)
    st.push(("move-phase", side))


def command_menu(st: IntoTheDarkState, side: str) -> list[Any]:
    out: list[Any] = []
    if not on(st):
        return out
    for name, g in st.generals.items():
        if g["side"] != side:
            continue
        for u in st.live(side):
            if not u.acted and command_problem(st, side, name, u.id) is None:
                out.append(Command(name, u.id))
    return out


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
    w = u.spec.missile_weapon
    return w is not None and _nearest(st, u)[0] <= st.d(missile_weapons()[w].close) + 1e-9


def unit_orders_of(st: IntoTheDarkState, u: Unit) -> str:
    g = general_of(st, u)
    return str(g["orders"]) if g is not None else "attack"


def check_action(st: IntoTheDarkState, u: Unit, order: Any, before: tuple[float, float], after: Any) -> None:
    """Raise if ``order`` goes against the unit's orders or preferences. ``before`` is the distance
    to the nearest enemy and the allowance left before the order; ``after`` the planned trace of a
    move (or None)."""
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
    from .menus import charge_orders

    enemies = sorted((e for e in st.live() if e.side != u.side), key=lambda e: gap(u.fp, e.fp))
    return bool(charge_orders(st, u, enemies[:4]))


def must_still_move(st: IntoTheDarkState, side: str) -> list[str]:
    """Units of ``side`` that their orders oblige to move and have not acted: the side may not end
    its movement before they have (command.orders)."""
    from .act_move import can_move

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
    from .act_maneuver import plan_careful, plan_fall_back
    from .act_move import plan_move, remaining

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
    from shieldwall.core.geometry import polygon_distance

    return min(polygon_distance(tr.fp.corners(), e.fp.corners()) for e in enemies)


def _blocked(st: IntoTheDarkState, u: Unit, orders: str) -> bool:
    """No legal move of the kind the orders ask for (then the unit may halt)."""
    from .act_move import plan_move, remaining

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


def reaction_allowed(st: IntoTheDarkState, t: Unit, charger: Unit, reaction: str) -> bool:
    """Orders and preferences when charged (command.orders, command.combat-preferences)."""
    if free(st, t):
        return True
    orders = unit_orders_of(st, t)
    if orders == "fall-back":
        if t.has_missiles and t.spec.type == "missile":
            return reaction == "evade"  # "Missile troops must evade."
        return not reaction.startswith("countercharge")
    if orders == "hold" and not t.mounted:
        return not reaction.startswith("countercharge")  # "Foot will not counter charge unless ordered to."
    if orders == "attack" and t.spec.type != "missile":
        # "Both mounted and foot will counter charge if charged ... (foot will hold if charged by mounted)"
        if not t.mounted and charger.mounted:
            return reaction == "stand"
        return reaction.startswith("countercharge") or reaction == "evade"
    return True
