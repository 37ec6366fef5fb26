"""DBM geometry in paces: elements as rectangles, edge and corner contact, the six legal end
positions of a move into contact, flank and rear contact by the start position, the one line-up
shift "if it is necessary", the shooting rectangle.

An element is a :class:`shieldwall.core.geometry.Footprint` (centre, heading clockwise from north,
frontage = the data's base width, depth = its type's depth). Corners ``fl fr rr rl``. Contact is
judged with the tolerance :data:`TOL` paces: "within" is "at or closer than" (dbm-3.2:glossary), so
a gap of exactly ``TOL`` still touches. Everything here is invariant under a rotation or
translation of the whole table and symmetric where the text is (tested with Hypothesis).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

from shieldwall.core.crossings import clip_halfplane, sweep_distance
from shieldwall.core.geometry import Footprint, Point, normalize_angle
from shieldwall.core.polygons import convex_penetration, polygon_distance

#: the math functions called here, bound once (compiled: a static read, not a lookup per call)
_hypot: Final = math.hypot

#: paces: distances at or below this count as touching
TOL: Final = 0.05
#: degrees: headings this close count as "exactly" parallel / opposite
ANG_TOL: Final = 0.01

CORNER = {"fl": 0, "fr": 1, "rr": 2, "rl": 3}
EDGES = {"front": ("fl", "fr"), "right": ("fr", "rr"), "rear": ("rr", "rl"), "left": ("rl", "fl")}


def corner(fp: Footprint, name: str) -> Point:
    return fp.corners()[CORNER[name]]


def local(fp: Footprint, p: Point) -> tuple[float, float]:
    """``p`` in ``fp``'s frame: (u to its right, v to its front) from its centre."""
    fx, fy = fp.forward
    dx, dy = p[0] - fp.x, p[1] - fp.y
    return (dx * fy - dy * fx, dx * fx + dy * fy)


def near(a: Point, b: Point, tol: float = TOL) -> bool:
    return _hypot(a[0] - b[0], a[1] - b[1]) <= tol


def heading_diff(a: Footprint, b: Footprint) -> float:
    return abs(normalize_angle(a.heading - b.heading))


def opposite(a: Footprint, b: Footprint) -> bool:
    return abs(heading_diff(a, b) - 180.0) <= ANG_TOL


def parallel(a: Footprint, b: Footprint) -> bool:
    return heading_diff(a, b) <= ANG_TOL


def edge_overlap(a: Footprint, ea: str, b: Footprint, eb: str, tol: float = TOL) -> float:
    """Length along which edge ``ea`` of ``a`` lies on edge ``eb`` of ``b`` (0 if not collinear).

    Edge contact (dbm-3.2:glossary) is a positive length; corner-only contact is 0. It is the same
    contact seen from either element (ruling R49): positive only when each edge's part beside the
    other lies on the other's line (``_beside``, asked both ways), measured along ``a``'s edge."""
    got = _beside(a, ea, b, eb, tol)
    if got == 0.0 or _beside(b, eb, a, ea, tol) == 0.0:
        return 0.0
    return got


def _beside(a: Footprint, ea: str, b: Footprint, eb: str, tol: float) -> float:
    """The length of edge ``ea`` of ``a`` beside edge ``eb`` of ``b`` (b's edge projected on a's
    line, clipped to a's edge), when more than ``tol`` and the part of b's edge beside a's lies
    within ``tol`` of a's line (at both ends of that part); else 0. Asked one way only: two edges
    a little out of parallel, one longer than the other, differ at the longer one's far end (so
    the whole of b's edge, which this once asked for, told a different contact from each side)."""
    p, q = corner(a, EDGES[ea][0]), corner(a, EDGES[ea][1])
    r, s = corner(b, EDGES[eb][0]), corner(b, EDGES[eb][1])
    dx, dy = q[0] - p[0], q[1] - p[1]
    ln = _hypot(dx, dy)
    ux, uy = dx / ln, dy / ln
    # b's ends along a's line (t) and off it (n)
    t1 = (r[0] - p[0]) * ux + (r[1] - p[1]) * uy
    t2 = (s[0] - p[0]) * ux + (s[1] - p[1]) * uy
    n1 = (r[0] - p[0]) * uy - (r[1] - p[1]) * ux
    n2 = (s[0] - p[0]) * uy - (s[1] - p[1]) * ux
    lo, hi = max(0.0, min(t1, t2)), min(ln, max(t1, t2))
    if not hi - lo > tol:
        return 0.0
    # (t1 != t2 here: the part is longer than tol) b's edge off a's line where the part begins and ends
    for t in (lo, hi):
        if abs(n1 + (n2 - n1) * (t - t1) / (t2 - t1)) > tol:
            return 0.0
    return hi - lo


