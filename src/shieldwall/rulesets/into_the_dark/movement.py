"""Movement geometry of into-the-dark: straight moves, forward wheels, about faces, charges.

"All movement must be straight forward moves and/or forward wheels, up to a units maximum move
distance, or a unit may turn completely around (about face)" (movement.movement). Wheels pivot on the
inside front corner and are measured along the outside edge (movement.wheeling); an about face costs
half the move, the whole move when disordered (movement.turning). Terrain and friends passed through
make each inch cost more (terrain.disordering, terrain.restrictive, movement.interpenetration).

Nothing here changes the state: ``trace`` plans a move and says what it would cost and cause, or
raises ``Problem`` naming the clause that forbids it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from shieldwall.core.geometry import (
    CONTACT_TOL,
    DEG_TO_RAD,
    Footprint,
    gap_exceeds,
    heading_vector,
    normalize_angle,
)
from shieldwall.core.geometry_index import FootprintIndex
from shieldwall.core.polygons import convex_penetration, footprints_within
from shieldwall.core.reference import REFERENCE
from shieldwall.core.terrain import TerrainMap

from . import deep_water
from . import orders as O
from .model import Unit
from .spatial import on_road
from .terrain_grid import terrain_under

#: the math functions called here, bound once (compiled: a static read, not a lookup per call)

SAMPLE = 0.4  # inches between checks along a path
WHEEL_SAMPLE_DEG: Final = 6.0


class Problem(Exception):
    """Why a move is not allowed: ``clause`` (without the ruleset prefix) and ``reason``."""

    def __init__(self, clause: str, reason: str) -> None:
        self.clause = clause
        self.reason = reason
        super().__init__(f"{clause}: {reason}")


@dataclass(slots=True)
class Trace:
    """A planned move: where it ends, what it costs and what it causes."""

    fp: Footprint
    cost: float = 0.0
    travel: float = 0.0
    samples: list[Footprint] = field(default_factory=list)
    disorder: list[str] = field(default_factory=list)  # clause ids that disorder the unit
    passed: list[str] = field(default_factory=list)  # friends passed through
    both_moving: list[str] = field(default_factory=list)
    difficult: bool = False  # some of it in terrain that disorders this unit
    last_straight: float = 0.0
    wheeled: bool = False
    off_table: bool = False
    backed: float = 0.0  # inches backed up (skirmishers)


def wheel_fp(fp: Footprint, angle: float) -> Footprint:
    """The footprint after a forward wheel of ``angle`` degrees (positive = right, clockwise),
    pivoting on the inside front corner."""
    fl, fr, _, _ = fp.corners()
    px, py = fr if angle > 0 else fl
    a = angle * DEG_TO_RAD
    ca, sa = math.cos(a), math.sin(a)
    dx, dy = fp.x - px, fp.y - py
    cx = px + dx * ca + dy * sa
    cy = py - dx * sa + dy * ca
    return Footprint(cx, cy, normalize_angle(fp.heading + angle), fp.frontage, fp.depth)


def about_fp(fp: Footprint) -> Footprint:
    return Footprint(fp.x, fp.y, normalize_angle(fp.heading + 180.0), fp.frontage, fp.depth)


def on_table(fp: Footprint, terrain: TerrainMap) -> bool:
    # the table's edges read once, not at every corner (an attribute of a Python object, compiled)
    right, far = terrain.width + 1e-6, terrain.depth + 1e-6
    return all(-1e-6 <= x <= right and -1e-6 <= y <= far for x, y in fp.corners())


def centre_on_table(fp: Footprint, terrain: TerrainMap) -> bool:
    return 0.0 <= fp.x <= terrain.width and 0.0 <= fp.y <= terrain.depth


def _disordered_by(u: Unit, who: str) -> bool:
    if who == "all":
        return True
    if who == "foot":
        return not u.mounted
    if who == "close-foot-and-mounted":
        return u.close_foot or u.mounted
    return False


def terrain_effect(
    u: Unit, fp: Footprint, terrain: TerrainMap, *, swim: bool | None = None
) -> tuple[float | None, list[str], bool]:
    """(cost factor or None if the unit may not be there, clauses that disorder it, difficult?).

    Deep water "may not be entered at all under normal circumstances"; a unit forced into it, or
    already in it, swims at quarter speed (terrain.deep-water). ``swim``: True for a forced move,
    False where the unit may never stand in it (deployment), None: swims only if some of it already
    stands in deep water."""
    # into-the-dark:terrain.deep-water.a-swimming-unit
    factor = 1.0
    dis: list[str] = []
    difficult = False
    road = None
    for _f, k in terrain_under(fp, terrain):
        if k.move == "impassable":
            if k.clause == deep_water.CLAUSE and deep_water.fate(u) != "drown":
                if swim is None:
                    swim = deep_water.in_deep_water(u.fp, terrain)
                if swim:
                    factor = max(factor, deep_water.SWIM_FACTOR)
                    difficult = True
                    continue
            return None, [k.clause], True
        if k.move in ("open", "road"):
            continue
        if k.move == "disordering":
            if road is None:
                road = u.front <= u.column and on_road(fp, terrain)
            if road:
                continue  # "Roads ... cancel the effects of any disordering terrain" (terrain.roads)
        mult = k.mounted_factor if u.mounted else k.foot_factor
        if mult == 0:
            return None, [k.clause], True
        factor = max(factor, float(mult))
        if _disordered_by(u, k.disorders):
            dis.append(k.clause)
            difficult = True
    return factor, dis, difficult


def overlapping(fp: Footprint, ofp: Footprint) -> bool:
    """``footprints_within(fp, ofp, 0.0) and convex_penetration(...) > CONTACT_TOL`` (the test of a
    position of a path against a unit), without measuring the distance: footprints that overlap by
    more than ``CONTACT_TOL`` are within 0 of each other (``polygon_distance`` is 0 when
    ``convex_penetration`` is positive), so only the circles' test of ``footprints_within`` is kept,
    and the penetration stops as soon as it is at most ``CONTACT_TOL`` (its ``stop``)."""
    if gap_exceeds(fp.x - ofp.x, fp.y - ofp.y, fp.radius, ofp.radius, 0.0):
        return False
    return convex_penetration(fp.corners(), ofp.corners(), CONTACT_TOL) > CONTACT_TOL


def overlapping_reference(fp: Footprint, ofp: Footprint) -> bool:
    """What ``overlapping`` answers, as the checks of a path asked it before (the tests compare)."""
    return footprints_within(fp, ofp, 0.0) and convex_penetration(fp.corners(), ofp.corners()) > CONTACT_TOL


def _friend_effect(
    u: Unit,
    fp: Footprint,
    friends: Sequence[tuple[Unit, Footprint]],
    tr: Trace,
    in_melee: set[str],
    fast: bool = False,
) -> float:
    """Friends under the unit: "No unit may pass through ... a friendly [unit] that is in melee or
    routing ... Open formation foot units may pass through other friendly units at any time ... if
    one unit is stationary while the other passes through it, the stationary unit is treated as if it
    were disordering terrain ... If both interpenetrating units move this turn, their maximum moves
    are halved, and both units become disordered." (movement.interpenetration)"""
    # into-the-dark:movement.interpenetration.both-moving
    # into-the-dark:movement.interpenetration.friends-disorder
    factor = 1.0
    over = overlapping if fast else overlapping_reference
    for f, ffp in friends:
        if f.general or u.general:
            continue  # a general's single figure passes and is passed freely (ruling 75)
        if not over(fp, ffp):
            continue
        if f.routed or f.id in in_melee:
            why = "routing" if f.routed else "in melee"
            raise Problem("movement.interpenetration", f"{u.id} may not pass through {f.id}, which is {why}")
        if f.id not in tr.passed:
            tr.passed.append(f.id)
        if u.open_foot and not u.routed:
            continue
        if f.moved:
            if f.id not in tr.both_moving:
                tr.both_moving.append(f.id)
            if "movement.interpenetration" not in tr.disorder:
                tr.disorder.append("movement.interpenetration")
            continue
        # the stationary friend is disordering terrain (terrain.disordering: "and friendly troops")
        if u.mounted:
            factor = max(factor, 2.0)
        if (u.close_foot or u.mounted) and "terrain.disordering" not in tr.disorder:
            tr.disorder.append("terrain.disordering")
            tr.difficult = True
    return factor


