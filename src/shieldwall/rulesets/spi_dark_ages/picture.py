"""The hex map as the generic SVG renderer and the web page draw it: the table in hex-size units
(a hex's centre-to-corner is 1), each terrain hex a polygon of the nearest kind the renderer knows,
each road hexside a road segment, each unit a counter at its hex centre facing its hexside."""

from __future__ import annotations

import math
from typing import Any

from shieldwall.core.hexgrid import Hex, ccrr, hexside
from shieldwall.core.reference import REFERENCE
from shieldwall.core.view_json import Drawn
from shieldwall.rulesets.spi_dark_ages.hexmap import HexMap

#: facing 0..5 (NE, E, SE, SW, W, NW) -> heading in degrees clockwise from north
HEADINGS = (30.0, 90.0, 150.0, 210.0, 270.0, 330.0)
#: the map's terrain -> the renderer's kind
KINDS = {
    "woods": "woods",
    "slope": "hill",
    "swamp": "marsh",
    "stream": "lake",
    "river": "lake",
    "keep": "village",
}
SQ3 = math.sqrt(3.0)


def table(m: HexMap) -> dict[str, float]:
    return {"width": round(SQ3 * (m.cols + 0.5), 4), "depth": round(1.5 * m.rows + 0.5, 4)}


def centre(m: HexMap, h: Hex) -> tuple[float, float]:
    """Table coordinates (x east, y north from the south edge) of a hex centre."""
    x, y = h.to_pixel(1.0)
    return round(x + SQ3 / 2, 4), round(1.5 * m.rows + 0.5 - (y + 1.0), 4)


def corners(m: HexMap, h: Hex) -> list[list[float]]:
    cx, cy = centre(m, h)
    return [
        [round(cx + math.sin(math.radians(a)), 4), round(cy + math.cos(math.radians(a)), 4)]
        for a in (0, 60, 120, 180, 240, 300)
    ]


def terrain(m: HexMap) -> list[dict[str, Any]]:
    """The terrain as the renderer draws it: ``terrain_reference``, drawn once per map and kept on it
    (``HexMap.drawn``; a view's list is shared, not to be changed). On the reference path
    (``shieldwall.core.reference``) it is drawn afresh. Kept as a ``Drawn`` list: its JSON text is
    made once too (``shieldwall.core.view_json``)."""
    if REFERENCE.on:
        return terrain_reference(m)
    got: list[dict[str, Any]] | None = m.drawn.get("terrain")
    if got is None:
        got = m.drawn["terrain"] = Drawn(terrain_reference(m))
    return got


def hexes(m: HexMap) -> list[dict[str, Any]]:
    """Every hex with terrain, its terrain and elevation (a view's ``hexes``): ``hexes_reference``,
    kept on the map as ``terrain`` is."""
    if REFERENCE.on:
        return hexes_reference(m)
    got: list[dict[str, Any]] | None = m.drawn.get("hexes")
    if got is None:
        got = m.drawn["hexes"] = Drawn(hexes_reference(m))
    return got


def hexes_reference(m: HexMap) -> list[dict[str, Any]]:
    return [
        {"hex": ccrr(h), "terrain": list(m.terrain_of(h)), "elevation": m.elevation(h)}
        for h in sorted(m.terrain)
    ]


def terrain_reference(m: HexMap) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for h in sorted(m.terrain):
        kinds = [t for t in m.terrain_of(h) if t in KINDS]
        if h in m.hilltops:
            kinds.append("slope")
        for t in kinds:
            out.append(
                {
                    "id": f"{t}-{ccrr(h)}",
                    "kind": KINDS[t],
                    "name": " ",
                    "points": corners(m, h),
                    "linear": False,
                    "width": 0.0,
                    "crest": [],
                    "crossings": [],
                }
            )
    for h in sorted(m.hilltops - set(m.terrain)):
        out.append(
            {
                "id": f"hilltop-{ccrr(h)}",
                "kind": "hill",
                "name": " ",
                "points": corners(m, h),
                "linear": False,
                "width": 0.0,
                "crest": [],
                "crossings": [],
            }
        )
    for i, (h, d) in enumerate(sorted(m.road_sides)):
        out.append(
            {
                "id": f"road-{i}",
                "kind": "road",
                "name": " ",
                "linear": True,
                "width": 0.3,
                "points": [list(centre(m, h)), list(centre(m, h.neighbour(d)))],
                "crest": [],
                "crossings": [],
            }
        )
    out += hexsides(m)
    return out


def _side_ends(m: HexMap, h: Hex, d: int) -> list[list[float]]:
    """The two corners of ``h`` on its side ``d`` (the two nearest the midpoint of the centres)."""
    (ax, ay), (bx, by) = centre(m, h), centre(m, h.neighbour(d))
    mx, my = (ax + bx) / 2, (ay + by) / 2
    return sorted(corners(m, h), key=lambda p: (p[0] - mx) ** 2 + (p[1] - my) ** 2)[:2]


def hexsides(m: HexMap) -> list[dict[str, Any]]:
    """Water-covered hexsides (``tec.land-water``) as a narrow river along the side; bridge and ford
    hexes (``tec.bridge``, ``tec.ford``) as a crossing drawn across the hex along its road (east-west
    without one)."""
    out: list[dict[str, Any]] = []
    for i, (h, d) in enumerate(sorted(m.water_sides)):
        out.append(
            {
                "id": f"water-{i}",
                "kind": "river",
                "name": " ",
                "linear": True,
                "width": 0.2,
                "points": _side_ends(m, h, d),
                "crest": [],
                "crossings": [],
            }
        )
    for kind, hexes in (("bridge", m.bridge), ("ford", m.ford)):
        for h in sorted(hexes):
            road = [d for d in range(6) if hexside(h, d) in m.road_sides]
            (cx, cy), (nx, ny) = centre(m, h), centre(m, h.neighbour(road[0] if road else 1))
            ux, uy = (nx - cx) / SQ3, (ny - cy) / SQ3  # unit vector along the crossing
            ends = [
                [round(cx + uy * 0.8, 4), round(cy - ux * 0.8, 4)],
                [round(cx - uy * 0.8, 4), round(cy + ux * 0.8, 4)],
            ]
            out.append(
                {
                    "id": f"{kind}-{ccrr(h)}",
                    "kind": "river",
                    "name": " ",
                    "linear": True,
                    "width": 0.5,
                    "points": ends,
                    "crest": [],
                    "crossings": [{"kind": kind, "at": [cx, cy], "width": 0.6}],
                }
            )
    return out
