"""Moves near the enemy: conforming, gaps, interpenetration, march moves.

Clauses: dbm-3.2:move.conform, dbm-3.2:gap.enter, dbm-3.2:interpen.hordes, dbm-3.2:interpen.flee,
dbm-3.2:march.rules (Fig 16a/b, dbm-3.2:fig.16), dbm-3.2:halts, dbm-3.2:baggage.mobile.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from shieldwall.core.crossings import swept_rectangle
from shieldwall.core.errors import IllegalOrder
from shieldwall.core.geometry import Footprint, Polygon
from shieldwall.core.polygons import convex_penetration
from shieldwall.core.reference import REFERENCE
from shieldwall.rulesets.dbm.board import Board
from shieldwall.rulesets.dbm.clauses import rule
from shieldwall.rulesets.dbm.elements import Element, is_foot, is_skirmisher, troop_class
from shieldwall.rulesets.dbm.geom import TOL, ahead, distance, edge_overlap, local, overlapping, shifted

#: the math functions called here, bound once (compiled: a static read, not a lookup per call)
_hypot: Final = math.hypot


def _meets(poly: Polygon, fp: Footprint) -> bool:
    return convex_penetration(poly, fp.corners(), TOL) > TOL


UNPUSHABLE = ("El", "WWg", "Bge", "Shp", "Gal", "Bts")


# --- dbm-3.2:move.conform ------------------------------------------------------------------------


@dataclass(frozen=True)
class Conform:
    kind: str  # "pivot" (pivot and/or shift), "shift", "none"
    fp: Footprint | None
    #: why not ("a" .. "f" as the text's six bullets), or "" when it conforms
    exception: str
    rule: str = rule("move.conform")
    #: (f) skirmishers contacted by foot: the moving group goes straight back this far first (R30)
    group_back: float = 0.0


def faced_position(target: Element, m: Element) -> Footprint:
    """Where ``target`` stands exactly facing ``m``: front edge full on m's front edge."""
    fx, fy = m.fp.forward
    cx, cy = m.fp.front_centre
    hd = target.fp.depth / 2.0
    return Footprint(cx + fx * hd, cy + fy * hd, m.fp.heading + 180.0, target.fp.frontage, target.fp.depth)


def _straight_ahead_of(m: Element, t: Element) -> bool:
    hw, hd = m.fp.frontage / 2.0, m.fp.depth / 2.0
    pts = [local(m.fp, p) for p in t.fp.corners()]
    us = [u for u, _ in pts]
    return max(v for _, v in pts) >= hd - TOL and min(us) < hw - TOL and max(us) > -hw + TOL


def conform(
    board: Board,
    target_id: str,
    mover_id: str,
    *,
    target_grouped: bool = False,
    mover_group_size: int = 2,
    mover_straight: bool = True,
    defending_edge: bool = False,
    group_ids: Sequence[str] = (),
) -> Conform:
    """Must ``target`` pivot/shift to face the contacting ``mover`` (dbm-3.2:move.conform)?"""
    t, m = board.el[target_id], board.el[mover_id]
    tb = board.tables
    if target_grouped or mover_group_size < 2 or not mover_straight:
        return Conform("none", None, "not applicable")
    if not _straight_ahead_of(m, t):
        return Conform("none", None, "a")
    if any(o.id != m.id for o in board.touching(t, side=m.side)):
        return Conform("none", None, "b")
    if defending_edge:
        return Conform("none", None, "c")
    if not tb.troops.type[t.code].turns_to_flank:
        return Conform("none", None, "d")
    friends = [
        f
        for f in board.touching(t, side=t.side)
        if not is_skirmisher(tb, f)
        and any(
            edge_overlap(t.fp, a, f.fp, b) > 0
            for a in ("left", "right", "front", "rear")
            for b in ("left", "right", "front", "rear")
        )
    ]
    if friends:
        u = local(t.fp, m.fp.centre)[0]
        new = shifted(t.fp, u)
        kind = "shift"
    else:
        new = faced_position(t, m)
        kind = "pivot"
    # e: a recoil from there would meet friends it could neither pass nor push, or a flee leaves the table
    mv = tb.movement.type.get(t.code)
    if mv is not None:
        back = ahead(new, -mv.recoil)
        for f in board.near(back.corners(), 0.0, exclude=(t.id, m.id)):
            blocks = f.side == t.side and overlapping(back, f.fp)
            if blocks and f.code not in tb.troops.type[t.code].pass_through and f.code in UNPUSHABLE:
                return Conform("none", None, "e")
        if not board.on_table(ahead(new, -mv.flee)):
            return Conform("none", None, "e")
    # f: no room, unless skirmishers contacted by foot get it by the moving group going straight back
    if any(overlapping(new, o.fp) for o in board.near(new.corners(), 0.0, exclude=(t.id, m.id))):
        room = None
        if is_skirmisher(tb, t) and tb.troops.type[m.code].troop_class == "foot":
            room = _make_room(board, t, m, kind, {m.id, *group_ids})
        if room is None:
            return Conform("none", None, "f")
        return Conform(kind, room[0], "", group_back=room[1])
    return Conform(kind, new, "")


