"""Charges moving (movement.charging): the charge move itself, evades (movement.evading), chargers
whose target ran away, counter-charges meeting (movement.counter-charges) and contact."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shieldwall.core.errors import IllegalOrder
from shieldwall.core.geometry import Footprint

from . import orders as O
from .charge_plan import ChargePlan, heading_towards, plan_charge
from .charging import steps_from
from .clauses import cite
from .model import Unit
from .movement import (
    Problem,
    Trace,
    end_problem,
    max_straight,
    trace,
)
from .moves import about_cost, apply_trace, base_allowance

if TYPE_CHECKING:
    from .state import IntoTheDarkState


# --- moving ------------------------------------------------------------------------------------


def _restore(c: Unit, start: tuple[float, float, float]) -> None:
    c.x, c.y, c.heading = start


def charge_move(st: IntoTheDarkState) -> None:
    """Task: the charge moves (and the evade, or the counter-charge)."""
    ch = st.charge
    assert ch is not None
    st.charge = None
    c, t = st.units[ch["c"]], st.units[ch["t"]]
    steps = steps_from(ch["steps"])
    if not c.on_table or c.routed or ch["stopped"] or (c.x, c.y, c.heading) != tuple(ch["start"]):
        st.log(
            "charge-stopped",
            "movement.charging",
            side=c.side,
            unit=c.id,
            reason="the charge was stopped before contact",
        )
        return
    r = ch["reaction"]
    fled = ch["fled"]
    if r == "evade" and t.on_table and not t.routed and fled is None:
        evade(st, t, c)
        fled = "evaded"
    if fled is not None or not t.on_table:
        _chase(st, c, t, steps, ch, fled or "gone")
    elif r in ("countercharge", "countercharge-impetuous"):
        _meet(st, c, t, steps, ch, r == "countercharge-impetuous")
    else:
        try:
            plan = plan_charge(c, t, steps, st.world(), about_cost=about_cost(st, c))
        except Problem as p:
            st.log("charge-stopped", p.clause, side=c.side, unit=c.id, reason=p.reason)
            return
        _contact(st, c, t, plan, ch)


def evade(st: IntoTheDarkState, t: Unit, c: Unit) -> None:
    """ "an intentional quick retreat which includes a free turn at the start, but must be directly
    away from the charger, and ends up facing away from them ... The entire distance rolled must be
    moved" (movement.evading)."""
    faces = st.roll_d6(t.rout_dice)
    d = st.d(sum(faces))
    h = heading_towards(c.fp.centre, t.fp.centre)
    fp = Footprint(t.fp.x, t.fp.y, h, t.frontage, t.depth)
    world = st.world()
    from shieldwall.core.geometry import CONTACT_TOL
    from shieldwall.core.polygons import convex_penetration

    start_ov = [
        e.id for e in world.enemies(t) if convex_penetration(fp.corners(), e.fp.corners()) > CONTACT_TOL
    ]
    d_ok, tr = max_straight(t, fp, d, world, budget=d, ignore=start_ov)
    if tr is None:
        fp = t.fp  # it could not get away: it stays as it stood
    t.place(tr.fp if tr is not None else fp)
    t.evading = True
    t.moved = True
    t.travelled += d_ok
    if tr is not None:
        tr.cost = 0.0
        tr.travel = 0.0
        apply_trace(st, t, tr, "movement.evading")
        t.place(tr.fp)
    st.log(
        "evade",
        "movement.evading",
        side=t.side,
        unit=t.id,
        die="d6",
        faces=faces,
        rolled=round(d, 3),
        distance=round(d_ok, 3),
        heading=round(h, 2),
        short=d_ok < d - 1e-6,
    )


