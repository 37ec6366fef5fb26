"""The menu's move plans remembered while nothing near them changes (issue 16: big armies).

The scripted bot asks, every decision, whether the single moves of the elements near the enemy and
the favoured groups' advances are on the menu: in a big army that is a plan (``plan_advance``,
dbm-3.2:move.legal-contact) and its gap check (dbm-3.2:gap.enter) made again for the same elements
at every decision, most of them unchanged since the decision before (one group moved, far away).
A plan of ``ids`` moving up to ``reach`` paces reads the elements (their ids, kinds and
footprints) and only the elements whose boxes come near the sweep of each mover up to
``reach + bw`` paces ahead, after a line-up shift of at most half a base width, and across the gap
check's swept path one base width wider on each side (and the scenario's fortifications, fixed):
all inside a box around the movers' centres widened by ``reach``, three base widths, a frontage and
a depth. ``remembered`` keeps each answer (under a key naming the order, its command and the
movers as element objects, which are frozen: a move or a loss is a new one) with that box and the
length of the board grid's log of boxes put or removed (``spatial.Grid.log``), and gives it again
while no box logged since meets the box. The movers' reach reads the terrain under them, which is
placed before the battle: the key holds the number of terrain features too. On the reference path
(``core.reference``) every answer is worked out afresh.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from itertools import islice
from typing import Any

from shieldwall.core.reference import REFERENCE
from shieldwall.rulesets.dbm.board import Board
from shieldwall.rulesets.dbm.elements import Element
from shieldwall.rulesets.dbm.spatial import Box

#: the memo is emptied when it holds this many answers
LIMIT = 8192
#: paces added to the box beyond what the plan can read
SLACK = 10.0


def region(board: Board, group: Sequence[Element], reach: float) -> Box:
    """A box holding every box ``plan_advance(board, group, reach)`` and the gap check ask about."""
    r = reach + 3.0 * board.tables.bw + max(e.fp.frontage + e.fp.depth for e in group) + SLACK
    xs = [e.fp.x for e in group]
    ys = [e.fp.y for e in group]
    return (min(xs) - r, min(ys) - r, max(xs) + r, max(ys) + r)


def untouched(log: list[Box], seen: int, box: Box) -> bool:
    """Whether no box logged from ``seen`` on meets ``box``."""
    x0, y0, x1, y1 = box
    return not any(b[0] <= x1 and b[2] >= x0 and b[1] <= y1 and b[3] >= y0 for b in islice(log, seen, None))


def remembered(
    board: Board,
    key: Hashable,
    group: Sequence[Element],
    reach: Callable[[], float],
    make: Callable[[float], Any],
) -> Any:
    """``make(reach())``, remembered under ``key`` while no box logged since meets the region of
    ``group`` (the movers, as element objects, must be part of ``key``) for that reach."""
    if REFERENCE.on:
        return make(reach())
    memo = board.plan_memo
    log = board.grid.log
    got = memo.get(key)
    if got is not None and untouched(log, got[2], got[1]):
        memo[key] = (got[0], got[1], len(log))
        return got[0]
    r = reach()
    value = make(r)
    if len(memo) >= LIMIT:
        memo.clear()
    memo[key] = (value, region(board, group, r), len(log))
    return value
