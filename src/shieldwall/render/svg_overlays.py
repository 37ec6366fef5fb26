"""Drawing highlights (reach, arcs, targets) and the table furniture for ``render_svg``."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from shieldwall.core.geometry import Footprint
from shieldwall.render.svg_base import FONT, FRONT_COLOUR, SIDE_STYLE, _Canvas, _el, _n, _pts, _text
from shieldwall.render.svg_units import _fp, _swords

#: a bold title's mean character width in ems (DejaVu Sans Bold, mixed case: a generous estimate)
TITLE_EM = 0.62
#: the smallest a long title's font gets, as a share of its normal size, before it is squeezed
TITLE_MIN = 0.6

Pt = tuple[float, float]


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


def _zone(c: _Canvas, zone: Mapping[str, Any]) -> str:
    """A zone of the table a rule system names (``{"points": [[x, y], ...], "label": ...}``): a
    deployment zone, drawn as a dashed outline with its label."""
    pts = [c.p((float(x), float(y))) for x, y in zone.get("points", [])]
    if len(pts) < 3:
        return ""
    label = str(zone.get("label", ""))
    top = min(pts, key=lambda p: (p[1], p[0]))
    poly = _el(
        "polygon",
        {
            "class": "hl-zone",
            "points": _pts(pts),
            "fill": "#9fe0a0",
            "fill-opacity": "0.16",
            "stroke": "#2e7d32",
            "stroke-width": c.s * 0.1,
            "stroke-dasharray": f"{_n(c.s * 0.6)} {_n(c.s * 0.3)}",
        },
    )
    if not label:
        return poly
    text = _el(
        "text",
        {
            "class": "hl-zone-label",
            "x": top[0] + c.s * 0.3,
            "y": top[1] + c.s * 0.8,
            "font-size": float(c.s * 0.6),
            "font-family": FONT,
            "fill": "#1b5e20",
        },
        _text(label),
    )
    return poly + text


def _highlights_under(c: _Canvas, hl: Mapping[str, Any], units: Mapping[str, Mapping[str, Any]]) -> str:
    s = c.s
    out: list[str] = []
    zone = hl.get("zone")
    if isinstance(zone, Mapping):
        out.append(_zone(c, zone))
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


def _furniture(c: _Canvas, view: Mapping[str, Any], title: str | None, fixed: str | None = None) -> str:
    """The title, the units lost, and the fixed furniture (``fixed``: ``_fixed_furniture(c)``, when
    the caller has it already drawn)."""
    s = c.s
    W = c.d(c.width)
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
        size = float(s * 0.95)
        attrs: dict[str, Any] = {"class": "title", "x": 0.0, "y": -s * 0.75}
        wide = len(title) * size * TITLE_EM
        if wide > W:  # a long title (a data label, say) is made smaller, then squeezed, to fit
            size = max(size * TITLE_MIN, W / (len(title) * TITLE_EM))
            if len(title) * size * TITLE_EM > W:
                attrs.update({"textLength": W, "lengthAdjust": "spacingAndGlyphs"})
        attrs.update({"font-size": size, "font-family": FONT, "font-weight": "bold", "fill": "#2b2418"})
        out.append(_el("text", attrs, _text(title)))
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
    out.append(_fixed_furniture(c) if fixed is None else fixed)
    return "".join(out)


def _fixed_furniture(c: _Canvas) -> str:
    """The furniture that depends on the table's size alone (edge names, scale bar, key, compass)."""
    s = c.s
    W, D = c.d(c.width), c.d(c.depth)
    out: list[str] = []
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
