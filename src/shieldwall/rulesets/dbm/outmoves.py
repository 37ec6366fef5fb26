"""Outcome moves: recoil with the push-back chain, destruction of elements behind, flee, pursue.

Clauses: dbm-3.2:recoil.friends, dbm-3.2:recoil.pushback, dbm-3.2:destroy.behind,
dbm-3.2:flee.skirm-press, dbm-3.2:pursue.ranks, dbm-3.2:river.wading (outcome moves ignore a
river's flow: nothing here reads it), dbm-3.2:basing.double-loss. Each function changes the board
and returns the events it produced: ``{"kind", "id", "rule", ...}``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from shieldwall.core.crossings import sweep_distance
from shieldwall.core.geometry import Footprint
from shieldwall.rulesets.dbm.board import Board
from shieldwall.rulesets.dbm.clauses import rule
from shieldwall.rulesets.dbm.elements import Element, is_skirmisher, troop_class
from shieldwall.rulesets.dbm.geom import TOL, ahead, corner, edge_overlap, local, near, overlapping, parallel

Event = dict[str, Any]
UNPUSHABLE = ("El", "WWg", "Bge", "Shp", "Gal", "Bts")
NAVAL = ("Shp", "Gal", "Bts")


def _back(fp: Footprint) -> tuple[float, float]:
    fx, fy = fp.forward
    return (-fx, -fy)


def _first_obstacle(
    board: Board, e: Element, d: float, direction: tuple[float, float], ignore: set[str]
) -> tuple[float, Element | None]:
    """Distance ``e`` can move along ``direction`` (up to ``d``) before touching another element."""
    end = e.fp.moved(direction[0] * d, direction[1] * d)
    best, who = d, None
    hull = list(e.fp.corners()) + list(end.corners())
    for o in board.near(tuple(hull), 0.0, exclude=ignore | {e.id}):
        if overlapping(e.fp, o.fp):
            continue  # already overlapping (passing through)
        s = sweep_distance(e.fp.corners(), direction, o.fp.corners())
        if s < best - TOL:
            k = s + 4 * TOL
            if not overlapping(e.fp.moved(direction[0] * k, direction[1] * k), o.fp, TOL / 2):
                continue  # it only slides along it (edges on one line) or moves away: no obstacle
            best, who = s, o
    return best, who


def can_pass(board: Board, mover: Element, friend: Element) -> bool:
    return friend.code in board.tables.troops.type[mover.code].pass_through


def can_push(mover: Element, friend: Element) -> bool:
    """dbm-3.2:recoil.friends: naval pushes naval; land troops push any but El, WWg, baggage, naval."""
    if mover.code in NAVAL:
        return friend.code in NAVAL
    return friend.code not in UNPUSHABLE


def _enemy_destroyed_by_push(p: Footprint, en: Element) -> bool:
    """dbm-3.2:recoil.pushback: the blocking enemy dies if met on a rear corner only or a rear edge
    by the pushed element's edge, or on a rear or side edge by its corner only."""
    edge_on = {
        t
        for t in ("front", "right", "rear", "left")
        if any(edge_overlap(p, s, en.fp, t) > 0 for s in ("front", "right", "rear", "left"))
    }
    if "rear" in edge_on:
        return True
    if edge_on:
        return False
    pc = p.corners()
    for name in ("rr", "rl"):
        if any(near(c, corner(en.fp, name)) for c in pc):
            return True
    # our corner on their side or rear edge
    for c in pc:
        u, v = local(en.fp, c)
        hw, hd = en.fp.frontage / 2, en.fp.depth / 2
        if abs(abs(u) - hw) <= TOL and -hd - TOL <= v <= hd + TOL:
            return True
        if abs(v + hd) <= TOL and abs(u) <= hw + TOL:
            return True
    return False


