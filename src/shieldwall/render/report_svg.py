"""The pictures of a battle report (``render.report``): a turn's map with its movement arrows,
losses and combats drawn over the rule system's own table, the losses-per-turn bar chart, and the
sharing of the terrain layer between the maps of one page (drawn once, reused by ``<use>``).

Everything here works on ``State.view()`` dictionaries only (every unit view has ``id``, ``side``,
``x`` and ``y`` in the table's unit of length), so it serves every rule system alike.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from shieldwall.render.svg import render_svg
from shieldwall.render.svg_base import FONT, SIDE_STYLE, _el, _n, _pts, _text

__all__ = ["Combat", "is_lost", "losses_chart", "share_terrain", "side_colour", "turn_map"]

Pt = tuple[float, float]

#: colours of sides the table renderer has no style for, in the order of the rule system's sides
PALETTE = ("#b8322a", "#2c5c9e", "#4f8a3a", "#b08a4a", "#7a4f9e", "#333333")

#: sides named after a colour the table has no style for (a darker shade reads on the cloth)
NAMED = {
    "green": "#3f7f3a",
    "tan": "#b8955a",
    "black": "#333333",
    "white": "#e8e8e8",
    "yellow": "#d4b21f",
    "orange": "#d9782d",
    "purple": "#7a4f9e",
    "brown": "#7a5230",
    "grey": "#777777",
    "gray": "#777777",
}

#: a unit view flagged with any of these is off the table (lost, routed off, destroyed)
GONE_FLAGS = ("removed", "gone", "destroyed")

#: one combat on a map: the unit ids of the two (or more) sides and how many dice events it took
Combat = tuple[tuple[str, ...], int]


def side_colour(side: str, sides: Sequence[str]) -> str:
    """The colour of a side: the table's own when it has one, else one of :data:`PALETTE`."""
    style = SIDE_STYLE.get(side)
    if style is not None:
        return style["fill"]
    if side.lower() in NAMED:
        return NAMED[side.lower()]
    i = list(sides).index(side) if side in sides else len(sides)
    return PALETTE[i % len(PALETTE)]


def is_lost(unit: Mapping[str, Any] | None) -> bool:
    """A unit that is no longer on the table: absent from the view or flagged gone."""
    return unit is None or any(bool(unit.get(f)) for f in GONE_FLAGS)


def _pos(u: Mapping[str, Any] | None) -> Pt | None:
    if u is None:
        return None
    try:
        return (float(u["x"]), float(u["y"]))
    except (KeyError, TypeError, ValueError):
        return None


def _arrow(a: Pt, b: Pt, colour: str, w: float) -> str:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    ux, uy = dx / length, dy / length
    head = min(8.0 * w, length * 0.6)
    base = (b[0] - ux * head, b[1] - uy * head)
    left = (base[0] - uy * head * 0.55, base[1] + ux * head * 0.55)
    right = (base[0] + uy * head * 0.55, base[1] - ux * head * 0.55)
    line = f"M{_n(a[0])},{_n(a[1])} L{_n(base[0])},{_n(base[1])}"
    return (
        _el(
            "path",
            {
                "d": line,
                "stroke": "#1d1d1d",
                "stroke-width": w * 1.8,
                "stroke-opacity": "0.55",
                "fill": "none",
            },
        )
        + _el("path", {"d": line, "stroke": colour, "stroke-width": w, "fill": "none"})
        # a white head with a dark edge reads on the unit it points at, whatever its side's colour
        + _el(
            "polygon",
            {"points": _pts([b, left, right]), "fill": "#ffffff", "stroke": colour, "stroke-width": w * 0.7},
        )
    )


def _x(p: Pt, r: float) -> str:
    """The path of an X of half-size ``r`` centred on ``p``."""
    a, b, c, d = _n(p[0] - r), _n(p[0] + r), _n(p[1] - r), _n(p[1] + r)
    return f"M{a},{c} L{b},{d} M{a},{d} L{b},{c}"


def _cross(p: Pt, r: float, w: float) -> str:
    d = _x(p, r)
    return _el("path", {"d": d, "stroke": "#f4efe0", "stroke-width": w * 2.6, "fill": "none"}) + _el(
        "path", {"d": d, "stroke": "#8b0000", "stroke-width": w * 1.4, "fill": "none"}
    )


