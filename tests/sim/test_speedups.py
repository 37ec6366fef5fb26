"""The geometry speed-ups return exactly what the plain versions did (same floats, same answers).

The simulator's speed work (see benchmarks/bench_sim.py) memoised, inlined and pruned the hot
geometry; these properties compare each fast path with the straightforward version it replaced,
bit for bit, on random footprints including touching and nearly-touching pairs.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from shieldwall.core import crossings as CR
from shieldwall.core import geometry as G
from shieldwall.core import polygons as PG
from shieldwall.core.geometry import EPS, Footprint, Point

# --- the plain versions (as they were before the speed-ups) ------------------------------------


def ref_project(poly: Sequence[Point], ax: float, ay: float) -> tuple[float, float]:
    lo = hi = poly[0][0] * ax + poly[0][1] * ay
    for x, y in poly[1:]:
        v = x * ax + y * ay
        if v < lo:
            lo = v
        elif v > hi:
            hi = v
    return lo, hi


def ref_penetration(a: Sequence[Point], b: Sequence[Point]) -> float:
    best = math.inf
    for poly in (a, b):
        n = len(poly)
        for i in range(n):
            x1, y1 = poly[i]
            x2, y2 = poly[(i + 1) % n]
            ex, ey = x2 - x1, y2 - y1
            ln = math.hypot(ex, ey)
            if ln < EPS:
                continue
            ax, ay = -ey / ln, ex / ln
            alo, ahi = ref_project(a, ax, ay)
            blo, bhi = ref_project(b, ax, ay)
            overlap = min(ahi, bhi) - max(alo, blo)
            if overlap < best:
                best = overlap
    return best


def ref_polygon_distance(a: Sequence[Point], b: Sequence[Point]) -> float:
    if ref_penetration(a, b) > 0:
        return 0.0
    best = math.inf
    for poly, other in ((a, b), (b, a)):
        n = len(other)
        for i in range(n):
            ax, ay = other[i]
            bx, by = other[(i + 1) % n]
            dx, dy = bx - ax, by - ay
            ll = dx * dx + dy * dy
            for px, py in poly:
                if ll < EPS:
                    d = math.hypot(px - ax, py - ay)
                else:
                    t = ((px - ax) * dx + (py - ay) * dy) / ll
                    t = 0.0 if t < 0.0 else 1.0 if t > 1.0 else t
                    d = math.hypot(px - (ax + t * dx), py - (ay + t * dy))
                if d < best:
                    best = d
    return best if best > 1e-12 else 0.0


def ref_within(a: Footprint, b: Footprint, limit: float) -> bool:
    dc = math.hypot(a.x - b.x, a.y - b.y)
    if dc - 0.5 * math.hypot(a.frontage, a.depth) - 0.5 * math.hypot(b.frontage, b.depth) > limit:
        return False
    return ref_polygon_distance(a.corners(), b.corners()) <= limit


def ref_segment_distance(p1: Point, p2: Point, q1: Point, q2: Point) -> float:
    if G.segments_intersect(p1, p2, q1, q2):
        return 0.0
    return min(
        G.point_segment_distance(p1, q1, q2),
        G.point_segment_distance(p2, q1, q2),
        G.point_segment_distance(q1, p1, p2),
        G.point_segment_distance(q2, p1, p2),
    )


def ref_corners(fp: Footprint) -> tuple[Point, ...]:
    fx, fy = G.heading_vector(fp.heading)
    rx, ry = fy, -fx
    hd, hw = fp.depth / 2.0, fp.frontage / 2.0
    x, y = fp.x, fp.y
    return (
        (x + fx * hd - rx * hw, y + fy * hd - ry * hw),
        (x + fx * hd + rx * hw, y + fy * hd + ry * hw),
        (x - fx * hd + rx * hw, y - fy * hd + ry * hw),
        (x - fx * hd - rx * hw, y - fy * hd - ry * hw),
    )


# --- strategies: footprints, often touching or nearly so -----------------------------------

coord = st.floats(0.0, 48.0, allow_nan=False)
heading = st.one_of(st.sampled_from([0.0, 90.0, 180.0, -90.0, 45.0, 30.0]), st.floats(-180.0, 180.0))
size = st.sampled_from([1.0, 1.5, 2.0, 3.0, 4.0, 6.0])


@st.composite
def footprint(draw: st.DrawFn) -> Footprint:
    return Footprint(draw(coord), draw(coord), draw(heading), draw(size), draw(size))


@st.composite
def pair(draw: st.DrawFn) -> tuple[Footprint, Footprint]:
    a = draw(footprint())
    if draw(st.booleans()):
        return a, draw(footprint())
    # b placed against one of a's edges, at a small gap (or overlap), maybe turned
    gap = draw(st.sampled_from([0.0, 0.01, 0.02, 0.03, -0.01, 0.05, 0.5, 1e-7]))
    f, d = draw(size), draw(size)
    turn = draw(st.sampled_from([0.0, 0.0, 90.0, 180.0, 7.5]))
    side = draw(st.sampled_from([0.0, 90.0, 180.0, 270.0]))
    slide = draw(st.floats(-2.0, 2.0))
    vx, vy = G.heading_vector(a.heading + side)
    rx, ry = vy, -vx
    reach = (a.depth if side in (0.0, 180.0) else a.frontage) / 2.0 + d / 2.0 + gap
    b = Footprint(
        a.x + vx * reach + rx * slide, a.y + vy * reach + ry * slide, a.heading + side + 180.0 + turn, f, d
    )
    return a, b


@settings(max_examples=400)
@given(pair(), st.sampled_from([-math.inf, -1e-9, -0.02, 0.0, 0.02]))
def test_penetration_is_exact_above_its_stop(ab: tuple[Footprint, Footprint], stop: float) -> None:
    a, b = ab
    want = ref_penetration(a.corners(), b.corners())
    got = PG.convex_penetration(a.corners(), b.corners(), stop)
    if want > stop:
        assert got == want
    else:
        assert got <= stop
    assert PG.convex_penetration(a.corners(), b.corners()) == want
    assert PG.convex_overlap(a.corners(), b.corners()) == (want > G.CONTACT_TOL)


@settings(max_examples=400)
@given(pair(), st.sampled_from([0.0, 0.02, 0.04, 1.0, 6.0, 13.5]))
def test_distances_and_within(ab: tuple[Footprint, Footprint], limit: float) -> None:
    a, b = ab
    assert a.corners() == ref_corners(a) and a.radius == 0.5 * math.hypot(a.frontage, a.depth)
    want = ref_polygon_distance(a.corners(), b.corners())
    assert PG.polygon_distance(a.corners(), b.corners()) == want
    assert PG.polygon_distance(a.corners(), b.corners()) == want  # memoised the second time
    assert PG.polygon_distance(list(a.corners()), list(b.corners())) == want  # not memoised
    assert PG.footprints_within(a, b, limit) == ref_within(a, b, limit)
    for fa in G.FACINGS:
        p1, p2 = a.edge(fa)
        for fb in G.FACINGS:
            q1, q2 = b.edge(fb)
            assert G.segment_distance(p1, p2, q1, q2) == ref_segment_distance(p1, p2, q1, q2)


@settings(max_examples=300)
@given(pair(), st.floats(-180.0, 180.0))
def test_sweep_distance(ab: tuple[Footprint, Footprint], bearing: float) -> None:
    a, b = ab
    d = G.heading_vector(bearing)
    got = CR.sweep_distance(a.corners(), d, b.corners())
    if ref_penetration(a.corners(), b.corners()) > -1e-9:
        assert got == 0.0
    else:
        assert got == CR.sweep_distance_apart(a.corners(), d, b.corners())


def test_memoised_sight_and_contacts_agree_with_fresh_measurements(short_scenario: str) -> None:
    from shieldwall.ai.base import make_bot
    from shieldwall.io.scenarios import load_game
    from shieldwall.rulesets.one_hour import actions as A
    from shieldwall.rulesets.one_hour import sight as LOS
    from shieldwall.rulesets.one_hour import spatial as S
    from shieldwall.rulesets.one_hour.state import OneHourState

    game = load_game(short_scenario)
    state = game.new_state(5)
    assert isinstance(state, OneHourState)
    bot = make_bot("random", 5)
    checked = 0
    while not state.is_terminal():
        live = state.live()
        for u in live[::3]:
            for t in live[1::4]:
                if t.id == u.id:
                    continue
                for facing in (None, "front", "left"):
                    assert A.sight(state, u, t, facing) == LOS.visible_points(
                        u, t, live, state.terrain, facing
                    )
                    checked += 1
            plain = []
            for o in live:
                if o.side == u.side or not ref_within(u.fp, o.fp, G.CONTACT_TOL):
                    continue
                fm, ft = CR.contact_facing(u.fp, o.fp.corners()), CR.contact_facing(o.fp, u.fp.corners())
                if fm and ft:
                    plain.append((o, fm, ft))
            assert S.contacts(u, live) == plain
        state.apply(bot.choose(state))
    assert checked > 100
