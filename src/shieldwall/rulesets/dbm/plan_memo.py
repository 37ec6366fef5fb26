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
placed before the battle: the key holds the number of terrain features too.

``unengaged`` does the same for the menu's groups (``menu.group_of``): which of a command's
elements are in no frontal combat (``melee.front_engaged`` reads the elements touching each one),
kept with the command's elements as objects and the box of their bases widened by a pace, while no
enemy box logged since meets it (by side: ``Board.side_logs``; only enemies can engage). On the
reference path (``core.reference``) every answer is worked out afresh.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from itertools import islice
from typing import Any, Final

from shieldwall.core.polygons import bounding_box
from shieldwall.core.reference import REFERENCE
from shieldwall.rulesets.dbm.board import Board
from shieldwall.rulesets.dbm.elements import Element
from shieldwall.rulesets.dbm.spatial import Box

#: the memo is emptied when it holds this many answers
LIMIT: Final = 8192
#: paces added to the box beyond what the plan can read
SLACK: Final = 10.0


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


def unengaged_reference(board: Board, ids: Sequence[str]) -> list[str]:
    """The elements of ``ids`` on the table, not baggage and in no frontal combat, in that order."""
    from shieldwall.rulesets.dbm.melee import front_engaged

    out = []
    for eid in ids:
        e = board.el.get(eid)
        if e is not None and e.code != "Bge" and front_engaged(board, e) is None:
            out.append(eid)
    return out


def unengaged(board: Board, cmd: str, ids: Sequence[str]) -> list[str]:
    """``unengaged_reference(board, ids)`` (``ids``: command ``cmd``'s elements), remembered while
    the elements are the same objects and no enemy box logged since meets the box of their bases
    widened by a pace (``front_engaged`` asks the grid about boxes within ``TOL`` of a base, and
    reads only enemies)."""
    if REFERENCE.on:
        return unengaged_reference(board, ids)
    els = tuple(board.el.get(eid) for eid in ids)
    on = [e for e in els if e is not None]
    sides = {e.side for e in on}
    if len(sides) > 1:  # (never: a command's elements are of its side)
        return unengaged_reference(board, ids)
    memo = board.engaged_memo
    got = memo.get(cmd)
    if (
        got is not None
        and got[0] == tuple(ids)
        and got[1] == els
        and board.untouched_by(sides, got[3], got[2])
    ):
        memo[cmd] = (got[0], got[1], got[2], board.marks(), got[4])
        return got[4]
    out = unengaged_reference(board, ids)
    boxes = [bounding_box(e.fp.corners()) for e in on]
    box = (
        [
            (
                min(b[0] for b in boxes) - 1.0,
                min(b[1] for b in boxes) - 1.0,
                max(b[2] for b in boxes) + 1.0,
                max(b[3] for b in boxes) + 1.0,
            )
        ]
        if boxes
        else []
    )
    memo[cmd] = (tuple(ids), els, box, board.marks(), out)
    return out
