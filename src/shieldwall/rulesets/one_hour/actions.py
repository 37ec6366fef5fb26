"""What each one-hour-dark-ages order does, and the automatic steps (melee, routs, initiative).

Each function cites the clause it implements; the events it logs carry the same clause id.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from shieldwall.core.dice import D6
from shieldwall.core.errors import IllegalOrder
from shieldwall.core.geometry import (
    CONTACT_TOL,
    Footprint,
    convex_penetration,
    dist,
    heading_vector,
    in_front_arc,
    polygon_distance,
    sweep_distance,
)
from shieldwall.rulesets.one_hour import orders as O
from shieldwall.rulesets.one_hour import spatial as S
from shieldwall.rulesets.one_hour.clauses import rule
from shieldwall.rulesets.one_hour.combat import AttackSituation
from shieldwall.rulesets.one_hour.model import Unit, other
from shieldwall.rulesets.one_hour.profiles import terrain_effects

if TYPE_CHECKING:
    from shieldwall.rulesets.one_hour.state import OneHourState

RS = "one-hour-dark-ages"


def bad(clause: str, reason: str) -> IllegalOrder:
    return IllegalOrder(rule(clause), reason)


def bad_from(problem: str) -> IllegalOrder:
    """An IllegalOrder from a ``"clause: reason"`` problem string of the spatial checks."""
    clause, _, reason = problem.partition(": ")
    return IllegalOrder(rule(clause), reason)


def _expect(st: OneHourState, steps: tuple[str, ...], order: O.Order) -> None:
    if st.step not in steps:
        raise bad("play-sequence", f"'{order}' is not an order for this decision ({st.decision().prompt})")  # type: ignore[union-attr]


def _own(st: OneHourState, uid: str) -> Unit:
    u = st.unit(uid)
    if u.side != st.side:
        raise bad("play-sequence", f"{uid} belongs to {u.side}; it is {st.side}'s turn")
    return u


def _enemy(st: OneHourState, uid: str) -> Unit:
    u = st.unit(uid)
    if u.side == st.side:
        raise bad("orders", f"{uid} is not an enemy unit")
    return u


#: Entries kept in a state's memo of sight lines before it is emptied.
SIGHT_MEMO_MAX = 4096


def sight(st: OneHourState, viewer: Unit, target: Unit, facing: str | None = None) -> tuple[int, int]:
    """``spatial.visible_points`` of ``viewer`` to ``target`` among the live units, memoised.

    A sight line depends only on the viewer's and the target's footprints, the footprints of the
    other units on the table and the terrain, so the memo key holds every one of them: a unit that
    moves or leaves makes a new key, never a stale answer. Charges test the same line for each
    facing and turn, and the shooting menu is built more than once per decision.
    """
    live = st.live()
    key = (viewer.id, viewer.fp, target.id, target.fp, facing, tuple([(u.id, u.fp) for u in live]))
    memo = st.sight_memo
    got = memo.get(key)
    if got is None:
        if len(memo) >= SIGHT_MEMO_MAX:
            memo.clear()
        got = memo[key] = S.visible_points(viewer, target, live, st.terrain, facing)
    return got


def apply_order(st: OneHourState, order: O.Order) -> None:
    if isinstance(order, O.End):
        _expect(st, ("transfer", "activate", "shoot"), order)
        if st.step == "transfer":
            st.step = "activate"
        elif st.step == "activate":
            st.enter_phase("shooting")
        else:
            st.enter_phase("melee")
    elif isinstance(order, O.Transfer):
        _expect(st, ("transfer",), order)
        transfer(st, order)
    elif isinstance(order, O.Activate):
        _expect(st, ("activate",), order)
        activate(st, order)
    elif isinstance(order, O.Face):
        _expect(st, ("activate",), order)
        face(st, order)
    elif isinstance(order, O.FallBack):
        _expect(st, ("activate",), order)
        fall_back(st, order)
    elif isinstance(order, O.Hold):
        _expect(st, ("move",), order)
        _active(st, order.unit)
        st.log("hold", "movement", unit=order.unit)
        _after_move(st, st.unit(order.unit))
    elif isinstance(order, O.Move):
        _expect(st, ("move",), order)
        move(st, order)
    elif isinstance(order, O.Charge):
        _expect(st, ("move",), order)
        charge(st, order)
    elif isinstance(order, O.MovingShot):
        _expect(st, ("move", "after-shot"), order)
        u = _active(st, order.unit)
        if u.profile.missile != "javelin":
            raise bad("moving-shots", "only Units with javelins may perform a Moving Shot")
        if u.moving_shot:
            raise bad("moving-shots", f"{u.id} has already made its Moving Shot")
        shoot(st, u, _enemy(st, order.target), moving=True)
        if st.step == "after-shot":
            st.finish_activation()
    elif isinstance(order, O.Skip):
        _expect(st, ("after-shot",), order)
        _active(st, order.unit)
        st.finish_activation()
    elif isinstance(order, O.Shoot):
        _expect(st, ("shoot",), order)
        u = _own(st, order.unit)
        shoot(st, u, _enemy(st, order.target), moving=False)
    elif isinstance(order, O.Fight):
        _expect(st, ("melee",), order)
        u = _active(st, order.unit)
        targets = [e for e, f_mine, _ in st.touching(u) if f_mine == "front"]
        t = _enemy(st, order.target)
        if t not in targets:
            raise bad("melee.front-only", f"{t.id} is not in contact with {u.id}'s front facing")
        melee_attack(st, u, t)
        st.melee_queue.pop(0)
        st.active = None
    else:
        raise bad("orders", f"unknown order {order!r}")


def _active(st: OneHourState, uid: str) -> Unit:
    if st.active != uid:
        raise bad("movement", f"the unit being moved is {st.active}, not {uid}")
    return st.unit(uid)


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
        raise bad("army-lists.allies", "personalities may only attach to Units of their own list")
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


def activate(st: OneHourState, order: O.Activate) -> None:
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
    u.activated = True
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
    if u.allied and allied_must_roll(st, u) and 2 in faces:
        st.log(
            "allies-debate",
            "army-lists.allies.debate",
            unit=u.id,
            reason="a natural 2 for an allied Unit: it does not move while the leaders debate",
        )
        st.finish_activation()
        return
    st.step = "move"
    if declared:
        from shieldwall.rulesets.one_hour.declared import fulfil

        fulfil(st, u, order)


def allied_must_roll(st: OneHourState, u: Unit) -> bool:
    """ "Allied Forces": 1-2 allied Units stop on a natural 2; 3 with an allied Personality do not."""
    if not st.params["allies"]:
        return False
    allies = [x for x in st.units.values() if x.side == u.side and x.allied]
    # the allied Personality must still be with a living allied Unit (ruling R32)
    present = any(
        p.allied and p.side == u.side and p.unit is not None and not st.units[p.unit].removed
        for p in st.personalities.values()
    )
    return not (len(allies) >= 3 and present)


def turns_allowed(st: OneHourState, u: Unit) -> tuple[int, int]:
    """(turns by type, extra turns from a Leader) -- "Turning" 1-2, "Personalities: Leader"."""
    return u.profile.turns, 1 if st.has_personality(u, "leader") else 0


def check_turns(st: OneHourState, u: Unit, steps: tuple[O.Step, ...]) -> int:
    """ "Turning": Warband & Infantry turn once, at the start OR end; Skirmishers & Cavalry twice,
    once at the start AND once at the end; a Leader gives one more at any time. Up to 180 degrees."""
    gos = [i for i, s in enumerate(steps) if isinstance(s, O.Go)]
    first = gos[0] if gos else len(steps)
    last = gos[-1] if gos else len(steps)
    n_start = n_mid = n_end = 0
    for i, s in enumerate(steps):
        if isinstance(s, O.Turn):
            if not (math.isfinite(s.angle) and abs(s.angle) <= 180.0 + 1e-9):
                raise bad("turning", f"a turn is at most 180 degrees, not {s.angle:g}")
            if i < first:
                n_start += 1
            elif i > last:
                n_end += 1
            else:
                n_mid += 1
    per_type, extra = turns_allowed(st, u)
    if per_type == 1:
        over = max(0, n_start + n_end - 1) + n_mid
    else:
        over = max(0, n_start - 1) + max(0, n_end - 1) + n_mid
    if over > extra:
        who = (
            "Warband and Infantry may turn once, at the start OR end"
            if per_type == 1
            else ("Skirmishers and Cavalry may turn once at the start and once at the end")
        )
        raise bad(
            "turning.limits",
            f"too many turns for {u.id}: {who} of their move" + (" (+1 with a Leader)" if extra else ""),
        )
    return over  # > 0: the Leader's extra turn was used


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
    on_road = S.on_road(fp, st.terrain)
    turned = False
    units = st.live()
    for s in steps:
        if isinstance(s, O.Turn):
            fp = fp.turned(s.angle, s.pivot)
            turned = True
            prob = S.placement_problem(u, fp, units, st.terrain)
            if prob:
                raise bad_from(prob)
        else:
            seg = dist(fp.centre, (s.x, s.y))
            prob = S.path_problem(u, fp, [(s.x, s.y)], units, st.terrain)
            if prob:
                raise bad_from(prob)
            mid = Footprint((fp.x + s.x) / 2, (fp.y + s.y) / 2, fp.heading, fp.frontage, fp.depth)
            fp = Footprint(s.x, s.y, fp.heading, fp.frontage, fp.depth)
            on_road = on_road and S.on_road(mid, st.terrain) and S.on_road(fp, st.terrain)
            length += seg
    prob = S.placement_problem(u, fp, units, st.terrain)
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
        u.moved = True
    u.fp = fp
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
    _after_move(st, u)


def _after_move(st: OneHourState, u: Unit) -> None:
    from shieldwall.rulesets.one_hour.menus import moving_shot_targets

    if u.profile.missile == "javelin" and not u.moving_shot and moving_shot_targets(st, u):
        st.step = "after-shot"
    else:
        st.finish_activation()


def plan_charge(
    st: OneHourState,
    u: Unit,
    t: Unit,
    facing: str,
    turn: O.Turn | None,
    approach: tuple[Footprint, Unit] | None = None,
) -> tuple[float, Footprint, Footprint]:
    """Check a charge without making it: (distance needed, final footprint, start footprint).

    "Charging" 1-4: within 45 degrees of the front and in LoS; flank/rear only from past the
    facing's line; one attacking Unit per facing; contact along the shortest line.

    ``approach`` is the result of ``charge_approach(st, u, t, turn)`` when the caller already has
    it (the menu tries every facing with the same turn).
    """
    if facing not in O.FACING_NAMES:
        raise bad("charging", f"facing must be one of {', '.join(O.FACING_NAMES)}")
    if t.side == u.side:
        raise bad("charging", f"{t.id} is not an enemy unit")
    fp, probe = approach if approach is not None else charge_approach(st, u, t, turn)
    occupant = next((x for x, f_t, _ in st.touching(t) if f_t == facing), None)
    if occupant is not None:
        raise bad(
            "charging.one-per-facing",
            f"{t.id}'s {facing} facing is already in contact with "
            f"{occupant.id}; only one attacking Unit per facing",
        )
    plan = S.plan_charge(probe, fp, t, facing, st.live(), st.terrain)
    if isinstance(plan, str):
        raise bad_from(plan)
    need, end = plan
    if need > st.rolled + float(st.params["grey_margin"]):
        raise bad("charging.contact", f'{t.id}\'s {facing} is {need:.2f}" away; {u.id} rolled {st.rolled:g}"')
    return need, end, fp


def charge_approach(st: OneHourState, u: Unit, t: Unit, turn: O.Turn | None) -> tuple[Footprint, Unit]:
    """The part of ``plan_charge`` that does not depend on the facing charged: the start-of-move
    turn, the arc and line of sight. Returns (start footprint, the unit standing there)."""
    fp = u.fp
    if turn is not None:
        check_turns(st, u, (turn, O.Go(0, 0)))
        fp = fp.turned(turn.angle, turn.pivot)
        prob = S.placement_problem(u, fp, st.live(), st.terrain)
        if prob:
            raise bad_from(prob)
    # the unit as it stands at the start of the charge (itself when it does not turn)
    probe = u
    if turn is not None:
        probe = u.clone()
        probe.fp = fp
    arc = float(st.params["arc"])
    if not in_front_arc(fp, t.fp.corners(), arc):
        raise bad("charging.arc", f"{t.id} is not within {arc:g} degrees of {u.id}'s front")
    if sight(st, probe, t)[0] == 0:  # S.has_los(probe, t, st.live(), st.terrain)
        raise bad("line-of-sight.required", f"{u.id} has no line of sight to {t.id}")
    return fp, probe


def charge(st: OneHourState, order: O.Charge) -> None:
    u = _active(st, order.unit)
    t = _enemy(st, order.target)
    need, end, fp = plan_charge(st, u, t, order.facing, order.turn)
    if not st.close_call(need, st.rolled, u.side, "charging.contact", f"charge reach {u.id}->{t.id}"):
        # lost the roll-off: the charge falls short, moving its full distance along the line
        d = (end.x - fp.x, end.y - fp.y)
        ln = math.hypot(*d)
        short = max(0.0, min(st.rolled, need - 0.1))
        u.fp = fp.moved(d[0] / ln * short, d[1] / ln * short) if ln > 1e-9 else fp
        u.moved = True
        st.log("charge-short", "grey-areas", unit=u.id, target=t.id, moved=round(short, 3))
        _after_move(st, u)
        return
    u.fp = end
    u.moved = True
    u.charged = True
    st.log(
        "charge",
        "charging.contact",
        unit=u.id,
        target=t.id,
        facing=order.facing,
        distance=round(need, 3),
        rolled=st.rolled,
        to={"x": round(end.x, 3), "y": round(end.y, 3), "heading": round(end.heading, 3)},
        checked=[
            rule(c)
            for c in (
                "charging",
                "charging.arc",
                "line-of-sight.required",
                "charging.one-per-facing",
                "charging.contact",
                *(("charging.flank-rear",) if order.facing != "front" else ()),
                *(("turning.limits",) if order.turn is not None else ()),
            )
        ],
    )
    st.finish_activation()


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
        blocked = S.terrain_blocks_entry(mover, fp, st.terrain) or S.in_river(fp, st.terrain)
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
    u.fp = new
    u.activated = True
    for xid, fp in moved.items():
        st.units[xid].fp = fp
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
    u.activated = True
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
    u.fp = u.fp.moved(back[0] * d, back[1] * d)
    u.moved = True
    st.log("fall-back", "fall-back", unit=u.id, rolled=rolled, moved=round(d, 3))


# --- Shooting ---------------------------------------------------------------------------------


def terrain_clause(kind: str) -> str:
    """The "Terrain" clause behind a defensive bonus named by ``spatial.defending_feature``."""
    if kind == "uphill":
        return "terrain.hills"
    if kind == "river bank":
        return "terrain.rivers"
    return terrain_effects()[kind].clause


def shot_problem(st: OneHourState, u: Unit, t: Unit, moving: bool) -> str | None:
    """Why ``u`` may not shoot at ``t`` now ("Shooting", "Moving Shots"), or None."""
    p = u.profile
    if p.missile is None:
        return "shooting: only Skirmishers and javelin Units shoot"
    if st.params["missile_supply"]:
        if u.out_of_missiles:
            return "missile-supply: the Unit has used the last of its missiles"
    elif u.shots_used >= int(st.params["shots"]):
        return f"shooting.three-shots: the Unit has used its {st.params['shots']} shots"
    if st.in_melee(u):
        return "shooting: a Unit in melee fights, it does not shoot"
    if moving:
        if u.moving_shot:
            return "moving-shots: one Moving Shot per Movement Phase"
    else:
        if u.shot:
            return "shooting: the Unit has already shot this phase"
        if p.missile == "bow" and u.moved:
            return "shooting.bows-moved: Bows may not shoot if they moved during the Movement Phase"
        if p.missile == "javelin" and u.moving_shot:
            return "shooting.javelins-moving-shot: Javelins may not shoot after a Moving Shot"
    arc = float(st.params["arc"])
    if not in_front_arc(u.fp, t.fp.corners(), arc):
        return f"shooting.arc: the target is not within {arc:g} degrees of the front"
    facing = t.fp.facing_of(u.fp.front_centre)
    seen, sampled = sight(st, u, t, facing)  # S.facing_in_clear_view(u, t, st.live(), st.terrain, facing)
    if seen != sampled:
        return f"shooting.los-facing: no clear Line of Sight to {t.id}'s entire {facing} facing"
    rng = float(st.params["bow_range"] if p.missile == "bow" else st.params["javelin_range"])
    if S.distance_between(u, t) > rng + float(st.params["grey_margin"]):
        return f'shooting.range: {t.id} is beyond {rng:g}"'
    return None


def shoot(st: OneHourState, u: Unit, t: Unit, moving: bool) -> None:
    prob = shot_problem(st, u, t, moving)
    if prob:
        raise bad_from(prob)
    rng = float(st.params["bow_range"] if u.profile.missile == "bow" else st.params["javelin_range"])
    if moving:
        u.moving_shot = True
    else:
        u.shot = True
    if not st.close_call(S.distance_between(u, t), rng, u.side, "shooting.range", f"range {u.id}->{t.id}"):
        st.log("shot-out-of-range", "grey-areas", unit=u.id, target=t.id)
        return
    facing = t.fp.facing_of(u.fp.front_centre)
    mod, cites = st.attack_modifier(u, "shoot")
    sit = AttackSituation(
        "shoot",
        st.die,
        mod,
        S.facing_class(facing),  # type: ignore[arg-type]
        S.defending_feature(t, u, st.terrain, "shoot") is not None,
        t.profile.shieldwall,
        (),
        tuple(cites),
    )
    face_, hits = sit.roll(st.rng)
    data = sit.breakdown(face_)
    # the clauses this shot was checked against (see shot_problem)
    checked = [
        rule(c)
        for c in (
            "shooting",
            "shooting.arc",
            "line-of-sight.required",
            "shooting.los-facing",
            "shooting.range",
        )
    ]
    checked.append(rule("missile-supply" if st.params["missile_supply"] else "shooting.three-shots"))
    if not moving:
        checked.append(
            rule("shooting.bows-moved" if u.profile.missile == "bow" else "shooting.javelins-moving-shot")
        )
    if st.in_melee(t):
        checked.append(rule("shooting.into-melee"))
    terrain = S.defending_feature(t, u, st.terrain, "shoot")
    if terrain:
        checked.append(rule(terrain_clause(terrain)))
    terrain = S.defending_feature(t, u, st.terrain, "shoot")
    t.hits += hits
    if t.hits >= 5:
        t.reached_five = True
    if st.params["missile_supply"]:
        if face_ == 5:
            u.out_of_missiles = True
    else:
        u.shots_used += 1
    st.log(
        "shot",
        "moving-shots" if moving else "shooting.dice",
        unit=u.id,
        target=t.id,
        weapon=u.profile.missile,
        terrain=terrain,
        target_hits=t.hits,
        in_melee=st.in_melee(t),
        checked=checked,
        **data,
    )
    if st.params["missile_supply"] and face_ == 5:
        st.log("out-of-missiles", "missile-supply", unit=u.id)


# --- Melee ------------------------------------------------------------------------------------


def melee_attack(st: OneHourState, u: Unit, t: Unit) -> None:
    """ "Melee": one-sided; roll 1D5 (+1 Warriors, -1 javelin units, -2 bows); terrain, shieldwall,
    flank/rear doubling, the 1/4 cap."""
    facing = None
    for _, _, f_t in S.contacts(u, [t]):
        facing = f_t
    if facing is None:
        raise bad("melee.front-only", f"{u.id} is not in contact with {t.id}")
    mod, cites = st.attack_modifier(u, "melee")
    terrain = S.defending_feature(t, u, st.terrain, "melee")
    sit = AttackSituation(
        "melee",
        st.die,
        mod,
        S.facing_class(facing),  # type: ignore[arg-type]
        terrain is not None,
        t.profile.shieldwall,
        (),
        tuple(cites),
    )
    face_, hits = sit.roll(st.rng)
    t.hits += hits
    if t.hits >= 5:
        t.reached_five = True
    checked = [rule("melee"), rule("melee.front-only")]
    if terrain:
        checked.append(rule(terrain_clause(terrain)))
    st.log(
        "melee",
        "melee.dice",
        side=u.side,
        unit=u.id,
        target=t.id,
        terrain=terrain,
        target_hits=t.hits,
        checked=checked,
        **sit.breakdown(face_),
    )


def melee_step(st: OneHourState) -> bool:
    """Fight every melee of the phasing player ("Melee": Units fight only to their Front, one enemy
    Unit in contact with the Front Facing). Returns True when a choice of target is needed."""
    while st.melee_queue:
        uid = st.melee_queue[0]
        u = st.units[uid]
        if u.removed:
            st.melee_queue.pop(0)
            continue
        targets = [e for e, f_mine, _ in st.touching(u) if f_mine == "front"]
        if not targets:
            st.melee_queue.pop(0)
            continue
        if len(targets) == 1:
            st.melee_queue.pop(0)
            melee_attack(st, u, targets[0])
            continue
        st.active = uid
        return True
    return False


# --- Routs and rallies ------------------------------------------------------------------------


def routs_and_rallies(st: OneHourState) -> None:
    """ "Routs and Rallies": remove every Unit at its hit limit; then Banners and Priests rally."""
    for u in list(st.units.values()):
        if u.removed or u.hits < u.max_hits:
            continue
        u.removed = True
        st.lost[u.side] += 1
        st.lost_types[u.side][u.type] = st.lost_types[u.side].get(u.type, 0) + 1
        gone = [p.id for p in st.personalities.values() if p.unit == u.id]
        for pid in gone:
            st.personalities[pid].unit = None
        st.log(
            "removed",
            "routs-and-rallies.removal",
            side=u.side,
            unit=u.id,
            hits=u.hits,
            limit=u.max_hits,
            personalities_lost=gone,
            checked=[rule("routs-and-rallies.removal")]
            + ([rule("variable-quality")] if u.quality else [])
            + ([rule("army-lists.variations")] if u.upgrade in ("determined", "reluctant") else [])
            + ([rule(u.profile.clause)] if u.profile.hits is not None else []),
        )
        if gone:
            st.log("personality-lost", "personalities.fate", side=u.side, unit=u.id, personalities=gone)
        if st.params["force_morale"]:
            from shieldwall.rulesets.one_hour.morale import force_morale

            if force_morale(st, u.side):
                return
    for side in ("red", "blue"):
        if not st.live(side):
            st.finish(other(side), f"{side} has no Units left on the table")
            return
    if st.params["personalities"]:
        for u in st.live(st.side):
            rally(st, u)


def rally(st: OneHourState, u: Unit) -> None:
    """Banner: rally 1-3 Hits (d5 halved, rounded up); Priest: 2-4 (halved +1); only a Unit not in
    melee that has not moved or shot. Rally variation: not below 5 once it has taken 5."""
    pers = st.personalities_of(u)
    kinds = [p for p in pers if p.banner or p.kind == "priest"]
    if not kinds or u.hits <= 0:
        return
    if st.in_melee(u) or u.moved or u.shot or u.moving_shot:
        return
    for p in kinds:
        if u.hits <= 0:
            break
        clause = "personalities.priest" if p.kind == "priest" else "personalities.banner"
        face_ = st.roll(1, clause, "rally", unit=u.id)[0]
        amount = -(-face_ // 2) + (1 if p.kind == "priest" else 0)
        floor = 5 if (st.params["rally_variation"] and u.reached_five) else 0
        new = max(floor, u.hits - amount, 0) if u.hits > floor else u.hits
        checked = [rule("routs-and-rallies.rally")] + (
            [rule("personalities.rally-variation")] if floor else []
        )
        st.log(
            "rally",
            clause,
            unit=u.id,
            personality=p.id,
            rallied=u.hits - new,
            hits=new,
            variation=floor > 0,
            checked=checked,
        )
        u.hits = new


def initiative_roll(st: OneHourState) -> None:
    """ "Initiative": from turn 2 roll off, the Initiative side adding +3 (+2/+4 options; -1 per routed
    Unit option); if it loses, the Initiative passes and the other side goes first.

    A roll-off is a d6 whatever the battle's die (ruling R26: with the d5 and +3 the initiative could
    never change hands, against the text's "it is likely to only change once")."""
    holder = st.initiative
    chal = other(holder)
    fh = st.roll(1, "initiative", "initiative", side=holder, die=D6)[0]
    fc = st.roll(1, "initiative", "initiative", side=chal, die=D6)[0]
    bonus = int(st.params["initiative_bonus"])
    th, tc = fh + bonus, fc
    if st.params["initiative_routed_penalty"]:
        th -= st.lost[holder]
        tc -= st.lost[chal]
    changed = th < tc
    if changed:
        st.initiative = chal
    st.order = (st.initiative, other(st.initiative))
    st.log(
        "initiative",
        "initiative.bonus" if bonus != 3 else "initiative",
        side=st.initiative,
        holder=holder,
        totals={holder: th, chal: tc},
        bonus=bonus,
        changed=changed,
        checked=[rule("initiative")]
        + ([rule("initiative.bonus")] if bonus != 3 else [])
        + ([rule("initiative.routed")] if st.params["initiative_routed_penalty"] else []),
    )
