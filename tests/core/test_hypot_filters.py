"""``math.hypot`` asked only where its last bits matter (issue 16, docs/performance.md "Lengths
measured only where they are close"): the compiled paths of ``gap_exceeds``, ``gap_below``,
``segments_intersect`` and ``segment_distance`` give the plain expressions' answers, to the bit.

The filtered functions are called directly (they are plain Python in the sources), against the
plain expressions they replace, on random values, on values made to sit on the comparison's edge
(the limit the expression itself gives, and its neighbouring floats, so the bounds fall on both
sides and the length is measured), and on the special values (NaN, infinities, underflowing and
overflowing squares); then the public functions against the reference switch."""

from __future__ import annotations

import math
import random

import pytest

from shieldwall.core import geometry as G
from shieldwall.core.reference import reference_path

N = 20_000
SPECIAL = [
    0.0,
    -0.0,
    1e-320,
    1e-170,
    1e-160,
    1e-100,
    3e-8,
    1e-7,
    1e150,
    1e160,
    1e300,
    math.inf,
    -math.inf,
    math.nan,
]


def _exceeds(dx: float, dy: float, r1: float, r2: float, limit: float) -> bool:
    return math.hypot(dx, dy) - r1 - r2 > limit


def _below(dx: float, dy: float, r1: float, r2: float, limit: float) -> bool:
    return math.hypot(dx, dy) - r1 - r2 < limit


def _cases(rng: random.Random) -> list[tuple[float, float, float, float, float]]:
    out: list[tuple[float, float, float, float, float]] = []
    for _ in range(N):
        dx, dy = rng.uniform(-40, 40), rng.uniform(-40, 40)
        if rng.random() < 0.2:
            dx *= 10.0 ** rng.randint(-12, 3)
        r1, r2 = rng.uniform(0, 5), rng.uniform(0, 5)
        edge = math.hypot(dx, dy) - r1 - r2
        pick = rng.random()
        if pick < 0.4:  # on the edge, or a few floats either side of it
            limit = edge
            for _ in range(rng.randint(-3, 3) if pick < 0.3 else 0):
                limit = math.nextafter(limit, math.inf if rng.random() < 0.5 else -math.inf)
        elif pick < 0.7:  # within the bounds' width of it
            limit = edge * (1.0 + rng.uniform(-3e-12, 3e-12)) + rng.uniform(-1e-11, 1e-11)
        else:
            limit = rng.uniform(-10, 40)
        out.append((dx, dy, r1, r2, limit))
    for dx in SPECIAL:
        for dy in (0.0, 1.0, 1e-170, math.nan, math.inf, 1e300):
            for limit in (0.0, 1.0, -1.0, 1e-160, 1e300, math.inf, -math.inf, math.nan):
                for r in (0.0, 1.0, math.inf):
                    out.append((dx, dy, r, 0.0, limit))
    return out


def test_the_gap_tests_give_the_plain_expressions_answers() -> None:
    rng = random.Random(20261128)
    measured = 0
    for dx, dy, r1, r2, limit in _cases(rng):
        assert G._gap_exceeds_filtered(dx, dy, r1, r2, limit) is _exceeds(dx, dy, r1, r2, limit), (
            dx,
            dy,
            r1,
            r2,
            limit,
        )
        assert G._gap_below_filtered(dx, dy, r1, r2, limit) is _below(dx, dy, r1, r2, limit), (
            dx,
            dy,
            r1,
            r2,
            limit,
        )
        lo, hi = G._gap_bounds(dx, dy)
        if lo == lo:
            assert lo <= math.hypot(dx, dy) <= hi
            measured += (lo - r1 - r2 <= limit) and (hi - r1 - r2 > limit)
    assert measured > 1000  # the edge cases did reach the measured branch