def overlapping(a: Footprint, b: Footprint, tol: float = TOL) -> bool:
    """Interiors overlap by more than ``tol`` (touching is not overlapping)."""
    return convex_penetration(a.corners(), b.corners(), tol) > tol


def distance(a: Footprint, b: Footprint) -> float:
    return polygon_distance(a.corners(), b.corners())


# --- dbm-3.2:move.legal-contact ------------------------------------------------------------------


def _front_to_front(m: Footprint, e: Footprint) -> bool:
    return (
        opposite(m, e) and near(corner(m, "fl"), corner(e, "fr")) and near(corner(m, "fr"), corner(e, "fl"))
    )


def _front_on_flank(m: Footprint, e: Footprint) -> bool:
    for side, fc in (("left", "fl"), ("right", "fr")):
        if edge_overlap(m, "front", e, side) > 0 and any(
            near(corner(m, c), corner(e, fc)) for c in ("fl", "fr")
        ):
            return True
    return False


def _front_to_rear(m: Footprint, e: Footprint) -> bool:
    return (
        parallel(m, e) and near(corner(m, "fl"), corner(e, "rl")) and near(corner(m, "fr"), corner(e, "rr"))
    )


def _corner_to_corner(m: Footprint, e: Footprint) -> bool:
    return opposite(m, e) and (
        near(corner(m, "fr"), corner(e, "fr")) or near(corner(m, "fl"), corner(e, "fl"))
    )


def _side_to_side(m: Footprint, e: Footprint) -> bool:
    return any(edge_overlap(m, s, e, t) > 0 for s in ("left", "right") for t in ("left", "right"))


def legal_contact(m: Footprint, e: Footprint, friends: Sequence[Footprint] = ()) -> str | None:
    """Which of the six end positions (dbm-3.2:move.legal-contact) mover ``m`` is in against enemy
    ``e``, or None. ``friends``: m's friends (for the 6th position, beside a friend whose front is
    on e's flank or rear as in the 2nd or 3rd)."""
    if _front_to_front(m, e):
        return "front-to-front"
    if _front_on_flank(m, e):
        return "front-on-flank"
    if _front_to_rear(m, e):
        return "front-to-rear"
    if _corner_to_corner(m, e):
        return "front-corner-to-front-corner"
    if _side_to_side(m, e):
        return "side-to-side"
    for f in friends:
        if (_front_on_flank(f, e) or _front_to_rear(f, e)) and parallel(m, f):
            beside = any(edge_overlap(m, s, f, t) > 0 for s, t in (("left", "right"), ("right", "left")))
            corners = near(corner(m, "fr"), corner(f, "fl")) or near(corner(m, "fl"), corner(f, "fr"))
            if beside and corners:
                return "beside-friend-on-flank-or-rear"
    return None


def in_contact(a: Footprint, b: Footprint) -> bool:
    return distance(a, b) <= TOL


# --- dbm-3.2:move.flank-rear-start (Fig 5, dbm-3.2:fig.5) ---------------------------------------


def may_contact_rear(start: Footprint, e: Footprint) -> bool:
    """Rear contact only from a start entirely on the far side of the line prolonging e's rear edge."""
    hd = e.depth / 2.0
    return all(local(e, p)[1] <= -hd + TOL for p in start.corners())


def may_contact_flank(start: Footprint, e: Footprint, side: str) -> bool:
    """Flank contact only from a start partly or entirely beyond the line prolonging that side edge,
    any part not beyond it being behind e's rear (dbm-3.2:move.flank-rear-start)."""
    hw, hd = e.frontage / 2.0, e.depth / 2.0
    sgn = 1.0 if side == "right" else -1.0
    pts = [local(e, p) for p in start.corners()]
    if not any(sgn * u > hw + TOL for u, _ in pts):
        return False
    # the part on e's side of the line: sgn*u <= hw
    inside = clip_halfplane(pts, sgn, 0.0, hw - TOL)
    return all(v <= -hd + TOL for _, v in inside)


