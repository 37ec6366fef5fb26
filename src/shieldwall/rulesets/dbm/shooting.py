"""Distant shooting: who shoots, at what, who may not, rear-rank aid and the order of shooting.

Clauses: dbm-3.2:shoot.who, dbm-3.2:shoot.forbidden, dbm-3.2:shoot.aid, dbm-3.2:shoot.choice,
dbm-3.2:fig.10b (the arc of fire, 200 p bow range, the target most directly to the front).
"""

from __future__ import annotations

from collections.abc import Iterable

from shieldwall.rulesets.dbm.board import Board
from shieldwall.rulesets.dbm.elements import Element
from shieldwall.rulesets.dbm.geom import TOL, can_target, directness, edge_overlap, opposite, parallel
from shieldwall.rulesets.dbm.melee import front_engaged, overlaps, ranks_behind


def may_shoot(e: Element) -> bool:
    """dbm-3.2:shoot.who: Art, Bw, WWg (S)/(O), El(X), Shp (S)/(O)/(X), Gal, Bts (S)/(X)."""
    return type_shoots(e.code, e.grade)


def type_shoots(c: str, g: str) -> bool:
    """dbm-3.2:shoot.who for a troop type and grade: whether such an element shoots at all (the
    odds' ``kind=shooting`` asks it of a SPEC, which stands on no table)."""
    return (
        c in ("Art", "Bw", "Gal")
        or (c == "WWg" and g in ("S", "O"))
        or (c == "El" and g == "X")
        or (c == "Shp" and g in ("S", "O", "X"))
        or (c == "Bts" and g in ("S", "X"))
    )


def in_close_combat(board: Board, e: Element) -> bool:
    if front_engaged(board, e) is not None:
        return True
    return any(
        o.side != e.side and edge_overlap(e.fp, s, o.fp, "front") > 0
        for o in board.touching(e)
        for s in ("left", "right", "rear")
    )


def shooting_forbidden(board: Board, e: Element) -> str | None:
    """dbm-3.2:shoot.forbidden: why e may neither shoot nor be shot at, or None."""
    if in_close_combat(board, e):
        return "in close combat"
    for f in board.touching(e, side=e.side):
        if (
            parallel(e.fp, f.fp)
            and edge_overlap(e.fp, "front", f.fp, "rear") >= e.fp.frontage - TOL
            and in_close_combat(board, f)
        ):
            if any(r.id == e.id for r in ranks_behind(board, f)) and f.code == e.code:
                return "providing rear support to an element in close combat"
            return "in full front edge to rear edge contact with an element in close combat"
    for o in board.touching(e):
        if o.side != e.side and front_engaged(board, o) is not None and e.id in overlaps(board, o):
            return "overlapping an enemy element in close combat to its front"
    return None


def shooter_why_not(board: Board, s: Element, marched_or_fled: Iterable[str] = ()) -> tuple[str, str] | None:
    """Why ``s`` may not shoot this bound, as (clause, reason), or None (dbm-3.2:shoot.who: not
    after marching or fleeing; dbm-3.2:shoot.forbidden; a range in the tables' ``range_p``)."""
    if not may_shoot(s):
        return "shoot.who", f"{s.code} does not shoot"
    if s.id in set(marched_or_fled):
        return "shoot.who", f"{s.id} marched or fled this bound"
    why = shooting_forbidden(board, s)
    if why is not None:
        return "shoot.forbidden", f"{s.id} is {why}"
    if board.tables.ranges.range_p.get(s.code) is None:
        return "shoot.who", f"the tables give {s.code} no range (ranges.toml range_p)"
    return None


def target_why_not(board: Board, s: Element, o: Element, rng: float) -> tuple[str, str] | None:
    """Why the enemy ``o`` is no target of ``s`` (range ``rng``), as (clause, reason), or None:
    it must be at least partly inside the rectangle 1 BW either side of the front and within range
    (dbm-3.2:shoot.who, Fig 10b, ruling R27), and not barred (dbm-3.2:shoot.forbidden)."""
    if not can_target(s.fp, o.fp, rng, board.tables.bw):
        return (
            "shoot.who",
            f"{o.id} is not within {rng:g} p inside the rectangle 1 BW either side of the front",
        )
    why = shooting_forbidden(board, o)
    if why is not None:
        return "shoot.forbidden", f"{o.id} is {why}"
    return None


def targets(board: Board, s: Element, marched_or_fled: Iterable[str] = ()) -> list[Element]:
    """Enemy elements ``s`` may shoot at, best first (Fig 10b: most directly to the front); empty
    when s may not shoot (dbm-3.2:shoot.who: not after marching or fleeing this bound)."""
    if shooter_why_not(board, s, marched_or_fled) is not None:
        return []
    rng = board.tables.ranges.range_p[s.code]
    out = [o for o in board.within(s, rng) if o.side != s.side and target_why_not(board, s, o, rng) is None]
    return sorted(out, key=lambda o: (directness(s.fp, o.fp), o.id))


def equal_priority(board: Board, s: Element, ts: list[Element]) -> list[Element]:
    """dbm-3.2:shoot.choice: the targets of exactly equal priority, among which the owner chooses."""
    if not ts:
        return []
    best = directness(s.fp, ts[0].fp)
    return [t for t in ts if directness(s.fp, t.fp) == best]


def aids(board: Board, front: Element, rear: Element, difficult: Iterable[str] = ()) -> bool:
    """dbm-3.2:shoot.aid: a 2nd rank of bowmen aids the front rank's shooting if both are bowmen with
    the same bow, same command, in full front-to-rear contact, same grade (or X in front of S/O on
    the same base), neither in difficult going."""
    if front.code != "Bw" or rear.code != "Bw" or front.bow != rear.bow or front.command != rear.command:
        return False
    if not (
        parallel(front.fp, rear.fp)
        and edge_overlap(rear.fp, "front", front.fp, "rear") >= front.fp.frontage - TOL
    ):
        return False
    same = front.grade == rear.grade or (
        front.grade == "X" and rear.grade in ("S", "O") and rear.double_with == front.id
    )
    return same and not ({front.id, rear.id} & set(difficult))


def shooting_order(pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """dbm-3.2:shoot.choice: the bound's player orders the shooting; two elements that target each
    other are each side's main shooting element (they stay paired, first)."""
    mutual = [(a, b) for a, b in pairs if (b, a) in pairs and a < b]
    rest = [(a, b) for a, b in pairs if (a, b) not in mutual and (b, a) not in mutual]
    return mutual + rest


def facing_each_other(a: Element, b: Element) -> bool:
    return opposite(a.fp, b.fp)