def test_the_bounds_hold_at_every_scale_and_refuse_the_untrusted_squares() -> None:
    rng = random.Random(7)
    for _ in range(N):
        dx = rng.uniform(-1, 1) * 10.0 ** rng.randint(-99, 149)
        dy = rng.uniform(-1, 1) * 10.0 ** rng.randint(-99, 149)
        lo, hi = G._gap_bounds(dx, dy)
        if lo == lo:
            h = math.hypot(dx, dy)
            assert lo <= h <= hi and hi - lo <= 3e-12 * h
    for dx, dy in ((1e-170, 0.0), (1e160, 1.0), (math.nan, 1.0), (math.inf, 0.0), (0.0, 0.0)):
        lo, hi = G._gap_bounds(dx, dy)
        assert lo != lo and hi != hi  # NaN: measure


#: parallel segments whose least two gaps nearly tie, found by a search (docs/performance.md,
#: "Lengths measured only where they are close"): measuring only the gaps whose square is at most
#: the least square (no tolerance) gives the float above the plain distance for each
#: (0.8553046618688697 for the first, not ...696): a greater square, the shorter ``hypot`` length
NEAR_TIES = [
    (
        (11.43, -5.05),
        (15.592651521288794, -4.04275757595648),
        (11.32726370414165, -4.194871634866052),
        (15.489915225430444, -3.187629210822532),
    ),
    (
        (-15.48, 4.5),
        (-20.14620508131554, 5.806895900252707),
        (-16.298013914352982, 1.6578670705915584),
        (-20.96421899566852, 2.964762970844265),
    ),
    (
        (15.42, 1.09),
        (9.028072079101246, 3.7298213933420525),
        (14.3101232557377, -1.3868090406668752),
        (7.9181953348389476, 1.253012352675177),
    ),
    (
        (-5.41, -3.95),
        (-4.119415457054386, -3.702982576290246),
        (-5.787898523574548, -2.0094052683823382),
        (-4.497313980628935, -1.7623878446725845),
    ),
    (
        (2.07, 3.24),
        (3.172304478623415, 5.435348914108651),
        (1.4194954865019518, 3.3629155248937357),
        (2.5217999651253673, 5.558264439002387),
    ),
    (
        (9.42, 4.27),
        (3.0910276855879975, 7.225816316277384),
        (8.710702829385689, 3.4124027587309675),
        (2.381730514973686, 6.368219075008351),
    ),
]


#: segments whose end lies a few floats from 1e-7 off the other, found by a search (the same
#: section): with no band about 1e-7 squared (a square above ``fl(1e-14)`` taken as not touching)
#: each is judged touching where ``math.hypot`` says 1e-7 or more
NEAR_TOUCH = [
    (
        (0.0, 0.0),
        (2.99999983011119, 0.0010096201423272929),
        (1.499999915021941, 0.0005049100711579835),
        (1.499326834927056, 2.0005047968119514),
    ),
    (
        (0.0, 0.0),
        (-2.603644921819778, 1.490313094984434),
        (-1.301822510586992, 0.745156460704053),
        (-2.295364573909948, -0.9906068205091322),
    ),
    (
        (0.0, 0.0),
        (-0.4918959632621683, -2.959398310691953),
        (-0.2459478829844738, -1.4796991717425085),
        (1.7269843241434946, -1.8076298139172873),
    ),
    (
        (0.0, 0.0),
        (-2.999999999893599, 2.526669752363138e-05),
        (-1.4999999999476417, 1.2533348761819236e-05),
        (-1.5000168444126574, -1.9999874665803044),
    ),
]


def _point(rng: random.Random) -> tuple[float, float]:
    return rng.uniform(-20, 20), rng.uniform(-20, 20)