def _chase(
    st: IntoTheDarkState, c: Unit, t: Unit, steps: tuple[O.Step, ...], ch: dict[str, Any], fled: str
) -> None:
    """ "If the unit being charged, runs away before contact, the chargers may stop upon reaching the
    target's original position, or continue the charge until they've used up their maximum move ...
    If the unit does not move far enough to get beyond reach of the chargers, they are caught and
    attacked in the back and may not fight back"."""
    # into-the-dark:movement.evading.caught
    # into-the-dark:movement.charging.target-runs: caught; else the charger reaches the target's
    # original position, and if it could go on, its side chooses: stop there or continue the charge
    # straight ahead up to its maximum move (docs/rulings 79)
    world = st.world()
    if t.on_table:
        try:
            plan = plan_charge(c, t, steps, world, about_cost=about_cost(st, c))
            if plan.cost <= ch["limit"] + 1e-6:
                if fled == "evaded":
                    t.caught = True
                st.log("caught", "movement.evading", side=t.side, unit=t.id, by=c.id, fled=fled)
                _contact(st, c, t, plan, ch)
                return
        except Problem:
            pass
    # to the target's original position
    try:
        lead = (
            trace(c, steps, world, about_cost=about_cost(st, c)) if steps else Trace(fp=c.fp, samples=[c.fp])
        )
    except Problem:
        lead = Trace(fp=c.fp, samples=[c.fp])
    orig = [(float(p[0]), float(p[1])) for p in ch["t_start"]]
    from shieldwall.core.crossings import sweep_distance
    from shieldwall.core.geometry import heading_vector

    fx, fy = heading_vector(lead.fp.heading)
    run = sweep_distance(lead.fp.corners(), (fx, fy), orig)
    run = min(run if run != float("inf") else 0.0, max(0.0, ch["limit"] - lead.cost))
    d_ok, tr = (
        max_straight(c, lead.fp, run, world, budget=ch["limit"] - lead.cost) if run > 0 else (0.0, None)
    )
    if tr is None and end_problem(c, lead.fp, world) is not None:
        lead = Trace(fp=c.fp, samples=[c.fp])
    samples = lead.samples + (tr.samples if tr is not None else [])
    used = c.used
    apply_trace(st, c, lead, "movement.charging")
    if tr is not None:
        apply_trace(st, c, tr, "movement.charging")
    if ch["opportunity"]:
        c.used = used  # an opportunity charge is a move out of sequence, as in _contact (docs/rulings)
    c.moved = c.moved or d_ok > 0 or lead.travel > 0
    chase = {
        "fled": fled,
        "distance": lead.travel + d_ok,
        "left": ch["limit"] - lead.cost - (tr.cost if tr is not None else 0.0),
        "samples": [(f.x, f.y, f.heading, f.frontage, f.depth) for f in samples],
    }
    further = _further(st, c, chase["left"])[0]
    if further > 1e-6:
        # into-the-dark:movement.charging.target-runs: the charging side's choice
        st.charge = {**ch, "chase": chase}
        st.push(("charge-chase",))
        st.ask("chase", c.side, c.id, target=t.id, fled=fled, further=round(further, 3))
        return
    _chase_end(st, c, t, ch, chase)


def _further(st: IntoTheDarkState, c: Unit, left: float) -> tuple[float, Trace | None]:
    """How far the charger can go on straight ahead, along the line of its charge, with what is left
    of its move: it stops, as every straight move does, where terrain or a unit stops it, and short
    of any enemy (only the charge at its target contacts: docs/rulings 79)."""
    if left <= 1e-6:
        return 0.0, None
    return max_straight(c, c.fp, left, st.world(), budget=left)


def chase_choice(st: IntoTheDarkState, order: O.Halt | O.Continue) -> None:
    """The charging side's choice when the target ran away (movement.charging.target-runs)."""
    ch = st.charge
    assert ch is not None and st.pending is not None
    if order.unit != st.pending["unit"]:
        raise IllegalOrder(
            cite("movement.charging.target-runs"), f"the charger to decide is {st.pending['unit']}"
        )
    ch["chase"]["go_on"] = isinstance(order, O.Continue)
    st.log(
        "target-runs",
        "movement.charging.target-runs",
        side=st.pending["side"],
        unit=order.unit,
        target=ch["t"],
        choice=order.kind,
    )


def chase_move(st: IntoTheDarkState) -> None:
    """Task: after the choice, the charger stops or goes on (movement.charging.target-runs)."""
    ch = st.charge
    assert ch is not None
    st.charge = None
    c, t = st.units[ch["c"]], st.units[ch["t"]]
    chase = ch["chase"]
    if chase.get("go_on"):
        d_ok, tr = _further(st, c, chase["left"])
        if tr is not None:
            used = c.used
            apply_trace(st, c, tr, "movement.charging.target-runs")
            if ch["opportunity"]:
                c.used = used  # out of sequence: it costs nothing of the turn's move (docs/rulings)
            chase["distance"] += d_ok
            chase["samples"] += [(f.x, f.y, f.heading, f.frontage, f.depth) for f in tr.samples]
    _chase_end(st, c, t, ch, chase)


