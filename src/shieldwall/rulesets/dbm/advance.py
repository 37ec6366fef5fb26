"""A tactical or march move straight ahead, planned without changing the board, then applied:
the one line-up shift if necessary, stopping at the first element met, legal contacts only, and the
contacted element conforming.

Clauses: dbm-3.2:move.lineup-shift, dbm-3.2:move.legal-contact, dbm-3.2:move.flank-rear-start,
dbm-3.2:move.conform, dbm-3.2:gap.enter (single elements; ruling R31), dbm-3.2:interpen.hordes.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from shieldwall.core.crossings import sweep_distance, swept_rectangle
from shieldwall.core.geometry import RAD_TO_DEG, Footprint
from shieldwall.rulesets.dbm.board import Board
from shieldwall.rulesets.dbm.clauses import rule
from shieldwall.rulesets.dbm.elements import Element
from shieldwall.rulesets.dbm.fortgeom import fort_stop
from shieldwall.rulesets.dbm.geom import (
    TOL,
    ahead,
    distance,
    legal_contact,
    lineup_shift,
    may_contact_flank,
    may_contact_rear,
    opposite,
    overlapping,
    shifted,
)
from shieldwall.rulesets.dbm.moves import conform, gap_narrower_than_element

#: the math functions called here, bound once (compiled: a static read, not a lookup per call)
_atan2: Final = math.atan2

BACK_OFF = 1.0  # paces short of an illegal contact


@dataclass
class Plan:
    ids: list[str]
    fps: dict[str, Footprint] = field(default_factory=dict)
    shift: float = 0.0
    dist: float = 0.0
    contacts: list[tuple[str, str, str]] = field(default_factory=list)  # (mover, enemy, position)


def obstacle_distance(
    board: Board, m: Element, fp: Footprint, reach: float, group: set[str]
) -> tuple[float, Element | None]:
    sweep = swept_rectangle(fp.centre, ahead(fp, reach).centre, fp.frontage, fp.depth / 2.0)
    best, who = reach, None
    for o in board.near(sweep, 0.0, exclude=group):
        if overlapping(fp, o.fp):
            continue
        if o.side == m.side and o.code == "Hd" and o.grade == "I":
            continue  # passed through and destroyed (interpen.hordes)
        s = sweep_distance(fp.corners(), fp.forward, o.fp.corners())
        if s < best - TOL:
            k = s + 4 * TOL
            if overlapping(ahead(fp, k), o.fp, TOL / 2):
                best, who = s, o
    return best, who


def plan_advance(board: Board, ids: Sequence[str], reach: float) -> Plan:
    """Where the elements ``ids`` end moving together straight ahead up to ``reach`` paces."""
    bw = board.tables.bw
    group = set(ids)
    movers = [board.el[i] for i in ids]
    plan = Plan(list(ids))
    # 1. the line-up shift, if it is necessary for a straight-ahead contact
    for m in movers:
        d, who = obstacle_distance(board, m, m.fp, reach + bw, group)
        if who is None or who.side == m.side or not opposite(m.fp, who.fp):
            continue
        probe = ahead(m.fp, max(0.0, min(d, reach) - bw / 2.0))
        if distance(probe, who.fp) > bw + TOL:
            continue
        s = lineup_shift(probe, who.fp, bw)
        if s:
            moved = [shifted(x.fp, s) for x in movers]
            if not any(
                overlapping(f, o.fp) for f in moved for o in board.near(f.corners(), 0.0, exclude=group)
            ):
                plan.shift = s
            break
    start = {m.id: (shifted(m.fp, plan.shift) if plan.shift else m.fp) for m in movers}
    # 2. as far as the first element met
    dist = reach
    for m in movers:
        d, _ = obstacle_distance(board, m, start[m.id], dist, group)
        dist = min(dist, d)
        if board.forts:  # an undefended enemy fortification section stops it (ruling R41)
            dist = fort_stop(board, m, start[m.id], dist)
    dist = max(0.0, dist)
    ends = {i: ahead(fp, dist) for i, fp in start.items()}
    # 3. every contact made must be legal, from a legal starting position
    friends = [ends[i] for i in ids]
    legal = True
    for m in movers:
        for o in board.within(ends[m.id], TOL, exclude=group):
            if o.side == m.side:
                continue
            pos = legal_contact(ends[m.id], o.fp, friends)
            rear_bad = pos == "front-to-rear" and not may_contact_rear(m.fp, o.fp)
            flank_ok = may_contact_flank(m.fp, o.fp, "left") or may_contact_flank(m.fp, o.fp, "right")
            if pos is None or rear_bad or (pos == "front-on-flank" and not flank_ok):
                legal = False
            else:
                plan.contacts.append((m.id, o.id, pos))
    if not legal:
        plan.contacts = []
        dist = max(0.0, dist - BACK_OFF)
        ends = {i: ahead(fp, dist) for i, fp in start.items()}
    plan.dist = dist
    plan.fps = ends
    return plan


def single_gap_ok(board: Board, eid: str, plan: Plan) -> bool:
    """dbm-3.2:gap.enter for a single element: a narrow gap only straight ahead into enemy contact."""
    e = board.el[eid]
    if not gap_narrower_than_element(board, e, plan.fps[eid]):
        return True
    return bool(plan.contacts) and plan.shift == 0.0


def corners(fp: Footprint) -> list[list[float]]:
    """A base's corners (front-left, front-right, rear-right, rear-left), rounded to 0.001 p."""
    return [[round(x, 3), round(y, 3)] for x, y in fp.corners()]


