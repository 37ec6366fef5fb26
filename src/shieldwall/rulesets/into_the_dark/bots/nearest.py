"""The scripted general's distances from one footprint (a candidate move's end) to the units of
the table, measured only where they can matter (issue 16, "Fast core").

``_score`` (``general``) asks, for every move it weighs, the distance to every enemy, sorted, and
how many friends stand within 4". It reads only the three nearest enemies and those within 12" of
the sorted list, and only whether there are none, one or two friends. Two footprints are at least
the distance of their centres less both radii apart (each lies within its circumscribed circle), so
an enemy whose bound exceeds both 12" and the third-nearest distance found, or a friend whose bound
exceeds 4", is not measured. On the reference path (``core.reference``) every distance is measured.
"""

from __future__ import annotations

import math
from typing import Any

from shieldwall.core.geometry import Footprint, footprint_distance
from shieldwall.core.reference import REFERENCE

#: enemies with their distances, nearest first
Gaps = list[tuple[float, dict[str, Any]]]

#: slack on the bounds (the rounding of the corners, the centres' distance and the radii)
SLACK = 1e-9


def gaps_reference(fp: Footprint, enemies: list[dict[str, Any]], fps: dict[str, Footprint]) -> Gaps:
    """Every enemy with its distance from ``fp``, nearest first (equal distances in list order)."""
    return sorted(((footprint_distance(fp, fps[e["id"]]), e) for e in enemies), key=lambda x: x[0])


def gaps(fp: Footprint, enemies: list[dict[str, Any]], fps: dict[str, Footprint], near: float) -> Gaps:
    """The prefix of ``gaps_reference`` that is read of it: the three nearest enemies and every one
    within ``near`` (the whole list on the reference path)."""
    if REFERENCE.on:
        return gaps_reference(fp, enemies, fps)
    x, y, r = fp.x, fp.y, fp.radius
    hypot = math.hypot
    bounds = []
    for i, e in enumerate(enemies):
        f = fps[e["id"]]
        bounds.append((hypot(f.x - x, f.y - y) - r - f.radius, i))
    bounds.sort()
    got: list[tuple[float, int]] = []
    for low, i in bounds:
        if len(got) >= 3 and low > max(near, sorted(d for d, _ in got)[2]) + SLACK:
            break
        got.append((footprint_distance(fp, fps[enemies[i]["id"]]), i))
    got.sort()  # by distance, then list order: the stable sort of the reference
    # (an enemy measured beyond that prefix may stand after one left out: cut it off)
    return [(d, enemies[i]) for k, (d, i) in enumerate(got) if k < 3 or d <= near]


def friends_near_reference(
    fp: Footprint, friends: list[dict[str, Any]], fps: dict[str, Footprint], uid: str
) -> int:
    """How many of ``friends`` (other than ``uid``, not routed) stand within 4" of ``fp``."""
    n = 0
    for f in friends:
        if f["id"] != uid and f["morale"] != "routed" and footprint_distance(fp, fps[f["id"]]) < 4.0:
            n += 1
    return n


def friends_near(fp: Footprint, friends: list[dict[str, Any]], fps: dict[str, Footprint], uid: str) -> int:
    """``min(friends_near_reference(...), 2)``: counted up to two, a friend measured only when its
    bound is within 4". On the reference path: ``friends_near_reference``, capped at two."""
    if REFERENCE.on:
        return min(friends_near_reference(fp, friends, fps, uid), 2)
    x, y, r = fp.x, fp.y, fp.radius
    n = 0
    for f in friends:
        if f["id"] == uid or f["morale"] == "routed":
            continue
        ff = fps[f["id"]]
        if math.hypot(ff.x - x, ff.y - y) - r - ff.radius > 4.0 + SLACK:
            continue
        if footprint_distance(fp, ff) < 4.0:
            n += 1
            if n == 2:
                break
    return n