def _push(
    board: Board, p: Element, need: float, d: tuple[float, float], chain: set[str], ev: list[Event]
) -> bool:
    """Push ``p`` back ``need`` paces along ``d``; False if its path is blocked (the recoiler dies)."""
    chain = chain | {p.id}
    while need > TOL:
        go, who = _first_obstacle(board, p, need, d, chain)
        if who is None:
            fp = p.fp.moved(d[0] * need, d[1] * need)
            p = board.move(p.id, fp)
            ev.append(
                {"kind": "pushed-back", "id": p.id, "paces": round(need, 3), "rule": rule("recoil.pushback")}
            )
            if not board.on_table(fp):
                board.remove(p.id)
                ev.append(
                    {
                        "kind": "lost",
                        "id": p.id,
                        "why": "pushed off the table",
                        "rule": rule("recoil.pushback"),
                    }
                )
            return True
        fp = p.fp.moved(d[0] * go, d[1] * go)
        p = board.move(p.id, fp)
        need -= go
        if who.side != p.side:
            if who.code == "Ps":
                ev.append(
                    {
                        "kind": "flee",
                        "id": who.id,
                        "why": "met by a pushed-back element",
                        "rule": rule("recoil.pushback"),
                    }
                )
                board.remove(who.id)  # it flees clear: placed by the flee move (not modelled here)
                continue
            if p.code != "Ps" and _enemy_destroyed_by_push(fp, who):
                board.remove(who.id)
                ev.append(
                    {
                        "kind": "destroyed",
                        "id": who.id,
                        "why": "met by a pushed-back element",
                        "cc": False,
                        "rule": rule("recoil.pushback"),
                    }
                )
            return False
        if parallel(p.fp, who.fp) and (can_pass(board, p, who) or p.code == "Ps"):
            chain = chain | {who.id}
            continue
        if parallel(p.fp, who.fp) and can_push(p, who):
            if not _push(board, who, need, d, chain, ev):
                return False
            continue
        return False
    return True


def recoil(board: Board, eid: str, dist: float | None = None, spared: bool = False) -> list[Event]:
    """Recoil ``eid`` straight back; friends behind are passed through or pushed back, and a blocked
    chain destroys the recoiler (dbm-3.2:recoil.friends, dbm-3.2:recoil.pushback), unless it is
    ``spared``: a defender flanked at a fortification corner is not destroyed if it recoils
    (dbm-3.2:cc.fort-corner); it stops where it is blocked."""
    e = board.el[eid]
    tb = board.tables
    dist = tb.movement.type[e.code].recoil if dist is None else dist
    d = _back(e.fp)
    ev: list[Event] = []
    start = e.fp
    need = dist
    ignore: set[str] = set()
    while need > TOL:
        go, who = _first_obstacle(board, e, need, d, ignore)
        e = board.move(e.id, e.fp.moved(d[0] * go, d[1] * go))
        need -= go
        if who is None:
            break
        if who.side != e.side or not parallel(e.fp, who.fp):
            if spared:
                break
            return ev + destroy(board, eid, start, why="recoil blocked")
        if can_pass(board, e, who) or e.code == "Ps":
            ignore.add(who.id)
            continue
        if can_push(e, who) and _push(board, who, need, d, {e.id}, ev):
            continue
        if spared:
            break
        return ev + destroy(board, eid, start, why="recoil blocked")
    # a recoiler that passed friends must not end on them: go on to their rear
    for o in board.near(e.fp.corners(), 0.0, exclude=(e.id,)):
        if o.id in ignore and overlapping(e.fp, o.fp):
            u, v = local(o.fp, e.fp.centre)
            extra = (v + o.fp.depth / 2 + e.fp.depth / 2) if parallel(e.fp, o.fp) else 0.0
            e = board.move(e.id, e.fp.moved(d[0] * extra, d[1] * extra))
    ev.insert(0, {"kind": "recoil", "id": eid, "paces": round(dist, 3), "rule": rule("recoil.friends")})
    if not board.on_table(e.fp):
        board.remove(eid)
        ev.append(
            {"kind": "lost", "id": eid, "why": "recoiled off the table", "rule": rule("recoil.pushback")}
        )
    return ev


def behind(board: Board, e: Element, start: Footprint) -> list[Element]:
    """Friends with any part directly behind ``start`` and less than min(depth, BW) from its rear
    edge (strictly less: ruling R21)."""
    lim = min(start.depth, board.tables.bw)
    hw, hd = start.frontage / 2.0, start.depth / 2.0
    out = []
    probe = ahead(start, -lim)
    for o in board.near(tuple(list(start.corners()) + list(probe.corners())), 0.0, exclude=(e.id,)):
        if o.side != e.side:
            continue
        pts = [local(start, p) for p in o.fp.corners()]
        us = [u for u, _ in pts]
        if min(us) >= hw - TOL or max(us) <= -hw + TOL:
            continue  # not directly behind
        top = max(v for _, v in pts)
        if top > hd + TOL or top <= -hd - lim + TOL:
            continue
        if -hd - top < lim - TOL:
            out.append(o)
    return out


