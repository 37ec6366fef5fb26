"""The table: elements by id in a spatial grid, with the neighbourhood queries the rules ask."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from itertools import islice
from typing import Any

from shieldwall.core.geometry import Footprint, Polygon
from shieldwall.rulesets.dbm.elements import Element
from shieldwall.rulesets.dbm.geom import TOL, distance
from shieldwall.rulesets.dbm.spatial import Box, Grid
from shieldwall.rulesets.dbm.tables import Tables


class Board:
    """Elements on a ``width`` x ``depth`` pace table (x east, y north from the south edge)."""

    def __init__(
        self,
        tables: Tables,
        elements: Iterable[Element] = (),
        width: float | None = None,
        depth: float | None = None,
    ) -> None:
        self.tables = tables
        self.width = width if width is not None else tables.geometry.table_w_p
        self.depth = depth if depth is not None else tables.geometry.table_d_p
        self.el: dict[str, Element] = {}
        self.grid = Grid(cell=2.0 * tables.bw)
        #: by side, the box of each of its elements put on or removed from the table (a move is the
        #: old box, then the new), in turn: an answer that reads one side's elements in one region
        #: only is still good while no box of that side logged since meets the region
        self.side_logs: dict[str, list[Box]] = {}
        #: ``march_memo.march_distance``'s answers by marching group (this board's only)
        self.march_memo: dict[tuple[Element, ...], tuple[float, list[Box], dict[str, int]]] = {}
        #: ``plan_memo.remembered``'s answers by key (this board's only)
        self.plan_memo: dict[Any, tuple[Any, Box, int]] = {}
        #: ``plan_memo.unengaged``'s answers by command (this board's only)
        self.engaged_memo: dict[
            str, tuple[tuple[str, ...], tuple[Element | None, ...], list[Box], dict[str, int], list[str]]
        ] = {}
        #: the scenario's fortification sections (read-only, shared by copies; ruling R40)
        self.forts: list[dict[str, Any]] = []
        for e in elements:
            self.put(e)

    def put(self, e: Element) -> None:
        old = self.el.get(e.id)
        if old is not None:
            self.side_logs.setdefault(old.side, []).append(self.grid.box(e.id))
        self.el[e.id] = e
        self.grid.put(e.id, e.fp)
        self.side_logs.setdefault(e.side, []).append(self.grid.box(e.id))

    def move(self, eid: str, fp: Footprint) -> Element:
        e = self.el[eid].at(fp)
        self.put(e)
        return e

    def remove(self, eid: str) -> Element:
        self.side_logs.setdefault(self.el[eid].side, []).append(self.grid.box(eid))
        self.grid.remove(eid)
        return self.el.pop(eid)

    def marks(self) -> dict[str, int]:
        """The length of each side's log (``side_logs``), to give ``untouched_by`` later."""
        return {side: len(log) for side, log in self.side_logs.items()}

    def untouched_by(self, sides: Collection[str], seen: Mapping[str, int], boxes: Sequence[Box]) -> bool:
        """Whether no element of a side not in ``sides`` was put or removed, since the logs'
        lengths were ``seen``, with a box meeting one of ``boxes``."""
        for side, log in self.side_logs.items():
            if side in sides:
                continue
            for b in islice(log, seen.get(side, 0), None):
                for r in boxes:
                    if b[0] <= r[2] and b[2] >= r[0] and b[1] <= r[3] and b[3] >= r[1]:
                        return False
        return True

    def copy(self) -> Board:
        b = Board(self.tables, self.el.values(), self.width, self.depth)
        b.forts = self.forts
        return b

    def __reduce__(self) -> tuple[Any, ...]:
        """``copy.deepcopy`` and ``pickle`` (a state with its board): compiled, the class has no
        ``__dict__`` for them to restore and its constructor needs the tables, so the board is
        rebuilt through ``restored`` with all it holds (the memos and logs too)."""
        kept = (self.el, self.grid, self.side_logs, self.march_memo, self.plan_memo, self.engaged_memo)
        return restored, (self.tables, self.width, self.depth, self.forts, *kept)

    def near(self, poly: Polygon, margin: float = 0.0, exclude: Iterable[str] = ()) -> list[Element]:
        ex = set(exclude)
        return [self.el[i] for i in self.grid.near(poly, margin + TOL) if i not in ex]

    def within(
        self, e: Element | Footprint, dist: float, side: str | None = None, exclude: Iterable[str] = ()
    ) -> list[Element]:
        """Elements at or closer than ``dist`` (closest points) to ``e`` (optionally of one side)."""
        fp = e.fp if isinstance(e, Element) else e
        ex = set(exclude)
        if isinstance(e, Element):
            ex.add(e.id)
        return [
            o
            for o in self.near(fp.corners(), dist, ex)
            if (side is None or o.side == side) and distance(fp, o.fp) <= dist + TOL
        ]

    def touching(self, e: Element, side: str | None = None) -> list[Element]:
        return self.within(e, 0.0, side)

    def on_table(self, fp: Footprint) -> bool:
        return all(-TOL <= x <= self.width + TOL and -TOL <= y <= self.depth + TOL for x, y in fp.corners())


def restored(
    tables: Tables,
    width: float,
    depth: float,
    forts: list[dict[str, Any]],
    el: dict[str, Element],
    grid: Grid,
    side_logs: dict[str, list[Box]],
    march_memo: dict[tuple[Element, ...], tuple[float, list[Box], dict[str, int]]],
    plan_memo: dict[Any, tuple[Any, Box, int]],
    engaged_memo: dict[
        str, tuple[tuple[str, ...], tuple[Element | None, ...], list[Box], dict[str, int], list[str]]
    ],
) -> Board:
    """The board ``Board.__reduce__`` describes."""
    b = Board(tables, (), width, depth)
    b.forts = forts
    b.el, b.grid, b.side_logs = el, grid, side_logs
    b.march_memo, b.plan_memo, b.engaged_memo = march_memo, plan_memo, engaged_memo
    return b
