"""A close combat on the board: overlaps and rear ranks read from the geometry, the score
(:mod:`.combat`) and the outcome moves (:mod:`.outmoves`), as events.

dbm-3.2:cc.overlap: an enemy in side-edge-to-side-edge contact, or front corner to front corner
facing the same way as the fighter's opponent, overlaps it, unless the contact is with only the
rear element of a double base or only a supporting element, or the overlapping element is itself in
front-edge contact with an enemy front edge (Fig 11: B does not overlap I; C overlaps E once I has
recoiled, dbm-3.2:fig.11). dbm-3.2:fig.7: an overlap must be in place before the contact it
overlaps; the caller passes elements that moved this bound after that contact as ``late``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from shieldwall.rulesets.dbm.board import Board
from shieldwall.rulesets.dbm.clauses import rule
from shieldwall.rulesets.dbm.combat import score_pair
from shieldwall.rulesets.dbm.elements import Element
from shieldwall.rulesets.dbm.geom import TOL, corner, distance, edge_overlap, near, opposite, parallel
from shieldwall.rulesets.dbm.outmoves import destroy, flee, recoil
from shieldwall.rulesets.dbm.support import Fighter, Rank

Event = dict[str, Any]


def front_engaged(board: Board, e: Element) -> Element | None:
    """The enemy whose front edge is in contact with e's front edge, if any (``board.touching``,
    asked of the enemy only)."""
    fp = e.fp
    for o in board.near(fp.corners(), 0.0, exclude=(e.id,)):
        if (
            o.side != e.side
            and distance(fp, o.fp) <= TOL
            and opposite(fp, o.fp)
            and edge_overlap(fp, "front", o.fp, "front") > 0
        ):
            return o
    return None


def ranks_behind(board: Board, e: Element, n: int = 3) -> tuple[Element, ...]:
    """Up to ``n`` friends lined up behind e, each in full front-to-rear contact with the one ahead."""
    out: list[Element] = []
    cur = e
    for _ in range(n):
        nxt = None
        for o in board.touching(cur, side=e.side):
            if (
                o.id not in (x.id for x in out)
                and parallel(o.fp, cur.fp)
                and edge_overlap(o.fp, "front", cur.fp, "rear") >= cur.fp.frontage - TOL
            ):
                nxt = o
                break
        if nxt is None:
            break
        out.append(nxt)
        cur = nxt
    return tuple(out)


def overlaps(board: Board, e: Element, late: Iterable[str] = ()) -> list[str]:
    """Ids of enemy elements overlapping e (dbm-3.2:cc.overlap, dbm-3.2:fig.7, dbm-3.2:fig.11)."""
    opp = front_engaged(board, e)
    if opp is None:
        return []
    late_ids = set(late)
    out = []
    for o in board.touching(e):
        if o.side == e.side or o.id == opp.id or o.id in late_ids:
            continue
        if front_engaged(board, o) is not None:
            continue
        if o.double_with and any(r.id == o.id for r in ranks_behind(board, board.el[o.double_with], 1)):
            continue  # the rear element only of a double base
        side = any(edge_overlap(e.fp, s, o.fp, t) > 0 for s in ("left", "right") for t in ("left", "right"))
        corners = opposite(e.fp, o.fp) and (
            near(corner(e.fp, "fl"), corner(o.fp, "fl")) or near(corner(e.fp, "fr"), corner(o.fp, "fr"))
        )
        if side or corners:
            out.append(o.id)
    return sorted(out)


def fighter(board: Board, e: Element, **kw: Any) -> Fighter:
    ranks = tuple(
        Rank(r.code, r.grade, command=r.command, weapon="bow" if r.bow else "")
        for r in ranks_behind(board, e)
    )
    fields: dict[str, Any] = {
        "code": e.code,
        "grade": e.grade,
        "regular": e.regular,
        "command": e.command,
        "general": e.general,
        "double_base_required": e.double_base_required,
        "overlaps": len(overlaps(board, e)),
        "ranks": ranks,
        "chariot": e.chariot,
    }
    fields.update(kw)
    return Fighter(**fields)


def close_combat(
    board: Board,
    a_id: str,
    b_id: str,
    die_a: int,
    die_b: int,
    extra: dict[str, dict[str, Any]] | None = None,
    spared: frozenset[str] = frozenset(),
) -> list[Event]:
    """Fight a close combat between two elements in front-edge contact; apply the outcome. A
    ``spared`` loser that recoils is not destroyed if blocked (dbm-3.2:cc.fort-corner)."""
    extra = extra or {}
    a, b = board.el[a_id], board.el[b_id]
    fa = fighter(board, a, **extra.get(a_id, {}))
    fb = fighter(board, b, **extra.get(b_id, {}))
    r = score_pair(board.tables, fa, fb, "cc", die_a, die_b)
    ev: list[Event] = [
        {
            "kind": "close-combat",
            "rule": rule("fig.11"),
            "a": a_id,
            "b": b_id,
            "dice": [die_a, die_b],
            "overlaps": {a_id: overlaps(board, a), b_id: overlaps(board, b)},
            "steps": {a_id: r["a"].steps, b_id: r["b"].steps},
            "totals": {a_id: r["a"].total, b_id: r["b"].total},
            "result": r["result"],
        }
    ]
    res = r["result"]
    if res is None:
        return ev
    loser = a_id if res["loser"] == "a" else b_id
    winner = b_id if loser == a_id else a_id
    if res["result"] == "destroyed":
        ps = [x.id for x in ranks_behind(board, board.el[loser]) if x.code == "Ps"]
        ev += destroy(board, loser, supporting_ps=ps)
    elif res["result"] == "recoil":
        ev += recoil(board, loser, spared=loser in spared)
    elif res["result"] == "flee":
        ev += flee(board, loser, away_from=board.el[winner])
    return ev
