"""dbm-3.2's layers of the SVG picture (the plugin's ``drawing``): bases in paces, the scenario's
terrain rectangles drawn as the generic kinds nearest them, troop-type codes as labels. The
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
            return feature
        kind = str(feature.get("kind", ""))
        x0, y0, x1, y1 = (float(feature[k]) for k in ("x0", "y0", "x1", "y1"))
        generic = KINDS.get(kind, "hill")
        if generic in ("river", "road"):  # linear: the centre line of the long side
            if x1 - x0 >= y1 - y0:
                ym = (y0 + y1) / 2
                pts = [[x0, ym], [x1, ym]]
                width = y1 - y0
            else:
                xm = (x0 + x1) / 2
                pts = [[xm, y0], [xm, y1]]
                width = x1 - x0
            return {"kind": generic, "name": kind, "points": pts, "linear": True, "width": width}
        return {"kind": generic, "name": kind, "points": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]}

    def type_label(self, unit_type: str) -> str:
        return unit_type


DRAWING = DbmDrawing()
