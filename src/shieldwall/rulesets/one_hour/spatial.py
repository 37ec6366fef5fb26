"""Where units can go and reach in one-hour-dark-ages ("Movement", "Interpenetration", "Charging"):
paths, placements, the furthest advance, contacts and charge plans. Line of sight is in
``sight.py``, the terrain questions in ``terrain_checks.py``.

All functions take the battle's units and terrain explicitly; none changes anything.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any, Final

from shieldwall.core.crossings import (
    beyond_edge_line,
    contact_facing,
    sweep_distance,
    sweep_distance_apart,
    swept_rectangle,
)
from shieldwall.core.geometry import CONTACT_TOL, Footprint, Point, Polygon, dist, gap_exceeds, round_places
from shieldwall.core.geometry_index import nearby
from shieldwall.core.polygons import (
    bounding_box,
    convex_overlap,
    convex_penetration,
    footprint_distance,
    footprints_within,
    polygon_distance,
    projection_span,
)
from shieldwall.core.reference import REFERENCE
from shieldwall.core.terrain import TerrainMap
from shieldwall.rulesets.one_hour.model import Unit
from shieldwall.rulesets.one_hour.profiles import terrain_effects
from shieldwall.rulesets.one_hour.terrain_checks import (
    BOX_SLACK,
    forbidden_areas,
    in_river,
    meets,
    river_blocks,
    shrunk_band,
    swept_terrain_problem,
    terrain_blocks_entry,
)

#: the math functions called here, bound once (compiled: a static read, not a lookup per call)
_hypot: Final = math.hypot

# --- movement ---------------------------------------------------------------------------------


def can_interpenetrate(mover: Unit, other: Unit) -> bool:
    """ "Interpenetration: Only by Skirmishers and any Unit, and vice-versa." (friends only; see rulings)"""
    return mover.side == other.side and (mover.profile.interpenetrate or other.profile.interpenetrate)


def path_problem(
    unit: Unit,
    start: Footprint,
    path: Sequence[Point],
    units: Sequence[Unit],
    terrain: TerrainMap,
    ignore: Iterable[str] = (),
) -> str | None:
    """Why the unit's centre may not travel this path (None if it may).

    The unit may pass gaps and follow roads in column ("two bases one behind the other"), so the
    swept body is half the frontage wide and twice the depth long.
    """
    skip = set(ignore) | {unit.id}
    col_w = start.frontage / 2.0
    ext = start.depth
    pts = [start.centre, *path]
    for i in range(len(pts) - 1):
        p, q = pts[i], pts[i + 1]
        if dist(p, q) < 1e-9:
            continue
        band = swept_rectangle(p, q, col_w, ext * 0.5)
        # broad phase: the band lies within ``reach`` of the segment's midpoint; a unit whose own
        # circle is clear of that by more than a hair is separated, so the exact test says no
        mx, my = (p[0] + q[0]) / 2.0, (p[1] + q[1]) / 2.0
        reach = _hypot(dist(p, q) / 2.0 + ext * 0.5, col_w / 2.0) + BOX_SLACK
        for u in nearby(units, mx, my, reach + BOX_SLACK):
            if u.removed or u.id in skip:
                continue
            if can_interpenetrate(unit, u):
                continue
            ufp = u.fp
            if gap_exceeds(ufp.x - mx, ufp.y - my, ufp.radius, reach, BOX_SLACK):
                continue
            if convex_overlap(band, ufp.corners(), tol=CONTACT_TOL):
                return f"interpenetration: the path runs into {u.name} ({u.id}) (only Skirmishers pass)"
        rv = river_blocks(p, q, terrain)
        if rv is not None:
            return f"terrain.rivers: rivers are impassable except at a bridge, ford or shallows ({rv.id})"
        # the whole swept area, not only where the unit stops (issue 17.1): lakes, woods/marsh
        # for all but Skirmishers and Raiders, river water away from a crossing
        prob = swept_terrain_problem(unit, shrunk_band(p, q, col_w, ext * 0.5), terrain)
        if prob is not None:
            return prob
    return None


def placement_problem(
    unit: Unit,
    fp: Footprint,
    units: Sequence[Unit],
    terrain: TerrainMap,
    allow_contact: Iterable[str] = (),
    ignore: Iterable[str] = (),
) -> str | None:
    """Why the unit may not stand at ``fp`` (None if it may)."""
    return _placement(unit, fp, units, terrain, allow_contact, ignore)[0]


def _placement(
    unit: Unit,
    fp: Footprint,
    units: Sequence[Unit],
    terrain: TerrainMap,
    allow_contact: Iterable[str] = (),
    ignore: Iterable[str] = (),
) -> tuple[str | None, Unit | None]:
    """``placement_problem`` and the unit it names (None when the problem is not a unit's)."""
    rect = fp.corners()
    for x, y in rect:
        if not (-1e-6 <= x <= terrain.width + 1e-6 and -1e-6 <= y <= terrain.depth + 1e-6):
            return "movement: the unit would leave the table", None
    allow = set(allow_contact)
    skip = set(ignore) | {unit.id}
    fx, fy, fr = fp.x, fp.y, fp.radius
    for u in nearby(units, fx, fy, fr + CONTACT_TOL * 2):
        if u.removed or u.id in skip:
            continue
        ufp = u.fp
        # footprints_within(fp, u.fp, CONTACT_TOL * 2), inlined: the same arithmetic
        if gap_exceeds(fx - ufp.x, fy - ufp.y, fr, ufp.radius, CONTACT_TOL * 2):
            continue
        other = ufp.corners()
        # The penetration first (exact above -CONTACT_TOL): at or below it neither test below can
        # fire, whatever the distance; above 0 they overlap and the distance is 0. Only a pair in
        # between needs the exact distance (the same answers as measuring the distance first).
        pen = convex_penetration(rect, other, -CONTACT_TOL)
        if pen <= -CONTACT_TOL:
            continue
        if pen <= 0.0 and polygon_distance(rect, other) > CONTACT_TOL * 2:
            continue
        if pen > CONTACT_TOL:
            return f"movement: the unit would overlap {u.name} ({u.id})", u
        if u.side != unit.side and pen > -CONTACT_TOL and u.id not in allow:
            return f"charging: only a charge may end in contact with an enemy ({u.id})", u
    f = terrain_blocks_entry(unit, fp, terrain)
    if f is not None:
        te = terrain_effects()[f.kind]
        who = "nobody" if te.enter == "none" else "only Skirmishers and Raiders"
        return f"{te.clause}: {f.kind} ({f.id}): {who} may enter", None
    rv = in_river(fp, terrain)
    if rv is not None:
        return f"terrain.rivers: the unit cannot stand in the river ({rv.id}) away from a crossing", None
    return None, None


def _column_body(start: Footprint, direction: Point) -> Polygon:
    """The unit in column ("two bases one behind the other"), pointing along ``direction``."""
    c = start.centre
    return swept_rectangle(
        c, (c[0] + direction[0] * 1e-6, c[1] + direction[1] * 1e-6), start.frontage / 2.0, start.depth * 0.5
    )


def _free_run(
    unit: Unit, start: Footprint, direction: Point, budget: float, units: Sequence[Unit], terrain: TerrainMap
) -> float:
    """How far the column can travel straight along ``direction`` before the path is blocked."""
    body = _column_body(start, direction)
    reach = budget
    sx, sy = start.x, start.y
    dx, dy = direction
    # the column body is ``frontage / 2`` wide across the direction and within ``body_r`` of the
    # start centre: a unit whose circle lies wholly outside the strip it sweeps, behind it, or
    # beyond the current reach can neither touch it now nor stop it sooner (skipped, with slack)
    half_w = start.frontage / 4.0
    body_r = _hypot(half_w, start.depth * 0.5 + 1e-6)
    # (a unit kept below has its centre within ``(reach + body_r + ur) + (half_w + ur)`` of the
    # start centre, with ``reach <= budget`` and ``ur`` its radius + BOX_SLACK)
    for u in nearby(units, sx, sy, budget + body_r + half_w + 3 * BOX_SLACK, radii=2):
        if u.removed or u.id == unit.id or can_interpenetrate(unit, u):
            continue
        ufp = u.fp
        ox, oy = ufp.x - sx, ufp.y - sy
        along = ox * dx + oy * dy
        ur = ufp.radius + BOX_SLACK
        if abs(ox * dy - oy * dx) > half_w + ur or along + body_r + ur < 0.0 or along - body_r - ur > reach:
            continue
        if not footprints_within(start, ufp, budget + 1.0):
            continue
        poly = u.fp.corners()
        pen = convex_penetration(body, poly, -1e-9)
        if pen > -1e-9:  # touching already: blocked only if the first step goes deeper
            step = (start.x + direction[0] * 0.05, start.y + direction[1] * 0.05)
            if convex_overlap(
                swept_rectangle(start.centre, step, start.frontage / 2.0, start.depth * 0.5), poly
            ):
                return 0.0
            continue
        d = sweep_distance_apart(body, direction, poly)  # sweep_distance: we know they are apart
        if d < reach:
            reach = d
    c = start.centre
    reach = _terrain_run(unit, start, direction, reach, terrain)
    far = (c[0] + direction[0] * reach, c[1] + direction[1] * reach)
    rv = river_blocks(c, far, terrain)
    while rv is not None and reach > 0:
        hits = [dist(c, x) for x in rv.crossing_points(c, far) if rv.crossing_at(x) is None]
        reach = max(0.0, (min(hits) if hits else reach) - rv.width / 2.0 - 0.05)
        far = (c[0] + direction[0] * reach, c[1] + direction[1] * reach)
        rv = river_blocks(c, far, terrain)
    return reach


def _terrain_run(unit: Unit, start: Footprint, direction: Point, reach: float, terrain: TerrainMap) -> float:
    """``reach`` cut to where the column's (shrunk) swept body would first touch an area the unit may
    not enter. The ray casting of ``sweep_distance_apart`` finds the first touch of a convex body
    and any polygon apart from it (a first contact is always a vertex on an edge)."""
    areas = forbidden_areas(unit, terrain)
    if not areas:
        return reach
    c = start.centre
    body = shrunk_band(
        c, (c[0] + direction[0] * 1e-6, c[1] + direction[1] * 1e-6), start.frontage / 2.0, start.depth * 0.5
    )
    x0, y0, x1, y1 = bounding_box(body)
    ex, ey = direction[0] * reach, direction[1] * reach
    cx0, cx1 = min(x0, x0 + ex), max(x1, x1 + ex)
    cy0, cy1 = min(y0, y0 + ey), max(y1, y1 + ey)
    for f, (fx0, fy0, fx1, fy1) in areas:
        if fx1 < cx0 or fx0 > cx1 or fy1 < cy0 or fy0 > cy1:
            continue
        if meets(body, f):
            continue  # already grazing it: the exact path test decides
        d = sweep_distance_apart(body, direction, f.points)
        if d < reach:
            reach = max(0.0, d - 1e-6)
            ex, ey = direction[0] * reach, direction[1] * reach
            cx0, cx1 = min(x0, x0 + ex), max(x1, x1 + ex)
            cy0, cy1 = min(y0, y0 + ey), max(y1, y1 + ey)
    return reach


def max_advance(
    unit: Unit,
    start: Footprint,
    direction: Point,
    budget: float,
    units: Sequence[Unit],
    terrain: TerrainMap,
    step: float = 0.25,
) -> float:
    """The furthest the unit can go straight along ``direction`` (unit vector) within ``budget``,
    keeping heading, ending on a legal spot (0 if nowhere)."""
    if budget <= 0:
        return 0.0
    d = _free_run(unit, start, direction, budget, units, terrain)
    # most moves stand at the first spot tried: a unit's certificate is worked out only once a
    # spot is refused for it, and then skips the later spots it certainly overlaps
    blockers: list[list[tuple[float, float, float, float, float]]] = []
    seen: list[Unit] = []
    own: tuple[Polygon, list[tuple[float, float]], list[tuple[float, float]]] | None = None
    while d > 1e-9:
        if blockers and _certainly_overlaps(blockers, d):
            # the footprint would overlap another unit there: placement_problem would refuse it
            d = d - step if d - step > 0 else 0.0
            continue
        end = (start.x + direction[0] * d, start.y + direction[1] * d)
        fp = start.moved(direction[0] * d, direction[1] * d)
        prob, by = _placement(unit, fp, units, terrain)
        if prob is None and path_problem(unit, start, [end], units, terrain) is None:
            return d
        if by is not None and not REFERENCE.on and all(x is not by for x in seen):
            # (the reference path checks every spot)
            seen.append(by)
            if own is None:
                a = start.corners()
                a_axes = _cert_axes(a)
                own = (a, a_axes, [projection_span(a, ax, ay) for ax, ay in a_axes])
            blockers.append(_overlap_certificate(own, direction, by.fp.corners()))
        d = d - step if d - step > 0 else 0.0
    return 0.0


#: Margin of the overlap certificates: far above their rounding error (~1e-13), far below any rule.
_CERT_MARGIN: Final = 1e-7


def _overlap_certificate(
    own: tuple[Polygon, list[tuple[float, float]], list[tuple[float, float]]],
    direction: Point,
    b: Polygon,
) -> list[tuple[float, float, float, float, float]]:
    """The separating-axis data of the moving footprint (``own``: its corners at the start, their
    edges' axes and its spans on them) and another unit's (corners ``b``) as a function of the
    distance moved along ``direction``.

    The moving footprint keeps its heading, so on every axis of ``convex_penetration`` its
    projection just shifts by ``d * k``: the overlap on the axis is
    ``min(ahi + d*k, bhi) - max(alo + d*k, blo)`` and the penetration is the least of them.
    That equals ``convex_penetration(start.moved(d * direction).corners(), other)`` up to rounding.
    Of a rectangle only two edges' axes are listed: the other two are parallel to them (up to
    rounding, ~1e-13 on the overlaps, far below ``_CERT_MARGIN``), and a pair that overlaps by
    more than the margin on one of two parallel axes overlaps by more than ``CONTACT_TOL`` on the
    other; the start footprint's projections on its own axes are worked out once.
    """
    dx, dy = direction
    a, a_axes, a_own = own
    axes = []
    for (ax, ay), (alo, ahi) in zip(a_axes, a_own, strict=True):
        blo, bhi = projection_span(b, ax, ay)
        axes.append((alo, ahi, blo, bhi, dx * ax + dy * ay))
    for ax, ay in _cert_axes(b):
        alo, ahi = projection_span(a, ax, ay)
        blo, bhi = projection_span(b, ax, ay)
        axes.append((alo, ahi, blo, bhi, dx * ax + dy * ay))
    return axes


def _cert_axes(poly: Sequence[Point]) -> list[tuple[float, float]]:
    """The unit normals of a polygon's edges (``convex_penetration``'s axes, the same arithmetic);
    of a rectangle with four edges only those of its first two (see ``_overlap_certificate``)."""
    n = len(poly)
    out = []
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        ax, ay = y1 - y2, x2 - x1
        ln = _hypot(ax, ay)
        if ln < 1e-9:
            continue
        out.append((ax / ln, ay / ln))
    return out[:2] if n == 4 and len(out) == 4 else out


def _certainly_overlaps(blockers: list[list[tuple[float, float, float, float, float]]], d: float) -> bool:
    """Whether, moved ``d``, the footprint certainly overlaps one of the units by more than
    ``CONTACT_TOL`` (see ``_overlap_certificate``); False when in any doubt."""
    limit = CONTACT_TOL + _CERT_MARGIN
    for axes in blockers:
        for alo, ahi, blo, bhi, k in axes:
            s = d * k
            hi = ahi + s
            lo = alo + s
            if (hi if hi <= bhi else bhi) - (lo if lo >= blo else blo) <= limit:
                break
        else:
            return True
    return False


def advance_point(start: Point, direction: Point, far: float) -> Point:
    """The end point ``far`` along ``direction`` from ``start``, rounded to 3 decimals (the
    precision of an order's text form) and never further than ``far``, so a maximal move stays
    legal after rounding."""
    for back in (0.0, 0.001, 0.002):
        end = (
            round_places(start[0] + direction[0] * (far - back), 3),
            round_places(start[1] + direction[1] * (far - back), 3),
        )
        if _hypot(end[0] - start[0], end[1] - start[1]) <= far:
            return end
    return end


# --- charging ---------------------------------------------------------------------------------


#: Facings in contact of two nearby footprints, by the pair (a pure function of the two):
#: units that have not moved keep their footprints, so melees are not re-measured. Bounded.
_CONTACT_MEMO: dict[tuple[Footprint, Footprint], tuple[str, str] | None] = {}
_CONTACT_MEMO_MAX: Final = 20000


def contacts(unit: Unit, units: Iterable[Unit]) -> list[tuple[Unit, str, str]]:
    """Enemies in contact: (enemy, unit's facing touched, enemy's facing touched)."""
    out = []
    ufp = unit.fp
    ux, uy, ur = ufp.x, ufp.y, ufp.radius
    for u in units:
        if u.removed or u.side == unit.side:
            continue
        ofp = u.fp
        # the first test of footprints_within, inlined: most pairs are far apart
        if gap_exceeds(ux - ofp.x, uy - ofp.y, ur, ofp.radius, CONTACT_TOL):
            continue
        key = (ufp, ofp)
        got = _MISSING if REFERENCE.on else _CONTACT_MEMO.get(key, _MISSING)
        if got is _MISSING:
            got = None
            if footprints_within(ufp, ofp, CONTACT_TOL):
                f_mine = contact_facing(ufp, ofp.corners())
                f_theirs = contact_facing(ofp, ufp.corners())
                if f_mine and f_theirs:
                    got = (f_mine, f_theirs)
            if not REFERENCE.on:
                if len(_CONTACT_MEMO) >= _CONTACT_MEMO_MAX:
                    _CONTACT_MEMO.clear()
                _CONTACT_MEMO[key] = got
        if got is not None:
            out.append((u, got[0], got[1]))
    return out


_MISSING: Any = object()


def plan_charge(
    unit: Unit, start: Footprint, target: Unit, facing: str, units: Sequence[Unit], terrain: TerrainMap
) -> tuple[float, Footprint] | str:
    """The charge move onto ``target``'s ``facing`` from ``start``: (distance, final footprint), or
    the reason it is impossible ("Charging" 2-4).

    Contact is made by moving along the straight line from the charger's front centre to the
    centre of the target facing, without rotating, until the two touch (no "closing the door").
    """
    if facing != "front" and not beyond_edge_line(target.fp, facing, start.corners()):
        return (
            f"charging.flank-rear: the entire charging unit must be past the line of {target.id}'s "
            f"{facing} facing"
        )
    aim = target.fp.edge_centre(facing)
    fc = start.front_centre
    dx, dy = aim[0] - fc[0], aim[1] - fc[1]
    ln = _hypot(dx, dy)
    if ln < 1e-9:
        return "charging.contact: already touching that facing"
    d = (dx / ln, dy / ln)
    need = sweep_distance(start.corners(), d, target.fp.corners())
    if math.isinf(need):
        return "charging.contact: the charge line misses the target"
    end = start.moved(d[0] * need, d[1] * need)
    got = contact_facing(target.fp, end.corners())
    if got != facing:
        return f"charging.contact: that line of charge strikes {target.id}'s {got} facing, not its {facing}"
    mine = contact_facing(end, target.fp.corners())
    if mine != "front":
        return (
            f"charging.contact: along that line {unit.id} would meet {target.id} with its {mine} facing; "
            "a charge makes contact from the charging Unit's Front Facing"
        )
    prob = path_problem(unit, start, [end.centre], units, terrain, ignore=[target.id])
    if prob:
        return prob
    prob = placement_problem(unit, end, units, terrain, allow_contact=[target.id])
    if prob:
        return prob
    return need, end


def attacker_on_facing(target: Unit, facing: str, units: Iterable[Unit]) -> Unit | None:
    """The enemy already in contact with this facing of ``target`` ("one attacking Unit per facing")."""
    for u, f_target, _ in contacts(target, units):
        if f_target == facing:
            return u
    return None


def facing_class(facing: str) -> str:
    return "flank" if facing in ("left", "right") else facing


def distance_between(a: Unit, b: Unit) -> float:
    return footprint_distance(a.fp, b.fp)


def enemies_within(u: Unit, units: Sequence[Unit], reach: float) -> list[Unit]:
    """The live enemies of ``u`` among ``units`` that may lie within ``reach`` of it, in order:
    every one whose ``distance_between`` is at most ``reach`` is among them (the others are
    certainly farther: their centre distance less both circumradii exceeds ``reach``)."""
    fp = u.fp
    ux, uy, ur = fp.x, fp.y, fp.radius
    hypot = math.hypot
    side = u.side
    out = []
    for t in nearby(units, ux, uy, ur + reach + 1e-3):
        if t.removed or t.side == side:
            continue
        tf = t.fp
        if hypot(ux - tf.x, uy - tf.y) - ur - tf.radius - 1e-6 > reach:
            continue
        out.append(t)
    return out
