"""A uniform grid over footprints: which pieces can be near a point, in their list order.

``FootprintIndex`` is a list of pieces (anything with a ``fp`` footprint, e.g. a rule system's
units) that also answers ``near(x, y, reach)``: the pieces whose footprint's circumscribed circle
comes within ``reach`` of the point, *and possibly some others*, in the list's own order. It is a
broad phase only: a caller still applies its exact test to every piece returned, so a loop over
``index.near(...)`` gives exactly the results of the same loop over the whole list whenever the
exact test rejects every piece whose circle is farther than ``reach`` (see ``nearby``).

Small lists answer with themselves (below ``SMALL`` pieces a grid costs more than it saves), so
small battles run the very same loops as before.
"""

from __future__ import annotations

import math
from bisect import insort
from collections.abc import Iterable, Sequence
from typing import Final, Protocol, TypeVar

from shieldwall.core.compiling import python_class
from shieldwall.core.geometry import Footprint
from shieldwall.core.reference import REFERENCE


class HasFootprint(Protocol):
    @property
    def fp(self) -> Footprint: ...


T = TypeVar("T", bound=HasFootprint)
#: any piece (``nearby``)
P = TypeVar("P")

#: below this many pieces ``near`` returns the whole list (the grid would not pay for itself)
SMALL: Final = 24
#: side of a grid cell (inches): about a unit's reach in one move
CELL: Final = 12.0
#: widening of every query: far above floating-point error, far below any rule's distance
SLACK: Final = 1e-4


@python_class
class FootprintIndex(list[T]):
    """The pieces, in order, with a grid of their centres (built once: the pieces must not move
    while the index is used)."""

    __slots__ = ("_cells", "_max_r")

    def __init__(self, pieces: Iterable[T]) -> None:
        super().__init__(pieces)
        self._cells: dict[tuple[int, int], list[int]] | None = None
        self._max_r = 0.0

    def _build(self) -> dict[tuple[int, int], list[int]]:
        cells: dict[tuple[int, int], list[int]] = {}
        max_r = 0.0
        for i, p in enumerate(self):
            fp = p.fp
            # (``near`` finds cells with the same floor division, which is monotone)
            key = (int(fp.x // CELL), int(fp.y // CELL))
            got = cells.get(key)
            if got is None:
                cells[key] = [i]
            else:
                got.append(i)
            r = fp._radius
            if r > max_r:
                max_r = r
        self._cells = cells
        self._max_r = max_r
        return cells

    def moved(
        self, changes: Sequence[tuple[int, Footprint]], pieces: Iterable[T] | None = None
    ) -> FootprintIndex[T]:
        """A new index of the same pieces after the pieces at the given positions moved (each with
        the footprint it had when this index was made, the new one read from the piece): this
        index's grid with those pieces moved to their new cells, the very grid a new index of the
        pieces would build (the cells' positions in increasing order; the greatest radius). This
        index is left as it was. ``pieces``: the new index's pieces, as many as this one's, those
        at the positions not in ``changes`` with the footprints they had here (a piece replaced by
        another where it moved); by default this index's own."""
        new: FootprintIndex[T] = FootprintIndex(self if pieces is None else pieces)
        if len(new) != len(self):
            raise ValueError(f"moved: {len(new)} pieces for an index of {len(self)}")
        cells = self._cells
        if cells is None:
            return new  # (never asked: the new one builds its grid when first asked)
        cells = dict(cells)
        max_r = self._max_r
        shrunk = False
        for i, old in changes:
            fp = new[i].fp
            was = (int(old.x // CELL), int(old.y // CELL))
            key = (int(fp.x // CELL), int(fp.y // CELL))
            if key != was:
                left = [j for j in cells[was] if j != i]
                if left:
                    cells[was] = left
                else:
                    del cells[was]
                got = cells.get(key)
                if got is None:
                    cells[key] = [i]
                else:
                    got = list(got)
                    insort(got, i)
                    cells[key] = got
            r = fp._radius
            if r > max_r:
                max_r = r
            elif old._radius >= max_r and r < old._radius:
                shrunk = True  # (the greatest radius may have gone: found again below)
        if shrunk:
            max_r = 0.0
            for p in new:
                r = p.fp._radius
                if r > max_r:
                    max_r = r
        new._cells = cells
        new._max_r = max_r
        return new

    def near(self, x: float, y: float, reach: float, radii: int = 1) -> Sequence[T]:
        """Every piece whose centre lies within ``reach`` + ``radii`` times its footprint's radius
        of (x, y) (with ``radii`` = 1: whose circumscribed circle comes within ``reach``), maybe
        with others, in list order."""
        if len(self) < SMALL or not math.isfinite(reach) or REFERENCE.on:
            return self  # (the reference: every piece, for the caller's exact test)
        cells = self._cells
        if cells is None:
            cells = self._build()
        r = reach + radii * self._max_r + SLACK
        x0, x1 = int((x - r) // CELL), int((x + r) // CELL)
        y0, y1 = int((y - r) // CELL), int((y + r) // CELL)
        if (x1 - x0 + 1) * (y1 - y0 + 1) > len(cells):
            # a query wider than the occupied cells: walk the occupied cells instead
            found = [i for (cx, cy), idx in cells.items() if x0 <= cx <= x1 and y0 <= cy <= y1 for i in idx]
        else:
            found = []
            get = cells.get
            for cx in range(x0, x1 + 1):
                for cy in range(y0, y1 + 1):
                    idx = get((cx, cy))
                    if idx is not None:
                        found.extend(idx)
        found.sort()
        return [self[i] for i in found]


def nearby(pieces: Sequence[P], x: float, y: float, reach: float, radii: int = 1) -> Sequence[P]:
    """``pieces.near(x, y, reach, radii)`` for an index, else ``pieces`` themselves (every piece).
    (Typed by its pieces, so compiled callers read the pieces' fields natively.)"""
    if type(pieces) is FootprintIndex:
        return pieces.near(x, y, reach, radii)
    return pieces