def _make_room(
    board: Board, t: Element, m: Element, kind: str, group: set[str]
) -> tuple[Footprint, float] | None:
    """dbm-3.2:move.conform (f): the least whole-pace move straight back of the moving group (at
    most the two elements' depths: ruling R30) after which the skirmisher can pivot or shift
    without overlapping anything; None if there is none."""
    bx, by = -m.fp.forward[0], -m.fp.forward[1]
    members = [board.el[g] for g in sorted(group) if g in board.el]
    for k in range(1, int(t.fp.depth + m.fp.depth) + 1):
        d = float(k)
        moved = {g.id: g.fp.moved(bx * d, by * d) for g in members}
        m2 = m.at(moved[m.id])
        new = faced_position(t, m2) if kind == "pivot" else shifted(t.fp, local(t.fp, m2.fp.centre)[0])
        if any(overlapping(new, fp) for g, fp in moved.items() if g != m.id):
            continue
        if any(overlapping(new, o.fp) for o in board.near(new.corners(), 0.0, exclude=(t.id, *group))):
            continue
        clash = False
        for fp in moved.values():
            if any(overlapping(fp, o.fp) for o in board.near(fp.corners(), 0.0, exclude=(t.id, *group))):
                clash = True
                break
        if not clash:
            return new, d
    return None


# --- dbm-3.2:gap.enter ---------------------------------------------------------------------------


def gap_narrower_than_element(
    board: Board, e: Element, end: Footprint, impassable: Sequence[str] = ()
) -> bool:
    """Does the straight path of ``e`` to ``end`` enter a gap less than 1 element wide between
    elements it could not interpenetrate (dbm-3.2:gap.enter)?"""
    bw = board.tables.bw
    sweep = swept_rectangle(e.fp.centre, end.centre, e.fp.frontage + 2 * bw, e.fp.depth / 2.0)
    passable = set(board.tables.troops.type[e.code].pass_through)
    obs = [o for o in board.near(sweep, 0.0, exclude=(e.id,)) if o.code not in passable or o.side != e.side]
    path = swept_rectangle(e.fp.centre, end.centre, e.fp.frontage, e.fp.depth / 2.0)
    wide = swept_rectangle(e.fp.centre, end.centre, e.fp.frontage + 2 * bw, e.fp.depth / 2.0)
    lefts: list[Element] = []
    rights: list[Element] = []
    for o in obs:
        if not _meets(wide, o.fp):
            continue
        (rights if local(e.fp, o.fp.centre)[0] > 0 else lefts).append(o)
    for a in lefts:
        for b in rights:
            # elements touching form a solid line, not a gap; the gap must lie across the path
            if TOL < distance(a.fp, b.fp) < bw - TOL and (_meets(path, a.fp) or _meets(path, b.fp)):
                return True
    return False


def check_gap(
    board: Board, e: Element, end: Footprint, *, straight: str | None, ends_in_enemy_contact: bool
) -> None:
    """Refuse entering a narrow gap unless straight ahead into enemy contact, or straight back out
    of it and not into contact (dbm-3.2:gap.enter)."""
    if not gap_narrower_than_element(board, e, end):
        return
    if straight == "ahead" and ends_in_enemy_contact:
        return
    if straight == "back" and not ends_in_enemy_contact:
        return
    raise IllegalOrder(rule("gap.enter"), f"{e.id} would enter a gap less than 1 element wide")


