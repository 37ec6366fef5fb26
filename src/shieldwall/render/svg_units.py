"""Drawing units (footprint, front edge, label, hits, markers) for ``render_svg``; the label's unit
type and the personality icons come from the rule system's drawing (``render.layers``)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from shieldwall.core.geometry import Footprint
from shieldwall.render.svg_base import (
    FONT,
    FRONT_COLOUR,
    NEUTRAL_STYLE,
    SIDE_STYLE,
    _Canvas,
    _el,
    _n,
    _pts,
    _text,
    _upright,
)

if TYPE_CHECKING:
    from shieldwall.render.layers import Drawing

Pt = tuple[float, float]


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


def _personality_icon(drawing: Drawing, label: str, cx: float, cy: float, r: float) -> str:
    kind = label.partition("+")[0]
    return _el(
        "g",
        {"class": f"personality personality-{kind}", "data-personality": label},
        drawing.personality(label, cx, cy, r),
    )


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


def _unit(c: _Canvas, u: Mapping[str, Any], drawing: Drawing) -> str:
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
    label = f"{uid} {drawing.type_label(utype)}"
    widths = [drawing.personality_width(p, icon_r) for p in pers]
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
            tag.append(_personality_icon(drawing, p, tx + icon_r, tag_y, icon_r))
            tx += pw
        if in_melee:
            tag.append(_swords(tx + icon_r * 1.25, tag_y, icon_r))
        inner.append(_el("g", {"class": "unit-tag"}, "".join(tag)))
    else:
        for p, pw in zip(pers, widths, strict=True):
            inner.append(_personality_icon(drawing, p, x_left + icon_r, row_a, icon_r))
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
