"""Outlines to draw around a unit on a tabletop: a range band (the footprint grown by a distance), a
front arc cut off at a distance, a corridor straight out from an edge, the outline of a set of map
cells (the hexes within a range). Polygons in table units, for the pictures of the rule systems (the
web page's ranges); no rule is decided with them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from shieldwall.core.geometry import Footprint, Point, heading_vector

#: points on a quarter circle of a grown outline or an arc
STEPS = 12


def _r(p: tuple[float, float]) -> list[float]:
    return [round(p[0], 3), round(p[1], 3)]


def _hull(points: Sequence[Point]) -> list[Point]:
    """The convex hull (monotone chain), anticlockwise."""
    pts = sorted(set(points))
    if len(pts) < 3:
        return list(pts)

    def cross(o: Point, a: Point, b: Point) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[Point] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[Point] = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def grown(poly: Sequence[Point], distance: float) -> list[list[float]]:
    """Every point within ``distance`` of the convex polygon ``poly``: its outline."""
    ring = [
        (
            x + distance * math.cos(2 * math.pi * i / (4 * STEPS)),
            y + distance * math.sin(2 * math.pi * i / (4 * STEPS)),
        )
        for x, y in poly
        for i in range(4 * STEPS)
    ]
    return [_r(p) for p in _hull(ring)]


def front_arc(fp: Footprint, half_angle: float, distance: float) -> list[list[float]]:
    """The region ahead of the front edge between lines splayed ``half_angle`` degrees outward
    from its corners (``crossings.in_front_arc``), cut off ``distance`` out."""
    fl, fr = fp.edge("front")
    out: list[Point] = [fl]
    n = 2 * STEPS
    for i in range(n + 1):
        t = i / n
        a = fp.heading - half_angle + 2 * half_angle * t
        vx, vy = heading_vector(a)
        out.append((fl[0] + (fr[0] - fl[0]) * t + distance * vx, fl[1] + (fr[1] - fl[1]) * t + distance * vy))
    out.append(fr)
    return [_r(p) for p in out]


def corridor(fp: Footprint, edge: str, distance: float) -> list[list[float]]:
    """The rectangle straight out from one edge of the footprint, ``distance`` long."""
    a, b = fp.edge(edge)
    cx, cy = fp.centre
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    ln = math.hypot(mx - cx, my - cy) or 1.0
    nx, ny = (mx - cx) / ln, (my - cy) / ln
    return [
        _r(p)
        for p in (
            a,
            (a[0] + nx * distance, a[1] + ny * distance),
            (b[0] + nx * distance, b[1] + ny * distance),
            b,
        )
    ]


def cells_outline(cells: Sequence[Sequence[Sequence[float]]], tol: float = 1e-3) -> list[list[list[float]]]:
    """The outline of a union of cells (hexes of a map: polygons listed the same way round whose
    shared corners agree within ``tol``): every edge no other cell shares, chained into closed
    loops, one per connected piece (a union with a hole gives its hole as one more loop)."""
    keys: dict[tuple[int, int], list[int]] = {}
    pts: list[tuple[float, float]] = []

    def key(p: Sequence[float]) -> int:
        bx, by = round(p[0] / (10 * tol)), round(p[1] / (10 * tol))
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for i in keys.get((bx + dx, by + dy), ()):
                    if abs(pts[i][0] - p[0]) <= tol and abs(pts[i][1] - p[1]) <= tol:
                        return i
        pts.append((float(p[0]), float(p[1])))
        keys.setdefault((bx, by), []).append(len(pts) - 1)
        return len(pts) - 1

    edges: set[tuple[int, int]] = set()
    for cell in cells:
        ids = [key(p) for p in cell]
        for a, b in zip(ids, ids[1:] + ids[:1], strict=True):
            if (b, a) in edges:
                edges.discard((b, a))
            else:
                edges.add((a, b))
    nxt: dict[int, list[int]] = {}
    for a, b in sorted(edges):
        nxt.setdefault(a, []).append(b)
    loops: list[list[list[float]]] = []
    while nxt:
        start = min(nxt)
        loop, at = [start], start
        while at in nxt:
            b = nxt[at].pop()
            if not nxt[at]:
                del nxt[at]
            if b == start:
                break
            loop.append(b)
            at = b
        loops.append([_r(pts[i]) for i in loop])
    return loops