def _swords(p: Pt, r: float, w: float, label: str) -> str:
    body = _el(
        "circle",
        {"cx": p[0], "cy": p[1], "r": r, "fill": "#ffd83b", "stroke": "#1d1d1d", "stroke-width": w * 0.6},
    )
    q = r * 0.55
    d = _x(p, q)
    body += _el("path", {"d": d, "stroke": "#1d1d1d", "stroke-width": w * 0.8, "fill": "none"})
    return _el("g", {"class": "report-combat"}, f"<title>{_text(label)}</title>{body}")


def turn_map(
    start: Mapping[str, Any],
    end: dict[str, Any],
    combats: Sequence[Combat],
    sides: Sequence[str],
    names: Mapping[str, str],
    scale: float = 16.0,
) -> str:
    """The table at the end of a turn (the rule system's drawing of ``end``) with an arrow from
    each unit's position in ``start`` to its position in ``end``, a cross where a unit was lost
    this turn, and a mark between the sides of each combat."""
    svg = render_svg(end, title="", scale=scale)
    table = end.get("table") or {}
    width, depth = float(table.get("width", 48.0)), float(table.get("depth", 36.0))
    s = float(scale)

    def p(q: Pt) -> Pt:
        return (q[0] * s, (depth - q[1]) * s)

    w = max(width, depth) * s / 420.0
    before = {str(u["id"]): u for u in start.get("units", [])}
    after = {str(u["id"]): u for u in end.get("units", [])}
    marks: list[str] = []
    lost: list[str] = []
    for uid, u in before.items():
        if is_lost(u):
            continue
        a, now = _pos(u), after.get(uid)
        if a is None:
            continue
        # a lost unit is marked where it stood (its last view may put it anywhere, even at 0,0)
        b = a if is_lost(now) else (_pos(now) or a)
        colour = side_colour(str(u.get("side")), sides)
        if math.hypot(b[0] - a[0], b[1] - a[1]) > max(width, depth) * 0.004:
            marks.append(_arrow(p(a), p(b), colour, w))
        if is_lost(now):
            lost.append(
                _el(
                    "g",
                    {"class": "report-lost", "data-unit": uid},
                    f"<title>{_text(names.get(uid, uid))} lost</title>{_cross(p(b), w * 5, w)}",
                )
            )
    fights: list[str] = []
    for ids, n in combats:
        pts = [
            q for q in (_pos(after.get(i) if not is_lost(after.get(i)) else before.get(i)) for i in ids) if q
        ]
        if not pts:
            continue
        c = (sum(q[0] for q in pts) / len(pts), sum(q[1] for q in pts) / len(pts))
        who = " v ".join(names.get(i, i) for i in ids)
        fights.append(_swords(p(c), w * 5.5, w, f"{who}: {n} roll{'s' if n != 1 else ''}"))
    overlay = _el(
        "g", {"class": "report-marks", "opacity": "0.9"}, "".join(marks) + "".join(lost) + "".join(fights)
    )
    head, tail = svg.rstrip().rsplit("</svg>", 1)
    return head + overlay + "</svg>" + tail


def _group(svg: str, cls: str) -> tuple[int, int, int] | None:
    """Where the ``<g class="cls" ...>`` of ``svg`` is: (start of the tag, start of its content,
    start of its closing ``</g>``)."""
    start = svg.find(f'<g class="{cls}"')
    if start < 0:
        return None
    open_end = svg.index(">", start) + 1
    depth, i = 1, open_end
    while depth:
        nxt_open, nxt_close = svg.find("<g", i), svg.find("</g>", i)
        if nxt_close < 0:
            return None
        if 0 <= nxt_open < nxt_close:
            # a self-closed <g .../> does not nest
            tag_end = svg.index(">", nxt_open)
            depth += 0 if svg[tag_end - 1] == "/" else 1
            i = tag_end + 1
        else:
            depth -= 1
            i = nxt_close + 4
    return start, open_end, i - 4