def destroy(
    board: Board,
    eid: str,
    start: Footprint | None = None,
    why: str = "close combat",
    supporting_ps: Sequence[str] = (),
    cc: bool = True,
) -> list[Event]:
    """Destroy ``eid``; in close combat (or unable to recoil) also friends less than min(depth, BW)
    behind it and psiloi that supported it, with the text's exceptions (dbm-3.2:destroy.behind).
    A destroyed half of a double element leaves the other half in place (dbm-3.2:basing.double-loss)."""
    e = board.el[eid]
    start = start or e.fp
    ev: list[Event] = [{"kind": "destroyed", "id": eid, "why": why, "cc": cc, "rule": rule("destroy.behind")}]
    victims: list[Element] = []
    if cc:
        exempt_front = (
            e.code in ("WWg", "Bge", "Art")
            or troop_class(board.tables, e) == "naval"
            or (e.code == "Hd" and e.grade == "I")
        )
        if not exempt_front:
            for o in behind(board, e, start):
                if o.code in ("WWg", "Bge") or troop_class(board.tables, o) == "naval":
                    continue
                victims.append(o)
            victims += [board.el[p] for p in supporting_ps if p in board.el and board.el[p] not in victims]
    board.remove(eid)
    if e.double_with and e.double_with in board.el:
        ev.append({"kind": "double-base-split", "id": e.double_with, "rule": rule("basing.double-loss")})
    for v in victims:
        if v.id in board.el:
            board.remove(v.id)
            ev.append(
                {
                    "kind": "destroyed",
                    "id": v.id,
                    "why": f"behind {eid}",
                    "cc": cc,
                    "rule": rule("destroy.behind"),
                }
            )
    return ev


def flee(
    board: Board, eid: str, away_from: Element | None = None, press_forward: bool = False
) -> list[Event]:
    """Flee straight away: skirmishers fleeing a press forward go perpendicularly away from the
    enemy front (dbm-3.2:flee.skirm-press); otherwise turn about (the base flee route is user
    territory: ruling R24). Off the table = lost."""
    e = board.el[eid]
    tb = board.tables
    heading = e.fp.heading + 180.0
    clause = "recoil.friends"
    if press_forward and away_from is not None and is_skirmisher(tb, e):
        heading = away_from.fp.heading
        clause = "flee.skirm-press"
    fp = Footprint(e.fp.x, e.fp.y, heading, e.fp.frontage, e.fp.depth)
    fx, fy = fp.forward
    dist = tb.movement.type[e.code].flee
    fp = fp.moved(fx * dist, fy * dist)
    board.move(eid, fp)
    ev: list[Event] = [
        {"kind": "flee", "id": eid, "heading": round(heading % 360, 3), "paces": dist, "rule": rule(clause)}
    ]
    if not board.on_table(fp):
        board.remove(eid)
        ev.append({"kind": "lost", "id": eid, "why": "fled off the table", "rule": rule(clause)})
    return ev


def pursuers(board: Board, e: Element, supports: Any = None) -> list[Element]:
    """``e`` and the contiguous 2nd-4th ranks lined up behind it that also pursue: same troop type,
    or able to rear-support it against any type (dbm-3.2:pursue.ranks)."""
    out = [e]
    cur = e
    for _ in range(3):
        nxt = None
        for o in board.touching(cur, side=e.side):
            if (
                parallel(o.fp, cur.fp)
                and edge_overlap(o.fp, "front", cur.fp, "rear") >= cur.fp.frontage - TOL
            ):
                nxt = o
        if nxt is None or not (nxt.code == e.code or (supports is not None and supports(nxt, cur))):
            break
        out.append(nxt)
        cur = nxt
    return out


def pursue(board: Board, eid: str, supports: Any = None) -> list[Event]:
    e = board.el[eid]
    d = board.tables.movement.type[e.code].pursue
    """Pursue straight ahead ``pursue`` paces (user data) with the ranks of dbm-3.2:pursue.ranks,
    stopping on contact with any element in the way (ruling R35)."""
    column = pursuers(board, e, supports)
    go, _ = _first_obstacle(board, e, d, e.fp.forward, {p.id for p in column})
    ev: list[Event] = []
    if go <= TOL:
        return ev
    for p in column:
        board.move(p.id, ahead(p.fp, go))
        ev.append({"kind": "pursue", "id": p.id, "paces": round(go, 3), "rule": rule("pursue.ranks")})
    return ev