def _chase_end(st: IntoTheDarkState, c: Unit, t: Unit, ch: dict[str, Any], chase: dict[str, Any]) -> None:
    st.log(
        "charge-missed",
        "movement.charging",
        side=c.side,
        unit=c.id,
        target=t.id,
        fled=chase["fled"],
        distance=round(chase["distance"], 3),
        to=[round(c.x, 3), round(c.y, 3)],
    )
    if ch["zoc"]:
        st.push(("zoc", c.id, tuple(chase["samples"])))


def _meet(
    st: IntoTheDarkState, c: Unit, t: Unit, steps: tuple[O.Step, ...], ch: dict[str, Any], imp_cc: bool
) -> None:
    """ "Melee troops that are charged from the front may immediately charge back ... The two units
    meet at about the halfway point, unless one side moves significantly faster than the other"
    (movement.counter-charges): they meet where the distance between them is shared in proportion to
    their moves (docs/rulings)."""
    # into-the-dark:movement.impetuous-charges.disorder
    world = st.world()
    try:
        plan0 = plan_charge(c, t, steps, world, about_cost=about_cost(st, c))
    except Problem as p:
        st.log("charge-stopped", p.clause, side=c.side, unit=c.id, reason=p.reason)
        return
    vc, vt = st.d(c.allowance), base_allowance(st, t)
    share = plan0.run * vt / (vc + vt)
    start = (c.x, c.y, c.heading)
    c.place(plan0.lead.fp)  # the charger's lead-in comes first
    d_ok, tr = max_straight(t, t.fp, min(share, vt), st.world(), ignore=[c.id])
    _restore(c, start)
    if tr is not None and d_ok > 1e-6:
        t.place(tr.fp)
        t.travelled += d_ok
        t.moved = True
        if tr.disorder and not t.disordered:
            t.disordered = True
            t.shieldwall = False
    t.charged = True
    t.charge_turn = st.turn
    if imp_cc:
        t.impetuous = True
        t.impetuous_turn = st.turn
    st.log(
        "countercharge",
        "movement.counter-charges",
        side=t.side,
        unit=t.id,
        charger=c.id,
        distance=round(d_ok, 3),
        impetuous=imp_cc,
    )
    try:
        plan = plan_charge(c, t, steps, st.world(), about_cost=about_cost(st, c))
    except Problem as p:
        st.log("charge-stopped", p.clause, side=c.side, unit=c.id, reason=p.reason)
        return
    # "Any unit charging or countercharging an impetuous unit becomes disordered upon contact unless
    # they're impetuous also"
    if ch["impetuous"] and not imp_cc and not t.disordered:
        t.disordered = True
        t.shieldwall = False
        st.log(
            "disordered",
            "movement.impetuous-charges",
            side=t.side,
            unit=t.id,
            reason="counter-charged an impetuous charge",
        )
    if imp_cc and not ch["impetuous"] and not c.disordered:
        ch["disorder_charger"] = True
    _contact(st, c, t, plan, ch)


def _contact(st: IntoTheDarkState, c: Unit, t: Unit, plan: ChargePlan, ch: dict[str, Any]) -> None:
    """The charger moves and lines up on the target (movement.charging)."""
    apply_trace(st, c, plan.lead, "movement.charging")
    run_tr = plan.run_trace
    run_tr.fp = plan.end_fp
    apply_trace(st, c, run_tr, "movement.charging")
    c.place(plan.end_fp)
    if ch["opportunity"]:
        c.used -= plan.cost  # an opportunity charge is a move out of sequence (docs/rulings)
        c.used = max(0.0, c.used)
    c.charged = True
    c.charge_turn = st.turn
    if ch["impetuous"]:
        c.impetuous = True
        c.impetuous_turn = st.turn
    if ch.get("disorder_charger") and not c.disordered:
        c.disordered = True
        c.shieldwall = False
        st.log(
            "disordered",
            "movement.impetuous-charges",
            side=c.side,
            unit=c.id,
            reason="charged an impetuous counter-charge",
        )
    if plan.edge != "front" and not c.champion and not t.champion:  # special-troops.champions
        t.pinned = True
        t.pinned_sides = (*t.pinned_sides, plan.edge)
    st.log(
        "contact",
        "movement.charging",
        side=c.side,
        unit=c.id,
        target=t.id,
        edge=plan.edge,
        to=[round(c.x, 3), round(c.y, 3), round(c.heading, 3)],
        pinned=plan.edge != "front",
    )
    if ch["zoc"]:
        samples = [*plan.lead.samples, *plan.run_trace.samples]
        st.push(("zoc", c.id, tuple((f.x, f.y, f.heading, f.frontage, f.depth) for f in samples)))