def share_terrain(svgs: Sequence[str]) -> tuple[str, list[str]]:
    """Draw the terrain once: a hidden ``<svg>`` holding each distinct terrain layer, and the maps
    with their (identical) terrain layer replaced by a ``<use>`` of it. Terrain often makes most of
    a map's bytes, and it rarely changes from turn to turn."""
    shared: dict[str, str] = {}
    out = []
    for svg in svgs:
        where = _group(svg, "terrain-layer")
        if where is None:
            out.append(svg)
            continue
        _, a, b = where
        body = svg[a:b]
        if len(body) < 200:
            out.append(svg)
            continue
        ref = shared.setdefault(body, f"report-terrain-{len(shared)}")
        out.append(svg[:a] + f'<use href="#{ref}"/>' + svg[b:])
    if not shared:
        return "", out
    defs = "".join(f'<g id="{ref}">{body}</g>' for body, ref in shared.items())
    hidden = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0" class="report-shared"'
        f' aria-hidden="true" style="position:absolute"><defs>{defs}</defs></svg>'
    )
    return hidden, out


def losses_chart(turns: Sequence[int], lost: Mapping[int, Mapping[str, int]], sides: Sequence[str]) -> str:
    """Units lost per turn per side as a grouped bar chart (a standalone SVG)."""
    n = max(len(turns), 1)
    top = max([1, *(lost.get(t, {}).get(sd, 0) for t in turns for sd in sides)])
    left, right, head, foot = 42.0, 12.0, 30.0, 34.0
    slot = max(14.0, min(60.0, 620.0 / n))
    pw, ph = slot * n, 180.0
    bw = slot * 0.8 / max(len(sides), 1)
    vw, vh = _n(left + pw + right), _n(head + ph + foot)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="report-losses" viewBox="0 0 {vw} {vh}"'
        f' width="{vw}" height="{vh}" role="img" aria-label="Units lost per turn per side">',
        _el(
            "rect",
            {"x": 0.0, "y": 0.0, "width": left + pw + right, "height": head + ph + foot, "fill": "#fbf7ec"},
        ),
    ]
    step = max(1, math.ceil(top / 5))
    for v in range(0, top + 1, step):
        y = head + ph - ph * v / top
        out.append(
            _el(
                "line",
                {"x1": left, "y1": y, "x2": left + pw, "y2": y, "stroke": "#cfc6b0", "stroke-width": 0.6},
            )
        )
        out.append(
            _el(
                "text",
                {"x": left - 6, "y": y + 4, "font-size": 11.0, "font-family": FONT, "text-anchor": "end"},
                str(v),
            )
        )
    for k, t in enumerate(turns):
        x0 = left + slot * k + slot * 0.1
        for j, sd in enumerate(sides):
            v = lost.get(t, {}).get(sd, 0)
            if v:
                h = ph * v / top
                out.append(
                    _el(
                        "rect",
                        {
                            "class": "bar",
                            "data-turn": t,
                            "data-side": sd,
                            "data-lost": v,
                            "x": x0 + j * bw,
                            "y": head + ph - h,
                            "width": bw * 0.92,
                            "height": h,
                            "fill": side_colour(sd, sides),
                        },
                        f"<title>turn {t}: {_text(sd)} lost {v}</title>",
                    )
                )
        if n <= 30 or k % math.ceil(n / 30) == 0:
            out.append(
                _el(
                    "text",
                    {
                        "x": left + slot * (k + 0.5),
                        "y": head + ph + 14,
                        "font-size": 11.0,
                        "font-family": FONT,
                        "text-anchor": "middle",
                    },
                    str(t),
                )
            )
    out.append(
        _el(
            "text",
            {
                "x": left + pw / 2,
                "y": head + ph + 29,
                "font-size": 11.0,
                "font-family": FONT,
                "text-anchor": "middle",
            },
            "turn",
        )
    )
    lx = left
    for sd in sides:
        out.append(
            _el("rect", {"x": lx, "y": 8.0, "width": 12.0, "height": 12.0, "fill": side_colour(sd, sides)})
        )
        out.append(_el("text", {"x": lx + 16, "y": 18.0, "font-size": 12.0, "font-family": FONT}, _text(sd)))
        lx += 30 + 8 * len(sd)
    out.append(
        _el(
            "line",
            {
                "x1": left,
                "y1": head + ph,
                "x2": left + pw,
                "y2": head + ph,
                "stroke": "#1d1d1d",
                "stroke-width": 1.0,
            },
        )
    )
    out.append("</svg>")
    return "".join(out)