# --- dbm-3.2:interpen.hordes, dbm-3.2:interpen.flee ----------------------------------------------


def pass_through_effects(board: Board, e: Element, end: Footprint) -> list[tuple[str, str, str]]:
    """What happens to friends ``e`` passes through on its way to ``end``: (id, effect, clause)."""
    path = swept_rectangle(e.fp.centre, end.centre, e.fp.frontage, e.fp.depth / 2.0)
    tb = board.tables
    out = []
    for o in board.near(path, 0.0, exclude=(e.id,)):
        if o.side != e.side or not _meets(path, o.fp):
            continue
        if o.code == "Hd" and o.grade == "I" and troop_class(tb, e) != "naval":
            out.append((o.id, "destroyed", rule("interpen.hordes")))
        elif is_foot(tb, o) and (e.code in ("Kn", "Exp") or (e.code == "Cm" and e.grade == "S")):
            out.append((o.id, "flee", rule("interpen.flee")))
    return out


# --- dbm-3.2:march.rules -------------------------------------------------------------------------

MARCH_STANDOFF: Final = 200.0
MARCH_STANDOFF_FOOT: Final = 50.0


def front_rank(group: Sequence[Element]) -> list[Element]:
    """Elements with no group element ahead of them within one base depth (ruling R11)."""
    out = []
    for e in group:
        blocked = False
        for o in group:
            if o is e:
                continue
            u, v = local(e.fp, o.fp.centre)
            if (
                abs(u) < e.fp.frontage / 2.0 - TOL
                and 0 < v <= e.fp.depth + o.fp.depth / 2.0 + e.fp.depth / 2.0 + TOL
            ):
                blocked = True
                break
        if not blocked:
            out.append(e)
    return out


def march_standoff(board: Board, group: Sequence[Element], grouped_enemy: set[str]) -> float:
    """200 p, or 50 p when the movers are unmounted foot (plus a mounted general), every known enemy
    the move approaches (within 200 p of anywhere it may reach: ruling R12) is a skirmisher or
    ungrouped, and they total fewer than the front rank."""
    tb = board.tables
    foot = all(is_foot(tb, e) or e.mounted_general for e in group)
    if not foot:
        return MARCH_STANDOFF  # the 50 p exception is for foot only: no enemy to look at
    near: dict[str, Element] = {}
    reach = max(tb.movement.type[e.code].good for e in group)
    for e in group:
        if REFERENCE.on:
            for o in board.within(e, MARCH_STANDOFF + reach):
                if o.side != e.side:
                    near[o.id] = o
        else:  # the same elements: friends dropped before, not after, their distance is measured
            for o in board.near(e.fp.corners(), MARCH_STANDOFF + reach, (e.id,)):
                if o.side != e.side and distance(e.fp, o.fp) <= MARCH_STANDOFF + reach + TOL:
                    near[o.id] = o
    enemy_ok = all(is_skirmisher(tb, o) or o.id not in grouped_enemy for o in near.values())
    if enemy_ok and len(near) < len(front_rank(group)):
        return MARCH_STANDOFF_FOOT
    return MARCH_STANDOFF


