"""The turn engine's measurements: charge paths, clear moves, the table's edges (R21, R34-R36)."""

from __future__ import annotations

import math

from shieldwall.core.crossings import in_front_arc, sweep_distance
from shieldwall.core.errors import IllegalOrder
from shieldwall.core.geometry import CONTACT_TOL, Footprint, bearing, heading_vector, normalize_angle
from shieldwall.core.polygons import footprint_distance
from shieldwall.core.reference import REFERENCE
from shieldwall.rulesets.knight_hack.board import Board, Unit
from shieldwall.rulesets.knight_hack.charge import (
    Charger,
    Contact,
    check_declare_range,
    check_may_charge,
    wheel_arc,
)
from shieldwall.rulesets.knight_hack.clauses import rule

#: a normal move stops this far short of another unit (contact.only-by-charge, R35)
GAP = 0.25


def on_table(b: Board, fp: Footprint) -> bool:
    return all(0 <= x <= b.width and 0 <= y <= b.depth for x, y in fp.corners())


def charger_of(b: Board, u: Unit) -> Charger:
    """``u`` as the charge restrictions see it; a hidden unit charges "in ambush" (R49)."""
    javelin = any(b.tables.weapons[w].javelin for w in u.weapons)
    return Charger(u.type, u.cls, fanatic=u.fanatic, ambush=u.hidden, javelin=javelin)


def charge_line(b: Board, u: Unit, t: Unit) -> tuple[float, float, float]:
    """``(heading, wheel arc, path length)`` of ``u``'s charge on ``t``: it wheels on its front
    to face ``t``'s centre, then goes straight (R21); the path is inf when it would miss."""
    fp = u.footprint()
    h = bearing(fp.front_centre, (t.x, t.y)) % 360.0
    turn = normalize_angle(h - u.heading)
    arc = wheel_arc(u.width, turn)
    turned = fp.turned(turn, pivot="front")
    d = sweep_distance(turned.corners(), heading_vector(h), t.footprint().corners())
    return h, arc, arc + d


def line_blocked(fp: Footprint, target: Footprint, others: list[Footprint]) -> bool:
    """Whether one of ``others`` stands in the charge line of a unit at ``fp`` to the one at
    ``target`` short of it: the charge wheels to face the target's centre and passes through no one,
    halting :data:`GAP` short of a friend or a router (R38); then the target is not within reach
    (``knight-hack:charge.no-contact``, ruling R53)."""
    h = bearing(fp.front_centre, (target.x, target.y)) % 360.0
    turned = fp.turned(normalize_angle(h - fp.heading), pivot="front")
    corners, vec = turned.corners(), heading_vector(h)
    reach = sweep_distance(corners, vec, target.corners())
    return any(sweep_distance(corners, vec, o.corners()) - GAP < reach - 1e-9 for o in others)


def charge_blocked(b: Board, u: Unit, t: Unit) -> bool:
    """:func:`line_blocked` on the board: a friend or a router in ``u``'s charge line short of ``t``."""
    others = [
        o.footprint()
        for o in b.live()
        if o.id not in (u.id, t.id) and (o.side == u.side or o.status == "routed")
    ]
    return line_blocked(u.footprint(), t.footprint(), others)


def check_charge(b: Board, u: Unit, t: Unit, counter: bool = False) -> float:
    """``IllegalOrder`` unless ``u`` may declare a charge on ``t`` now (or, ``counter``, a rallying
    unit counter-charge its charger, R19); returns its heading."""
    if t.side == u.side or t.gone or t.unseen_by(u.side):
        raise IllegalOrder(rule("charge.declare"), f"{t.id} is not an enemy on the table")
    able = ("good", "disordered", "rallying") if counter else ("good", "disordered")
    if u.status not in able or b.in_melee(u.id):
        raise IllegalOrder(rule("charge.declare"), f"{u.id} is {u.status} or in melee and cannot charge")
    facing = t.footprint().facing_of(u.footprint().front_centre)
    check_may_charge(b.tables, charger_of(b, u), charger_of(b, t), Contact(facing, b.in_melee(t.id)))
    h, arc, path = charge_line(b, u, t)
    normal = b.tables.types[u.type].normal_move
    if math.isinf(path):
        raise IllegalOrder(rule("charge.declare-range"), f"{t.id} is not ahead of {u.id} within a wheel")
    if arc > normal / 4 + 1e-9:
        raise IllegalOrder(
            rule("charge.wheel"), f"facing {t.id} needs a wheel of {arc:.2f} in., over 1/4 of the move"
        )
    check_declare_range(path, normal)
    return h


