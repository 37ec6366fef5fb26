"""The scripted bot's questions about the enemy's element centres, answered from a grid (issue 16:
nothing per decision looks at every pair of elements).

The bot reads the table's view once a decision and asks, for each element it weighs, the nearest
enemy centre (``_favoured``, ``_dismount_pays``) and whether any enemy centre stands in a box
around it (``_near_enemy``). ``Centres`` buckets one side's enemy centres in square cells once per
decision; a nearest query searches rings of cells outward from the asker's cell and stops when no
unsearched cell can hold a centre as near as the nearest found (a centre in a ring ``r`` cells out
is at least ``(r - 1)`` cells away), comparing the very squared distances the plain scan compares
and breaking ties by list order, as ``min`` does. On the reference path (``core.reference``) every
centre is compared.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final

from shieldwall.core.reference import REFERENCE
from shieldwall.rulesets.dbm.elements import Element
from shieldwall.rulesets.dbm.spatial import Box

if TYPE_CHECKING:
    from shieldwall.rulesets.dbm.board import Board
    from shieldwall.rulesets.dbm.state import DbmState

#: side of a cell (paces): two element frontages of the sample data
CELL: Final = 160.0
#: below this many centres a query scans the list (the grid would not pay for itself)
SMALL: Final = 24

Unit = dict[str, Any]


def d2(v: Unit, u: Unit) -> float:
    """The squared distance of two centres, as the plain scan computes it."""
    return float((v["x"] - u["x"]) ** 2 + (v["y"] - u["y"]) ** 2)


class Centres:
    """``units`` (view dicts with ``x`` and ``y``) bucketed by centre, in list order."""

    def __init__(self, units: Sequence[Unit]) -> None:
        self.units = list(units)
        self._cells: dict[tuple[int, int], list[int]] = {}
        self._span = (0, 0, 0, 0)
        if len(self.units) >= SMALL:
            floor = math.floor
            for i, u in enumerate(self.units):
                self._cells.setdefault((floor(u["x"] / CELL), floor(u["y"] / CELL)), []).append(i)
            ks = list(self._cells)
            self._span = (
                min(k[0] for k in ks),
                min(k[1] for k in ks),
                max(k[0] for k in ks),
                max(k[1] for k in ks),
            )

    def nearest_reference(self, u: Unit) -> Unit | None:
        """The unit whose centre is nearest ``u``'s (the first of equals), or None."""
        if not self.units:
            return None
        return min(self.units, key=lambda v: d2(v, u))

    def nearest(self, u: Unit) -> Unit | None:
        """``nearest_reference(u)``, searching only the cells that can hold it."""
        if REFERENCE.on or not self._cells:
            return self.nearest_reference(u)
        cx, cy = math.floor(u["x"] / CELL), math.floor(u["y"] / CELL)
        x0, y0, x1, y1 = self._span
        # rings beyond this one hold no cell of the grid
        last = max(abs(cx - x0), abs(cx - x1), abs(cy - y0), abs(cy - y1))
        best: tuple[float, int] | None = None
        units, cells = self.units, self._cells
        for r in range(last + 1):
            # every centre in ring r or beyond is at least (r - 1) cells from u
            if best is not None and (r - 1) * CELL > math.sqrt(best[0]) + 1e-6:
                break
            for key in _ring(cx, cy, r):
                for i in cells.get(key, ()):
                    k = (d2(units[i], u), i)
                    if best is None or k < best:
                        best = k
        return None if best is None else units[best[1]]

    def any_in_box_reference(self, u: Unit, hx: float, hy: float) -> bool:
        """Whether a centre stands within ``hx`` across and ``hy`` along (strictly) of ``u``'s."""
        return any(abs(v["x"] - u["x"]) < hx and abs(v["y"] - u["y"]) < hy for v in self.units)

    def any_in_box(self, u: Unit, hx: float, hy: float) -> bool:
        """``any_in_box_reference``, looking only in the cells the box touches."""
        if REFERENCE.on or not self._cells:
            return self.any_in_box_reference(u, hx, hy)
        x, y = u["x"], u["y"]
        floor = math.floor
        units, cells = self.units, self._cells
        # (widened by a hair: the plain test compares rounded differences)
        for i in range(floor((x - hx - 1e-6) / CELL), floor((x + hx + 1e-6) / CELL) + 1):
            for j in range(floor((y - hy - 1e-6) / CELL), floor((y + hy + 1e-6) / CELL) + 1):
                for k in cells.get((i, j), ()):
                    v = units[k]
                    if abs(v["x"] - x) < hx and abs(v["y"] - y) < hy:
                        return True
        return False


def _ring(cx: int, cy: int, r: int) -> list[tuple[int, int]]:
    """The cells ``r`` cells out (Chebyshev) from ``(cx, cy)``."""
    if r == 0:
        return [(cx, cy)]
    out = [(cx + i, cy - r) for i in range(-r, r + 1)] + [(cx + i, cy + r) for i in range(-r, r + 1)]
    out += [(cx - r, cy + j) for j in range(-r + 1, r)] + [(cx + r, cy + j) for j in range(-r + 1, r)]
    return out


