"""The least of several distances written out as ``min`` runs (issue 16: compiled, ``min`` of
more than two numbers, of a list or of a generator is the builtin looked up by name and called
with boxed numbers): ``segment_distance``'s least end-to-segment distance, ``contact_facing``'s least
edge distance and ``polyline_distance_to_point`` give the builtin's very numbers (the first of equal
ones: the sign of a zero), and refuse an empty sequence as it does."""

from __future__ import annotations

import random

import pytest

from shieldwall.core.crossings import _least_segment_distance
from shieldwall.core.geometry import EPS, orientation, point_segment_distance, segment_distance
from shieldwall.core.polygons import polyline_distance_to_point

Pt = tuple[float, float]


def _segment_distance_builtin(p1: Pt, p2: Pt, q1: Pt, q2: Pt) -> float:
    """``segment_distance`` as it was, with the builtin ``min`` of the four."""
    d1, d2 = orientation(q1, q2, p1), orientation(q1, q2, p2)
    d3, d4 = orientation(p1, p2, q1), orientation(p1, p2, q2)
    if ((d1 > EPS and d2 < -EPS) or (d1 < -EPS and d2 > EPS)) and (
        (d3 > EPS and d4 < -EPS) or (d3 < -EPS and d4 > EPS)
    ):
        return 0.0
    e = (
        point_segment_distance(p1, q1, q2),
        point_segment_distance(p2, q1, q2),
        point_segment_distance(q1, p1, p2),
        point_segment_distance(q2, p1, p2),
    )
    if min(e) < 1e-7:
        return 0.0
    return min(e[0], e[1], e[2], e[3])


def _pt(rng: random.Random) -> Pt:
    if rng.random() < 0.3:  # on a small grid: equal distances, segments along each other
        return (float(rng.randint(-3, 3)), float(rng.randint(-3, 3)))
    return (rng.uniform(-20, 20), rng.uniform(-20, 20))


def test_the_written_out_minimums_give_the_builtins_numbers() -> None:
    rng = random.Random(295)
    for _ in range(20000):
        p1, p2, q1, q2 = (_pt(rng) for _ in range(4))
        assert repr(segment_distance(p1, p2, q1, q2)) == repr(_segment_distance_builtin(p1, p2, q1, q2))
        line = [_pt(rng) for _ in range(rng.randint(2, 7))]
        assert repr(polyline_distance_to_point(p1, line)) == repr(
            min(point_segment_distance(p1, line[i], line[i + 1]) for i in range(len(line) - 1))
        )
        edges = [(line[i], line[(i + 1) % len(line)]) for i in range(len(line))]
        assert repr(_least_segment_distance(p1, p2, edges)) == repr(
            min([segment_distance(p1, p2, p, q) for p, q in edges])
        )


def test_an_empty_sequence_is_refused_as_min_refuses_it() -> None:
    with pytest.raises(ValueError, match="empty"):
        polyline_distance_to_point((0.0, 0.0), [(1.0, 1.0)])
    with pytest.raises(ValueError, match="empty"):
        _least_segment_distance((0.0, 0.0), (1.0, 0.0), [])