@dataclass(slots=True)
class World:
    """What a move is checked against: the units on the table and the terrain.

    ``still``: no unit moves while this world is asked (``State.still``: the scripted general
    weighing one decision asks the one world of the state for every move it weighs); ``near`` then
    answers from a grid of the units (``core.geometry_index``), built at its first question."""

    units: list[Unit]
    terrain: TerrainMap
    in_melee: set[str]
    still: bool = False
    index: FootprintIndex[Unit] | None = None

    def near(self, x: float, y: float, r: float) -> Sequence[Unit]:
        """``units``; for a still world, those whose footprint's circle (``fp.radius`` about its
        centre) comes within ``r`` of (x, y), maybe with others, in the same order
        (``FootprintIndex.near``: every unit on the reference path). Callers keep their exact test."""
        if not self.still:
            return self.units
        index = self.index
        if index is None:
            index = self.index = FootprintIndex(self.units)
        return index.near(x, y, r)

    def enemies(self, u: Unit) -> list[Unit]:
        return [x for x in self.units if x.side != u.side and x.on_table and x.id != u.id]

    def friends(self, u: Unit) -> list[Unit]:
        return [x for x in self.units if x.side == u.side and x.on_table and x.id != u.id]

    def others(self, u: Unit) -> tuple[list[tuple[Unit, Footprint]], list[tuple[Unit, Footprint]]]:
        """(enemies, friends) of ``u`` with their footprints."""
        e = [(x, x.fp) for x in self.units if x.side != u.side and x.on_table and x.id != u.id]
        f = [(x, x.fp) for x in self.units if x.side == u.side and x.on_table and x.id != u.id]
        return e, f


