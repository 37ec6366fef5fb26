"""A uniform-grid spatial index of element rectangles (paces): no decision scans all pairs.

Armies are 50-150 elements a side; every "who is near" question (enemy within 200 p of a march,
room to conform, elements beside a gap, shooting targets, friends behind a recoiler) asks the grid
for the few elements whose bounding boxes meet a query box.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Final

from shieldwall.core.geometry import Footprint, Polygon
from shieldwall.core.polygons import bounding_box
from shieldwall.core.reference import REFERENCE

Box = tuple[float, float, float, float]

#: answers ``Grid.near_box`` keeps between two changes of the grid (then it starts afresh)
MEMO_MOST: Final = 4096


class Grid:
    """Element id -> footprint, bucketed in square cells of ``cell`` paces."""

    __slots__ = ("_boxes", "_cells", "_memo", "cell", "fps", "log")

    def __init__(self, cell: float = 160.0) -> None:
        self.cell = cell
        self.fps: dict[str, Footprint] = {}
        self._boxes: dict[str, Box] = {}
        self._cells: dict[tuple[int, int], set[str]] = {}
        #: the box of every rectangle put or removed, in turn (a memo of answers that depend on one
        #: region only is still good while no box since it was made meets that region)
        self.log: list[Box] = []
        #: ``near_box``'s answers since the grid last changed, by (box, margin): in a search about
        #: two queries in five repeat one asked since the last put or remove (the same element's
        #: neighbours, asked by the combat, the overlap and the bot's plan in turn)
        self._memo: dict[tuple[Box, float], list[str]] = {}

    def _keys(self, b: Box) -> Iterator[tuple[int, int]]:
        c = self.cell
        for i in range(math.floor(b[0] / c), math.floor(b[2] / c) + 1):
            for j in range(math.floor(b[1] / c), math.floor(b[3] / c) + 1):
                yield (i, j)

    def put(self, eid: str, fp: Footprint) -> None:
        if eid in self.fps:
            self.remove(eid)
        b = bounding_box(fp.corners())
        self._memo.clear()
        self.fps[eid] = fp
        self._boxes[eid] = b
        self.log.append(b)
        for k in self._keys(b):
            self._cells.setdefault(k, set()).add(eid)

    def box(self, eid: str) -> Box:
        """The bounding box of ``eid``'s footprint."""
        return self._boxes[eid]

    def remove(self, eid: str) -> None:
        b = self._boxes.pop(eid)
        self._memo.clear()
        del self.fps[eid]
        self.log.append(b)
        for k in self._keys(b):
            s = self._cells[k]
            s.discard(eid)
            if not s:
                del self._cells[k]

    def near_box(self, b: Box, margin: float = 0.0) -> list[str]:
        """Ids whose bounding boxes come within ``margin`` of box ``b`` (sorted: deterministic). The
        list may be one given before (the grid unchanged since): the caller must not change it."""
        qx0, qy0, qx1, qy1 = b[0] - margin, b[1] - margin, b[2] + margin, b[3] + margin
        if REFERENCE.on:  # the reference: every element's box tested
            return sorted(
                eid
                for eid, e in self._boxes.items()
                if e[0] <= qx1 and e[2] >= qx0 and e[1] <= qy1 and e[3] >= qy0
            )
        memo = self._memo
        key = (b, margin)
        kept = memo.get(key)
        if kept is not None:
            return kept
        c = self.cell
        cells = self._cells
        found: set[str] = set()
        floor = math.floor
        js = range(floor(qy0 / c), floor(qy1 / c) + 1)
        for i in range(floor(qx0 / c), floor(qx1 / c) + 1):
            for j in js:
                got = cells.get((i, j))
                if got:
                    found.update(got)
        boxes = self._boxes
        out = [
            eid
            for eid in found
            if (e := boxes[eid])[0] <= qx1 and e[2] >= qx0 and e[1] <= qy1 and e[3] >= qy0
        ]
        out.sort()
        if len(memo) >= MEMO_MOST:
            memo.clear()
        memo[key] = out
        return out

    def near(self, poly: Polygon, margin: float = 0.0) -> list[str]:
        return self.near_box(bounding_box(poly), margin)