class Sight:
    """One decision's view of the table (``units``: id -> view dict) with its grids, built when first
    asked: each side's enemies (with or without baggage) by centre, and the elements by command."""

    def __init__(self, units: dict[str, Unit]) -> None:
        self.units = units
        self._enemies: dict[tuple[str, bool], Centres] = {}
        self._commands: dict[str | None, list[Unit]] | None = None

    def enemies(self, side: str, baggage: bool = False) -> Centres:
        """The elements not of ``side`` (baggage only when ``baggage``), in the view's order."""
        got = self._enemies.get((side, baggage))
        if got is None:
            got = self._enemies[(side, baggage)] = Centres(
                [v for v in self.units.values() if v["side"] != side and (baggage or v["type"] != "Bge")]
            )
        return got

    def command(self, cmd: str | None) -> list[Unit]:
        """The elements of command ``cmd``, in the view's order."""
        if REFERENCE.on:
            return [u for u in self.units.values() if u["command"] == cmd]
        if self._commands is None:
            self._commands = {}
            for u in self.units.values():
                self._commands.setdefault(u["command"], []).append(u)
        return self._commands.get(cmd, [])


class UnitViews:
    """What the bot reads of the state's view in a bound: its ``units`` (the keys the view gives
    every element, without the adjustment marks) and ``fortifications``. Each element's entry is
    kept while the element is the same object (elements are frozen: a move, a loss or a change is a
    new object), so a decision builds entries only for the elements changed since the last. On the
    reference path, and before the battle (the view previews deployments): the state's ``view()``."""

    def __init__(self) -> None:
        self._memo: dict[str, tuple[Element, Unit]] = {}

    def of(self, state: DbmState) -> dict[str, Any]:
        if REFERENCE.on or state.phase in ("terrain", "deploy"):
            return state.view()
        memo = self._memo
        units = []
        for eid in sorted(state.board.el):
            e = state.board.el[eid]
            got = memo.get(eid)
            if got is None or got[0] is not e:
                got = memo[eid] = (e, unit_entry(e))
            units.append(got[1])
        return {"units": units, "fortifications": state.forts}


def unit_entry(e: Element) -> Unit:
    """An element's entry in ``DbmState.view()["units"]`` (on the battle's board, unmarked)."""
    return {
        "id": e.id,
        "side": e.side,
        "name": f"{e.code}({e.grade}){' general' if e.general else ''}",
        "type": e.code,
        "grade": e.grade,
        "command": e.command,
        "x": round(e.fp.x, 3),
        "y": round(e.fp.y, 3),
        "heading": round(e.fp.heading % 360, 3),
        "frontage": e.fp.frontage,
        "depth": e.fp.depth,
        "hits": 0,
        "max_hits": 1,
    }


class Favoured:
    """The scripted bot's "favoured" answer for each command (``bots.favour``: each element of the
    command against its nearest enemy), kept while the command's elements are the same view entries
    (``UnitViews`` keeps an entry while its element is the same object) and no enemy element was put
    on or removed from the table (``Board.side_logs``: a move is both) with a box within the
    distance of an element's nearest enemy, and a pace, of that element's centre: no enemy came
    nearer, and the nearest is still there. The marks count one board's logs: asked about another
    board (the next battle's, a copy's), the memo starts empty. On the reference path: worked out
    every time."""

    def __init__(self) -> None:
        self._memo: dict[
            tuple[str, str | None], tuple[tuple[Unit, ...], bool, list[Box], dict[str, int]]
        ] = {}
        #: the board whose logs the memo's marks count (another board, the next battle's or a
        #: copy's, empties the memo: its logs are not the same)
        self._board: Board | None = None

    def of(
        self,
        state: DbmState,
        side: str,
        cmd: str | None,
        sight: Sight,
        work: Callable[[str | None], tuple[bool, list[tuple[Unit, float]] | None]],
    ) -> bool:
        if REFERENCE.on:
            return work(cmd)[0]
        board = state.board
        if board is not self._board:
            self._memo.clear()
            self._board = board
        mine = tuple(u for u in sight.command(cmd) if u["type"] != "Bge")
        got = self._memo.get((side, cmd))
        if got is not None and got[0] == mine and board.untouched_by({side}, got[3], got[2]):
            return got[1]
        answer, read = work(cmd)
        if read is None:  # (no enemy: any enemy put anywhere would change it)
            self._memo.pop((side, cmd), None)
            return answer
        boxes = []
        for u, dd in read:
            r = math.sqrt(dd) + 1.0
            boxes.append((u["x"] - r, u["y"] - r, u["x"] + r, u["y"] + r))
        self._memo[(side, cmd)] = (mine, answer, boxes, board.marks())
        return answer
