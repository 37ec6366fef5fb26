"""A charge move (errata p.12, ``knight-hack:charge.distance``): normal move + D6, the wheel, the full
distance or contact, the retarget after an evade, disorder on contact, no contact (rulings R21, R24,
R38). Shared by the charge phase (:mod:`.phase_charge`) and ambushes (:mod:`.ambush`)."""

from __future__ import annotations

import math

from shieldwall.core.crossings import sweep_distance
from shieldwall.core.dice import D6
from shieldwall.core.geometry import heading_vector, normalize_angle
from shieldwall.rulesets.knight_hack.board import Board, Melee, Unit
from shieldwall.rulesets.knight_hack.charge import charge_distance, check_wheel, resolve_charge, wheel_arc
from shieldwall.rulesets.knight_hack.geom import GAP, clip_to_table, contact_facing


def charge_move(b: Board, u: Unit, obj: Unit, d6: int | None = None) -> None:
    """``u``'s charge move on ``obj`` (its heading fixed in ``b.charge_heading``); ``d6``: its charge
    die when already rolled (a meeting that did not happen, :mod:`.meeting`)."""
    if u.gone or b.in_melee(u.id) or u.status not in ("good", "disordered"):
        return
    if d6 is None:
        d6 = D6.roll(b.rng)
    normal = b.tables.types[u.type].normal_move
    distance = charge_distance(normal, d6)
    h = b.charge_heading[u.id]
    turn = normalize_angle(h - u.heading)
    arc = wheel_arc(u.width, turn)
    check_wheel(arc, distance)
    fp = u.footprint().turned(turn, pivot="front")
    vec = heading_vector(h)
    path = []
    stop = distance - arc
    for o in b.live():
        if o.id == u.id:
            continue
        d = sweep_distance(fp.corners(), vec, o.footprint().corners())
        if math.isinf(d):
            continue
        if o.side == u.side or o.status == "routed" or o.id in b.evading:
            stop = min(stop, d - GAP)  # it goes round no one: it halts short (R38)
        if o.side != u.side and o.status != "routed":
            path.append((o.id, d, o.id in b.evading))
    move = resolve_charge(arc + max(0.0, stop), arc, path)
    straight = move.moved - arc
    u.x, u.y, u.heading = fp.x, fp.y, h
    straight = clip_to_table(b, u, h, max(0.0, straight)) if move.contacted is None else straight
    u.x, u.y = u.x + vec[0] * straight, u.y + vec[1] * straight
    data = {
        "unit": u.id,
        "object": obj.id,
        "d6": d6,
        "faces": [d6],
        "distance": distance,
        "wheel": round(arc, 3),
        "moved": round(arc + straight, 3),
        "contacted": move.contacted,
    }
    b.log("charge-move", "charge.distance", u.side, **data)
    if move.contacted is None:
        u.status, u.good_from, u.must_charge = "rallying", (b.turn, "end"), True
        b.log("no-contact", "charge.no-contact", u.side, unit=u.id)
        b.log("rallying", "rally.no-contact", u.side, unit=u.id, cause="charged-no-contact")
        return
    t = b.units[move.contacted]
    if t.hidden:  # a charge runs into a hidden ambusher: it is found and fights (R49)
        t.hidden = False
        b.log("ambush-found", "ambush.execute", t.side, unit=t.id, by=u.id, x=t.x, y=t.y, heading=t.heading)
    if t.id != obj.id:
        b.log("retarget", "charge.retarget-after-evade", u.side, unit=u.id, object=obj.id, contacted=t.id)
    b.melees.append(Melee(u.id, t.id, contact_facing(t, u), contact_facing(u, t), charger=u.id))
    b.declared[t.id] = None
    u.status = "disordered"
    b.log(
        "contact", "contact.only-by-charge", u.side, unit=u.id, target_unit=t.id, facing=contact_facing(t, u)
    )
    b.log("disordered", "charge.disorder-on-contact", u.side, unit=u.id, reason="contact")
