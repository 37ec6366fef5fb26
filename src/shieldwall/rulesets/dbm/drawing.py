"""dbm-3.2's layers of the SVG picture (the plugin's ``drawing``): bases in paces, the scenario's
terrain rectangles drawn as the generic kinds nearest them, fortification sections as walls named
for their holder and front (rulings R40, R41), riderless mounts as named areas (R42), troop-type
codes as labels, and the line-up shifts and conforms of the last two bounds (``unit``): a dashed
ghost of the base where it stood before, an arrow to where the move left it, a label ("line-up
shift 40 p", "conformed", "made room 3 p") and a tooltip citing the clause. The illustrative-data
label is the view's ``label`` (the page and reports show it)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from shieldwall.render.layers import FONT, BaseDrawing, Canvas, el, num, pts, text

#: terrain kinds of the sample data -> the generic renderer's kinds
KINDS = {
    "hill-gentle": "hill",
    "hill-steep": "hill",
    "wood": "woods",
    "brush": "marsh",
    "BUA": "village",
    "WW": "lake",
    "river": "river",
    "stream": "river",
    "road": "road",
}

#: the arrow's colour for each kind of adjustment
INK = {"lineup-shift": "#ffd43b", "conform": "#ff922b", "make-room": "#74c0fc"}


class DbmDrawing(BaseDrawing):
    def terrain(self, view: Mapping[str, Any], feature: Mapping[str, Any]) -> Mapping[str, Any]:
        if "points" in feature:
            if feature.get("kind") == "riderless-mounts":  # a plain area, named (ruling R42)
                return {**feature, "name": f"riderless mounts ({feature.get('side')})"}
            return feature
        kind = str(feature.get("kind", ""))
        x0, y0, x1, y1 = (float(feature[k]) for k in ("x0", "y0", "x1", "y1"))
        if kind == "fortification":  # a wall along the section's long side, named for its holder
            name = f"fortification ({feature.get('side')}, faces {feature.get('front')})"
            return {**self._linear(x0, y0, x1, y1), "kind": "wall", "name": name, "id": feature.get("id", "")}
        generic = KINDS.get(kind, "hill")
        if generic in ("river", "road"):  # linear: the centre line of the long side
            return {**self._linear(x0, y0, x1, y1), "kind": generic, "name": kind}
        return {"kind": generic, "name": kind, "points": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]}

    @staticmethod
    def _linear(x0: float, y0: float, x1: float, y1: float) -> dict[str, Any]:
        if x1 - x0 >= y1 - y0:
            ym = (y0 + y1) / 2
            return {"points": [[x0, ym], [x1, ym]], "linear": True, "width": y1 - y0}
        xm = (x0 + x1) / 2
        return {"points": [[xm, y0], [xm, y1]], "linear": True, "width": x1 - x0}

    def type_label(self, unit_type: str) -> str:
        return unit_type

    def unit(self, c: Canvas, u: Mapping[str, Any]) -> str:
        """The unit's recent line-up shifts and conforms (its view's ``adjustments``), if any."""
        return "".join(adjustment_mark(c, str(u.get("id", "")), a) for a in u.get("adjustments") or ())


def _front_centre(corners: Sequence[Sequence[float]]) -> tuple[float, float]:
    """The middle of a base's front edge (its corners start front-left, front-right)."""
    return (
        (float(corners[0][0]) + float(corners[1][0])) / 2.0,
        (float(corners[0][1]) + float(corners[1][1])) / 2.0,
    )


def adjustment_mark(c: Canvas, uid: str, a: Mapping[str, Any]) -> str:
    """One adjustment: the ghost of the base before (dashed), an arrow from the middle of its front
    edge to the middle of the front edge after (so a conform that only turns the base shows too),
    the label at the arrow's middle, and a ``<title>`` naming the clause. Sizes follow the base's
    frontage, so the marks read the same at any table scale."""
    kind = str(a.get("kind", ""))
    before = [c.p(p) for p in a["from"]]
    fx, fy = c.p(_front_centre(a["from"]))
    tx, ty = c.p(_front_centre(a["to"]))
    front = math.dist(before[0], before[1]) or c.d(1.0)
    ink = INK.get(kind, "#ffffff")
    how = f" ({a['how']})" if a.get("how") else ""
    tip = f"{uid}: {a.get('label', kind)}{how}, bound {a.get('bound')} ({a.get('side')}) - {a.get('clause')}"
    parts = [
        el("title", {}, text(tip)),
        el(
            "polygon",
            {
                "class": "dbm-ghost",
                "points": pts(before),
                "fill": "#ffffff",
                "fill-opacity": "0.12",
                "stroke": "#1d1d1d",
                "stroke-width": front * 0.03,
                "stroke-dasharray": f"{num(front * 0.08)} {num(front * 0.06)}",
            },
        ),
    ]
    length = math.hypot(tx - fx, ty - fy)
    if length > front * 0.02:
        ux, uy = (tx - fx) / length, (ty - fy) / length
        head = min(front * 0.16, length * 0.5)
        bx, by = tx - ux * head, ty - uy * head
        wing = head * 0.6
        parts.append(
            el(
                "line",
                {
                    "class": "dbm-arrow",
                    "x1": fx,
                    "y1": fy,
                    "x2": bx,
                    "y2": by,
                    "stroke": ink,
                    "stroke-width": front * 0.035,
                    "stroke-linecap": "round",
                },
            )
        )
        wings = [(tx, ty), (bx - uy * wing, by + ux * wing), (bx + uy * wing, by - ux * wing)]
        parts.append(
            el(
                "polygon",
                {
                    "class": "dbm-arrow-head",
                    "points": pts(wings),
                    "fill": ink,
                    "stroke": "#1d1d1d",
                    "stroke-width": front * 0.01,
                },
            )
        )
    if a.get("lead", True):
        size = front * 0.32
        parts.append(
            el(
                "text",
                {
                    "class": "dbm-adjust-label",
                    "x": (fx + tx) / 2,
                    "y": (fy + ty) / 2 - size * 0.4,
                    "font-size": size,
                    "font-family": FONT,
                    "text-anchor": "middle",
                    "fill": "#1d1d1d",
                    "stroke": "#f4efe0",
                    "stroke-width": size * 0.18,
                    "paint-order": "stroke",
                },
                text(str(a.get("label", kind))),
            )
        )
    cls = f"dbm-adjust dbm-adjust-{kind}"
    return el("g", {"class": cls, "data-unit": uid, "data-clause": str(a.get("clause", ""))}, "".join(parts))


DRAWING = DbmDrawing()
