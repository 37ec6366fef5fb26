"""Shared pieces of the SVG renderer: constants, small SVG builders, the canvas transform."""

from __future__ import annotations

import math
import zlib
from collections.abc import Iterable, Mapping, Sequence
from html import escape

from shieldwall.core.geometry import point_segment_distance
from shieldwall.core.polygons import point_in_polygon, polygon_edges

Pt = tuple[float, float]


FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"

#: Margins around the table, in inches (left, top, right, bottom).
MARGIN = (1.0, 2.0, 1.0, 2.6)

SIDE_STYLE: dict[str, dict[str, str]] = {
    "red": {"fill": "#b8322a", "edge": "#5e120d", "text": "#ffffff", "light": "#f3b0a8"},
    "blue": {"fill": "#2c5c9e", "edge": "#0f2747", "text": "#ffffff", "light": "#a9c6ee"},
}
NEUTRAL_STYLE = {"fill": "#777777", "edge": "#333333", "text": "#ffffff", "light": "#cccccc"}
FRONT_COLOUR = "#ffd83b"

TERRAIN_ORDER = {
    "lake": 0,
    "hill": 1,
    "marsh": 2,
    "village": 3,
    "woods": 4,
    "road": 5,
    "gully": 6,
    "river": 7,
    "wall": 8,
}


# --------------------------------------------------------------------------------------------
# Small helpers


def _n(v: float) -> str:
    """A number rounded to 2 decimals, without trailing zeros or a negative zero.

    ``f"{v:.2f}"`` rounds correctly from the binary value, as ``round(v, 2)`` does, so this is
    the same text as formatting ``round(v, 2)`` (checked on two million values), in one step.
    """
    s = f"{float(v):.2f}".rstrip("0").rstrip(".")
    return "0" if s == "0" or s == "-0" else s


def _attrs(attrs: Mapping[str, object]) -> str:
    parts = []
    for k, v in attrs.items():
        if v is None:
            continue
        if isinstance(v, float):
            val = _n(v)  # digits, sign, point, "inf" or "nan": nothing to escape
        elif type(v) is int:
            val = str(v)
        else:
            val = escape(str(v), quote=True)
        parts.append(f' {k}="{val}"')
    return "".join(parts)


def _el(tag: str, attrs: Mapping[str, object], body: str | None = None) -> str:
    if body is None:
        return f"<{tag}{_attrs(attrs)}/>"
    return f"<{tag}{_attrs(attrs)}>{body}</{tag}>"


def _text(s: str) -> str:
    return escape(s, quote=False)


def _pts(points: Iterable[Pt]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)


def star(cx: float, cy: float, r: float, fill: str) -> str:
    """A five-pointed star of radius ``r``."""
    pts = []
    for i in range(10):
        rr = r if i % 2 == 0 else r * 0.45
        a = math.radians(-90 + 36 * i)
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return _el("polygon", {"points": _pts(pts), "fill": fill, "stroke": "#3a2a00", "stroke-width": r * 0.18})


def crown(cx: float, cy: float, r: float) -> str:
    """A small gold crown of half-width ``r``."""
    pts = [
        (cx - r, cy + r * 0.6),
        (cx - r, cy - r * 0.5),
        (cx - r * 0.5, cy),
        (cx, cy - r * 0.8),
        (cx + r * 0.5, cy),
        (cx + r, cy - r * 0.5),
        (cx + r, cy + r * 0.6),
    ]
    return _el(
        "polygon",
        {
            "points": _pts(pts),
            "fill": "#ffd83b",
            "stroke": "#3a2a00",
            "stroke-width": r * 0.18,
            "stroke-linejoin": "round",
        },
    )


def short_type(unit_type: str) -> str:
    """A short label for a unit type: the first three letters of its first two words
    ("heavy-infantry" -> "Hea Inf"); a rule system's drawing may know better (``Drawing.type_label``)."""
    parts = [p for p in unit_type.replace("_", "-").split("-") if p]
    return " ".join(p[:3].capitalize() for p in parts[:2]) or "?"


