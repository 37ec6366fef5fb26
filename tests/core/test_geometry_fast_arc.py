"""``in_front_arc``'s fast path (a vertex inside the arc answers at once) against its reference
(the clipped polygon), on random footprints and polygons about them (issue 16)."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from shieldwall.core.crossings import in_front_arc
from shieldwall.core.geometry import Footprint
from shieldwall.core.reference import reference_path

coord = st.floats(-12.0, 12.0, allow_nan=False)
size = st.floats(0.5, 8.0, allow_nan=False)
angle = st.floats(-180.0, 180.0, allow_nan=False)


@settings(max_examples=300, deadline=None)
@given(
    x=coord,
    y=coord,
    h=angle,
    w=size,
    d=size,
    ox=coord,
    oy=coord,
    oh=angle,
    ow=size,
    od=size,
    half=st.sampled_from([30.0, 45.0, 60.0, 89.0]),
    snap=st.booleans(),
)
def test_fast_arc_gives_the_clipped_answer(
    x: float,
    y: float,
    h: float,
    w: float,
    d: float,
    ox: float,
    oy: float,
    oh: float,
    ow: float,
    od: float,
    half: float,
    snap: bool,
) -> None:
    fp = Footprint(x, y, h, w, d)
    if snap:  # the other polygon straight ahead, on the arc's edge lines, or touching the front
        dist = d / 2.0 + od / 2.0
        ox = x + dist * math.sin(math.radians(h))
        oy = y + dist * math.cos(math.radians(h))
        oh = h + 180.0
    poly = Footprint(ox, oy, oh, ow, od).corners()
    fast = in_front_arc(fp, poly, half)
    with reference_path():
        ref = in_front_arc(fp, poly, half)
    assert fast == ref