def _check_sample_reference(
    u: Unit,
    fp: Footprint,
    world: World,
    tr: Trace,
    ignore: set[str],
    allow_off: bool,
) -> float:
    """Check one position along a path; return its cost factor (the plain form of ``_Path.check``,
    which the tests compare it with: every unit of the world looked at)."""
    if not on_table(fp, world.terrain):
        if allow_off:
            tr.off_table = True
            return 1.0
        raise Problem("movement.movement", f"{u.id} would leave the table")
    for e in world.enemies(u):
        if e.id in ignore:
            continue
        if (
            footprints_within(fp, e.fp, 0.0)
            and convex_penetration(fp.corners(), e.fp.corners()) > CONTACT_TOL
        ):
            raise Problem("movement.interpenetration", f"no unit may pass through an enemy unit ({e.id})")
    factor, dis, difficult = terrain_effect(u, fp, world.terrain)
    if factor is None:
        raise Problem(dis[0] if dis else "terrain.terrain", f"{u.id} may not enter that terrain")
    for c in dis:
        if c not in tr.disorder:
            tr.disorder.append(c)
    tr.difficult = tr.difficult or difficult
    f2 = _friend_effect(u, fp, [(f, f.fp) for f in world.friends(u)], tr, world.in_melee)
    return max(factor, f2)


def path_reach(fp: Footprint, steps: Sequence[O.Step]) -> float:
    """How far the centre of ``fp`` can get from where it starts along ``steps`` (a bound): a straight
    step its distance, a wheel (a rotation about a front corner, ``fp.radius`` from the centre) at
    most the circle's diameter, an about face nothing (it turns on the centre)."""
    d = 0.0
    for s in steps:
        if isinstance(s, (O.Fwd, O.Back)):
            d += abs(s.distance)
        elif not isinstance(s, O.About):
            d += 2.0 * fp.radius
    return d if math.isfinite(d) else math.inf


#: slack on the bound of ``path_reach`` (rounding of the positions along the path)
REACH_SLACK: Final = 1e-3