# --- dbm-3.2:move.lineup-shift -------------------------------------------------------------------


def lineup_shift(m: Footprint, e: Footprint, bw: float) -> float | None:
    """The one sideways shift (paces, + to m's right) that lets a later straight-ahead move make a
    legal contact with ``e``; 0.0 when none is necessary; None when no shift of at most half a base
    width would do, or m is not within 1 base width of e (dbm-3.2:move.lineup-shift)."""
    if distance(m, e) > bw + TOL:
        return None
    targets: list[float] = []
    if opposite(m, e):
        u0 = local(m, e.front_centre)[0]
        if local(m, e.front_centre)[1] < m.depth / 2.0 - TOL:
            return None
        targets = [u0, u0 - e.frontage, u0 + e.frontage]  # front-to-front, corner-to-corner
    elif parallel(m, e):
        u0, v0 = local(m, e.edge_centre("rear"))
        if v0 < m.depth / 2.0 - TOL:
            return None
        targets = [u0]
    elif abs(heading_diff(m, e) - 90.0) <= ANG_TOL:
        # front on flank with front corner to front corner: m's near front corner on e's front line
        fl_e, fr_e = corner(e, "fl"), corner(e, "fr")
        for fc in (fl_e, fr_e):
            u, v = local(m, fc)
            if v >= m.depth / 2.0 - TOL:
                targets += [u - (-m.frontage / 2.0), u - (m.frontage / 2.0)]
    else:
        return None
    best = min(targets, key=abs, default=None)
    if best is None:
        return None
    # "if it is necessary": none is when m already lines up well inside the contact tolerance;
    # an offset near TOL itself gets its (tiny) shift, so that rounding in another frame of the
    # same table can never leave m neither shifted nor in contact
    if abs(best) <= TOL / 2.0:
        return 0.0
    if abs(best) > bw / 2.0 + TOL:
        return None
    return best


def shifted(fp: Footprint, s: float) -> Footprint:
    rx, ry = fp.right
    return fp.moved(rx * s, ry * s)


def ahead(fp: Footprint, d: float) -> Footprint:
    fx, fy = fp.forward
    return fp.moved(fx * d, fy * d)


def straight_ahead_to_contact(m: Footprint, e: Footprint) -> float | None:
    """The straight-ahead distance at which m's front meets e (None if it never does)."""
    d = sweep_distance(m.corners(), m.forward, e.corners())
    return None if math.isinf(d) else d


# --- dbm-3.2:shoot.who (Fig 10b) -----------------------------------------------------------------


def shooting_box(s: Footprint, rng: float, bw: float) -> tuple[Point, ...]:
    """The rectangle 1 base width either side of the shooter's front, out to its range."""
    fx, fy = s.forward
    rx, ry = s.right
    cx, cy = s.front_centre
    hw = s.frontage / 2.0 + bw
    return (
        (cx - rx * hw, cy - ry * hw),
        (cx - rx * hw + fx * rng, cy - ry * hw + fy * rng),
        (cx + rx * hw + fx * rng, cy + ry * hw + fy * rng),
        (cx + rx * hw, cy + ry * hw),
    )


def can_target(s: Footprint, t: Footprint, rng: float, bw: float) -> bool:
    """Any part of t inside the shooting box, and t within range (closest points, "within" = <=)."""
    box = shooting_box(s, rng + 2 * TOL, bw)
    inside = convex_penetration(box, t.corners(), TOL) > TOL
    return inside and distance(s, t) <= rng + TOL


def directness(s: Footprint, t: Footprint) -> tuple[float, float]:
    """Priority key, smaller = more directly to the front (Fig 10b): lateral offset of t's nearest
    point from the shooter's centre line beyond its own frontage, then distance."""
    us = [local(s, p)[0] for p in t.corners()]
    lo, hi = min(us), max(us)
    hw = s.frontage / 2.0
    lateral = 0.0 if lo <= hw and hi >= -hw else min(abs(lo) - hw, abs(hi) - hw)
    return (round(max(lateral, 0.0), 6), round(distance(s, t), 6))
