"""Deployment zones of knight-hack (``hand_deployment``; ruling R51, ``knight-hack:deployment.zone``).

The errata says nothing of deployment: a scenario places every unit. With ``hand_deployment`` each
side places its units within its zone: the scenario's ``deploy_zone`` of that side, or else the
band along the side's home edge, the whole width of the table, as deep as the farthest point of the
side's units as the scenario places them (from the home edge, rounded up to the whole inch), but
never past the nearest point of the other side's units as the scenario places them (so every
scenario place lies in its side's zone; two derived zones meet only where the armies stand closer
than an inch).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from shieldwall.core.geometry import Footprint
from shieldwall.core.polygons import footprint_distance

#: a zone: (x0, y0, x1, y1), x0 < x1 and y0 < y1
Zone = tuple[float, float, float, float]

#: how far a corner may stand outside a zone and still be in it (rounding of an order's text)
ZONE_TOL = 1e-6

#: the heading that faces the far side of the table from each home edge
FACING = {"south": 0.0, "north": 180.0}


def derived_zone(
    edge: str, width: float, depth: float, own: Iterable[Footprint], enemy: Iterable[Footprint]
) -> Zone:
    """The zone of a side with home edge ``edge`` whose units the scenario places at ``own`` (the
    other side's at ``enemy``)."""
    mine = [y for fp in own for _, y in fp.corners()]
    theirs = [y for fp in enemy for _, y in fp.corners()]
    if edge == "south":
        far = min(float(math.ceil(max(mine) - 1e-9)), min(theirs, default=depth), depth)
        return (0.0, 0.0, width, round(max(far, max(mine)), 3))
    near = max(float(math.floor(min(mine) + 1e-9)), max(theirs, default=0.0), 0.0)
    return (0.0, round(min(near, min(mine)), 3), width, depth)


def outside(zone: Zone, fp: Footprint) -> bool:
    """Whether any corner of ``fp`` lies outside ``zone``."""
    x0, y0, x1, y1 = zone
    return any(
        not (x0 - ZONE_TOL <= x <= x1 + ZONE_TOL and y0 - ZONE_TOL <= y <= y1 + ZONE_TOL)
        for x, y in fp.corners()
    )


def distance_to(zone: Zone, fp: Footprint) -> float:
    """How far ``fp`` stands from ``zone`` (0 when any part of it is within the zone)."""
    x0, y0, x1, y1 = zone
    rect = Footprint((x0 + x1) / 2.0, (y0 + y1) / 2.0, 0.0, x1 - x0, y1 - y0)
    return footprint_distance(fp, rect)
