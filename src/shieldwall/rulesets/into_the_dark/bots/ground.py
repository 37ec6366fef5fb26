"""What the into-the-dark scripted general reads from the ground: the way round deep water, who
stands uphill, and how the battle stands on the scenario's end-of-battle count.

Everything here comes from the public view (``State.view()``) and the game's public terrain map;
nothing changes the state.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from shieldwall.core.crossings import segment_intersects_polyline
from shieldwall.core.geometry import Point, dist

#: linear water a unit should cross at a bridge or ford when there is one ("Deep streams -
#: disorder all troops, all foot movement is halved, all mounted movement quartered", terrain)
DEEP_WATER = ("deep-stream", "deep-water")
#: the hill kinds that make a unit uphill (as the engine's morale_rolls.HILLS)
HILLS = ("hill", "steep-hill")


class Ground:
    """The ground of one battle, read once per decision from the view and the game's terrain."""

    def __init__(self, view: dict[str, Any], terrain: Any = None) -> None:
        self.streams: list[tuple[list[Point], list[Point]]] = []
        for f in view.get("terrain", ()):
            if f.get("linear") and f.get("kind") in DEEP_WATER and f.get("crossings"):
                line = [(float(p[0]), float(p[1])) for p in f["points"]]
                ways = [(float(c["at"][0]), float(c["at"][1])) for c in f["crossings"]]
                self.streams.append((line, ways))
        self.terrain = terrain

    def detour(self, p: Point, q: Point) -> float:
        """How much farther than the straight line it is from ``p`` to ``q`` going over deep water
        by its nearest bridge or ford (0 when the straight line stays dry)."""
        straight = dist(p, q)
        best = straight
        for line, ways in self.streams:
            if segment_intersects_polyline(p, q, line):
                best = max(best, min(dist(p, w) + dist(w, q) for w in ways))
        return best - straight

    def waypoint(self, p: Point, q: Point) -> Point:
        """Where a unit at ``p`` should head for to reach ``q``: the nearest bridge or ford when
        the straight line crosses deep water, else ``q`` itself."""
        best, way = dist(p, q), q
        for line, ways in self.streams:
            if segment_intersects_polyline(p, q, line):
                w = min(ways, key=lambda w: dist(p, w) + dist(w, q))
                if dist(p, w) + dist(w, q) > best:
                    best, way = dist(p, w) + dist(w, q), w
        return way

    def elevation(self, p: Point) -> float:
        if self.terrain is None:
            return 0.0
        return float(self.terrain.elevation(p, HILLS))

    def uphill_of(self, a: Point, b: Point) -> bool:
        """Whether a unit at ``a`` stands uphill of one at ``b`` (combat.melee-modifiers)."""
        return self.elevation(a) > self.elevation(b) + 1e-6


def heading_towards(frm: Point, to: Point) -> float:
    """The heading (0 = +y, 90 = +x) from one point to another."""
    return math.degrees(math.atan2(to[0] - frm[0], to[1] - frm[1]))


def standing(units: Sequence[dict[str, Any]], value: Any, me: str) -> float:
    """How ``me`` stands on the turn limit's count (turn-sequence.end-of-battle): positive when
    ahead, negative when behind, 0 when level. Shares of points lost in units decide; when they are
    level, the shares of points lost in casualties among the units still in the field."""
    foe = "blue" if me == "red" else "red"
    lost = shares_lost(units, value)
    if abs(lost[foe] - lost[me]) > 1e-9:
        return lost[foe] - lost[me]
    worn = {"red": 0.0, "blue": 0.0}
    total = {"red": 0.0, "blue": 0.0}
    for u in units:
        pts = float(value(u))
        total[u["side"]] += pts
        if not u["removed"] and u["morale"] != "routed" and u["original"]:
            worn[u["side"]] += pts * (u["original"] - u["figures"]) / u["original"]
    share = {s: (worn[s] / total[s] if total[s] else 0.0) for s in total}
    return 1e-3 * (share[foe] - share[me])


def shares_lost(units: Sequence[dict[str, Any]], value: Any) -> dict[str, float]:
    """The share of each side's points lost as the scenario's turn limit counts them (units gone
    or routing: turn-sequence.end-of-battle), from the view's units and a points function."""
    total = {"red": 0.0, "blue": 0.0}
    lost = {"red": 0.0, "blue": 0.0}
    for u in units:
        pts = float(value(u))
        total[u["side"]] += pts
        if u["removed"] or u["morale"] == "routed":
            lost[u["side"]] += pts
    return {s: (lost[s] / total[s] if total[s] else 0.0) for s in total}
