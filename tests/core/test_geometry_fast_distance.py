"""``polygon_distance``'s fast path, compiled (``_least_gap_filtered``: a gap's exact length taken
only where the least may be), against its reference (``_least_gap``: every gap measured with
``math.hypot``), to the bit, on either path (issue 16, docs/performance.md "One-Hour: seventh
slice"); and ``polygon_distance`` itself against the reference switch."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shieldwall.core.geometry import Footprint
from shieldwall.core.polygons import _least_gap, _least_gap_filtered, polygon_distance
from shieldwall.core.reference import reference_path

coord = st.floats(-12.0, 12.0, allow_nan=False)
size = st.floats(0.5, 8.0, allow_nan=False)
angle = st.floats(-180.0, 180.0, allow_nan=False)

#: pairs whose least gap two vertex-to-edge gaps nearly share, found by a search: the first four
#: have two gaps of equal squared length whose ``math.hypot`` lengths differ in the last place (a
#: fast path measuring only a square strictly below every one before gives 4.925364039457768 for
#: the first, where every gap measured gives 4.925364039457767), the last three a gap with the
#: greater square and the shorter ``hypot`` length (a fast path measuring only squares at most
#: the least before, with no tolerance, gives 5.427114317029974 for the first, not ...973)
NEAR_TIES = [
    ((8.39, 2.88, 30.0, 4.0, 1.0), (14.06, -2.15, 120.0, 4.0, 1.0)),
    ((5.91, 24.26, 172.29, 4.0, 1.0), (-0.83, 16.96, 352.28999999999996, 4.0, 1.0)),
    ((12.98, 3.79, -60.0, 2.0, 2.0), (17.18, 9.18, 30.0, 2.0, 2.0)),
    ((6.39, 14.9, 34.59, 2.0, 1.0), (2.35, 17.95, 124.59, 2.0, 1.0)),
    ((20.1, 2.62, 30.0, 4.0, 1.0), (15.04, -1.88, 30.0, 4.0, 1.0)),
    ((21.53, 13.01, -159.69, 5.0, 2.0), (13.91, 18.62, -69.69, 5.0, 2.0)),
    ((0.66, 0.31, -60.0, 4.0, 1.0), (5.79, -6.94, -60.0, 4.0, 1.0)),
]


def _both(a: Footprint, b: Footprint) -> tuple[float, float]:
    """The least gap of the fast path and of its reference (the same ``hex()``), after checking
    ``polygon_distance`` against the reference switch."""
    fast = polygon_distance(a.corners(), b.corners())
    with reference_path():
        ref = polygon_distance(a.corners(), b.corners())
    assert fast.hex() == ref.hex()
    return _least_gap_filtered(a.corners(), b.corners()), _least_gap(a.corners(), b.corners())


@pytest.mark.parametrize(("a", "b"), NEAR_TIES)
def test_near_ties_give_the_reference_length_to_the_bit(
    a: tuple[float, float, float, float, float], b: tuple[float, float, float, float, float]
) -> None:
    fast, ref = _both(Footprint(*a), Footprint(*b))
    assert fast > 0.0
    assert fast.hex() == ref.hex()


@settings(max_examples=400, deadline=None)
@given(
    a=st.builds(Footprint, coord, coord, angle, size, size),
    b=st.builds(Footprint, coord, coord, angle, size, size),
    snap=st.sampled_from(["none", "parallel", "touch", "square"]),
)
def test_fast_distance_is_the_reference_distance(a: Footprint, b: Footprint, snap: str) -> None:
    if snap == "parallel":  # edges parallel: many gaps of (nearly) the same length
        b = Footprint(b.x, b.y, a.heading + 90.0 * round(b.heading / 90.0), b.frontage, b.depth)
    elif snap == "touch":  # straight ahead, at or a hair beyond touching the front
        gap = (a.depth + b.depth) / 2.0 + abs(b.x) * 1e-13
        h = math.radians(a.heading)
        b = Footprint(
            a.x + gap * math.sin(h), a.y + gap * math.cos(h), a.heading + 180.0, b.frontage, b.depth
        )
    elif snap == "square":  # whole-inch positions and right angles, as scenarios place units
        a, b = (
            Footprint(round(f.x), round(f.y), 90.0 * round(f.heading / 90.0), f.frontage, f.depth)
            for f in (a, b)
        )
    fast, ref = _both(a, b)
    assert fast.hex() == ref.hex()


@settings(max_examples=200, deadline=None)
@given(
    a=st.builds(Footprint, coord, coord, angle, size, size),
    b=st.builds(Footprint, coord, coord, angle, size, size),
    at=st.integers(0, 3),
)
def test_an_edge_of_no_length_gives_the_reference_length(a: Footprint, b: Footprint, at: int) -> None:
    """A polygon with a corner given twice (an edge of no length: the gap to that corner)."""
    corners = a.corners()
    doubled = (*corners[: at + 1], corners[at], *corners[at + 1 :])
    for p, q in ((doubled, b.corners()), (b.corners(), doubled)):
        assert _least_gap_filtered(p, q).hex() == _least_gap(p, q).hex()


def test_footprint_distance_kept_by_the_footprints_is_the_polygon_distance() -> None:
    """``footprint_distance`` keeps its answers keyed by the two footprints (docs/performance.md,
    "Lengths measured only where they are close"): an equal pair made anew (not the same objects)
    gets the kept number, which is ``polygon_distance``'s on the same corners and the reference
    path's, to the bit; the memo stays bounded."""
    import random

    from shieldwall.core import polygons as P

    rng = random.Random(3)
    pairs = []
    for _ in range(600):
        a = (
            rng.uniform(-12, 12),
            rng.uniform(-12, 12),
            rng.choice([0.0, 90.0, rng.uniform(-180, 180)]),
            4.0,
            1.0,
        )
        b = (rng.uniform(-12, 12), rng.uniform(-12, 12), rng.uniform(-180, 180), rng.uniform(1, 6), 2.0)
        pairs.append((a, b))
    first = [P.footprint_distance(Footprint(*a), Footprint(*b)) for a, b in pairs]
    again = [P.footprint_distance(Footprint(*a), Footprint(*b)) for a, b in pairs]  # equal, not identical
    plain = [P.polygon_distance(Footprint(*a).corners(), Footprint(*b).corners()) for a, b in pairs]
    with reference_path():
        ref = [P.footprint_distance(Footprint(*a), Footprint(*b)) for a, b in pairs]
    assert (
        [x.hex() for x in first]
        == [x.hex() for x in again]
        == [x.hex() for x in plain]
        == [x.hex() for x in ref]
    )
    assert any(x == 0.0 for x in first) and any(x > 0.0 for x in first)
    assert len(P._FP_DIST_MEMO) <= P._DIST_MEMO_MAX