def _seen(before: Footprint, after: Footprint, eid: str) -> dict[str, Any]:
    """Where a line-up shift, a conform or a make-room took an element from and to: the event's
    ``adjust`` entry, which the state keeps for the table and takes out of the logged event."""
    return {"id": eid, "from": corners(before), "to": corners(after)}


def adjustment(
    kind: str, data: Mapping[str, Any], seen: Mapping[str, Any], clause: str, bound: int, side: str
) -> dict[str, Any]:
    """One entry of ``view()["recent_adjustments"]``: the element, what moved it (``lineup-shift``,
    ``conform`` or ``make-room``), a label for the table (``lead``: the group's first element, which
    the table labels), its base's corners before and after in paces, the clause, and the bound
    (number and side) it happened in."""
    paces = abs(float(data.get("paces", 0.0)))
    label = {
        "lineup-shift": f"line-up shift {paces:g} p",
        "conform": "conformed",
        "make-room": f"made room {paces:g} p",
    }.get(kind, kind)
    ids = data.get("ids") or [seen["id"]]
    return {
        "id": str(seen["id"]),
        "kind": kind,
        "label": label,
        "lead": seen["id"] == ids[0],  # a group's move is labelled once, on its first element
        **({"how": str(data["how"])} if "how" in data else {}),
        "from": seen["from"],
        "to": seen["to"],
        "clause": clause,
        "bound": bound,
        "side": side,
    }


def apply_plan(board: Board, plan: Plan, kind: str = "advance") -> list[dict[str, Any]]:
    ev: list[dict[str, Any]] = []
    start = {i: board.el[i].fp for i in plan.ids}
    shift: dict[str, Any] = {}
    if plan.shift:
        shift = {
            "kind": "lineup-shift",
            "ids": plan.ids,
            "paces": round(plan.shift, 3),
            "rule": rule("move.lineup-shift"),
        }
        ev.append(shift)
    for i in plan.ids:
        e = board.el[i]
        for o in board.near(
            swept_rectangle(e.fp.centre, plan.fps[i].centre, e.fp.frontage, e.fp.depth / 2),
            0.0,
            exclude=plan.ids,
        ):
            if o.side == e.side and o.code == "Hd" and o.grade == "I" and o.id in board.el:
                board.remove(o.id)
                ev.append(
                    {
                        "kind": "destroyed",
                        "id": o.id,
                        "cc": False,
                        "why": f"passed through by {i}",
                        "rule": rule("interpen.hordes"),
                    }
                )
        board.move(i, plan.fps[i])
    if shift:
        shift["adjust"] = [_seen(start[i], plan.fps[i], i) for i in plan.ids]
    ev.append(
        {
            "kind": kind,
            "ids": plan.ids,
            "paces": round(plan.dist, 3),
            "rule": rule(
                "march.rules"
                if kind == "march"
                else "move.lineup-shift"
                if plan.shift
                else "move.legal-contact"
            ),
        }
    )
    straight = plan.shift == 0.0
    for mid, tid, pos in plan.contacts:
        ev.append(
            {"kind": "contact", "id": mid, "enemy": tid, "position": pos, "rule": rule("move.legal-contact")}
        )
        if tid in board.el and mid in board.el:
            grouped = any(f.side == board.el[tid].side for f in board.touching(board.el[tid]))
            c = conform(
                board,
                tid,
                mid,
                target_grouped=grouped,
                mover_group_size=len(plan.ids),
                mover_straight=straight,
                group_ids=plan.ids,
            )
            if c.group_back:  # (f): the group goes straight back to make room (ruling R30)
                fx, fy = board.el[mid].fp.forward
                room = []
                for g in plan.ids:
                    if g in board.el:
                        was = board.el[g].fp
                        board.move(g, was.moved(-fx * c.group_back, -fy * c.group_back))
                        room.append(_seen(was, board.el[g].fp, g))
                ev.append(
                    {
                        "kind": "make-room",
                        "ids": plan.ids,
                        "for": tid,
                        "paces": c.group_back,
                        "rule": rule("move.conform"),
                        "adjust": room,
                    }
                )
            if c.fp is not None:
                was = board.el[tid].fp
                board.move(tid, c.fp)
                ev.append(
                    {
                        "kind": "conform",
                        "id": tid,
                        "to": mid,
                        "how": c.kind,
                        "rule": rule("move.conform"),
                        "adjust": [_seen(was, c.fp, tid)],
                    }
                )
    return ev


def heading_to(fp: Footprint, x: float, y: float) -> float:
    return _atan2(x - fp.x, y - fp.y) * RAD_TO_DEG