def march_limit(board: Board, group: Sequence[Element], grouped_enemy: set[str], step: float = 1.0) -> float:
    """How far ``group`` may march straight ahead (paces, to ``step``) before it comes closer to
    known enemy than its standoff, or (under the 50 p exception) has as many enemy within 200 p as
    its front rank (dbm-3.2:march.rules, dbm-3.2:fig.16)."""
    sides = {e.side for e in group}
    standoff = march_standoff(board, group, grouped_enemy)
    need = len(front_rank(group))
    reach = max(board.tables.movement.type[e.code].good for e in group)

    # the enemy any stretch of the march could come within 200 p of, once per element (a superset
    # of what ``board.within`` would find at each probed distance: the same answers, fewer queries)
    ids = {g.id for g in group}
    cands = [
        (
            e,
            [
                o
                for o in board.near(
                    swept_rectangle(e.fp.centre, ahead(e.fp, reach).centre, e.fp.frontage, e.fp.depth / 2.0),
                    MARCH_STANDOFF,
                    exclude=ids,
                )
                if o.side not in sides
            ],
        )
        for e in group
    ]

    # an enemy whose centre is farther than this from the moved element's, less both half
    # diagonals, is farther than the standoff's 200 p (a pace of slack): ``ok`` measures it not
    far = MARCH_STANDOFF + TOL + 1.0
    probe = _MarchProbe(cands, standoff, far, not REFERENCE.on, need)
    good0, _n0 = probe.ok(0.0)
    if not good0:
        raise IllegalOrder(rule("march.rules"), f"the group starts closer than {standoff:g} p to known enemy")

    # coarse scan, then bisection of the first stretch where the move must stop (to ``step`` paces)
    coarse = max(step, 20.0)
    lo, hi = 0.0, None
    d = 0.0
    while d < reach - 1e-9:
        nxt = min(reach, d + coarse)
        stop, _ = probe.trigger(nxt)
        if stop:
            hi = nxt
            break
        lo = d = nxt
    if hi is None:
        return float(int(reach / step) * step) if reach % step else reach
    while hi - lo > step + 1e-9:
        mid = (lo + hi) / 2.0
        if probe.trigger(mid)[0]:
            hi = mid
        else:
            lo = mid
    stop, stand = probe.trigger(hi)
    out = hi if stand else lo
    return float(int(out / step + 1e-9) * step)


class _MarchProbe:
    """``march_limit``'s questions at a distance ``d`` along the march. A class, not nested
    functions: compiled, a nested function that another calls is kept in the frame's variables,
    which it holds in turn, a reference cycle left to the cyclic garbage collector."""

    def __init__(
        self, cands: list[tuple[Element, list[Element]]], standoff: float, far: float, skip: bool, need: int
    ) -> None:
        self.cands = cands
        self.standoff = standoff
        self.far = far
        self.skip = skip
        self.need = need
        self.foot_rule = standoff == MARCH_STANDOFF_FOOT

    def ok(self, d: float) -> tuple[bool, int]:
        """(no enemy closer than the standoff, how many within 200 p) with the group moved ``d``."""
        seen: set[str] = set()
        standoff, far, skip = self.standoff, self.far, self.skip
        for e, near in self.cands:
            fp = ahead(e.fp, d)
            for o in near:
                if skip and _hypot(o.fp.x - fp.x, o.fp.y - fp.y) - fp.radius - o.fp.radius > far:
                    continue
                dd = distance(fp, o.fp)
                if dd > MARCH_STANDOFF + TOL:
                    continue
                if dd < standoff - TOL:
                    return (False, 0)
                seen.add(o.id)
        return (True, len(seen))

    def trigger(self, d: float) -> tuple[bool, bool]:
        """(stops here or before, it may still stand here)"""
        good, n = self.ok(d)
        if not good:
            return True, False
        return (self.foot_rule and n >= self.need), True


def check_march(
    group: Sequence[Element], *, wheel: bool, closer_than_200: bool, tactical_moved: set[str]
) -> None:
    """A march that went closer than 200 p must be entirely straight ahead; no element may both
    march and make a tactical move in one bound (dbm-3.2:march.rules)."""
    if closer_than_200 and wheel:
        raise IllegalOrder(
            rule("march.rules"), "a march move closer than 200 p to enemy must be straight ahead"
        )
    for e in group:
        if e.id in tactical_moved:
            raise IllegalOrder(
                rule("march.rules"), f"{e.id} made a tactical move this bound: it cannot march"
            )


def check_may_move(e: Element, halted: set[str]) -> None:
    """dbm-3.2:halts (halts and moves exclusive), dbm-3.2:baggage.mobile (only mobile baggage moves)."""
    if e.id in halted:
        raise IllegalOrder(rule("halts"), f"{e.id} took part in a halt this bound")
    if e.code == "Bge" and not e.mobile:
        raise IllegalOrder(rule("baggage.mobile"), f"{e.id} is immobile baggage")