def clear_distance(b: Board, u: Unit, fp: Footprint, heading: float, limit: float = math.inf) -> float:
    """How far ``fp`` may go along ``heading`` before coming within :data:`GAP` of another unit.

    ``limit``: the caller compares the answer with distances up to ``limit`` only. A unit whose
    centre is farther than ``limit + GAP`` plus both rectangles' radii cannot be met within it (a
    sweep is never shorter than the distance between the rectangles, nor that than the centres'
    distance less the radii) and is not swept: the answer is exact when it is at most ``limit``,
    and above ``limit`` otherwise (issue 16). The reference path (``core.reference``) sweeps
    every unit."""
    vec = heading_vector(heading)
    best = math.inf
    corners = fp.corners()
    x, y = fp.x, fp.y
    reach = math.inf if REFERENCE.on else limit + GAP + fp.radius + 1e-6
    for o in b.units.values():
        if o.gone or o.id == u.id or o.unseen_by(u.side):
            continue
        ofp = o.footprint()
        if math.hypot(ofp.x - x, ofp.y - y) > reach + ofp.radius:
            continue
        d = sweep_distance(corners, vec, ofp.corners())
        best = min(best, d - GAP)
    return best


def check_clear(b: Board, u: Unit, fp: Footprint, clause: str = "contact.only-by-charge") -> None:
    """A footprint after a move or an evolution must stay on the table and out of contact."""
    if not on_table(b, fp):
        raise IllegalOrder(rule("move.unit-order"), f"{u.id} would leave the table")
    for o in b.units.values():
        if (
            not o.gone
            and o.id != u.id
            and not o.unseen_by(u.side)
            and footprint_distance(fp, o.footprint()) < GAP - 1e-9
        ):
            raise IllegalOrder(
                rule(clause), f"{u.id} would come into contact with {o.id}: only a charge makes contact"
            )


def hidden_in_way(b: Board, u: Unit, fp: Footprint, heading: float, go: float) -> tuple[float, list[Unit]]:
    """How far ``fp`` really gets along ``heading`` (at most ``go``) before coming within :data:`GAP`
    of an enemy ambusher hidden from ``u``'s side, and the ambushers it would meet (R49)."""
    vec = heading_vector(heading)
    real, met = go, []
    for o in b.live(b.other(u.side)):
        if not o.hidden:
            continue
        d = sweep_distance(fp.corners(), vec, o.footprint().corners()) - GAP
        if d < go - 1e-9 or footprint_distance(fp, o.footprint()) < GAP - 1e-9:
            met.append(o)
            real = min(real, max(0.0, d))
    return real, met


def seen_enemies(b: Board, u: Unit) -> list[Unit]:
    """The enemies ``u``'s side can see (not the other side's hidden ambushers)."""
    return [e for e in b.live(b.other(u.side)) if not e.hidden]


def nearest_enemy(b: Board, u: Unit) -> Unit | None:
    enemies = [e for e in seen_enemies(b, u) if e.status != "routed"]
    return min(enemies, key=lambda e: (math.dist((u.x, u.y), (e.x, e.y)), e.id), default=None)


def threats(b: Board, u: Unit) -> list[Footprint]:
    """Enemies who can charge ``u`` next charge phase (``knight-hack:rally.face-threat``, R20): in good
    order, disordered, or rallying but in good order by the end of this turn (an evader or a charger
    that made no contact, ``rally.no-contact``; ruling R54), and whose normal move reaches it."""
    fp = u.footprint()
    return [
        e.footprint()
        for e in seen_enemies(b, u)
        if (e.status in ("good", "disordered") or (e.status == "rallying" and e.rallied_by(b.turn, "end")))
        and footprint_distance(e.footprint(), fp) <= b.tables.types[e.type].normal_move
    ]


def in_arc(fp: Footprint, t: Unit) -> bool:
    return in_front_arc(fp, t.footprint().corners())


def missile_range(b: Board, u: Unit) -> float:
    """The longest range of ``u``'s weapons in inches (0 for a unit without a missile weapon)."""
    return max((b.tables.weapons[w].range or 0.0 for w in u.weapons), default=0.0)


def missile_why_not(b: Board, fp: Footprint, t: Unit, rng: float) -> str | None:
    """Why ``t`` is no target of a missile unit at ``fp`` with range ``rng``, or None: the target
    must not be in melee, must be in the front arc and within range (knight-hack:missile.window,
    ruling R41)."""
    if b.in_melee(t.id):
        return f"{t.id} is in melee"
    if not in_arc(fp, t):
        return f"{t.id} is not in the front arc"
    if footprint_distance(fp, t.footprint()) > rng:
        return f"{t.id} is beyond {rng:g} in."
    return None


def away_heading(b: Board, side: str) -> float:
    """Towards the side's home edge."""
    return 180.0 if b.edges[side] == "south" else 0.0


def clip_to_table(b: Board, u: Unit, heading: float, distance: float) -> float:
    """The part of a move along ``heading`` that keeps the footprint on the table."""
    vec = heading_vector(heading)
    fp = u.footprint()
    lo, hi = 0.0, distance
    if on_table(b, fp.moved(vec[0] * hi, vec[1] * hi)):
        return hi
    for _ in range(30):
        mid = (lo + hi) / 2
        if on_table(b, fp.moved(vec[0] * mid, vec[1] * mid)):
            lo = mid
        else:
            hi = mid
    return lo


def contact_facing(t: Unit, u: Unit) -> str:
    return t.footprint().facing_of(u.footprint().front_centre)


__all__ = ["CONTACT_TOL", "GAP"]
