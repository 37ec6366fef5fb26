"""Charge geometry (movement.charging): the lead-in moves, the straight run into contact and lining
up flush on the target's edge; nothing here changes the state."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from shieldwall.core.crossings import contact_facing, sweep_distance
from shieldwall.core.geometry import (
    CONTACT_TOL,
    DEG_TO_RAD,
    RAD_TO_DEG,
    Footprint,
    Point,
    heading_vector,
    normalize_angle,
)
from shieldwall.core.reference import REFERENCE

from . import orders as O
from .model import Unit
from .movement import Problem, Trace, World, end_problem, on_table, terrain_effect, trace, wheel_fp

#: the math functions called here, bound once (compiled: a static read, not a lookup per call)
_hypot: Final = math.hypot
_atan2: Final = math.atan2

# --- charges ---------------------------------------------------------------------------------


def heading_towards(frm: Point, to: Point) -> float:
    return _atan2(to[0] - frm[0], to[1] - frm[1]) * RAD_TO_DEG


def edge_normal_heading(target: Footprint, edge: str) -> float:
    """The heading of a unit squarely facing ``edge`` of ``target`` from outside."""
    return normalize_angle(target.heading + {"front": 180.0, "rear": 0.0, "left": 90.0, "right": -90.0}[edge])


@dataclass(slots=True)
class ChargePlan:
    """A charge: the lead-in steps, the straight run into contact and the conformed end."""

    lead: Trace
    run: float  # the straight run into contact
    run_trace: Trace
    contact_fp: Footprint  # where the straight run touches the target
    end_fp: Footprint  # lined up flush on the target's edge
    edge: str  # the target's edge contacted
    cost: float

    @property
    def straight(self) -> float:
        """Length of the last straight stretch (impetuous charges need the last 4" straight)."""
        return self.lead.last_straight + self.run

    @property
    def difficult(self) -> bool:
        return self.lead.difficult or self.run_trace.difficult


def conform(
    u: Unit, contact: Footprint, target: Footprint, edge: str, world: World, tid: str
) -> Footprint | None:
    """Line the charger up flush against the target's ``edge`` (the contact position kept as near as
    possible); None if there is no room. (Lining up is part of making contact; docs/rulings.)"""
    h = edge_normal_heading(target, edge)
    a, b = target.edge(edge)
    ex, ey = b[0] - a[0], b[1] - a[1]
    le = _hypot(ex, ey)
    ux, uy = ex / le, ey / le
    fcx, fcy = contact.front_centre
    s0 = (fcx - a[0]) * ux + (fcy - a[1]) * uy
    half = contact.frontage / 2.0
    # slide along the edge to the nearest place that brings the most figures into contact
    best_lo, best_hi = (half, le - half) if contact.frontage <= le else (le - half, half)
    s0 = min(max(s0, best_lo), best_hi)
    lo, hi = u.fig_w - half, le - u.fig_w + half
    fx, fy = heading_vector(h)
    tries = [s0]
    k = 1
    while k <= 16:
        for sgn in (1, -1):
            s = s0 + sgn * k * u.fig_w / 2.0
            if lo - 1e-9 <= s <= hi + 1e-9:
                tries.append(s)
        k += 1
    for s in tries:
        px, py = a[0] + ux * s, a[1] + uy * s
        fp = Footprint(
            px - fx * contact.depth / 2.0, py - fy * contact.depth / 2.0, h, contact.frontage, contact.depth
        )
        if not on_table(fp, world.terrain):
            continue
        # the lined-up charger stands only where it may enter (terrain.restrictive,
        # terrain.deep-water; ruling 77)
        if terrain_effect(u, fp, world.terrain)[0] is None:
            continue
        if end_problem(u, fp, world, allow_contact=[tid]) is None:
            return fp
    return None


def _sweep_to(target: Unit, fp: Footprint) -> float:
    """How far ``fp`` goes straight ahead before it touches ``target`` (``math.inf``: never)."""
    return sweep_distance(fp.corners(), heading_vector(fp.heading), target.fp.corners())


#: slack on the bound by which ``_run_to_contact`` leaves an enemy unmeasured: one left out is at
#: least the run + RUN_SLACK away, and one is in the way only when met 1e-6 before the target
#: (``math.inf`` measures every enemy: the plain form, which the tests compare with)
RUN_SLACK = 1e-6


def _run_to_contact(
    u: Unit, target: Unit, fp: Footprint, world: World, run: float | None = None
) -> tuple[float, Footprint, str]:
    """From ``fp`` (where the lead-in ends), straight ahead until the charger's front touches
    ``target``: (the run, the footprint at contact, the target's edge touched). Raises ``Problem``.
    ``run``: the sweep to the target (``_sweep_to``), when the caller has measured it already."""
    d = heading_vector(fp.heading)
    tfp = target.fp
    if run is None:
        run = _sweep_to(target, fp)
    if math.isinf(run):
        raise Problem("movement.charging", f"straight ahead, {u.id} would not meet {target.id}")
    # other enemies met first; one whose footprint is further from the charger's than the run
    # (centres apart by more than the run and both radii) cannot be met within it: the sweep would
    # find it further than the run, so it is not measured
    sx, sy, sr = fp.x, fp.y, fp.radius
    for e in world.enemies(u):
        if e.id == target.id:
            continue
        efp = e.fp
        if not REFERENCE.on and _hypot(efp.x - sx, efp.y - sy) - sr - efp.radius > run + RUN_SLACK:
            continue
        de = sweep_distance(fp.corners(), d, efp.corners())
        if de < run - 1e-6:
            raise Problem("movement.charging", f"{e.id} is in the way of the charge on {target.id}")
    contact = fp.moved(d[0] * run, d[1] * run)
    mine = contact_facing(contact, tfp.corners(), tol=CONTACT_TOL * 2)
    if mine != "front":
        raise Problem(
            "movement.charging", f"{u.id} would meet {target.id} with its {mine or 'corner'}, not its front"
        )
    edge = contact_facing(tfp, contact.corners(), tol=CONTACT_TOL * 2)
    if edge is None:
        raise Problem("movement.charging", f"{u.id} would not touch {target.id}")
    return run, contact, edge


def plan_charge(
    u: Unit,
    target: Unit,
    lead_steps: Sequence[O.Step],
    world: World,
    *,
    about_cost: float = 0.0,
    start: Footprint | None = None,
) -> ChargePlan:
    """A charge on ``target``: ``lead_steps`` (moves and wheels), then straight ahead until the
    charger's front touches the target (movement.charging). Raises ``Problem``."""
    lead = (
        trace(u, lead_steps, world, start=start, about_cost=about_cost)
        if lead_steps
        else Trace(fp=start or u.fp)
    )
    if lead_steps and end_problem(u, lead.fp, world, allow_contact=[target.id]) is not None:
        raise Problem("movement.charging", f"{u.id} cannot get there: {end_problem(u, lead.fp, world)}")
    fp = lead.fp
    run, contact, edge = _run_to_contact(u, target, fp, world)
    run_tr = trace(u, [O.Fwd(run)], world, start=fp, ignore=[target.id]) if run > 1e-6 else Trace(fp=fp)
    end = conform(u, contact, target.fp, edge, world, target.id)
    if end is None:
        raise Problem("movement.charging", f"there is no room for {u.id} to line up on {target.id}'s {edge}")
    return ChargePlan(lead, run, run_tr, contact, end, edge, lead.cost + run_tr.cost)


#: slack on ``charge_ruled_out``'s bound of a charge's cost (far above the rounding of the sums of
#: a path's cost, far below any distance a rule measures)
COST_SLACK: Final = 1e-5


def charge_ruled_out(u: Unit, target: Unit, lead_steps: Sequence[O.Step], world: World, limit: float) -> bool:
    """Whether ``plan_charge(u, target, lead_steps, world)`` surely raises ``Problem`` or costs
    more than ``limit`` (+ 1e-6, as ``charging.check_charge`` allows), found without tracing the
    paths: for a lead-in of wheels only, where it ends (the very footprint ``trace`` ends on), the
    checks of that spot and of the run to contact (the very code ``plan_charge`` runs), and a lower
    bound of the cost: every inch of a path costs at least 1 (2 for a disordered unit's wheel),
    whatever the terrain and friends under it. False means only "not ruled out here": the plan
    decides. The charge menus ask this first (``charging.charge_orders``): most of the charges they
    look at fail, and a traced wheel is the costliest part of a failing plan."""
    fp = u.fp
    low = 0.0
    wheel_mult = 2.0 if u.disordered else 1.0
    for s in lead_steps:
        if not isinstance(s, O.Wheel) or not (math.isfinite(s.angle) and 0 < abs(s.angle) <= 180.0):
            return False
        low += fp.frontage * (abs(s.angle) * DEG_TO_RAD) * wheel_mult  # the arc ``trace`` charges for
        fp = wheel_fp(fp, s.angle)
    if low > limit + 1e-6 + COST_SLACK:
        return True  # (the run to contact only adds to it: the verdict of the last line)
    # every check below answers True or goes on, so their order does not change the verdict: the
    # run's sweep first, whose length alone rules out most charges (the run to contact would raise,
    # or add the run to ``low``); then the lead-in's end and the rest of the run to contact
    swept = _sweep_to(target, fp)
    if math.isinf(swept):
        return True  # (``_run_to_contact`` raises: the target is not straight ahead)
    if not REFERENCE.on and low + (swept if swept > 1e-6 else 0.0) > limit + 1e-6 + COST_SLACK:
        return True
    if lead_steps and end_problem(u, fp, world, allow_contact=[target.id]) is not None:
        return True
    try:
        run, _contact, _edge = _run_to_contact(u, target, fp, world, swept)
    except Problem:
        return True
    if run > 1e-6:
        low += run
    return low > limit + 1e-6 + COST_SLACK
