"""Moving one-hour-dark-ages units: personalities' transfers, activation and the movement
dice, turning, moves ("Movement", "Turning", "Terrain", "Roads"), turning to face in melee and
"Fall Back!". The turning limits (``check_turns``) are in ``act_common``, the end of a move
(``after_move``) and the free attack of a Fall Back! (``melee_attack``) in ``attacks``: charges
and the other phases use them too.

Each function cites the clause it implements; the events it logs carry the same clause id.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from shieldwall.core.crossings import sweep_distance
from shieldwall.core.geometry import CONTACT_TOL, Footprint, dist, heading_vector
from shieldwall.core.polygons import convex_penetration, polygon_distance
from shieldwall.rulesets.one_hour import orders as O
from shieldwall.rulesets.one_hour import spatial as S
from shieldwall.rulesets.one_hour import terrain_checks as TC
from shieldwall.rulesets.one_hour.act_common import (
    _active,
    _enemy,
    _own,
    bad,
    bad_from,
    check_turns,
    path,
    placement,
)
from shieldwall.rulesets.one_hour.attacks import after_move, melee_attack
from shieldwall.rulesets.one_hour.clauses import rule
from shieldwall.rulesets.one_hour.model import Unit
from shieldwall.rulesets.one_hour.profiles import terrain_effects

if TYPE_CHECKING:
    from shieldwall.rulesets.one_hour.state import OneHourState

# --- Personalities ----------------------------------------------------------------------------


def transfer(st: OneHourState, order: O.Transfer) -> None:
    """ "Personalities": transfer to another Unit within 6" at the start of the friendly Movement
    Phase; not out of a Unit in melee; only to Units of their own list."""
    p = st.personalities.get(order.personality)
    if p is None or p.side != st.side or p.unit is None:
        raise bad("personalities.transfer", f"{order.personality!r} is not one of {st.side}'s personalities")
    if p.id in st.transferred:
        raise bad("personalities.transfer", f"{p.id} has already transferred this phase")
    src = st.unit(p.unit)
    dst = _own(st, order.unit)
    if st.in_melee(src):
        raise bad(
            "personalities.transfer", f"{p.id} is with {src.id}, which is in melee, and may not leave it"
        )
    if dst.id == src.id:
        raise bad("personalities.transfer", "that is the unit it is already with")
    if dst.allied != p.allied:
        raise bad("army-lists.allies.own-list", "personalities may only attach to Units of their own list")
    gap = polygon_distance(src.fp.corners(), dst.fp.corners())
    if gap > 6.0 + 1e-9:
        raise bad("personalities.transfer", f'{dst.id} is {gap:.1f}" away; a transfer reaches 6"')
    p.unit = dst.id
    st.transferred.add(p.id)
    st.log(
        "transfer",
        "personalities.transfer",
        personality=p.id,
        kind=p.label,
        frm=src.id,
        to=dst.id,
        distance=round(gap, 2),
    )


# --- Movement ---------------------------------------------------------------------------------


def movement_dice(st: OneHourState, u: Unit) -> int:
    """ "Movement": Class 1 Infantry 1d5+2, Class 2 Warband/Skirmishers 2d5+2, Class 3 Cavalry 3d5+2."""
    return u.profile.move_class


def activate(st: OneHourState, order: O.Activate) -> bool:
    """Pick the unit to move and roll its movement dice ("Movement"). True when it goes on to move;
    False when an allied unit's natural 2 keeps it still ("Allied Forces"). With Declared Movement
    the dispatcher (``actions``) then fulfils the declared intent (``declared.fulfil``)."""
    u = _own(st, order.unit)
    if u.activated:
        raise bad("movement", f"{u.id} has already moved this phase")
    if st.in_melee(u):
        raise bad("melee.locked", f"{u.id} is in melee: it may only turn to face or fall back")
    declared = bool(st.params["declared_movement"])
    if (order.charge or order.toward) and not declared:
        raise bad("declared-movement", "intents are declared only with the Declared Movement option")
    if declared and not (order.charge or order.toward):
        raise bad(
            "declared-movement",
            "with Declared Movement, state the intent: 'activate U charge E' or 'activate U toward X,Y'",
        )
    if order.charge:
        _enemy(st, order.charge)
    u.set_activated(True)
    st.active = u.id
    if declared:
        st.log(
            "declare",
            "declared-movement",
            unit=u.id,
            charge=order.charge,
            toward=list(order.toward) if order.toward else None,
        )
    n = movement_dice(st, u)
    faces = st.roll(n, "movement.dice", f"movement ({n}{st.die.name}+2)", unit=u.id)
    st.move_faces = faces
    st.rolled = float(sum(faces) + 2)
    st.log("move-roll", "movement.dice", unit=u.id, distance=st.rolled)
    if u.allied and allied_must_roll(st, u) and natural_two(st, faces):
        st.log(
            "allies-debate",
            "army-lists.allies.debate",
            unit=u.id,
            faces=faces,
            reading=st.params["allies_debate"],
            reason="a natural 2 for an allied Unit: it does not move while the leaders debate",
        )
        st.finish_activation()
        return False
    st.step = "move"
    return True


def natural_two(st: OneHourState, faces: list[int]) -> bool:
    """ "if a natural '2' is rolled for Movement it will not move" (ruling R48): the first die of the
    movement roll shows 2 (the ``allies_debate`` parameter: or any of its dice)."""
    if st.params["allies_debate"] == "any-die":
        return 2 in faces
    return bool(faces) and faces[0] == 2


def allied_must_roll(st: OneHourState, u: Unit) -> bool:
    """ "Allied Forces": 1-2 allied Units stop on a natural 2; 3 with an allied Personality do not
    (`army-lists.allies.personality`)."""
    if not st.params["allies"]:
        return False
    allies = [x for x in st.units.values() if x.side == u.side and x.allied]
    # the allied Personality must still be with a living allied Unit (ruling R32)
    present = any(
        p.allied and p.side == u.side and p.unit is not None and not st.units[p.unit].removed
        for p in st.personalities.values()
    )
    return not (len(allies) >= 3 and present)


def hold(st: OneHourState, order: O.Hold) -> None:
    """The activated unit does not move (it may still make its Moving Shot)."""
    _active(st, order.unit)
    st.log("hold", "movement", unit=order.unit)
    after_move(st, st.unit(order.unit))


def plan_move(st: OneHourState, u: Unit, steps: tuple[O.Step, ...]) -> tuple[Footprint, float, bool]:
    """Check a move without making it: (final footprint, distance, road bonus used).

    "Movement": no corner exceeding the total distance rolled; "Turning"; "Terrain";
    "Interpenetration"; "Roads": +3" moving entirely on a road, neither charging nor turning.
    """
    if not steps:
        raise bad("movement", "a move needs at least one step (or use 'hold')")
    check_turns(st, u, steps)
    fp = u.fp
    length = 0.0
    on_road = TC.on_road(fp, st.terrain)
    turned = False
    for s in steps:
        if isinstance(s, O.Turn):
            fp = fp.turned(s.angle, s.pivot)
            turned = True
            prob = placement(st, u, fp)
            if prob:
                raise bad_from(prob)
        else:
            seg = dist(fp.centre, (s.x, s.y))
            prob = path(st, u, fp, (s.x, s.y))
            if prob:
                raise bad_from(prob)
            mid = Footprint((fp.x + s.x) / 2, (fp.y + s.y) / 2, fp.heading, fp.frontage, fp.depth)
            fp = Footprint(s.x, s.y, fp.heading, fp.frontage, fp.depth)
            on_road = on_road and TC.on_road(mid, st.terrain) and TC.on_road(fp, st.terrain)
            length += seg
    prob = placement(st, u, fp)
    if prob:
        raise bad_from(prob)
    budget = st.rolled
    road = False
    if on_road and not turned and length > 1e-9:
        budget += float(st.params["road_bonus"])
        road = True
    if length > budget + 1e-6:
        raise bad(
            "movement",
            f'{u.id} would move {length:.2f}" but rolled {st.rolled:g}"'
            + (" (+road bonus)" if road else "")
            + "; no corner may exceed the distance rolled",
        )
    return fp, length, road


def move(st: OneHourState, order: O.Move) -> None:
    u = _active(st, order.unit)
    start = u.fp
    fp, length, road = plan_move(st, u, order.steps)
    turns = sum(1 for s in order.steps if isinstance(s, O.Turn))
    checked = ["movement", "movement.columns", "interpenetration"]
    if turns:
        checked += ["turning", "turning.limits"]
        if check_turns(st, u, order.steps) > 0:
            checked.append("personalities.leader")
    for f in st.terrain.features:
        if (not f.linear and f.contains(fp.centre)) or (
            f.linear and f.crossing_points(start.centre, fp.centre)
        ):
            checked.append(terrain_effects()[f.kind].clause)
    if length > 1e-9:
        u.set_moved(True)
    u.set_fp(fp)
    st.log(
        "move",
        "terrain.roads" if road else "movement",
        unit=u.id,
        distance=round(length, 3),
        rolled=st.rolled,
        road_bonus=road,
        steps=[x.text() for x in order.steps],
        to={"x": round(fp.x, 3), "y": round(fp.y, 3), "heading": round(fp.heading, 3)},
        label=order.label,
        checked=[rule(c) for c in dict.fromkeys(checked)],
    )
    after_move(st, u)


# --- Turning to face and falling back ---------------------------------------------------------


def plan_face(st: OneHourState, u: Unit, e: Unit) -> tuple[float, Footprint, dict[str, Footprint]]:
    """Check a turn to face without making it: (angle, the unit's new footprint, the adjusted enemies).

    "Turning" 3: a Unit in melee with enemies not on its front may face one of them, turning a full
    90 or 180 degrees; the enemy bases are adjusted to keep contact (slid straight towards it). The
    turn is refused when the unit or an adjusted base would then overlap another unit (ruling R23).
    """
    if u.activated:
        raise bad("movement", f"{u.id} has already moved this phase")
    touching = st.touching(u)
    mine = {x.id: f for x, f, _ in touching}
    if e.id not in mine:
        raise bad("turning.face-melee", f"{e.id} is not in contact with {u.id}")
    f = mine[e.id]
    if f == "front":
        raise bad("turning.face-melee", f"{e.id} is already on {u.id}'s front")
    angle = {"right": 90.0, "left": -90.0, "rear": 180.0}[f]
    new = u.fp.turned(angle, "centre")
    fwd = heading_vector(new.heading)
    moved: dict[str, Footprint] = {}
    for x, _, _ in touching:
        if x.id == e.id:
            d = (-fwd[0], -fwd[1])
        else:
            dx, dy = new.x - x.fp.x, new.y - x.fp.y
            ln = math.hypot(dx, dy) or 1.0
            d = (dx / ln, dy / ln)
        back = x.fp.moved(-d[0] * 30.0, -d[1] * 30.0)
        gap = sweep_distance(back.corners(), d, new.corners())
        if math.isfinite(gap):
            moved[x.id] = back.moved(d[0] * gap, d[1] * gap)
    placed = {u.id: new, **moved}
    ids = list(placed)
    for i, uid in enumerate(ids):
        fp = placed[uid]
        for x in st.live():
            if x.id == uid:
                continue
            other_fp = placed.get(x.id, x.fp)
            if x.id in placed and ids.index(x.id) < i:
                continue
            if convex_penetration(fp.corners(), other_fp.corners(), CONTACT_TOL) > CONTACT_TOL:
                raise bad(
                    "turning.face-melee",
                    f"no room for {u.id} to turn to face {e.id}: {uid} would overlap {x.id}",
                )
        if any(not st.terrain.on_table(c) for c in fp.corners()):
            raise bad(
                "turning.face-melee",
                f"no room for {u.id} to turn to face {e.id}: {uid} would leave the table",
            )
        mover = st.units[uid]
        blocked = TC.terrain_blocks_entry(mover, fp, st.terrain) or TC.in_river(fp, st.terrain)
        if blocked is not None:
            raise bad(
                "turning.face-melee",
                f"no room for {u.id} to turn to face {e.id}: "
                f"{uid} would be moved into {blocked.kind} ({blocked.id})",
            )
    return angle, new, moved


def face(st: OneHourState, order: O.Face) -> None:
    u = _own(st, order.unit)
    e = _enemy(st, order.target)
    angle, new, moved = plan_face(st, u, e)
    u.set_fp(new)
    u.set_activated(True)
    for xid, fp in moved.items():
        st.units[xid].set_fp(fp)
    st.log("face", "turning.face-melee", unit=u.id, target=e.id, angle=angle, adjusted=list(moved))


def fall_back_problem(st: OneHourState, u: Unit) -> str | None:
    """Why ``u`` may not Fall Back now, or None ("Fall Back!" conditions)."""
    if not st.params["fall_back"]:
        return "fall-back: the Fall Back! option is not in use"
    if u.activated:
        return f"movement: {u.id} has already moved this phase"
    if u.category not in ("skirmishers", "cavalry"):
        return "fall-back: only Skirmishers and Cavalry may Fall Back"
    touching = st.touching(u)
    if not touching:
        return f"fall-back: {u.id} is not in melee"
    if any(f == "rear" for _, f, _ in touching):
        return f"fall-back: an enemy is in contact with {u.id}'s rear facing"
    if any(x.profile.move_class >= u.profile.move_class for x, _, _ in touching):
        return f"fall-back: {u.id} is not of a higher movement class than all enemy Units in the melee"
    return None


def fall_back(st: OneHourState, order: O.FallBack) -> None:
    """ "Fall Back!": Skirmishers and Cavalry of a higher movement class than every enemy in the melee,
    with no enemy on their rear, make a full move directly back; an enemy in frontal contact dices off
    movement and, if it wins, makes a free attack first."""
    u = _own(st, order.unit)
    prob = fall_back_problem(st, u)
    if prob:
        raise bad_from(prob)
    touching = st.touching(u)
    u.set_activated(True)
    faces = st.roll(u.profile.move_class, "fall-back", "fall back distance", unit=u.id)
    rolled = float(sum(faces) + 2)
    front = [x for x, f, _ in touching if f == "front"]
    if front:
        e = front[0]
        ef = st.roll(e.profile.move_class, "fall-back.dice-off", "enemy dice-off", unit=e.id, side=e.side)
        erolled = float(sum(ef) + 2)
        if erolled > rolled:
            st.log("free-attack", "fall-back.dice-off", unit=e.id, target=u.id, theirs=erolled, ours=rolled)
            melee_attack(st, e, u)
    back = heading_vector(u.fp.heading + 180.0)
    d = S.max_advance(
        u,
        u.fp,
        back,
        rolled,
        [x for x in st.live() if x.id not in {t.id for t, _, _ in touching}],
        st.terrain,
    )
    u.set_fp(u.fp.moved(back[0] * d, back[1] * d))
    u.set_moved(True)
    st.log("fall-back", "fall-back", unit=u.id, rolled=rolled, moved=round(d, 3))