class _Path:
    """What the positions along one path are checked against: the units that may come within reach
    of it (in the world's order), their footprints taken once; the rest cannot meet any position
    of the path (``footprints_within`` says no on the distance of the centres alone)."""

    __slots__ = ("u", "world", "enemies", "friends", "allow_off", "ignore")

    def __init__(
        self, u: Unit, world: World, start: Footprint, reach: float, ignore: set[str], allow_off: bool
    ) -> None:
        self.u = u
        self.world = world
        self.allow_off = allow_off
        self.ignore = ignore
        sx, sy, r = start.x, start.y, start.radius + reach + REACH_SLACK
        side = u.side
        enemies: list[tuple[Unit, Footprint]] = []
        friends: list[tuple[Unit, Footprint]] = []
        for x in world.near(sx, sy, r):
            if not x.on_table or x.id == u.id:
                continue
            if x.side != side and x.id in ignore:
                continue
            xf = x.fp
            if gap_exceeds(xf.x - sx, xf.y - sy, r, xf.radius, 0.0):
                continue
            (friends if x.side == side else enemies).append((x, xf))
        self.enemies = enemies
        self.friends = friends

    def check(self, fp: Footprint, tr: Trace) -> float:
        """``_check_sample_reference`` of one position of the path."""
        u, world = self.u, self.world
        if REFERENCE.on:
            return _check_sample_reference(u, fp, world, tr, self.ignore, self.allow_off)
        if not on_table(fp, world.terrain):
            if self.allow_off:
                tr.off_table = True
                return 1.0
            raise Problem("movement.movement", f"{u.id} would leave the table")
        for e, efp in self.enemies:
            if overlapping(fp, efp):
                raise Problem("movement.interpenetration", f"no unit may pass through an enemy unit ({e.id})")
        factor, dis, difficult = terrain_effect(u, fp, world.terrain)
        if factor is None:
            raise Problem(dis[0] if dis else "terrain.terrain", f"{u.id} may not enter that terrain")
        for c in dis:
            if c not in tr.disorder:
                tr.disorder.append(c)
        tr.difficult = tr.difficult or difficult
        f2 = _friend_effect(u, fp, self.friends, tr, world.in_melee, fast=True)
        return max(factor, f2)


def trace(
    u: Unit,
    steps: Sequence[O.Step],
    world: World,
    *,
    start: Footprint | None = None,
    about_cost: float = 0.0,
    ignore: Sequence[str] = (),
    allow_off: bool = False,
) -> Trace:
    """Plan ``steps`` from ``start`` (default: where ``u`` stands). Costs: a straight inch = 1, an
    inch of the outside edge of a wheel = 1 (2 disordered: "A disordered unit wheels at half normal
    speed"), each times the terrain factor; an about face costs ``about_cost``. Raises ``Problem``."""
    # into-the-dark:movement.disorder.wheels
    fp = start or u.fp
    tr = Trace(fp=fp, samples=[fp])
    steps = tuple(steps)
    path = _Path(u, world, fp, path_reach(fp, steps), set(ignore), allow_off)
    wheel_mult = 2.0 if u.disordered else 1.0
    for s in steps:
        if isinstance(s, O.About):
            fp = about_fp(fp)
            tr.cost += about_cost
            tr.last_straight = 0.0
            path.check(fp, tr)
            tr.samples.append(fp)
        elif isinstance(s, O.Back):
            if not s.distance > 0:
                raise Problem("special-troops.skirmishers", "a back-up move needs a positive distance")
            fx, fy = heading_vector(fp.heading)
            n = max(1, math.ceil(s.distance / SAMPLE))
            step = s.distance / n
            for i in range(1, n + 1):
                nfp = fp.moved(-fx * step * i, -fy * step * i)
                factor = path.check(nfp, tr)
                tr.cost += 2.0 * step * factor  # "at half speed"
                tr.samples.append(nfp)
            fp = fp.moved(-fx * s.distance, -fy * s.distance)
            tr.travel += s.distance
            tr.backed += s.distance
            tr.last_straight = 0.0
        elif isinstance(s, O.Fwd):
            if not s.distance > 0:  # into-the-dark:movement.movement.forward-only
                raise Problem("movement.movement", "moves are forward only (no backward or slanted movement)")
            fx, fy = heading_vector(fp.heading)
            n = max(1, math.ceil(s.distance / SAMPLE))
            step = s.distance / n
            for i in range(1, n + 1):
                nfp = fp.moved(fx * step * i, fy * step * i)
                factor = path.check(nfp, tr)
                tr.cost += step * factor
                tr.samples.append(nfp)
                if tr.off_table:
                    fp = nfp
                    tr.travel += step * i
                    tr.fp = fp
                    return tr
            fp = fp.moved(fx * s.distance, fy * s.distance)
            tr.travel += s.distance
            tr.last_straight += s.distance
        else:
            if not (math.isfinite(s.angle) and 0 < abs(s.angle) <= 180.0):
                raise Problem("movement.wheeling", "a wheel turns between 0 and 180 degrees")
            arc = fp.frontage * (abs(s.angle) * DEG_TO_RAD)
            n = max(1, math.ceil(arc / SAMPLE), math.ceil(abs(s.angle) / WHEEL_SAMPLE_DEG))
            for i in range(1, n + 1):
                nfp = wheel_fp(fp, s.angle * i / n)
                factor = path.check(nfp, tr)
                tr.cost += arc / n * factor * wheel_mult
                tr.samples.append(nfp)
            fp = wheel_fp(fp, s.angle)
            tr.travel += arc
            tr.last_straight = 0.0
            tr.wheeled = True
    tr.fp = fp
    return tr


