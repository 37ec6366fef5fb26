"""The tabletop as a standalone SVG picture, computed from ``State.view()``.

``render_svg`` is pure: no I/O, and the same view (and options) always gives the same bytes.
Table coordinates are inches with y running north from the south edge; the picture has north at
the top, so a table point ``(x, y)`` is drawn at ``(x * scale, (depth - y) * scale)``. The table
occupies ``0..width*scale`` by ``0..depth*scale``; the margins (title, scale bar, compass, key) lie
outside it, at negative or larger coordinates of the ``viewBox``.

Every unit is a ``<g class="unit ..." data-unit="ID">`` with a ``<title>`` tooltip; every terrain
feature a ``<g class="terrain terrain-KIND" data-terrain="ID">``; highlights carry ``hl-*`` classes
and the ``data-unit`` of the unit they concern, so a web page can make all of them clickable.

What belongs to one rule system (its terrain kinds, unit labels, personality icons, marks on its
units) comes from its drawing, found through the registry by the view's ``ruleset``
(``render.layers``).
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any, TypeVar, cast

from shieldwall.render.layers import Drawing, drawing_for
from shieldwall.render.svg_base import MARGIN, TERRAIN_ORDER, _Canvas, _defs, _el, _n, short_type, sparse_step
from shieldwall.render.svg_overlays import _fixed_furniture, _furniture, _highlights_over, _highlights_under
from shieldwall.render.svg_terrain import _terrain
from shieldwall.render.svg_units import _unit

__all__ = ["render_svg", "short_type"]

Pt = tuple[float, float]
T = TypeVar("T")


# Entry point


STYLE = (
    "<style>"
    ".unit,.terrain{cursor:pointer}"
    ".unit:hover .unit-body{stroke:#ffffff}"
    ".terrain:hover>polygon:first-of-type{filter:brightness(1.08)}"
    "</style>"
)


class _Drawn:
    """Pieces of SVG already drawn, keyed by the canvas and the piece's ``repr`` (exact for the JSON
    values a view holds), at most ``size`` at a time, least recently used forgotten first.

    The web table draws the whole table after every order, but from one order to the next the
    terrain does not change and most units do not move: drawing each piece again is most of the
    cost of an answer. Drawing is pure (the same input, the same bytes), so a kept piece is the
    piece drawn anew. Locked: the web server draws from several threads.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._kept: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[Any, ...], draw: Callable[[], T]) -> T:
        with self._lock:
            hit = self._kept.get(key)
            if hit is not None:
                self._kept.move_to_end(key)
                return cast(T, hit)
        drawn = draw()
        with self._lock:
            self._kept[key] = drawn
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return drawn


_TERRAIN = _Drawn(256)
_UNITS = _Drawn(8192)
#: what depends on the table and the drawing alone: the head of the picture (its ``<svg>`` tag,
#: style, definitions, paper, table and grid) and the fixed furniture (edges, scale bar, key, compass)
_FIXED = _Drawn(64)


def _terrain_drawn(c: _Canvas, f: Mapping[str, Any]) -> tuple[str, str]:
    """``_terrain(c, f)``, kept."""
    return _TERRAIN.get((c.width, c.depth, c.s, repr(f)), lambda: _terrain(c, f))


def _unit_drawn(c: _Canvas, u: Mapping[str, Any], drawing: Drawing) -> str:
    """A unit with its rule system's marks (``_unit`` and ``drawing.unit``), kept."""
    return _UNITS.get(
        (c.width, c.depth, c.s, id(drawing), repr(u)), lambda: _unit(c, u, drawing) + drawing.unit(c, u)
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
    hl = highlight or {}
    drawing = drawing_for(view)
    live = {str(u["id"]): u for u in view.get("units", []) if not u.get("removed")}
    out = [_FIXED.get(("head", width, depth, c.s, id(drawing)), lambda: _head(c, drawing))]

    features = sorted(
        enumerate(drawing.terrain(view, f) for f in view.get("terrain", [])),
        key=lambda t: (TERRAIN_ORDER.get(str(t[1].get("kind")), 9), t[0]),
    )
    shapes, labels = [], []
    for _, f in features:
        sh, lab = _terrain_drawn(c, f)
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
    out.append(_el("g", {"class": "units"}, "".join(_unit_drawn(c, u, drawing) for u in live.values())))
    out.append(_el("g", {"class": "highlights-over"}, _highlights_over(c, hl, live)))
    out.append(_el("g", {"class": "furniture"}, _furniture(c, view, title, _fixed_furniture_drawn(c))))
    out.append("</svg>")
    return "".join(out) + "\n"


def _fixed_furniture_drawn(c: _Canvas) -> str:
    """``_fixed_furniture(c)``, kept."""
    return _FIXED.get(("furniture", c.width, c.depth, c.s), lambda: _fixed_furniture(c))


def _head(c: _Canvas, drawing: Drawing) -> str:
    """The picture up to the terrain: its ``<svg>`` tag, style, definitions, paper, table, grid."""
    width, depth, s = c.width, c.depth, c.s
    ml, mt, mr, mb = (c.d(m) for m in MARGIN)
    W, D = c.d(width), c.d(depth)
    vw, vh = W + ml + mr, D + mt + mb
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="shieldwall-board" width="{_n(vw)}" height="{_n(vh)}"'
        f' viewBox="{_n(-ml)} {_n(-mt)} {_n(vw)} {_n(vh)}" data-scale="{_n(s)}"'
        f' data-table-width="{_n(width)}"'
        f' data-table-depth="{_n(depth)}">',
        STYLE,
        _defs(c) + drawing.defs(c),
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
    step = 6 * math.ceil(sparse_step(6.0, max(width, depth)) / 6)  # 6" unless the table is absurdly big
    for gx in range(step, int(width), step):
        grid.append(f"M{_n(c.d(gx))},0 V{_n(D)}")
    for gy in range(step, int(depth), step):
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

    return "".join(out)
