"""Charges that meet part-way (ruling R50, after R19): two units that charge each other this turn —
a declared charge kept against a charger, a ``redirect`` onto one's charger
(``knight-hack:charge.redirect``), a rallying unit's counter-charge (``knight-hack:rally.countercharge``)
— both move at once and meet where their charge moves close the gap between them, each covering a
share of it in proportion to its own charge move (normal move + its D6, less its wheel).

Both roll their D6 (the first of the pair in the charge order first: red's chargers then blue's, each
in id order, R42). When the two moves together fall short of the gap, or anything else stands
between them, or their lines do not meet head to head, the charges are made one after the other as
before (:func:`phase_charge.charge_move`): the same dice, the first mover's move first.
A meeting is a contact of two chargers: both are disordered (``knight-hack:charge.disorder-on-
contact``, R17) and both fight their first round with the charge bonus.
"""

from __future__ import annotations

import math

from shieldwall.core.crossings import sweep_distance
from shieldwall.core.dice import D6
from shieldwall.core.geometry import Footprint, heading_vector, normalize_angle
from shieldwall.rulesets.knight_hack.board import Board, Melee, Unit
from shieldwall.rulesets.knight_hack.charge import charge_distance, check_wheel, wheel_arc
from shieldwall.rulesets.knight_hack.geom import contact_facing

#: a meeting must bring the second line to the first within this (inches) of the share worked out
_SLACK = 1e-6


def mutual(b: Board, u: Unit) -> Unit | None:
    """The unit ``u`` charges if that unit charges ``u`` too (both free to move), else None."""
    tid = b.declared.get(u.id)
    if not tid:
        return None
    t = b.units[tid]
    if b.declared.get(t.id) != u.id or t.gone or b.in_melee(t.id) or t.status not in ("good", "disordered"):
        return None
    return t


def _line(b: Board, u: Unit, d6: int) -> tuple[Footprint, tuple[float, float], float, float, float]:
    """(footprint after its wheel, its heading vector, wheel arc, straight reach, charge distance)."""
    distance = charge_distance(b.tables.types[u.type].normal_move, d6)
    h = b.charge_heading[u.id]
    turn = normalize_angle(h - u.heading)
    arc = wheel_arc(u.width, turn)
    check_wheel(arc, distance)
    return u.footprint().turned(turn, pivot="front"), heading_vector(h), arc, distance - arc, distance


def _blocked(b: Board, u: Unit, fp: Footprint, vec: tuple[float, float], other: Unit, gap: float) -> bool:
    for o in b.live():
        if o.id in (u.id, other.id):
            continue
        if sweep_distance(fp.corners(), vec, o.footprint().corners()) < gap:
            return True
    return False


def meet(b: Board, u: Unit, t: Unit) -> tuple[int, int] | None:
    """Resolve the two charges as a meeting, or return their dice ``(u's, t's)`` for the caller to
    make them one after the other (nothing moved)."""
    du, dt = D6.roll(b.rng), D6.roll(b.rng)
    fu, vu, au, ru, dist_u = _line(b, u, du)
    ft, vt, at, rt, dist_t = _line(b, t, dt)
    gap = sweep_distance(fu.corners(), vu, ft.corners())
    if math.isinf(gap) or ru + rt < gap or _blocked(b, u, fu, vu, t, gap) or _blocked(b, t, ft, vt, u, gap):
        return du, dt
    share_t = gap * rt / (ru + rt) if ru + rt > 0 else 0.0
    ft2 = ft.moved(vt[0] * share_t, vt[1] * share_t)
    share_u = sweep_distance(fu.corners(), vu, ft2.corners())
    if math.isinf(share_u) or share_u > ru + _SLACK:
        return du, dt
    for who, fp, vec, share in ((u, fu, vu, share_u), (t, ft2, vt, 0.0)):
        moved = fp.moved(vec[0] * share, vec[1] * share)
        who.x, who.y, who.heading = moved.x, moved.y, b.charge_heading[who.id]
    for who, other, d6, dist, arc, share in (
        (u, t, du, dist_u, au, share_u),
        (t, u, dt, dist_t, at, share_t),
    ):
        b.log(
            "charge-move",
            "charge.distance",
            who.side,
            unit=who.id,
            object=other.id,
            d6=d6,
            faces=[d6],
            distance=dist,
            wheel=round(arc, 3),
            moved=round(arc + share, 3),
            contacted=other.id,
        )
    b.log(
        "charges-meet",
        "charge.redirect",
        None,
        units=[u.id, t.id],
        gap=round(gap, 3),
        shares=[round(share_u, 3), round(share_t, 3)],
        reaches=[round(ru, 3), round(rt, 3)],
    )
    b.melees.append(
        Melee(u.id, t.id, contact_facing(t, u), contact_facing(u, t), charger=u.id, both_charged=True)
    )
    for who, other in ((u, t), (t, u)):
        b.declared[who.id] = None
        who.status = "disordered"
        b.log(
            "contact",
            "contact.only-by-charge",
            who.side,
            unit=who.id,
            target_unit=other.id,
            facing=contact_facing(other, who),
        )
        b.log("disordered", "charge.disorder-on-contact", who.side, unit=who.id, reason="contact")
    return None
