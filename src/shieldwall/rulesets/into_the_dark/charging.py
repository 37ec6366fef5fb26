"""Checking a charge in the battle (movement.charging, movement.impetuous-charges,
movement.opportunity-charges): how far a charger may go, whether a planned charge reaches and is
allowed, who may react to an enemy in its zone of control, and every charge on a list of enemies
that reaches (``charge_orders``: menus, opportunity charges, ``act_obey``). The path of a charge is
``charge_plan``; declaring, reacting to and moving a charge are ``act_charge`` and ``act_contact``.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from shieldwall.core.errors import IllegalOrder
from shieldwall.core.reference import REFERENCE

from . import orders as O
from .charge_plan import ChargePlan, charge_ruled_out, edge_normal_heading, plan_charge
from .combat import Troops, fighting_ranks
from .fighting import melee_troops
from .model import Unit
from .morale_rolls import impetuous_ok
from .movement import Problem, World, terrain_effect
from .moves import (
    about_cost,
    angle_to,
    bad,
    base_allowance,
    can_move,
    from_problem,
    remaining,
)
from .order_text import parse_text
from .spatial import EDGES, fighting_count, gap, touches

if TYPE_CHECKING:
    from .state import IntoTheDarkState


def steps_data(steps: tuple[O.Step, ...]) -> list[Any]:
    return [s.text() for s in steps]


def steps_from(data: list[str]) -> tuple[O.Step, ...]:
    return parse_text("move x " + " ".join(data)).steps if data else ()  # type: ignore[union-attr]


def charge_limit(st: IntoTheDarkState, c: Unit, opportunity: bool) -> float:
    """In the movement sequence: what is left of the move. Counter-charges and opportunity charges
    "may allow a unit to move more than once in a turn": a full move (docs/rulings). A charge "is the
    same distance as a normal move" (into-the-dark:movement.charging.same-distance)."""
    return base_allowance(st, c) if opportunity else remaining(st, c)


def check_charge(
    st: IntoTheDarkState, c: Unit, t: Unit, steps: tuple[O.Step, ...], impetuous: bool, opportunity: bool
) -> ChargePlan:
    """Validate a charge; the plan, or ``IllegalOrder``."""
    if t.side == c.side:
        raise bad("movement.charging", f"{t.id} is not an enemy unit")
    prob = can_move(st, c) if not opportunity else reactor_problem(st, c)
    if prob:
        raise bad("movement.charging", f"{c.id}: {prob}")
    if not c.has_melee and not c.has_missiles:
        raise bad("movement.charging", f"{c.id} cannot charge")
    world = st.world()
    try:
        plan = plan_charge(c, t, steps, world, about_cost=about_cost(st, c))
    except Problem as p:
        raise from_problem(p) from None
    limit = charge_limit(st, c, opportunity)
    if plan.cost > limit + 1e-6:
        raise bad(
            "movement.charging",
            f'{c.id} would need {plan.cost:.2f}" to reach {t.id}; a charge is the same distance as a normal '
            f'move ({limit:.2f}" left)',
        )
    if impetuous:
        why = impetuous_problem(st, c, plan)
        if why:
            raise bad("movement.impetuous-charges", f"{c.id} cannot charge impetuously: {why}")
    return plan


def impetuous_problem(st: IntoTheDarkState, c: Unit, plan: ChargePlan) -> str | None:
    """ "normally permitted only to cavalry ... at least 4 inches from their target and these last 4
    inches of movement must be in a straight line without any wheels or turns ... not permitted in or
    through disordering terrain" (movement.impetuous-charges)."""
    # into-the-dark:movement.impetuous-charges.not-through-disordering-terrain
    if not impetuous_ok(c):
        return "impetuous charges are for cavalry"
    if plan.straight < st.d(4) - 1e-6:
        return f'the last straight run is {plan.straight:.2f}", under 4"'
    _, dis, _ = terrain_effect(c, c.fp, st.terrain)
    if plan.difficult or dis:
        return "not in or through disordering terrain"
    return None


def reactor_problem(st: IntoTheDarkState, e: Unit) -> str | None:
    if not e.on_table or e.routed:
        return "routed"
    if st.in_melee(e):
        return "in melee"
    if e.rallying:
        return "rallying"
    if e.evading:
        return "evading"
    if e.faced:
        return "facing two directions"
    return None


def reactors(st: IntoTheDarkState, es: list[Unit]) -> list[Unit]:
    """``[e for e in es if not reactor_problem(st, e)]``, the units' contacts looked up after one
    comparison of the poses (``State.touching_each``: nothing moves between the questions) and only
    for the units no other problem rules out. On the reference path, ``reactor_problem`` of each."""
    if REFERENCE.on:
        return [e for e in es if not reactor_problem(st, e)]
    free = [e for e in es if e.on_table and not (e.routed or e.rallying or e.evading or e.faced)]
    return [e for e, ts in zip(free, st.touching_each(free), strict=True) if not ts]