def _hash01(*key: object) -> float:
    """A deterministic number in [0, 1) from a key (no use of Python's salted ``hash``)."""
    return zlib.crc32("|".join(map(str, key)).encode()) / 2**32


def _centroid(poly: Sequence[Pt]) -> Pt:
    a = cx = cy = 0.0
    n = len(poly)
    for i in range(n):
        x0, y0 = poly[i]
        x1, y1 = poly[(i + 1) % n]
        c = x0 * y1 - x1 * y0
        a += c
        cx += (x0 + x1) * c
        cy += (y0 + y1) * c
    if abs(a) < 1e-9:
        return (sum(p[0] for p in poly) / n, sum(p[1] for p in poly) / n)
    return (cx / (3 * a), cy / (3 * a))


def _edge_distance(p: Pt, poly: Sequence[Pt]) -> float:
    return min(point_segment_distance(p, a, b) for a, b in polygon_edges(poly))


#: The most marks (grid lines, trees, houses, planks, stones) one piece of decoration may draw. A table
#: or a feature of absurd size (from data sent to the web app) is then drawn with sparser marks
#: instead of millions of them; every built-in scenario stays far below it.
MAX_MARKS = 2000


def sparse_step(step: float, extent: float) -> float:
    """``step`` widened so that ``extent / step`` marks stay within :data:`MAX_MARKS`."""
    return max(step, extent / MAX_MARKS) if math.isfinite(extent) else step


def _scatter(fid: str, poly: Sequence[Pt], step: float, margin: float) -> list[Pt]:
    """Deterministic jittered grid points inside a polygon, at least ``margin`` from its edge.

    At most about :data:`MAX_MARKS` grid cells are tried: a huge polygon gets a wider step.
    """
    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
    cells = (max(xs) - min(xs)) / step * (max(ys) - min(ys)) / (step * 0.87)
    if cells > MAX_MARKS:
        step *= math.sqrt(cells / MAX_MARKS)
    out: list[Pt] = []
    j = 0
    y = min(ys) + step / 2
    while y < max(ys):
        x = min(xs) + step / 2 + (step / 2 if j % 2 else 0.0)
        i = 0
        while x < max(xs):
            px = x + (_hash01(fid, i, j, "x") - 0.5) * step * 0.6
            py = y + (_hash01(fid, i, j, "y") - 0.5) * step * 0.6
            if point_in_polygon((px, py), poly) and _edge_distance((px, py), poly) >= margin:
                out.append((px, py))
            x += step
            i += 1
        y += step * 0.87
        j += 1
    return out


def _polyline_point_at(points: Sequence[Pt], frac: float) -> tuple[Pt, float]:
    """The point a fraction along a polyline, and the segment's direction (radians, table frame)."""
    segs = [(points[i], points[i + 1]) for i in range(len(points) - 1)]
    lengths = [math.dist(a, b) for a, b in segs]
    total = sum(lengths)
    if total <= 0:
        return points[0], 0.0
    target = total * frac
    for (a, b), ln in zip(segs, lengths, strict=True):
        if target <= ln:
            t = target / ln if ln else 0.0
            return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t), math.atan2(b[1] - a[1], b[0] - a[0])
        target -= ln
    a, b = segs[-1]
    return b, math.atan2(b[1] - a[1], b[0] - a[0])


def _direction_near(points: Sequence[Pt], p: Pt) -> float:
    """Direction (radians, table frame) of the polyline segment nearest to ``p``."""
    best = min(range(len(points) - 1), key=lambda i: point_segment_distance(p, points[i], points[i + 1]))
    a, b = points[best], points[best + 1]
    return math.atan2(b[1] - a[1], b[0] - a[0])


