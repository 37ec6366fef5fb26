"""into-the-dark's layers of the SVG picture (the plugin's ``drawing``): figures and ranks, morale
state, terrain kinds.

``render_svg`` draws every unit's body, front edge, label and casualty bar the same way for each
rule system (``shieldwall.render.layers``). An into-the-dark unit (its view has ``morale`` and
``ranks``) also gets, on top (``unit_marks``):

* its footprint in figures: a tick between files along the front rank and a line between ranks;
* its morale state: a badge at the rear corner, **S** shaken (amber), **R** routed (red, and the
  body hatched), **D** disordered (violet), **E** evading (grey), and a shield row along the front
  when it stands in shieldwall;
* a tooltip with figures left of the original, files and ranks, quality and state.

Into-the-dark terrain kinds are drawn with the closest kind the renderer knows (``draw_kind``),
keeping their own name in the tooltip. All pure functions of the view.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from shieldwall.render.layers import FONT, BaseDrawing, Canvas, el, footprint, num, pts, text

Pt = tuple[float, float]

#: into-the-dark terrain kind -> the drawing used for it
DRAW_AS = {
    "steep-hill": "hill",
    "open-woods": "woods",
    "dense-woods": "woods",
    "brush": "woods",
    "swamp": "marsh",
    "rough": "marsh",
    "buildings": "village",
    "shallow-stream": "river",
    "deep-stream": "river",
    "fence": "wall",
    "ditch": "gully",
    "deep-water": "lake",
}

#: badge letter, fill and tooltip word of each state, in drawing order
BADGES = (
    ("routed", "R", "#b3001b", "routed"),
    ("shaken", "S", "#e89a0c", "shaken"),
    ("disordered", "D", "#7b3fa0", "disordered"),
    ("evading", "E", "#5c5c5c", "evading"),
)


def is_itd_unit(u: Mapping[str, Any]) -> bool:
    return "morale" in u and "ranks" in u and "front" in u


def draw_kind(f: Mapping[str, Any]) -> Mapping[str, Any]:
    """The terrain feature as the renderer should draw it (into-the-dark kinds mapped)."""
    kind = str(f.get("kind", ""))
    if kind not in DRAW_AS:
        return f
    return {**f, "kind": DRAW_AS[kind], "name": f.get("name") or kind}


def _lerp(a: Pt, b: Pt, t: float) -> Pt:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def _states(u: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    out = []
    for key, letter, fill, word in BADGES:
        on = u.get("morale") == key if key in ("routed", "shaken") else bool(u.get(key))
        if on:
            out.append((letter, fill, word))
    return out


def unit_marks(c: Canvas, u: Mapping[str, Any]) -> str:
    """The into-the-dark marks of one unit (empty for a unit view without figures and ranks)."""
    if not is_itd_unit(u):
        return ""
    s = c.s
    fl, fr, rr, rl = c.ps(footprint(u).corners())
    front = max(1, int(u.get("front") or 1))
    ranks = max(1, int(u.get("ranks") or 1))
    figures = int(u.get("figures") or 0)
    original = int(u.get("original") or figures)
    states = _states(u)
    parts: list[str] = []
    tip = [
        f"{u.get('id')}: {u.get('name')} ({u.get('code', u.get('type', ''))}, {u.get('quality', '')})",
        f"figures {figures} of {original}: {front} wide, {ranks} rank{'s' if ranks != 1 else ''}",
        "state: "
        + (", ".join(w for _, _, w in states) or "steady")
        + (", shieldwall" if u.get("shieldwall") else ""),
    ]
    if u.get("mixed"):
        tip.append(
            "mixed: "
            + ", ".join(f"{m.get('figures')} {m.get('code')} {m.get('type')}" for m in u.get("mixed") or ())
        )
    if u.get("general"):
        tip.append("a general's figure: one hit removes him; no value in combat")
    if u.get("generals"):
        tip.append("led by general " + ", ".join(str(x) for x in u.get("generals") or ()))
    parts.append(el("title", {}, text("\n".join(tip))))
    ink = {"stroke": "#000000", "stroke-opacity": "0.35", "stroke-width": s * 0.04, "fill": "none"}
    # files along the front rank and lines between ranks
    d = []
    tick = min(0.3, 1.0 / ranks)
    for i in range(1, front):
        a = _lerp(fl, fr, i / front)
        b = _lerp(rl, rr, i / front)
        e = _lerp(a, b, tick)
        d.append(f"M{num(a[0])},{num(a[1])} L{num(e[0])},{num(e[1])}")
    for k in range(1, ranks):
        a = _lerp(fl, rl, k / ranks)
        b = _lerp(fr, rr, k / ranks)
        d.append(f"M{num(a[0])},{num(a[1])} L{num(b[0])},{num(b[1])}")
    if d:
        parts.append(el("path", {"class": "itd-files", "d": " ".join(d), **ink}))
    if u.get("morale") == "routed":
        parts.append(
            el(
                "polygon",
                {
                    "class": "itd-routed",
                    "points": pts([fl, fr, rr, rl]),
                    "fill": "url(#sw-itd-rout)",
                    "stroke": "#b3001b",
                    "stroke-width": s * 0.12,
                    "stroke-dasharray": f"{num(s * 0.4)} {num(s * 0.25)}",
                },
            )
        )
    if u.get("general"):
        # a general's own figure: a gold pennant over it (command.generals)
        cx, cy = _lerp(_lerp(fl, fr, 0.5), _lerp(rl, rr, 0.5), 0.5)
        r = max(s * 0.35, math.dist(fl, fr) * 0.45)
        star = [(cx, cy - r), (cx + r * 0.8, cy + r * 0.6), (cx - r * 0.8, cy + r * 0.6)]
        parts.append(
            el(
                "polygon",
                {"class": "itd-general", "points": pts(star), "fill": "#d4a017", "stroke": "#3a2a00"},
            )
        )
    if u.get("generals"):
        # a general leading the unit, mixed in with its front rank (command.general-leading)
        x, y = _lerp(fl, fr, 0.5)
        r = s * 0.3
        parts.append(
            el(
                "polygon",
                {
                    "class": "itd-led",
                    "points": pts([(x, y - r), (x + r, y), (x, y + r), (x - r, y)]),
                    "fill": "#d4a017",
                    "stroke": "#3a2a00",
                },
            )
        )
    if u.get("shieldwall"):
        n = min(front, 24)
        rad = min(s * 0.22, math.dist(fl, fr) / (2.4 * n))
        dots = []
        for i in range(n):
            x, y = _lerp(fl, fr, (i + 0.5) / n)
            dots.append(el("circle", {"cx": x, "cy": y, "r": rad, "fill": "#d9d2bd", "stroke": "#3a3a3a"}))
        parts.append(el("g", {"class": "itd-shieldwall", "stroke-width": s * 0.04}, "".join(dots)))
    # badges in a row just behind the rear edge, from the right-hand rear corner
    size = s * 0.8
    rear = max(1e-6, math.dist(rr, rl))
    ox, oy = (rr[0] - fr[0]) / max(1e-6, math.dist(rr, fr)), (rr[1] - fr[1]) / max(1e-6, math.dist(rr, fr))
    for k, (letter, fill, word) in enumerate(states):
        bx, by = _lerp(rr, rl, min(1.0, (k + 0.5) * size * 1.1 / rear))
        x, y = bx + ox * size * 0.6, by + oy * size * 0.6
        parts.append(
            el(
                "g",
                {"class": f"itd-badge itd-{word}"},
                el(
                    "circle",
                    {
                        "cx": x,
                        "cy": y,
                        "r": size / 2,
                        "fill": fill,
                        "stroke": "#ffffff",
                        "stroke-width": s * 0.06,
                    },
                )
                + el(
                    "text",
                    {
                        "x": x,
                        "y": y + size * 0.18,
                        "font-family": FONT,
                        "font-size": size * 0.62,
                        "font-weight": "bold",
                        "text-anchor": "middle",
                        "fill": "#ffffff",
                    },
                    letter,
                ),
            )
        )
    return el(
        "g",
        {
            "class": "itd-unit",
            "data-unit": str(u.get("id")),
            "data-figures": figures,
            "data-morale": str(u.get("morale")),
        },
        "".join(parts),
    )


def rout_defs(c: Canvas) -> str:
    """The hatch pattern of routed units."""
    s = c.s
    return (
        "<defs>"
        + el(
            "pattern",
            {
                "id": "sw-itd-rout",
                "patternUnits": "userSpaceOnUse",
                "width": s * 0.5,
                "height": s * 0.5,
                "patternTransform": "rotate(45)",
            },
            el("rect", {"width": s * 0.18, "height": s * 0.5, "fill": "#000000", "opacity": "0.35"}),
        )
        + "</defs>"
    )


class IntoTheDarkDrawing(BaseDrawing):
    def defs(self, c: Canvas) -> str:
        return rout_defs(c)

    def terrain(self, view: Mapping[str, Any], feature: Mapping[str, Any]) -> Mapping[str, Any]:
        return draw_kind(feature)

    def unit(self, c: Canvas, u: Mapping[str, Any]) -> str:
        return unit_marks(c, u)


DRAWING = IntoTheDarkDrawing()
