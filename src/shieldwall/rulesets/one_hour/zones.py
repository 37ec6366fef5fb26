"""Deployment zones of one-hour-dark-ages (ruling R50, ``deployment.zone``).

The text leaves deployment to "the 1HW scenarios". With ``hand_deployment`` each side places its
units within its zone: the scenario's ``deploy_zone`` of that side, or else the band along the
side's home edge, the whole length of that edge, as deep as the farthest point of the side's units
as the scenario places them (from the home edge, rounded up to the whole inch), never past the
middle of the table.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from shieldwall.core.geometry import Footprint

#: a zone: (x0, y0, x1, y1), x0 < x1 and y0 < y1
Zone = tuple[float, float, float, float]

#: how far a corner may stand outside a zone and still be in it (rounding of an order's text)
ZONE_TOL = 1e-6


def derived_zone(edge: str, width: float, depth: float, placed: Iterable[Footprint]) -> Zone:
    """The zone of a side with home edge ``edge`` whose units the scenario places at ``placed``."""
    pts = [c for fp in placed for c in fp.corners()]
    if edge == "south":
        far = min(math.ceil(max(y for _, y in pts) - 1e-9), depth / 2.0)
        return (0.0, 0.0, width, float(far))
    if edge == "north":
        near = max(math.floor(min(y for _, y in pts) + 1e-9), depth / 2.0)
        return (0.0, float(near), width, depth)
    if edge == "west":
        far = min(math.ceil(max(x for x, _ in pts) - 1e-9), width / 2.0)
        return (0.0, 0.0, float(far), depth)
    near = max(math.floor(min(x for x, _ in pts) + 1e-9), width / 2.0)
    return (float(near), 0.0, width, depth)


def outside(zone: Zone, fp: Footprint) -> bool:
    """Whether any corner of ``fp`` lies outside ``zone``."""
    x0, y0, x1, y1 = zone
    return any(
        not (x0 - ZONE_TOL <= x <= x1 + ZONE_TOL and y0 - ZONE_TOL <= y <= y1 + ZONE_TOL)
        for x, y in fp.corners()
    )


#: the heading that faces the table's far side from each home edge
FACING = {"south": 0.0, "north": 180.0, "west": 90.0, "east": 270.0}