def _upright(deg: float) -> float:
    """A screen rotation in degrees turned by 180 if needed so text on it reads upright."""
    d = math.fmod(deg, 360.0)
    if d > 180.0:
        d -= 360.0
    elif d <= -180.0:
        d += 360.0
    if d > 90.0:
        d -= 180.0
    elif d <= -90.0:
        d += 180.0
    return d


class _Canvas:
    """Coordinate transform from table inches to SVG user units."""

    def __init__(self, width: float, depth: float, scale: float) -> None:
        self.width = width
        self.depth = depth
        self.s = scale

    def p(self, pt: Sequence[float]) -> Pt:
        return (float(pt[0]) * self.s, (self.depth - float(pt[1])) * self.s)

    def ps(self, pts: Iterable[Sequence[float]]) -> list[Pt]:
        return [self.p(q) for q in pts]

    def d(self, inches: float) -> float:
        return inches * self.s


def _halo_text(
    x: float,
    y: float,
    s: str,
    size: float,
    *,
    fill: str = "#1d1d1d",
    halo: str = "#f4efe0",
    weight: str = "normal",
    rotate: float = 0.0,
    cls: str = "label",
    anchor: str = "middle",
    italic: bool = False,
) -> str:
    attrs: dict[str, object] = {
        "class": cls,
        "x": x,
        "y": y,
        "font-size": float(size),
        "font-family": FONT,
        "text-anchor": anchor,
        "font-weight": weight if weight != "normal" else None,
        "font-style": "italic" if italic else None,
        "fill": fill,
        "stroke": halo,
        "stroke-width": float(size * 0.22),
        "stroke-linejoin": "round",
        "paint-order": "stroke",
    }
    if rotate:
        attrs["transform"] = f"rotate({_n(rotate)} {_n(x)} {_n(y)})"
    return _el("text", attrs, _text(s))


# --------------------------------------------------------------------------------------------
# Defs


def _defs(c: _Canvas) -> str:
    s = c.s
    return (
        "<defs>"
        '<radialGradient id="sw-cloth" cx="50%" cy="45%" r="75%">'
        '<stop offset="0" stop-color="#8aab63"/><stop offset="1" stop-color="#6a8a48"/></radialGradient>'
        f'<pattern id="sw-marsh" patternUnits="userSpaceOnUse" width="{_n(s * 1.2)}" height="{_n(s * 0.9)}">'
        f'<path d="M{_n(s * 0.15)},{_n(s * 0.3)} h{_n(s * 0.5)} M{_n(s * 0.7)},{_n(s * 0.75)} h{_n(s * 0.4)}"'
        f' stroke="#5d7fa0" stroke-width="{_n(s * 0.08)}" stroke-linecap="round"/>'
        f'<path d="M{_n(s * 0.3)},{_n(s * 0.72)} l{_n(-s * 0.08)},{_n(-s * 0.3)}'
        f" M{_n(s * 0.3)},{_n(s * 0.72)}"
        f' l0,{_n(-s * 0.36)} M{_n(s * 0.3)},{_n(s * 0.72)} l{_n(s * 0.08)},{_n(-s * 0.3)}"'
        f' stroke="#3f5a2a" stroke-width="{_n(s * 0.06)}" stroke-linecap="round"/>'
        "</pattern>"
        f'<filter id="sw-glow" x="-50%" y="-50%" width="200%" height="200%">'
        f'<feGaussianBlur stdDeviation="{_n(s * 0.3)}"/></filter>'
        f'<filter id="sw-shadow" x="-20%" y="-20%" width="140%" height="140%">'
        f'<feGaussianBlur stdDeviation="{_n(s * 0.08)}"/></filter>'
        f'<clipPath id="sw-table-clip"><rect x="0" y="0" width="{_n(c.d(c.width))}"'
        f' height="{_n(c.d(c.depth))}"/>'
        "</clipPath>"
        "</defs>"
    )


# --------------------------------------------------------------------------------------------