def _charges(
    st: IntoTheDarkState, c: Unit, enemies: Iterable[Unit], opportunity: bool
) -> Iterator[tuple[Unit, tuple[O.Step, ...], ChargePlan | None]]:
    """Each enemy that reaches, in order: every lead-in whose charge ``check_charge`` allows, with
    its plan, then ``(enemy, (), None)`` when its lead-ins are done."""
    limit = charge_limit(st, c, opportunity)
    reach = limit + c.frontage + 0.5
    world: World | None = None
    for t in enemies:
        if t.side == c.side or not t.on_table:
            continue
        if gap(c.fp, t.fp) > reach:
            continue
        leads: list[tuple[O.Step, ...]] = [()]
        angles: list[float] = []
        for edge in EDGES:
            angles.append(edge_normal_heading(t.fp, edge) - c.heading)
            a, b = t.fp.edge(edge)
            angles.append(angle_to(c, ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)))
        for ang in angles:
            w = round(((ang + 180.0) % 360.0) - 180.0, 2)
            if 0.5 < abs(w) <= 90.0 and (O.Wheel(w),) not in leads:
                leads.append((O.Wheel(w),))
        for lead in leads:
            # a charge ruled out without tracing it (charge_plan.charge_ruled_out) is one
            # check_charge refuses: skipping it leaves the menu as it was
            if world is None:
                world = st.world()
            if not REFERENCE.on and charge_ruled_out(c, t, lead, world, limit):
                continue
            try:
                plan = check_charge(st, c, t, lead, False, opportunity)
            except IllegalOrder:
                continue
            yield t, lead, plan
        yield t, (), None


def charge_orders(
    st: IntoTheDarkState, c: Unit, enemies: Iterable[Unit], opportunity: bool = False
) -> list[O.Order]:
    """Every charge on each enemy that reaches: straight ahead, or after a wheel squaring up on one of
    its edges or aiming at it; the cheapest per edge, and impetuous when allowed."""
    out: list[O.Order] = []
    if not c.has_melee and not c.has_missiles:
        return out
    best: dict[str, tuple[float, tuple[O.Step, ...], bool]] = {}
    for t, lead, plan in _charges(st, c, enemies, opportunity):
        if plan is None:  # the enemy's lead-ins are done
            for _edge, (_, best_lead, imp) in sorted(best.items()):
                out.append(O.Charge(c.id, t.id, best_lead, False))
                if imp:
                    out.append(O.Charge(c.id, t.id, best_lead, True))
            best = {}
            continue
        # the impetuous charge passes every check the plain one passed, on the same plan (a
        # pure function of the same table), and then ``impetuous_problem`` (check_charge)
        imp = impetuous_problem(st, c, plan) is None
        cur = best.get(plan.edge)
        if cur is None or plan.cost < cur[0] - 1e-9:
            best[plan.edge] = (plan.cost, lead, imp)
    return out


def any_charge(st: IntoTheDarkState, c: Unit, enemies: Iterable[Unit], opportunity: bool = False) -> bool:
    """``bool(charge_orders(...))``, answered at the first charge allowed (the opportunity task asks
    only whether there is one). On the reference path: the whole menu is worked out."""
    if REFERENCE.on:
        return bool(charge_orders(st, c, enemies, opportunity))
    if not c.has_melee and not c.has_missiles:
        return False
    return any(plan is not None for _t, _lead, plan in _charges(st, c, enemies, opportunity))


def charge_troops(st: IntoTheDarkState, order: O.Charge) -> tuple[Troops, Troops] | None:
    """The charger and its target as the melee will see them once the charge ``order`` has made
    contact: what a forecast of the charge (the scripted bot's) rolls for. The charger is stood where
    the charge lines it up (``plan_charge``'s end, on a copy of the unit), and the touches across
    which it would strike (those whose figures count, ``fighting_count``) go to the melee's own
    ``fighting.melee_troops``: a mixed unit has the values of its figures in contact there, on
    whatever edge (troops.unit-organisation.mixed-melee, ruling 78). None when either unit is gone
    or the charge cannot be planned."""
    # into-the-dark:troops.unit-organisation.mixed-melee
    c, t = st.units.get(order.unit), st.units.get(order.target)
    if c is None or t is None or not c.on_table or not t.on_table:
        return None
    if not (c.spec.mixed or t.spec.mixed):
        return melee_troops(c, t, ())  # one type each: whichever figures touch are of it
    try:
        plan = plan_charge(c, t, order.steps, st.world(), about_cost=about_cost(st, c))
    except Problem:
        return None
    there = copy.copy(c)
    there.place(plan.end_fp)
    ranks = fighting_ranks(melee=True, disordered=c.disordered, pike=c.spec.has("pike"))
    across = [x for x in touches(there, [t]) if fighting_count(there, x, ranks)]
    return melee_troops(there, t, across)
