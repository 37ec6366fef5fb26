"""How far a command's group may march, remembered while nothing near it changes (issue 16: big
armies).

The scripted bot asks, every decision, for the first march on the menu: in a big army that is a
march limit (``moves.march_limit``, dbm-3.2:march.rules) worked out for most commands, most of them
unchanged since the decision before (one group moved, far away). The limit reads only the group's
own elements and the elements whose boxes meet, for each of its elements, the box of its march
ahead widened by the 200 p standoff, and the box of the element widened by 200 p and its move
(``march_standoff``): all inside a square around the element's centre of half-side its move, its
frontage, its depth and 201 p. ``march_distance`` keeps each group's answer (the group as its
elements: ids, types and footprints) with those squares and the lengths of the board's logs of
changed boxes by side (``Board.side_logs``), and gives it again while no enemy box put or removed
since meets a square: the limit reads, besides the group, only enemy elements (friends, even in the
way, are never asked about), so the moves of the group's own side, the most in its bound, leave
its answer standing. On the reference path (``core.reference``) every limit is worked out afresh.
"""

from __future__ import annotations

from typing import Final

from shieldwall.core.errors import IllegalOrder
from shieldwall.core.reference import REFERENCE
from shieldwall.rulesets.dbm.board import Board
from shieldwall.rulesets.dbm.elements import Element
from shieldwall.rulesets.dbm.moves import MARCH_STANDOFF, march_limit
from shieldwall.rulesets.dbm.spatial import Box

#: the march step of the menu (paces)
STEP: Final = 5.0
#: the memo is emptied when it holds this many groups
LIMIT: Final = 4096


def march_distance_reference(board: Board, group: list[Element]) -> float:
    """The menu's march limit of ``group`` (0 when it starts closer than its standoff)."""
    try:
        return march_limit(board, group, grouped_enemy=set(board.el), step=STEP)
    except IllegalOrder:
        return 0.0


def regions(board: Board, group: list[Element]) -> list[Box]:
    """Squares holding every box ``march_limit(board, group)`` asks the grid about."""
    reach = max(board.tables.movement.type[e.code].good for e in group)
    out = []
    for e in group:
        r = reach + e.fp.frontage + e.fp.depth + MARCH_STANDOFF + 1.0
        out.append((e.fp.x - r, e.fp.y - r, e.fp.x + r, e.fp.y + r))
    return out


def march_distance(board: Board, group: list[Element]) -> float:
    """``march_distance_reference(board, group)``, remembered while no enemy box changed since
    meets the group's regions."""
    if REFERENCE.on:
        return march_distance_reference(board, group)
    sides = {e.side for e in group}
    if len(sides) != 1:  # (never on the menu: a command's elements are of its side)
        return march_distance_reference(board, group)
    memo = board.march_memo
    key = tuple(group)
    got = memo.get(key)
    if got is not None and board.untouched_by(sides, got[2], got[1]):
        memo[key] = (got[0], got[1], board.marks())
        return got[0]
    d = march_distance_reference(board, group)
    if len(memo) >= LIMIT:
        memo.clear()
    memo[key] = (d, regions(board, group), board.marks())
    return d
