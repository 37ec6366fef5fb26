"""The layers of the SVG picture that a rule system draws itself: its plugin's ``drawing``.

``render_svg`` draws what every rule system shares: the table, the terrain kinds it knows
(``TERRAIN_ORDER``: hill, woods, marsh, village, lake, road, gully, river, wall), every unit's body,
front edge, label, hit track, shots left and markers, the highlights and the furniture. A rule
system adds its own through a :class:`Drawing` (the plugin's ``drawing`` reference names one):

``defs(canvas)``
    extra ``<defs>`` (patterns, gradients) its marks refer to;
``terrain(view, feature)``
    the feature as it should be drawn: one of its own terrain kinds mapped to the nearest kind
    the renderer knows, keeping its name;
``type_label(unit_type)``
    the short unit type in a unit's label;
``personality_width(label, r)`` and ``personality(label, cx, cy, r)``
    the room a personality's icon takes in a unit's marker row, and the icon (``label`` is one of a
    unit view's ``personalities``; ``r`` the icon's radius);
``unit(canvas, unit)``
    its own marks drawn over one unit (a ``<g>``, or ``""``).

:class:`BaseDrawing` is the generic drawing, and the base of a rule system's own. The names in
``__all__`` are the SVG toolkit a drawing builds with (canvas, element and number writers,
primitives), so a rule system's drawing module imports only this module.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from shieldwall import registry
from shieldwall.plugin import PluginError
from shieldwall.render.svg_base import FONT, crown, short_type, star
from shieldwall.render.svg_base import _Canvas as Canvas
from shieldwall.render.svg_base import _el as el
from shieldwall.render.svg_base import _n as num
from shieldwall.render.svg_base import _pts as pts
from shieldwall.render.svg_base import _text as text
from shieldwall.render.svg_units import _fp as footprint

__all__ = [
    "DEFAULT",
    "FONT",
    "BaseDrawing",
    "Canvas",
    "Drawing",
    "crown",
    "drawing_for",
    "el",
    "footprint",
    "num",
    "pts",
    "short_type",
    "star",
    "text",
]


@runtime_checkable
class Drawing(Protocol):
    """A rule system's layers of the picture (module docstring: what each hook draws)."""

    def defs(self, c: Canvas) -> str: ...

    def terrain(self, view: Mapping[str, Any], feature: Mapping[str, Any]) -> Mapping[str, Any]: ...

    def type_label(self, unit_type: str) -> str: ...

    def personality_width(self, label: str, r: float) -> float: ...

    def personality(self, label: str, cx: float, cy: float, r: float) -> str: ...

    def unit(self, c: Canvas, u: Mapping[str, Any]) -> str: ...


class BaseDrawing:
    """The generic drawing: no extra defs or marks, terrain as it is, unit types abbreviated, every
    personality a crown."""

    def defs(self, c: Canvas) -> str:
        return ""

    def terrain(self, view: Mapping[str, Any], feature: Mapping[str, Any]) -> Mapping[str, Any]:
        return feature

    def type_label(self, unit_type: str) -> str:
        return short_type(unit_type)

    def personality_width(self, label: str, r: float) -> float:
        return r * 2.4

    def personality(self, label: str, cx: float, cy: float, r: float) -> str:
        return crown(cx, cy, r)

    def unit(self, c: Canvas, u: Mapping[str, Any]) -> str:
        return ""


DEFAULT: Drawing = BaseDrawing()


def drawing_for(view: Mapping[str, Any]) -> Drawing:
    """The drawing of the view's rule system (``view["ruleset"]``); the generic one for a view of
    none, of one not installed, or of one without a drawing."""
    rs = registry.find(view.get("ruleset"))
    found = rs.optional("drawing") if rs is not None else None
    if rs is None or found is None:
        return DEFAULT
    if not isinstance(found, Drawing):
        raise PluginError(f"rule system {rs.id!r}: its drawing is a {type(found).__name__}, not a Drawing")
    return found
