"""``core.polygons.bounding_box`` (One-Hour's ``terrain_checks.box_of`` before; issue 16) gives
the very numbers of the lists' ``min`` and ``max`` it replaced: on footprints' corners, on feature
outlines, with equal coordinates of both zeros' signs (the first of equal bounds is kept, as ``min``
and ``max`` keep it) and with a coordinate that is not a number; the core's ``projection_span``
(One-Hour's ``spatial._span`` before) likewise."""

from __future__ import annotations

import math
import random

import pytest

from shieldwall.core.geometry import Footprint
from shieldwall.core.polygons import bounding_box as box_of


def _lists(poly: tuple[tuple[float, float], ...]) -> tuple[float, float, float, float]:
    xs = [pt[0] for pt in poly]
    ys = [pt[1] for pt in poly]
    return (min(xs), min(ys), max(xs), max(ys))


def _same(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return [repr(v) for v in a] == [repr(v) for v in b]  # (repr tells -0.0 from 0.0, and nan)


def test_box_of_gives_the_lists_min_and_max() -> None:
    rng = random.Random(35)
    values = (0.0, -0.0, 1.5, -1.5, 3.0, 1e-300, math.nan, math.inf, -math.inf)
    for _ in range(20000):
        kind = rng.random()
        if kind < 0.4:
            poly = Footprint(
                rng.uniform(-30, 90), rng.uniform(-30, 60), rng.uniform(-180, 180), 4.0, 1.0
            ).corners()
        elif kind < 0.8:
            poly = tuple((rng.choice(values), rng.choice(values)) for _ in range(rng.randint(1, 9)))
        else:
            poly = tuple((rng.uniform(-5, 5), rng.uniform(-5, 5)) for _ in range(rng.randint(1, 30)))
        assert _same(box_of(poly), _lists(poly)), poly


def test_an_empty_polygon_is_refused() -> None:
    with pytest.raises(ValueError, match="no points"):
        box_of(())


def test_span_gives_the_lists_min_and_max() -> None:
    """``projection_span`` (the projections' least and greatest, written out) against the list's
    ``min`` and ``max`` it replaced, on the same random polygons and axes."""
    from shieldwall.core.polygons import projection_span as _span

    rng = random.Random(340)
    for _ in range(20000):
        poly = tuple((rng.uniform(-30, 30), rng.uniform(-30, 30)) for _ in range(rng.randint(1, 8)))
        if rng.random() < 0.2:
            poly = tuple((float(rng.randint(-2, 2)), float(rng.randint(-2, 2))) for _ in range(4))
        ax, ay = rng.choice(((1.0, 0.0), (0.0, -1.0), (0.6, 0.8), (rng.uniform(-1, 1), rng.uniform(-1, 1))))
        p = [x * ax + y * ay for x, y in poly]
        assert _same(_span(poly, ax, ay), (min(p), max(p))), (poly, ax, ay)
    with pytest.raises(ValueError, match="empty"):
        _span((), 1.0, 0.0)
