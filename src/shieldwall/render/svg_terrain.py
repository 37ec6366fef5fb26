"""Drawing terrain features for ``render_svg``."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from shieldwall.render.svg_base import (
    MAX_MARKS,
    _Canvas,
    _centroid,
    _direction_near,
    _el,
    _halo_text,
    _hash01,
    _n,
    _polyline_point_at,
    _pts,
    _scatter,
    _text,
    _upright,
)

Pt = tuple[float, float]


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
        n = max(3, min(MAX_MARKS, int(length / (s * 0.35))))
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
            m = max(2, min(MAX_MARKS, int(cw * 1.5)))
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