def _segment_pairs(rng: random.Random) -> list[tuple[G.Point, G.Point, G.Point, G.Point]]:
    out: list[tuple[G.Point, G.Point, G.Point, G.Point]] = []
    for _ in range(N):
        p1, p2 = _point(rng), _point(rng)
        pick = rng.random()
        if pick < 0.5:  # an end of the other near the first, about 1e-7 off it (touching's edge)
            t = rng.choice([0.0, 1.0, rng.random()])
            cx, cy = p1[0] + t * (p2[0] - p1[0]), p1[1] + t * (p2[1] - p1[1])
            ln = math.hypot(p2[0] - p1[0], p2[1] - p1[1]) or 1.0
            nx, ny = -(p2[1] - p1[1]) / ln, (p2[0] - p1[0]) / ln
            off = 1e-7 * (1.0 + rng.uniform(-1e-6, 1e-6)) if pick < 0.35 else rng.uniform(0, 1e-6)
            q1 = (cx + off * nx, cy + off * ny)
            q2 = q1 if pick < 0.05 else (q1[0] + rng.uniform(0, 5) * nx, q1[1] + rng.uniform(0, 5) * ny)
        elif pick < 0.7:  # parallel at a small distance: near-equal gaps
            d = rng.uniform(1e-9, 3.0)
            ln = math.hypot(p2[0] - p1[0], p2[1] - p1[1]) or 1.0
            nx, ny = -(p2[1] - p1[1]) / ln, (p2[0] - p1[0]) / ln
            s = rng.uniform(-0.5, 1.5)
            q1 = (p1[0] + d * nx + s * (p2[0] - p1[0]), p1[1] + d * ny + s * (p2[1] - p1[1]))
            q2 = (p2[0] + d * nx + s * (p2[0] - p1[0]), p2[1] + d * ny + s * (p2[1] - p1[1]))
        else:
            q1, q2 = _point(rng), _point(rng)
            if rng.random() < 0.2:  # whole inches, as scenarios place units
                p1, p2, q1, q2 = ((round(x), round(y)) for x, y in (p1, p2, q1, q2))
        out.append((p1, p2, q1, q2))
    out.extend(NEAR_TIES)
    out.extend(NEAR_TOUCH)
    out.append(((0.0, 0.0), (0.0, 0.0), (1.0, 0.0), (1.0, 0.0)))  # two points
    out.append(((0.0, 0.0), (math.nan, 0.0), (1.0, 0.0), (2.0, 0.0)))
    out.append(((0.0, 0.0), (1e200, 0.0), (1.0, 1e200), (2.0, 1e200)))
    return out


def _plain_ends_near(p1: G.Point, p2: G.Point, q1: G.Point, q2: G.Point) -> bool:
    psd = G.point_segment_distance
    return (
        psd(p1, q1, q2) < 1e-7 or psd(p2, q1, q2) < 1e-7 or psd(q1, p1, p2) < 1e-7 or psd(q2, p1, p2) < 1e-7
    )


def _plain_distance(p1: G.Point, p2: G.Point, q1: G.Point, q2: G.Point) -> float:
    psd = G.point_segment_distance
    es = [psd(p1, q1, q2), psd(p2, q1, q2), psd(q1, p1, p2), psd(q2, p1, p2)]
    if any(e < 1e-7 for e in es):
        return 0.0
    return min(es)


def test_the_segment_tests_give_the_plain_answers_to_the_bit() -> None:
    rng = random.Random(11)
    touching = 0
    for p1, p2, q1, q2 in _segment_pairs(rng):
        near = _plain_ends_near(p1, p2, q1, q2)
        assert G._ends_near_filtered(p1, p2, q1, q2) is near, (p1, p2, q1, q2)
        touching += near
        got, want = G._segment_distance_filtered(p1, p2, q1, q2), _plain_distance(p1, p2, q1, q2)
        assert got.hex() == want.hex() or (got != got and want != want), (p1, p2, q1, q2, got, want)
    assert touching > 500  # the edge of touching was reached


@pytest.mark.parametrize("seed", [1, 2])
def test_the_public_functions_answer_as_on_the_reference_path(seed: int) -> None:
    """On the build this runs on (compiled in CI: the filtered paths; from the sources: the plain
    ones), ``segments_intersect``, ``segment_distance``, ``gap_exceeds`` and ``gap_below`` answer
    as with the reference switch on."""
    rng = random.Random(seed)
    pairs = _segment_pairs(rng)[:3000]
    gaps = _cases(rng)[:3000]
    fast = [(G.segments_intersect(*s), G.segment_distance(*s).hex()) for s in pairs]
    fast_gaps = [(G.gap_exceeds(*c), G.gap_below(*c)) for c in gaps]
    with reference_path():
        assert fast == [(G.segments_intersect(*s), G.segment_distance(*s).hex()) for s in pairs]
        assert fast_gaps == [(G.gap_exceeds(*c), G.gap_below(*c)) for c in gaps]
