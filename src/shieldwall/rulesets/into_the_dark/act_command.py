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

from typing import TYPE_CHECKING, Any

from shieldwall.core.errors import IllegalOrder
from shieldwall.core.geometry import CONTACT_TOL, Footprint, heading_vector
from shieldwall.core.polygons import convex_penetration

from . import orders as O
from .army import ArmyUnit
from .clauses import cite
from .extra_orders import Command, NewOrders
from .generals import figure, on
from .model import Unit, base_width_in
from .morale import NewOrdersTest
from .movement import on_table, terrain_effect
from .points import general_cost
from .profiles import command as command_rules
from .profiles import parse_code
from .spatial import gap

if TYPE_CHECKING:
    from .state import IntoTheDarkState

ORDERS = ("attack", "hold", "fall-back")


def bad(clause: str, reason: str) -> IllegalOrder:
    return IllegalOrder(cite(clause), reason)


def setup(st: IntoTheDarkState) -> None:
    """The generals of both armies, from the army files and the scenario's ``generals`` table
    (command.generals, command.divisions); "All generals begin the game with orders chosen by the
    controlling player" (command.orders)."""
    st.generals = {}
    if not on(st):
        return
    figs: list[tuple[str, Any, Any, Unit | None]] = []
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
                "mounted": g.mounted is not False,
                "points": general_cost(g).points,
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
                "figure": None,
            }
            figs.append((f"{side}-g{i + 1}", g, p, st.units.get(with_ or "")))
    for key, g, p, host in figs:
        stand(st, key, g, p, host)
    st.log(
        "generals",
        "command.generals",
        generals={
            k: {
                x: v[x] for x in ("name", "side", "rating", "division", "with", "leading", "orders", "figure")
            }
            for k, v in st.generals.items()
        },
    )


def stand(st: IntoTheDarkState, key: str, g: Any, p: Any, host: Unit | None) -> None:
    """Put a general's figure on the table: "A general figure on the battlefield is treated as if he
    were LMM (or LMF) ... They may join units however" (command.generals). A champion-general's figure
    is his champion (command.champion-generals). Leading: joined to his unit; else at the scenario's
    ``x``/``y``, or just behind his unit, or (no room, or units still to be placed in an alternate
    deployment) joined to it after all (docs/rulings, ruling 75)."""
    info = st.generals[key]
    side = info["side"]
    if g.champion:
        champ = next(
            (u for u in st.units.values() if u.side == side and u.spec.name == g.champion and u.champion),
            None,
        )
        if champ is not None:
            info["figure"] = champ.id
            return
    code = g.code
    density = parse_code(code)[0]
    b = st.game.spec.basing
    custom = {str(k): v for k, v in b.width_mm.items()} if b.width_mm else None
    spec = ArmyUnit(
        name=g.name,
        division=g.division or (host.spec.division if host is not None else "Main"),
        code=code,
        quality="average",
        type="melee",
        figures=1,
        frontage=1,
        notes="a general's figure (command.generals)",
    )
    fig = Unit(
        id=key,
        side=side,
        spec=spec,
        fig_w=base_width_in(b.system, density, custom),
        rank_d=(b.mounted_depth_mm if spec.mounted else b.foot_depth_mm) / 25.4,
        figures=1,
        original=1,
        front=1,
        x=0.0,
        y=0.0,
        heading=0.0,
        general=True,
    )
    st.units[key] = fig
    info["figure"] = key
    placed = False
    if st.params["deployment"] == "alternate":
        pass  # the units are placed in turn: he starts with his unit (ruling 75)
    elif p is not None and p.x is not None and p.y is not None and not info["leading"]:
        fig.x, fig.y, fig.heading = p.x, p.y, p.heading
        placed = _clear(st, fig, fig.fp)
    elif host is not None and not info["leading"] and host.deployed:
        # just behind his unit, else beside its left or right flank, facing its way
        fx, fy = heading_vector(host.heading)
        rx, ry = fy, -fx  # to the unit's right
        back = host.depth + 0.01
        side = host.frontage / 2.0 + fig.frontage / 2.0 + 0.01
        for ox, oy in (
            (-fx * back, -fy * back),
            (-rx * side, -ry * side),
            (rx * side, ry * side),
        ):
            fig.x, fig.y, fig.heading = host.x + ox, host.y + oy, host.heading
            if _clear(st, fig, fig.fp):
                placed = True
                break
    if not placed:
        if host is None:
            fig.destroyed = True  # a general with no unit to stand with (his division has none)
            info["fallen"] = True
            return
        fig.x, fig.y, fig.heading = host.x, host.y, host.heading
        fig.joined = host.id
        info["with"] = host.id
        info["leading"] = True
    else:
        info["with"] = None  # on his own: command distances are measured from his figure


def _clear(st: IntoTheDarkState, fig: Unit, fp: Footprint) -> bool:
    if not on_table(fp, st.terrain) or terrain_effect(fig, fp, st.terrain, swim=False)[0] is None:
        return False
    return not any(
        convex_penetration(fp.corners(), x.fp.corners()) > CONTACT_TOL
        for x in st.units.values()
        if x.id != fig.id and x.on_table
    )


def turn_start(st: IntoTheDarkState) -> None:
    """Task: each general's command actions for the turn; orders given last turn take effect."""
    for name, g in st.generals.items():
        g["actions"] = 0 if g.get("fallen") else g["rating"]
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
    """Where a general stands, for his command distances: the unit he has joined, else his own
    figure on the table (command.command-actions, command.new-orders)."""
    u = st.units.get(g["with"] or "") if g.get("with") else figure(st, g)
    return u if u is not None and u.on_table else None


def new_orders_problem(st: IntoTheDarkState, side: str, name: str, what: str) -> str | None:
    g = st.generals.get(name)
    if g is None or g["side"] != side:
        return f"{name} is not one of {side}'s generals"
    if what not in ORDERS:
        return f"orders are {', '.join(ORDERS)}"
    if g.get("fallen"):
        return f"{name} has fallen (command.generals)"
    if what == g["orders"] or what == g["next_orders"]:
        return f"{name} already has {what} orders"
    if g["actions"] < 1:
        return f"{name} has no command action left this turn"
    if g["commanding"]:
        return None
    boss = next((x for x in st.generals.values() if x["side"] == side and x["commanding"]), None)
    if boss is None or boss.get("fallen"):
        return "the commanding general has fallen: no new orders can be given (command.generals)"
    if boss["actions"] < 1:
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
    # into-the-dark:command.new-orders.subordinate
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
    if g.get("fallen"):
        return f"{name} has fallen (command.generals)"
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
