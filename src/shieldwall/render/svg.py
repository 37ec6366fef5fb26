"""The tabletop as a standalone SVG picture, computed from ``State.view()``.

``render_svg`` is pure: no I/O, and the same view (and options) always gives the same bytes.
Table coordinates are inches with y running north from the south edge; the picture has north at
the top, so a table point ``(x, y)`` is drawn at ``(x * scale, (depth - y) * scale)``. The table
occupies ``0..width*scale`` by ``0..depth*scale``; the margins (title, scale bar, compass, key) lie
outside it, at negative or larger coordinates of the ``viewBox``.

Every unit is a ``<g class="unit ..." data-unit="ID">`` with a ``<title>`` tooltip; every terrain
feature a ``<g class="terrain terrain-KIND" data-terrain="ID">``; highlights carry ``hl-*`` classes
and the ``data-unit`` of the unit they concern, so a web page can make all of them clickable.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Iterable, Mapping, Sequence
from html import escape
from typing import Any

from shieldwall.core.geometry import Footprint, point_in_polygon, point_segment_distance, polygon_edges

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

SHORT_TYPES: dict[str, str] = {
    "infantry": "Inf",
    "warriors": "War",
    "raiders": "Rdr",
    "cavalry": "Cav",
    "cavalry-javelins": "Cav Jav",
    "skirmishers-javelins": "Sk Jav",
    "skirmishers-bows": "Sk Bow",
    "roman-militia": "Militia",
    "roman-cavalry": "Rom Cav",
    "arthurs-cavalry": "Arthur",
    "roundtable-knights": "Knights",
    "mounted-servants": "Servants",
    "irish-nobles": "Irish Nob",
    "scots-nobles": "Scots Nob",
}

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
    """A number rounded to 2 decimals, without trailing zeros or a negative zero."""
    r = round(float(v), 2)
    if r == 0.0:
        return "0"
    s = f"{r:.2f}".rstrip("0").rstrip(".")
    return s


def _attrs(attrs: Mapping[str, object]) -> str:
    parts = []
    for k, v in attrs.items():
        if v is None:
            continue
        val = _n(v) if isinstance(v, float) else str(v)
        parts.append(f' {k}="{escape(val, quote=True)}"')
    return "".join(parts)


def _el(tag: str, attrs: Mapping[str, object], body: str | None = None) -> str:
    if body is None:
        return f"<{tag}{_attrs(attrs)}/>"
    return f"<{tag}{_attrs(attrs)}>{body}</{tag}>"


def _text(s: str) -> str:
    return escape(s, quote=False)


def _pts(points: Iterable[Pt]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)


def short_type(unit_type: str) -> str:
    """A short label for a unit type ("infantry" -> "Inf")."""
    if unit_type in SHORT_TYPES:
        return SHORT_TYPES[unit_type]
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


def _scatter(fid: str, poly: Sequence[Pt], step: float, margin: float) -> list[Pt]:
    """Deterministic jittered grid points inside a polygon, at least ``margin`` from its edge."""
    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
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
# Terrain


def _terrain(c: _Canvas, f: Mapping[str, Any]) -> tuple[str, str]:
    """SVG for one feature: (shapes, label)."""
    kind = str(f.get("kind", ""))
    fid = str(f.get("id", ""))
    name = str(f.get("name") or kind)
    pts: list[Pt] = [(float(p[0]), float(p[1])) for p in f.get("points", [])]
    linear = bool(f.get("linear")) or kind in ("river", "wall", "gully", "road")
    width = float(f.get("width") or 0.0)
    s = c.s
    body: list[str] = []
    if not pts:
        return "", ""
    svg_pts = _pts(c.ps(pts))
    label = ""
    if linear and len(pts) >= 2:
        path = "M" + " L".join(f"{_n(x)},{_n(y)}" for x, y in c.ps(pts))
        w = c.d(max(width, 0.1))
        line = {"fill": "none", "stroke-linejoin": "round", "stroke-linecap": "round", "d": path}
        if kind == "river":
            body.append(
                _el("path", {**line, "class": "river-bank", "stroke": "#3b6f95", "stroke-width": w + s * 0.3})
            )
            body.append(_el("path", {**line, "class": "river-water", "stroke": "#5c9cc8", "stroke-width": w}))
            body.append(
                _el(
                    "path",
                    {
                        **line,
                        "class": "river-flow",
                        "stroke": "#8cc0e2",
                        "stroke-width": max(1.0, w * 0.12),
                        "stroke-dasharray": f"{_n(s)} {_n(s * 1.6)}",
                    },
                )
            )
            for k, cr in enumerate(f.get("crossings", [])):
                body.append(_crossing(c, fid, k, cr, pts, width))
        elif kind == "road":
            body.append(
                _el("path", {**line, "class": "road-edge", "stroke": "#a88f62", "stroke-width": w + s * 0.2})
            )
            body.append(
                _el("path", {**line, "class": "road-surface", "stroke": "#d8c195", "stroke-width": w})
            )
            body.append(
                _el(
                    "path",
                    {
                        **line,
                        "class": "road-ruts",
                        "stroke": "#c2a878",
                        "stroke-width": max(1.0, s * 0.08),
                        "stroke-dasharray": f"{_n(s * 0.8)} {_n(s * 0.5)}",
                    },
                )
            )
        elif kind == "wall":
            ww = max(w * 0.6, s * 0.4)
            body.append(
                _el(
                    "path",
                    {
                        **line,
                        "class": "wall-outline",
                        "stroke": "#3f3f3f",
                        "stroke-width": ww + s * 0.16,
                        "stroke-linecap": "butt",
                    },
                )
            )
            body.append(
                _el(
                    "path",
                    {
                        **line,
                        "class": "wall-stones",
                        "stroke": "#a3a3a0",
                        "stroke-width": ww,
                        "stroke-linecap": "butt",
                    },
                )
            )
            body.append(
                _el(
                    "path",
                    {
                        **line,
                        "class": "wall-joints",
                        "stroke": "#6d6d6a",
                        "stroke-width": ww,
                        "stroke-linecap": "butt",
                        "stroke-dasharray": f"{_n(s * 0.06)} {_n(s * 0.5)}",
                    },
                )
            )
        elif kind == "gully":
            body.append(
                _el(
                    "path",
                    {
                        **line,
                        "class": "gully-floor",
                        "stroke": "#7d6544",
                        "stroke-opacity": "0.45",
                        "stroke-width": w,
                    },
                )
            )
            body.append(
                _el(
                    "path",
                    {
                        **line,
                        "class": "gully-line",
                        "stroke": "#5b4023",
                        "stroke-width": max(2.0, s * 0.18),
                        "stroke-dasharray": f"{_n(s * 0.6)} {_n(s * 0.35)}",
                    },
                )
            )
        else:
            body.append(_el("path", {**line, "class": "linear", "stroke": "#666666", "stroke-width": w}))
        (lx, ly), ang = _polyline_point_at(pts, 0.5)
        # along the line, offset to the side of it so the name does not sit on the band
        nx, ny = -math.sin(ang), math.cos(ang)
        off = max(width, 0.4) / 2 + 0.45
        if ny < 0 or (ny == 0 and nx < 0):
            nx, ny = -nx, -ny
        px, py = c.p((lx + nx * off, ly + ny * off))
        rot = _upright(-math.degrees(ang))
        label = _halo_text(px, py, name, s * 0.6, rotate=rot, italic=True, cls="terrain-label")
    else:
        poly = pts
        if kind == "hill":
            crest: list[Pt] = [(float(p[0]), float(p[1])) for p in f.get("crest", [])]
            anchor = _centroid(crest) if crest else _centroid(poly)
            body.append(
                _el(
                    "polygon",
                    {
                        "class": "hill",
                        "points": svg_pts,
                        "fill": "#a8915f",
                        "stroke": "#6f5a33",
                        "stroke-width": s * 0.1,
                    },
                )
            )
            for k, (frac, col) in enumerate(((0.66, "#b9a270"), (0.33, "#c8b283"))):
                ring = [
                    (anchor[0] + (x - anchor[0]) * frac, anchor[1] + (y - anchor[1]) * frac) for x, y in poly
                ]
                body.append(
                    _el(
                        "polygon",
                        {
                            "class": f"hill-contour hill-contour-{k + 1}",
                            "points": _pts(c.ps(ring)),
                            "fill": col,
                            "stroke": "#7d6842",
                            "stroke-width": s * 0.05,
                            "stroke-dasharray": f"{_n(s * 0.3)} {_n(s * 0.15)}",
                        },
                    )
                )
            if len(crest) == 1:
                x, y = c.p(crest[0])
                r = s * 0.45
                tri = [(x, y - r), (x + r * 0.9, y + r * 0.6), (x - r * 0.9, y + r * 0.6)]
                body.append(
                    _el(
                        "polygon",
                        {
                            "class": "hill-crest",
                            "points": _pts(tri),
                            "fill": "#5b4526",
                            "stroke": "#f2e6c8",
                            "stroke-width": s * 0.06,
                        },
                    )
                )
            elif len(crest) >= 2:
                cpts = c.ps(crest)
                closed = bool(f.get("plateau")) and len(crest) >= 3
                d = "M" + " L".join(f"{_n(x)},{_n(y)}" for x, y in cpts) + (" Z" if closed else "")
                body.append(
                    _el(
                        "path",
                        {
                            "class": "hill-crest",
                            "d": d,
                            "fill": "none",
                            "stroke": "#5b4526",
                            "stroke-width": s * 0.18,
                            "stroke-linecap": "round",
                            "stroke-dasharray": f"{_n(s * 0.5)} {_n(s * 0.25)}",
                        },
                    )
                )
            cx, cy = _centroid(poly)
            lp = c.p((cx, cy - 1.6)) if math.dist((cx, cy), anchor) < 2.0 else c.p((cx, cy))
        elif kind == "woods":
            body.append(
                _el(
                    "polygon",
                    {
                        "class": "woods",
                        "points": svg_pts,
                        "fill": "#3d6b33",
                        "stroke": "#25461f",
                        "stroke-width": s * 0.1,
                    },
                )
            )
            trees = []
            for k, (x, y) in enumerate(_scatter(fid, poly, 1.5, 0.45)):
                r = s * (0.42 + 0.2 * _hash01(fid, k, "r"))
                sx, sy = c.p((x, y))
                trees.append(_el("circle", {"cx": sx, "cy": sy, "r": r, "fill": "#2b5326"}))
                trees.append(
                    _el(
                        "circle", {"cx": sx - r * 0.25, "cy": sy - r * 0.25, "r": r * 0.55, "fill": "#4f8a42"}
                    )
                )
            body.append(_el("g", {"class": "trees"}, "".join(trees)))
            lp = c.p(_centroid(poly))
        elif kind == "marsh":
            body.append(
                _el(
                    "polygon",
                    {
                        "class": "marsh",
                        "points": svg_pts,
                        "fill": "#86966a",
                        "stroke": "#566b42",
                        "stroke-width": s * 0.08,
                        "stroke-dasharray": f"{_n(s * 0.4)} {_n(s * 0.2)}",
                    },
                )
            )
            body.append(_el("polygon", {"class": "marsh-hatch", "points": svg_pts, "fill": "url(#sw-marsh)"}))
            lp = c.p(_centroid(poly))
        elif kind == "village":
            body.append(
                _el(
                    "polygon",
                    {
                        "class": "village",
                        "points": svg_pts,
                        "fill": "#c7b48a",
                        "stroke": "#7c6644",
                        "stroke-width": s * 0.08,
                        "stroke-dasharray": f"{_n(s * 0.35)} {_n(s * 0.2)}",
                    },
                )
            )
            houses = []
            for k, (x, y) in enumerate(_scatter(fid, poly, 2.3, 0.75)):
                sx, sy = c.p((x, y))
                hw, hd = s * 1.3 / 2, s * 0.8 / 2
                ang = (90.0 if _hash01(fid, k, "o") < 0.4 else 0.0) + (_hash01(fid, k, "a") - 0.5) * 30
                tr = f"translate({_n(sx)} {_n(sy)}) rotate({_n(ang)})"
                houses.append(
                    _el(
                        "g",
                        {"class": "building", "transform": tr},
                        _el(
                            "rect",
                            {
                                "x": -hw + s * 0.08,
                                "y": -hd + s * 0.1,
                                "width": 2 * hw,
                                "height": 2 * hd,
                                "fill": "#000000",
                                "opacity": "0.25",
                            },
                        )
                        + _el(
                            "rect",
                            {
                                "x": -hw,
                                "y": -hd,
                                "width": 2 * hw,
                                "height": 2 * hd,
                                "fill": "#9c5a35",
                                "stroke": "#4a2a18",
                                "stroke-width": s * 0.06,
                            },
                        )
                        + _el(
                            "line",
                            {
                                "x1": -hw,
                                "y1": 0.0,
                                "x2": hw,
                                "y2": 0.0,
                                "stroke": "#5e3420",
                                "stroke-width": s * 0.06,
                            },
                        ),
                    )
                )
            body.append(_el("g", {"class": "buildings"}, "".join(houses)))
            lp = c.p(_centroid(poly))
        elif kind == "lake":
            body.append(
                _el(
                    "polygon",
                    {
                        "class": "lake-shore",
                        "points": svg_pts,
                        "fill": "#5c9cc8",
                        "stroke": "#c9c08e",
                        "stroke-width": s * 0.35,
                        "stroke-linejoin": "round",
                    },
                )
            )
            body.append(
                _el(
                    "polygon",
                    {
                        "class": "lake",
                        "points": svg_pts,
                        "fill": "#5c9cc8",
                        "stroke": "#3b6f95",
                        "stroke-width": s * 0.1,
                        "stroke-linejoin": "round",
                    },
                )
            )
            lp = c.p(_centroid(poly))
        else:
            body.append(
                _el(
                    "polygon",
                    {
                        "class": "area",
                        "points": svg_pts,
                        "fill": "#999999",
                        "fill-opacity": "0.6",
                        "stroke": "#555555",
                        "stroke-width": s * 0.08,
                    },
                )
            )
            lp = c.p(_centroid(poly))
        fill = "#f6f0dc" if kind in ("woods", "lake") else "#1d1d1d"
        halo = "#1f3a1a" if kind == "woods" else "#1d4a6b" if kind == "lake" else "#f4efe0"
        label = _halo_text(
            lp[0],
            lp[1],
            name,
            s * 0.68,
            fill=fill,
            halo=halo,
            italic=True,
            weight="bold",
            cls="terrain-label",
        )
    g = {"class": f"terrain terrain-{kind}", "data-terrain": fid, "data-kind": kind}
    shapes = _el("g", g, _el("title", {}, _text(f"{name} ({kind})")) + "".join(body))
    lab = _el("g", {"class": "terrain-label", "data-terrain": fid}, label) if label else ""
    return shapes, lab


def _crossing(c: _Canvas, fid: str, k: int, cr: Mapping[str, Any], line: Sequence[Pt], river_w: float) -> str:
    kind = str(cr.get("kind", "ford"))
    at = (float(cr["at"][0]), float(cr["at"][1]))
    cw = float(cr.get("width") or 4.0)
    ang = _direction_near(line, at)  # river direction, table frame radians
    x, y = c.p(at)
    s = c.s
    rot = -math.degrees(ang)  # the screen frame turns the other way
    tr = f"translate({_n(x)} {_n(y)}) rotate({_n(rot)})"
    along = c.d(cw)  # local x: along the river
    across = c.d(river_w)  # local y: across it
    parts: list[str] = []
    if kind == "bridge":
        length = across + s * 1.2
        parts.append(
            _el(
                "rect",
                {
                    "x": -along / 2,
                    "y": -length / 2,
                    "width": along,
                    "height": length,
                    "fill": "#8b5a2b",
                    "stroke": "#4a2c12",
                    "stroke-width": s * 0.08,
                },
            )
        )
        n = max(3, int(length / (s * 0.35)))
        for i in range(1, n):
            yy = -length / 2 + length * i / n
            parts.append(
                _el(
                    "line",
                    {
                        "x1": -along / 2,
                        "y1": yy,
                        "x2": along / 2,
                        "y2": yy,
                        "stroke": "#5e3a1a",
                        "stroke-width": s * 0.04,
                    },
                )
            )
        for sx in (-along / 2, along / 2):
            parts.append(
                _el(
                    "line",
                    {
                        "x1": sx,
                        "y1": -length / 2,
                        "x2": sx,
                        "y2": length / 2,
                        "stroke": "#3b220d",
                        "stroke-width": s * 0.18,
                    },
                )
            )
        title = "bridge"
    else:
        light = "#cfe6ef" if kind == "ford" else "#a5d0e8"
        parts.append(
            _el(
                "rect",
                {
                    "x": -along / 2,
                    "y": -across / 2 - s * 0.1,
                    "width": along,
                    "height": across + s * 0.2,
                    "rx": s * 0.5,
                    "fill": light,
                    "stroke": "#6fa5c8",
                    "stroke-width": s * 0.06,
                },
            )
        )
        if kind == "ford":
            m = max(2, int(cw * 1.5))
            for i in range(m):
                for j in range(2):
                    u = _hash01(fid, k, i, j)
                    sx = -along / 2 + along * (i + 0.5) / m
                    sy = -across / 4 + across / 2 * j + (u - 0.5) * across * 0.3
                    parts.append(
                        _el("circle", {"cx": sx, "cy": sy, "r": s * (0.1 + 0.08 * u), "fill": "#b7a27a"})
                    )
        else:
            parts.append(
                _el(
                    "path",
                    {
                        "d": f"M{_n(-along * 0.35)},0 h{_n(along * 0.7)}",
                        "stroke": "#ffffff",
                        "stroke-width": s * 0.08,
                        "stroke-dasharray": f"{_n(s * 0.3)} {_n(s * 0.3)}",
                        "fill": "none",
                    },
                )
            )
        title = kind
    return _el(
        "g",
        {"class": f"crossing crossing-{kind}", "data-terrain": fid, "data-crossing": str(k), "transform": tr},
        _el("title", {}, _text(f'{title} ({cw:g}" wide)')) + "".join(parts),
    )


# --------------------------------------------------------------------------------------------
# Units


def _fp(u: Mapping[str, Any]) -> Footprint:
    return Footprint(
        float(u["x"]),
        float(u["y"]),
        float(u.get("heading", 0.0)),
        float(u.get("frontage", 4.0)),
        float(u.get("depth", 2.0)),
    )


def _style(u: Mapping[str, Any]) -> dict[str, str]:
    return SIDE_STYLE.get(str(u.get("side")), NEUTRAL_STYLE)


def _star(cx: float, cy: float, r: float, fill: str) -> str:
    pts = []
    for i in range(10):
        rr = r if i % 2 == 0 else r * 0.45
        a = math.radians(-90 + 36 * i)
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return _el("polygon", {"points": _pts(pts), "fill": fill, "stroke": "#3a2a00", "stroke-width": r * 0.18})


def _personality_icon(label: str, cx: float, cy: float, r: float) -> str:
    kind, _, extra = label.partition("+")
    parts = []
    if kind == "hero":
        parts.append(_star(cx, cy, r, "#ffd83b"))
    elif kind == "priest":
        w = r * 0.32
        parts.append(
            _el(
                "path",
                {
                    "d": f"M{_n(cx)},{_n(cy - r)} V{_n(cy + r)} M{_n(cx - r * 0.65)},{_n(cy - r * 0.3)}"
                    f" H{_n(cx + r * 0.65)}",
                    "stroke": "#fff6d0",
                    "stroke-width": w,
                    "stroke-linecap": "round",
                },
            )
        )
    else:  # leader (or anything else): a small crown
        pts = [
            (cx - r, cy + r * 0.6),
            (cx - r, cy - r * 0.5),
            (cx - r * 0.5, cy),
            (cx, cy - r * 0.8),
            (cx + r * 0.5, cy),
            (cx + r, cy - r * 0.5),
            (cx + r, cy + r * 0.6),
        ]
        parts.append(
            _el(
                "polygon",
                {
                    "points": _pts(pts),
                    "fill": "#ffd83b",
                    "stroke": "#3a2a00",
                    "stroke-width": r * 0.18,
                    "stroke-linejoin": "round",
                },
            )
        )
    if extra == "banner":
        fx = cx + r * 1.35
        parts.append(
            _el(
                "path",
                {
                    "d": f"M{_n(fx)},{_n(cy + r)} V{_n(cy - r)}",
                    "stroke": "#f4efe0",
                    "stroke-width": r * 0.22,
                    "stroke-linecap": "round",
                },
            )
        )
        parts.append(
            _el(
                "path",
                {
                    "d": f"M{_n(fx)},{_n(cy - r)} h{_n(r * 1.2)} l{_n(-r * 0.35)},{_n(r * 0.45)}"
                    f" l{_n(r * 0.35)},{_n(r * 0.45)} h{_n(-r * 1.2)} Z",
                    "fill": "#ffd83b",
                    "stroke": "#3a2a00",
                    "stroke-width": r * 0.12,
                },
            )
        )
    return _el("g", {"class": f"personality personality-{kind}", "data-personality": label}, "".join(parts))


def _swords(cx: float, cy: float, r: float) -> str:
    """Crossed swords: the in-melee marker."""
    blade = {"stroke": "#f4f4f4", "stroke-width": r * 0.26, "stroke-linecap": "round"}
    hilt = {"stroke": "#2a1a0a", "stroke-width": r * 0.3, "stroke-linecap": "round"}
    parts = [
        _el(
            "circle",
            {
                "cx": cx,
                "cy": cy,
                "r": r * 1.25,
                "fill": "#d9480f",
                "stroke": "#ffffff",
                "stroke-width": r * 0.14,
            },
        ),
        _el(
            "line", {"x1": cx - r * 0.7, "y1": cy + r * 0.7, "x2": cx + r * 0.7, "y2": cy - r * 0.7, **blade}
        ),
        _el(
            "line", {"x1": cx + r * 0.7, "y1": cy + r * 0.7, "x2": cx - r * 0.7, "y2": cy - r * 0.7, **blade}
        ),
        _el(
            "line", {"x1": cx - r * 0.75, "y1": cy + r * 0.3, "x2": cx - r * 0.3, "y2": cy + r * 0.75, **hilt}
        ),
        _el(
            "line", {"x1": cx + r * 0.75, "y1": cy + r * 0.3, "x2": cx + r * 0.3, "y2": cy + r * 0.75, **hilt}
        ),
    ]
    return _el("g", {"class": "melee-marker"}, "".join(parts))


def _shots(x_end: float, cy: float, size: float, left: Any, missile: str, ink: str) -> tuple[str, float]:
    """A pill ending at ``x_end``: an arrow (bow) or javelin icon and the shots left; and its width."""
    out = left is not None and int(left) <= 0
    col = "#9a9a9a" if out else ink
    label = "\u221e" if left is None else str(int(left))
    pw = size * (1.55 + 0.68 * len(label))
    h = size * 1.35
    x0 = x_end - pw
    ax = x0 + size * 0.55  # the shaft
    parts = [
        _el(
            "rect",
            {
                "x": x0,
                "y": cy - h / 2,
                "width": pw,
                "height": h,
                "rx": h / 2,
                "fill": "#f4efe0",
                "stroke": col,
                "stroke-width": size * 0.08,
            },
        ),
        _el(
            "path",
            {
                "d": f"M{_n(ax)},{_n(cy + h * 0.36)} V{_n(cy - h * 0.2)}",
                "stroke": col,
                "stroke-width": size * 0.13,
            },
        ),
        _el(
            "path",
            {
                "d": f"M{_n(ax - size * 0.22)},{_n(cy - h * 0.14)} L{_n(ax)},{_n(cy - h * 0.42)}"
                f" L{_n(ax + size * 0.22)},{_n(cy - h * 0.14)} Z",
                "fill": col,
            },
        ),
    ]
    if missile == "bow":
        parts.append(
            _el(
                "path",
                {
                    "d": f"M{_n(ax - size * 0.18)},{_n(cy + h * 0.42)} L{_n(ax)},{_n(cy + h * 0.26)}"
                    f" L{_n(ax + size * 0.18)},{_n(cy + h * 0.42)}",
                    "stroke": col,
                    "stroke-width": size * 0.09,
                    "fill": "none",
                },
            )
        )
    parts.append(
        _el(
            "text",
            {
                "x": x_end - size * 0.32,
                "y": cy + size * 0.36,
                "font-size": float(size),
                "font-family": FONT,
                "font-weight": "bold",
                "text-anchor": "end",
                "fill": col,
            },
            _text(label),
        )
    )
    return _el("g", {"class": "shots-left", "data-shots": label}, "".join(parts)), pw


def _unit(c: _Canvas, u: Mapping[str, Any]) -> str:
    uid = str(u["id"])
    fp = _fp(u)
    st = _style(u)
    s = c.s
    corners = c.ps(fp.corners())
    fl, fr, rr, rl = corners
    side = str(u.get("side", ""))
    hits = int(u.get("hits") or 0)
    max_hits = int(u.get("max_hits") or 0)
    utype = str(u.get("type", ""))
    name = str(u.get("name") or utype)
    pers = [str(p) for p in u.get("personalities") or []]
    in_melee = bool(u.get("in_melee"))
    missile = u.get("missile")
    shots_left = u.get("shots_left")

    tip = [
        f"{uid}: {name} ({side})",
        f"type {utype}" + (f", {u['category']}" if u.get("category") else ""),
        f"hits {hits}/{max_hits}" if max_hits else f"hits {hits}",
    ]
    if missile:
        tip.append(f"shots left: {'unlimited' if shots_left is None else shots_left} ({missile})")
    if pers:
        tip.append("with " + ", ".join(pers))
    if in_melee:
        tip.append("in melee")
    for flag in ("moved", "shot", "charged"):
        if u.get(flag):
            tip.append(flag)

    cls = f"unit unit-{side} cat-{u.get('category', 'unknown')}" + (" in-melee" if in_melee else "")
    parts = [_el("title", {}, _text("\n".join(tip)))]
    shadow = [(x + s * 0.1, y + s * 0.12) for x, y in corners]
    parts.append(
        _el(
            "polygon",
            {
                "class": "unit-shadow",
                "points": _pts(shadow),
                "fill": "#000000",
                "opacity": "0.35",
                "filter": "url(#sw-shadow)",
            },
        )
    )
    if in_melee:
        parts.append(
            _el(
                "polygon",
                {
                    "class": "unit-melee-ring",
                    "points": _pts(corners),
                    "fill": "none",
                    "stroke": "#ff7a1a",
                    "stroke-width": s * 0.45,
                    "stroke-linejoin": "round",
                    "opacity": "0.9",
                },
            )
        )
    parts.append(
        _el(
            "polygon",
            {
                "class": "unit-body",
                "data-unit": uid,
                "points": _pts(corners),
                "fill": st["fill"],
                "stroke": st["edge"],
                "stroke-width": s * 0.1,
                "stroke-linejoin": "round",
            },
        )
    )
    # the front facing: a thick bright edge drawn just inside the front, plus a notch pointing out
    fw = s * 0.26
    fx, fy = fp.forward
    inset = (fw / 2) / s  # inches
    ifl = c.p((fp.corners()[0][0] - fx * inset, fp.corners()[0][1] - fy * inset))
    ifr = c.p((fp.corners()[1][0] - fx * inset, fp.corners()[1][1] - fy * inset))
    parts.append(
        _el(
            "line",
            {
                "class": "unit-front",
                "data-unit": uid,
                "x1": fl[0],
                "y1": fl[1],
                "x2": fr[0],
                "y2": fr[1],
                "stroke": st["edge"],
                "stroke-width": s * 0.1,
                "stroke-linecap": "round",
            },
        )
    )
    parts.append(
        _el(
            "line",
            {
                "class": "unit-front-edge",
                "data-unit": uid,
                "x1": ifl[0],
                "y1": ifl[1],
                "x2": ifr[0],
                "y2": ifr[1],
                "stroke": FRONT_COLOUR,
                "stroke-width": fw,
                "stroke-linecap": "butt",
            },
        )
    )
    fc = fp.front_centre
    tip_pt = c.p((fc[0] + fx * 0.35, fc[1] + fy * 0.35))
    rx, ry = fp.right
    b1 = c.p((fc[0] - rx * 0.3, fc[1] - ry * 0.3))
    b2 = c.p((fc[0] + rx * 0.3, fc[1] + ry * 0.3))
    parts.append(
        _el(
            "polygon",
            {
                "class": "unit-front-arrow",
                "points": _pts([b1, tip_pt, b2]),
                "fill": FRONT_COLOUR,
                "stroke": st["edge"],
                "stroke-width": s * 0.05,
                "stroke-linejoin": "round",
            },
        )
    )

    # decorations in an upright local frame centred on the unit
    w, d = c.d(fp.frontage), c.d(fp.depth)
    screen_rot = fp.heading
    rot = _upright(screen_rot)
    flipped = abs(math.fmod(rot - screen_rot + 720.0, 360.0)) > 1.0
    front_sign = 1.0 if flipped else -1.0  # where the front is along local y
    cx, cy = c.p((fp.x, fp.y))
    inner: list[str] = []
    fs = min(s * 0.62, w / 7.0, d / 2.6)
    small = fs * 0.78
    # row A (front half): personalities, label, melee marker; row B (rear half): hit track, shots
    row_a = front_sign * d * 0.1
    row_b = -front_sign * d * 0.26
    pad = s * 0.18
    icon_r = min(s * 0.36, d * 0.18)
    # row B, right to left: shots-left pill, "hits/max", then the bar takes what is left
    x_end = w / 2 - pad
    if missile:
        pill = _shots(x_end, row_b, small, shots_left, str(missile), st["edge"])
        inner.append(pill[0])
        x_end -= pill[1] + s * 0.15
    if max_hits > 0:
        hit_txt = f"{hits}/{max_hits}"
        inner.append(
            _el(
                "text",
                {
                    "class": "hit-text",
                    "x": x_end,
                    "y": row_b + small * 0.36,
                    "font-size": float(small),
                    "font-family": FONT,
                    "font-weight": "bold",
                    "text-anchor": "end",
                    "fill": st["text"],
                },
                _text(hit_txt),
            )
        )
        x_end -= len(hit_txt) * small * 0.66 + s * 0.15
        bar_x0 = -w / 2 + pad
        bar_x1 = max(x_end, bar_x0 + s * 0.5)
        bh = min(s * 0.3, d * 0.17)
        track = [
            _el(
                "rect",
                {
                    "class": "hit-bar-bg",
                    "x": bar_x0,
                    "y": row_b - bh / 2,
                    "width": bar_x1 - bar_x0,
                    "height": bh,
                    "fill": "#f4efe0",
                    "stroke": st["edge"],
                    "stroke-width": s * 0.03,
                },
            )
        ]
        if hits > 0:
            frac = min(1.0, hits / max_hits)
            track.append(
                _el(
                    "rect",
                    {
                        "class": "hit-bar",
                        "x": bar_x0,
                        "y": row_b - bh / 2,
                        "width": (bar_x1 - bar_x0) * frac,
                        "height": bh,
                        "fill": "#1a1a1a" if frac < 0.67 else "#8c0000",
                    },
                )
            )
        if 1 < max_hits <= 30 and (bar_x1 - bar_x0) / max_hits >= s * 0.12:
            segs = []
            for i in range(1, max_hits):
                xx = bar_x0 + (bar_x1 - bar_x0) * i / max_hits
                segs.append(f"M{_n(xx)},{_n(row_b - bh / 2)} v{_n(bh)}")
            track.append(
                _el(
                    "path",
                    {
                        "class": "hit-ticks",
                        "d": " ".join(segs),
                        "stroke": "#9a8f78",
                        "stroke-width": s * 0.04,
                    },
                )
            )
        inner.append(
            _el(
                "g",
                {"class": "hit-track", "data-hits": str(hits), "data-max-hits": str(max_hits)},
                "".join(track),
            )
        )
    # row A: personalities on the left, melee on the right, the label centred in between; when that
    # would squeeze the label, the markers go on a tag just behind the rear edge instead
    label = f"{uid} {short_type(utype)}"
    widths = [icon_r * (4.0 if p.endswith("+banner") else 2.4) for p in pers]
    melee_w = icon_r * 2.5 + s * 0.1 if in_melee else 0.0
    inside_room = w - 2 * pad - sum(widths) - melee_w
    outside = bool(pers or in_melee) and inside_room < len(label) * 0.64 * fs * 0.85
    x_left = -w / 2 + pad
    x_right = w / 2 - pad
    if outside:
        tag_w = sum(widths) + melee_w + s * 0.15
        tag_y = -front_sign * (d / 2 + icon_r * 1.45)
        tag = [
            _el(
                "rect",
                {
                    "x": -tag_w / 2,
                    "y": tag_y - icon_r * 1.3,
                    "width": tag_w,
                    "height": icon_r * 2.6,
                    "rx": icon_r * 0.8,
                    "fill": st["edge"],
                    "opacity": "0.85",
                },
            )
        ]
        tx = -tag_w / 2 + s * 0.1
        for p, pw in zip(pers, widths, strict=True):
            tag.append(_personality_icon(p, tx + icon_r, tag_y, icon_r))
            tx += pw
        if in_melee:
            tag.append(_swords(tx + icon_r * 1.25, tag_y, icon_r))
        inner.append(_el("g", {"class": "unit-tag"}, "".join(tag)))
    else:
        for p, pw in zip(pers, widths, strict=True):
            inner.append(_personality_icon(p, x_left + icon_r, row_a, icon_r))
            x_left += pw
        if in_melee:
            inner.append(_swords(x_right - icon_r * 1.25, row_a, icon_r))
            x_right -= melee_w
    room = max(x_right - x_left, s)
    lfs = min(fs, room / (len(label) * 0.64))
    inner.append(
        _el(
            "text",
            {
                "class": "unit-label",
                "x": (x_left + x_right) / 2,
                "y": row_a + lfs * 0.36,
                "font-size": float(lfs),
                "font-family": FONT,
                "font-weight": "bold",
                "text-anchor": "middle",
                "fill": st["text"],
            },
            _text(label),
        )
    )
    tr = f"translate({_n(cx)} {_n(cy)}) rotate({_n(rot)})"
    parts.append(_el("g", {"class": "unit-detail", "transform": tr}, "".join(inner)))
    return _el("g", {"class": cls, "data-unit": uid, "data-side": side, "id": f"unit-{uid}"}, "".join(parts))


# --------------------------------------------------------------------------------------------
# Highlights


def _arc_path(c: _Canvas, fp: Footprint, half: float, rng: float) -> str:
    fl, fr, _, _ = fp.corners()
    h = fp.heading

    def at(p: Pt, bearing: float, r: float) -> Pt:
        b = math.radians(bearing)
        return c.p((p[0] + r * math.sin(b), p[1] + r * math.cos(b)))

    R = c.d(rng)
    big = "1" if half > 180 else "0"
    a0, a1 = at(fl, h - half, rng), at(fl, h, rng)
    b0, b1 = at(fr, h, rng), at(fr, h + half, rng)
    sfl = c.p(fl)
    return (
        f"M{_n(sfl[0])},{_n(sfl[1])} L{_n(a0[0])},{_n(a0[1])}"
        f" A{_n(R)},{_n(R)} 0 {big} 1 {_n(a1[0])},{_n(a1[1])}"
        f" L{_n(b0[0])},{_n(b0[1])} A{_n(R)},{_n(R)} 0 {big} 1 {_n(b1[0])},{_n(b1[1])} Z"
    )


def _highlights_under(c: _Canvas, hl: Mapping[str, Any], units: Mapping[str, Mapping[str, Any]]) -> str:
    s = c.s
    out: list[str] = []
    band = hl.get("move_band")
    if isinstance(band, Mapping) and str(band.get("unit")) in units:
        uid = str(band["unit"])
        fp = _fp(units[uid])
        r = c.d(float(band.get("radius", 0.0)))
        w, d = c.d(fp.frontage), c.d(fp.depth)
        cx, cy = c.p((fp.x, fp.y))
        tr = f"translate({_n(cx)} {_n(cy)}) rotate({_n(fp.heading)})"
        out.append(
            _el(
                "rect",
                {
                    "class": "hl-move-band",
                    "data-unit": uid,
                    "transform": tr,
                    "x": -w / 2 - r,
                    "y": -d / 2 - r,
                    "width": w + 2 * r,
                    "height": d + 2 * r,
                    "rx": r,
                    "ry": r,
                    "fill": "#fffbe0",
                    "fill-opacity": "0.22",
                    "stroke": "#fffbe0",
                    "stroke-width": s * 0.1,
                    "stroke-dasharray": f"{_n(s * 0.5)} {_n(s * 0.3)}",
                },
            )
        )
    arc = hl.get("arc")
    if isinstance(arc, Mapping) and str(arc.get("unit")) in units:
        uid = str(arc["unit"])
        fp = _fp(units[uid])
        d_attr = _arc_path(c, fp, float(arc.get("half_angle", 45.0)), float(arc.get("range", 12.0)))
        out.append(
            _el(
                "path",
                {
                    "class": "hl-arc",
                    "data-unit": uid,
                    "d": d_attr,
                    "fill": "#ffd83b",
                    "fill-opacity": "0.16",
                    "stroke": "#ffd83b",
                    "stroke-opacity": "0.8",
                    "stroke-width": s * 0.08,
                    "stroke-dasharray": f"{_n(s * 0.4)} {_n(s * 0.25)}",
                },
            )
        )
    active = hl.get("active")
    if active is not None and str(active) in units:
        uid = str(active)
        pts = _pts(c.ps(_fp(units[uid]).corners()))
        out.append(
            _el(
                "polygon",
                {
                    "class": "hl-active",
                    "data-unit": uid,
                    "points": pts,
                    "fill": "#fff27a",
                    "stroke": "#fff27a",
                    "stroke-width": s * 0.7,
                    "stroke-linejoin": "round",
                    "filter": "url(#sw-glow)",
                    "opacity": "0.95",
                },
            )
        )
    return "".join(out)


def _highlights_over(c: _Canvas, hl: Mapping[str, Any], units: Mapping[str, Mapping[str, Any]]) -> str:
    s = c.s
    out: list[str] = []
    active = str(hl.get("active")) if hl.get("active") is not None else ""
    src = _fp(units[active]) if active in units else None
    for key, colour, cls in (
        ("charge_targets", "#ff3b30", "hl-charge-target"),
        ("shoot_targets", "#ffb300", "hl-shoot-target"),
    ):
        for t in hl.get(key) or []:
            uid = str(t)
            if uid not in units:
                continue
            fp = _fp(units[uid])
            cx, cy = c.p((fp.x, fp.y))
            parts: list[str] = []
            # which way the source lies (table frame); without a source, straight out of the front
            if src is not None and math.dist(src.front_centre, fp.centre) > 1e-6:
                sx, sy = src.front_centre
                ux, uy = sx - fp.x, sy - fp.y
                ln = math.hypot(ux, uy)
                ux, uy = ux / ln, uy / ln
            else:
                ux, uy = fp.forward
            if key == "charge_targets":
                # the marker sits just outside the target's edge on the side of the charger
                fx, fy = fp.forward
                rx, ry = fp.right
                along, across = abs(ux * fx + uy * fy), abs(ux * rx + uy * ry)
                t = min(
                    fp.depth / 2 / along if along > 1e-9 else math.inf,
                    fp.frontage / 2 / across if across > 1e-9 else math.inf,
                )
                mark = c.p((fp.x + ux * (t + 0.75), fp.y + uy * (t + 0.75)))
                parts.append(
                    _el(
                        "polygon",
                        {
                            "class": f"{cls}-outline",
                            "points": _pts(c.ps(fp.corners())),
                            "fill": colour,
                            "fill-opacity": "0.12",
                            "stroke": colour,
                            "stroke-width": s * 0.22,
                            "stroke-dasharray": f"{_n(s * 0.45)} {_n(s * 0.2)}",
                            "stroke-linejoin": "round",
                        },
                    )
                )
                if src is not None:
                    a = c.p(src.front_centre)
                    parts.append(
                        _el(
                            "line",
                            {
                                "class": f"{cls}-line",
                                "x1": a[0],
                                "y1": a[1],
                                "x2": mark[0],
                                "y2": mark[1],
                                "stroke": colour,
                                "stroke-width": s * 0.14,
                                "stroke-opacity": "0.9",
                                "stroke-dasharray": f"{_n(s * 0.5)} {_n(s * 0.3)}",
                            },
                        )
                    )
                parts.append(_swords(mark[0], mark[1], s * 0.4))
            else:
                r = c.d(max(fp.frontage, fp.depth) / 2 + 0.4)
                if src is not None:
                    a = c.p(src.front_centre)
                    # screen direction flips y
                    end = (cx + ux * r, cy - uy * r)
                    parts.append(
                        _el(
                            "line",
                            {
                                "class": f"{cls}-line",
                                "x1": a[0],
                                "y1": a[1],
                                "x2": end[0],
                                "y2": end[1],
                                "stroke": colour,
                                "stroke-width": s * 0.14,
                                "stroke-opacity": "0.9",
                                "stroke-dasharray": f"{_n(s * 0.5)} {_n(s * 0.3)}",
                            },
                        )
                    )
                ticks = (
                    f"M{_n(cx - r - s * 0.4)},{_n(cy)} h{_n(s * 0.8)}"
                    f" M{_n(cx + r - s * 0.4)},{_n(cy)} h{_n(s * 0.8)}"
                    f" M{_n(cx)},{_n(cy - r - s * 0.4)} v{_n(s * 0.8)}"
                    f" M{_n(cx)},{_n(cy + r - s * 0.4)} v{_n(s * 0.8)}"
                )
                parts.append(
                    _el(
                        "circle",
                        {
                            "class": f"{cls}-ring",
                            "cx": cx,
                            "cy": cy,
                            "r": r,
                            "fill": "none",
                            "stroke": colour,
                            "stroke-width": s * 0.16,
                        },
                    )
                )
                parts.append(
                    _el(
                        "path",
                        {
                            "class": f"{cls}-ticks",
                            "d": ticks,
                            "stroke": colour,
                            "stroke-width": s * 0.16,
                            "fill": "none",
                        },
                    )
                )
            out.append(_el("g", {"class": cls, "data-unit": uid}, "".join(parts)))
    return "".join(out)


# --------------------------------------------------------------------------------------------
# Furniture: title, scale bar, compass, key


def _furniture(c: _Canvas, view: Mapping[str, Any], title: str | None) -> str:
    s = c.s
    W, D = c.d(c.width), c.d(c.depth)
    out: list[str] = []
    if title is None:
        bits = [str(view.get("scenario") or "Battle")]
        if view.get("turn") is not None:
            t = f"turn {view['turn']}" + (f"/{view['max_turns']}" if view.get("max_turns") else "")
            bits.append(t)
        if view.get("side") and view.get("phase") and not view.get("result"):
            bits.append(f"{view['side']} {view['phase']}")
        res = view.get("result")
        if isinstance(res, Mapping):
            bits.append(f"winner: {res.get('winner') or 'draw'}")
        title = " \u00b7 ".join(bits)
    if title:
        out.append(
            _el(
                "text",
                {
                    "class": "title",
                    "x": 0.0,
                    "y": -s * 0.75,
                    "font-size": float(s * 0.95),
                    "font-family": FONT,
                    "font-weight": "bold",
                    "fill": "#2b2418",
                },
                _text(title),
            )
        )
    lost = view.get("lost")
    if isinstance(lost, Mapping) and lost:
        txt = "units lost: " + ", ".join(f"{k} {v}" for k, v in lost.items())
        out.append(
            _el(
                "text",
                {
                    "class": "lost",
                    "x": W,
                    "y": -s * 0.75,
                    "font-size": float(s * 0.6),
                    "font-family": FONT,
                    "text-anchor": "end",
                    "fill": "#4a4030",
                },
                _text(txt),
            )
        )
    # edge names
    out.append(
        _el(
            "text",
            {
                "class": "edge-label",
                "x": W / 2,
                "y": -s * 0.18,
                "font-size": float(s * 0.5),
                "font-family": FONT,
                "text-anchor": "middle",
                "fill": "#6b5e45",
                "letter-spacing": "2",
            },
            "NORTH EDGE",
        )
    )
    out.append(
        _el(
            "text",
            {
                "class": "edge-label",
                "x": W / 2,
                "y": D + s * 0.6,
                "font-size": float(s * 0.5),
                "font-family": FONT,
                "text-anchor": "middle",
                "fill": "#6b5e45",
                "letter-spacing": "2",
            },
            "SOUTH EDGE",
        )
    )
    # scale bar: 12 inches, alternate inch blocks, bottom-left
    n = int(min(12, max(2, c.width // 4)))
    y0 = D + s * 1.2
    bar = []
    for i in range(n):
        bar.append(
            _el(
                "rect",
                {
                    "x": c.d(i),
                    "y": y0,
                    "width": s,
                    "height": s * 0.3,
                    "fill": "#2b2418" if i % 2 == 0 else "#f4efe0",
                    "stroke": "#2b2418",
                    "stroke-width": s * 0.04,
                },
            )
        )
    for i in range(0, n + 1, 3 if n >= 6 else 1):
        bar.append(
            _el(
                "text",
                {
                    "x": c.d(i),
                    "y": y0 + s * 1.0,
                    "font-size": float(s * 0.5),
                    "font-family": FONT,
                    "text-anchor": "middle",
                    "fill": "#2b2418",
                },
                f"{i}\u2033",
            )
        )
    bar.append(
        _el(
            "text",
            {
                "x": c.d(n) + s * 0.4,
                "y": y0 + s * 0.3,
                "font-size": float(s * 0.5),
                "font-family": FONT,
                "fill": "#2b2418",
            },
            _text(f"inches (table {c.width:g}\u2033 \u00d7 {c.depth:g}\u2033)"),
        )
    )
    out.append(_el("g", {"class": "scale-bar"}, "".join(bar)))
    # key, bottom middle-right
    kx = c.d(n) + s * 9.5
    ky = y0 + s * 0.15
    key = [
        _el(
            "rect",
            {
                "x": kx,
                "y": ky - s * 0.25,
                "width": s * 1.2,
                "height": s * 0.6,
                "fill": SIDE_STYLE["red"]["fill"],
                "stroke": SIDE_STYLE["red"]["edge"],
                "stroke-width": s * 0.06,
            },
        ),
        _el(
            "rect",
            {
                "x": kx + s * 1.2,
                "y": ky - s * 0.25,
                "width": s * 1.2,
                "height": s * 0.6,
                "fill": SIDE_STYLE["blue"]["fill"],
                "stroke": SIDE_STYLE["blue"]["edge"],
                "stroke-width": s * 0.06,
            },
        ),
        _el(
            "line",
            {
                "x1": kx,
                "y1": ky - s * 0.17,
                "x2": kx + s * 2.4,
                "y2": ky - s * 0.17,
                "stroke": FRONT_COLOUR,
                "stroke-width": s * 0.18,
            },
        ),
        _el(
            "text",
            {
                "x": kx + s * 2.7,
                "y": ky + s * 0.2,
                "font-size": float(s * 0.5),
                "font-family": FONT,
                "fill": "#2b2418",
            },
            "red / blue unit, bright edge = front; bar = hits taken",
        ),
    ]
    out.append(_el("g", {"class": "key"}, "".join(key)))
    # compass, bottom right
    ccx, ccy, r = W - s * 0.9, D + s * 1.35, s * 0.75
    comp = [
        _el(
            "circle",
            {"cx": ccx, "cy": ccy, "r": r, "fill": "#f4efe0", "stroke": "#2b2418", "stroke-width": s * 0.06},
        ),
        _el(
            "polygon",
            {
                "points": _pts([(ccx, ccy - r * 0.85), (ccx + r * 0.3, ccy), (ccx - r * 0.3, ccy)]),
                "fill": "#2b2418",
            },
        ),
        _el(
            "polygon",
            {
                "points": _pts([(ccx, ccy + r * 0.85), (ccx + r * 0.3, ccy), (ccx - r * 0.3, ccy)]),
                "fill": "#f4efe0",
                "stroke": "#2b2418",
                "stroke-width": s * 0.04,
            },
        ),
        _el(
            "text",
            {
                "x": ccx - r - s * 0.25,
                "y": ccy + s * 0.2,
                "font-size": float(s * 0.6),
                "font-family": FONT,
                "font-weight": "bold",
                "text-anchor": "end",
                "fill": "#2b2418",
            },
            "N\u2191",
        ),
    ]
    out.append(_el("g", {"class": "compass"}, "".join(comp)))
    return "".join(out)


# --------------------------------------------------------------------------------------------
# Entry point


STYLE = (
    "<style>"
    ".unit,.terrain{cursor:pointer}"
    ".unit:hover .unit-body{stroke:#ffffff}"
    ".terrain:hover>polygon:first-of-type{filter:brightness(1.08)}"
    "</style>"
)


def render_svg(
    view: dict[str, Any],
    *,
    highlight: dict[str, Any] | None = None,
    scale: float = 16.0,
    title: str | None = None,
) -> str:
    """Draw a battle view as a standalone SVG document (a string).

    ``view`` is ``State.view()``. ``highlight`` may hold ``active`` (a unit id: glow), ``move_band``
    (``{"unit", "radius"}``: the band a move may reach), ``charge_targets`` / ``shoot_targets`` (unit
    ids), ``arc`` (``{"unit", "half_angle", "range"}``: the front arc wedge). ``scale`` is SVG units
    per inch. ``title`` None makes a caption from the view; ``""`` draws none.
    """
    table = view.get("table") or {}
    width = float(table.get("width", 48.0))
    depth = float(table.get("depth", 36.0))
    c = _Canvas(width, depth, float(scale))
    s = c.s
    ml, mt, mr, mb = (c.d(m) for m in MARGIN)
    W, D = c.d(width), c.d(depth)
    vw, vh = W + ml + mr, D + mt + mb
    hl = highlight or {}
    live = {str(u["id"]): u for u in view.get("units", []) if not u.get("removed")}

    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="shieldwall-board" width="{_n(vw)}" height="{_n(vh)}"'
        f' viewBox="{_n(-ml)} {_n(-mt)} {_n(vw)} {_n(vh)}" data-scale="{_n(s)}"'
        f' data-table-width="{_n(width)}"'
        f' data-table-depth="{_n(depth)}">',
        STYLE,
        _defs(c),
        _el("rect", {"class": "paper", "x": -ml, "y": -mt, "width": vw, "height": vh, "fill": "#efe6cf"}),
        _el(
            "rect",
            {
                "class": "table-shadow",
                "x": s * 0.15,
                "y": s * 0.2,
                "width": W,
                "height": D,
                "fill": "#000000",
                "opacity": "0.25",
            },
        ),
        _el(
            "rect",
            {
                "class": "table",
                "x": 0.0,
                "y": 0.0,
                "width": W,
                "height": D,
                "fill": "url(#sw-cloth)",
                "stroke": "#4a3a22",
                "stroke-width": s * 0.15,
            },
        ),
    ]
    # faint 6" grid to help judge distances
    grid = []
    for gx in range(6, int(width), 6):
        grid.append(f"M{_n(c.d(gx))},0 V{_n(D)}")
    for gy in range(6, int(depth), 6):
        grid.append(f"M0,{_n(D - c.d(gy))} H{_n(W)}")
    if grid:
        out.append(
            _el(
                "path",
                {
                    "class": "grid",
                    "d": " ".join(grid),
                    "stroke": "#ffffff",
                    "stroke-opacity": "0.12",
                    "stroke-width": s * 0.05,
                    "fill": "none",
                },
            )
        )

    features = sorted(
        enumerate(view.get("terrain", [])), key=lambda t: (TERRAIN_ORDER.get(str(t[1].get("kind")), 9), t[0])
    )
    shapes, labels = [], []
    for _, f in features:
        sh, lab = _terrain(c, f)
        shapes.append(sh)
        labels.append(lab)
    out.append(_el("g", {"class": "terrain-layer", "clip-path": "url(#sw-table-clip)"}, "".join(shapes)))
    out.append(_el("g", {"class": "terrain-labels"}, "".join(labels)))
    out.append(
        _el(
            "g",
            {"class": "highlights-under", "clip-path": "url(#sw-table-clip)"},
            _highlights_under(c, hl, live),
        )
    )
    out.append(_el("g", {"class": "units"}, "".join(_unit(c, u) for u in live.values())))
    out.append(_el("g", {"class": "highlights-over"}, _highlights_over(c, hl, live)))
    out.append(_el("g", {"class": "furniture"}, _furniture(c, view, title)))
    out.append("</svg>")
    return "".join(out) + "\n"
