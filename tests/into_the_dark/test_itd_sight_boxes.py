"""Sight lines pass a terrain feature by on the boxes (``spatial._segment_clear``'s fast path,
issue 16): a segment whose box lies more than ``SEGMENT_PAD`` apart from a feature's box crosses
none of its edges (``boundary_crossings`` is 0, the claim itself, checked on segments just past
the pad on every side), and whole sight checks answer as on the reference path, where every
feature's crossings are counted."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from shieldwall.core.reference import reference_path
from shieldwall.core.terrain import TerrainMap
from shieldwall.io.scenarios import load_game
from shieldwall.rulesets.into_the_dark import spatial

TERRAINS: list[TerrainMap] = [
    load_game(s).new_state(1).terrain  # type: ignore[attr-defined]
    for s in ("into-the-dark/senlac", "into-the-dark/wye-fords")
]
FEATURES = [f for t in TERRAINS for f in t.features if not f.linear]


def _apart(
    rng: random.Random, box: tuple[float, float, float, float]
) -> tuple[tuple[float, float], tuple[float, float]]:
    """A segment whose box lies just past the pad on one side of ``box``, however long."""
    x0, x1, y0, y1 = box
    gap = spatial.SEGMENT_PAD * rng.choice((1.0001, 1.01, 2.0, 1e3))
    side = rng.randrange(4)
    a, b = rng.uniform(-30.0, 100.0), rng.uniform(-30.0, 100.0)
    if side == 0:  # left
        x = x0 - gap
        return (x - rng.uniform(0, 20), a), (x, b)
    if side == 1:  # right
        x = x1 + gap
        return (x, a), (x + rng.uniform(0, 20), b)
    if side == 2:  # below
        y = y0 - gap
        return (a, y - rng.uniform(0, 20)), (b, y)
    y = y1 + gap  # above
    return (a, y), (b, y + rng.uniform(0, 20))


def test_a_segment_apart_from_a_features_box_crosses_none_of_its_edges() -> None:
    assert len(FEATURES) >= 4
    rng = random.Random(22)
    for _ in range(20000):
        f = rng.choice(FEATURES)
        p, q = _apart(rng, spatial._box(f)[1:])
        assert f.boundary_crossings(p, q) == 0, (f.kind, p, q)


@settings(max_examples=400, deadline=None)
@given(
    st.integers(0, len(TERRAINS) - 1),
    st.floats(-10, 90),
    st.floats(-10, 70),
    st.floats(-10, 90),
    st.floats(-10, 70),
    st.booleans(),
)
def test_sight_lines_answer_as_the_reference(
    t: int, x1: float, y1: float, x2: float, y2: float, elevated: bool
) -> None:
    terrain = TERRAINS[t]
    p, q = (x1, y1), (x2, y2)
    fast = spatial._segment_clear(p, q, (), terrain, elevated)
    with reference_path():
        assert spatial._segment_clear(p, q, (), terrain, elevated) == fast


def test_sight_lines_along_and_past_the_features_answer_as_the_reference() -> None:
    """Lines through each feature's corners, along its box's edges and just inside and outside the
    pad: where the boxes nearly meet, the count decides, as on the reference path."""
    rng = random.Random(7)
    for terrain in TERRAINS:
        for f in terrain.features:
            _, x0, x1, y0, y1 = spatial._box(f)
            for _ in range(300):
                pad = spatial.SEGMENT_PAD * rng.choice((0.0, 0.5, 0.999, 1.001, 3.0, -1.0))
                ends = [
                    rng.choice(list(f.points)),
                    (x0 - pad, rng.uniform(y0, y1)),
                    (x1 + pad, rng.uniform(y0, y1)),
                    (rng.uniform(x0, x1), y0 - pad),
                    (rng.uniform(x0, x1), y1 + pad),
                    (rng.uniform(-10, 90), rng.uniform(-10, 70)),
                ]
                p, q = rng.choice(ends), rng.choice(ends)
                fast = spatial._segment_clear(p, q, (), terrain, False)
                with reference_path():
                    assert spatial._segment_clear(p, q, (), terrain, False) == fast, (f.kind, p, q)
