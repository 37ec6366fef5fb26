"""dbm-3.2's layers of the SVG picture (the plugin's ``drawing``): bases in paces, the scenario's
terrain rectangles drawn as the generic kinds nearest them, fortification sections as walls named
for their holder and front (rulings R40, R41), riderless mounts as named areas (R42), troop-type
codes as labels. The
illustrative-data label is the view's ``label`` (the page and reports show it)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shieldwall.render.layers import BaseDrawing

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


DRAWING = DbmDrawing()