def end_problem(u: Unit, fp: Footprint, world: World, allow_contact: Sequence[str] = ()) -> str | None:
    """Why a unit may not stop at ``fp``: overlapping a unit, or touching an enemy other than
    those it charged ("Any move that intends to contact the enemy ... is a charge")."""
    for x in world.near(fp.x, fp.y, fp.radius + CONTACT_TOL * 2):
        if x.id == u.id or not x.on_table:
            continue
        if not footprints_within(fp, x.fp, CONTACT_TOL * 2):
            continue
        pen = convex_penetration(fp.corners(), x.fp.corners())
        if pen > CONTACT_TOL:
            return f"{u.id} would end on top of {x.id}"
        if x.side != u.side and pen > -CONTACT_TOL and x.id not in allow_contact:
            # into-the-dark:movement.charging.contact-only-by-a-charge
            return f"{u.id} would end in contact with {x.id}; only a charge contacts the enemy"
    return None


# --- straight runs (routs, evades, pursuits, drive backs, menus) --------------------------------


def column_body(fp: Footprint, width: float) -> Footprint:
    return Footprint(fp.x, fp.y, fp.heading, min(fp.frontage, width), fp.depth)


def max_straight(
    u: Unit,
    fp: Footprint,
    distance: float,
    world: World,
    *,
    ignore: Sequence[str] = (),
    allow_off: bool = False,
    budget: float | None = None,
    about_cost: float = 0.0,
) -> tuple[float, Trace | None]:
    """The furthest ``u`` (standing at ``fp``) can go straight ahead, up to ``distance``, ending on
    a legal spot and within ``budget`` of allowance (one pass along the path). Returns (distance,
    trace); (0, None) when it cannot move at all."""
    if distance <= 1e-6:
        return 0.0, None
    n = max(1, math.ceil(distance / SAMPLE))
    step = distance / n
    fx, fy = heading_vector(fp.heading)
    tr = Trace(fp=fp, samples=[fp])
    path = _Path(u, world, fp, distance, set(ignore), allow_off)
    marks: list[tuple[float, float, Footprint, int, int, int, bool, bool]] = []
    cost = 0.0
    for i in range(1, n + 1):
        nfp = fp.moved(fx * step * i, fy * step * i)
        try:
            factor = path.check(nfp, tr)
        except Problem:
            break
        cost += step * factor
        if budget is not None and cost + about_cost > budget + 1e-6:
            break
        tr.samples.append(nfp)
        marks.append(
            (
                step * i,
                cost,
                nfp,
                len(tr.disorder),
                len(tr.passed),
                len(tr.both_moving),
                tr.difficult,
                tr.off_table,
            )
        )
        if tr.off_table:
            break
    for k in range(len(marks) - 1, -1, -1):
        d, c, efp, nd, np_, nb, diff, off = marks[k]
        if off or end_problem(u, efp, world) is None:
            del tr.disorder[nd:]
            del tr.passed[np_:]
            del tr.both_moving[nb:]
            del tr.samples[k + 2 :]
            tr.difficult = diff
            tr.off_table = off
            tr.fp = efp
            tr.cost = c
            tr.travel = d
            tr.last_straight = d
            return d, tr
    return 0.0, None
