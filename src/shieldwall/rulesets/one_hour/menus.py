"""The legal-order menus of one-hour-dark-ages: finite, meaningful choices at each decision.

The move menu samples the infinite space of moves: hold, advance (full and half), approach each
nearby enemy, turn to face, withdraw, close to shooting range, every possible charge, and Moving
Shots. ``State.apply`` accepts any other exact move the rules allow.

The menus try orders with the checks of the order handlers (``act_move.plan_move``,
``act_charge.plan_charge``, ``attacks.shot_problem``, ...), never through the dispatcher
(``actions``), which sits above them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, NamedTuple

from shieldwall.core.crossings import beyond_edge_line, in_front_arc
from shieldwall.core.errors import IllegalOrder
from shieldwall.core.geometry import Footprint, bearing, dist, heading_vector, normalize_angle, round_places
from shieldwall.core.reference import REFERENCE
from shieldwall.rulesets.one_hour import act_hand_deploy
from shieldwall.rulesets.one_hour import orders as O
from shieldwall.rulesets.one_hour import spatial as S
from shieldwall.rulesets.one_hour.act_charge import charge_approach, plan_charge
from shieldwall.rulesets.one_hour.act_deploy import choice_orders
from shieldwall.rulesets.one_hour.act_move import fall_back_problem, plan_face, plan_move
from shieldwall.rulesets.one_hour.attacks import moving_shot_targets, shot_problem
from shieldwall.rulesets.one_hour.model import Unit

if TYPE_CHECKING:
    from shieldwall.rulesets.one_hour.state import OneHourState

NEAREST = 3  # enemies considered for approach/face options


def legal_orders(st: OneHourState) -> list[O.Order]:
    if st.step == "deploy":
        return act_hand_deploy.menu(st)
    if st.step == "fight-as":
        return choice_orders(st)
    if st.step == "transfer":
        return [O.End(), *transfer_orders(st)]
    if st.step == "activate":
        return activate_orders(st)
    if st.step == "move":
        return move_orders(st)
    if st.step == "after-shot":
        u = st.unit(st.active or "")
        return [O.Skip(u.id), *(O.MovingShot(u.id, t.id) for t in moving_shot_targets(st, u))]
    if st.step == "shoot":
        return [O.End(), *(O.Shoot(u.id, t.id) for u, t in shooters(st))]
    if st.step == "melee":
        u = st.unit(st.active or "")
        return [O.Fight(u.id, e.id) for e, f, _ in st.touching(u) if f == "front"]
    return []


def transfer_orders(st: OneHourState) -> list[O.Order]:
    out: list[O.Order] = []
    for p in st.personalities.values():
        if p.side != st.side or p.unit is None or p.id in st.transferred:
            continue
        src = st.units[p.unit]
        if st.in_melee(src):
            continue
        for u in st.live(st.side):
            if u.id == src.id or u.allied != p.allied:
                continue
            if S.distance_between(src, u) <= 6.0:
                out.append(O.Transfer(p.id, u.id))
    return out


def activate_orders(st: OneHourState) -> list[O.Order]:
    out: list[O.Order] = [O.End()]
    declared = bool(st.params["declared_movement"])
    enemies = st.live(_other(st.side))
    for u in st.live(st.side):
        if u.activated:
            continue
        touching = st.touching(u)
        if touching:
            for e, f, _ in touching:
                if f != "front":
                    try:
                        plan_face(st, u, e)
                    except IllegalOrder:
                        continue
                    out.append(O.Face(u.id, e.id))
            if fall_back_problem(st, u) is None:
                out.append(O.FallBack(u.id))
            continue
        if not declared:
            out.append(O.Activate(u.id))
            continue
        near = nearest(u, enemies, NEAREST)
        for e in near:
            out.append(O.Activate(u.id, charge=e.id))
            out.append(O.Activate(u.id, toward=(round_places(e.fp.x, 2), round_places(e.fp.y, 2))))
        out.append(O.Activate(u.id, toward=home_point(st, u)))
    return out


def _other(side: str) -> str:
    return "blue" if side == "red" else "red"


#: Slack of the distance bounds below: far above floating-point error, far below any rule.
_SLACK = 1e-6


def nearest_reference(u: Unit, enemies: list[Unit], k: int) -> list[Unit]:
    """The ``k`` enemies nearest ``u`` (``distance_between``), ties in list order: every distance
    measured (the reference of ``nearest``)."""
    return sorted(enemies, key=lambda e: S.distance_between(u, e))[:k]


def nearest(u: Unit, enemies: list[Unit], k: int) -> list[Unit]:
    """``nearest_reference``, measuring only the distances that can matter: the enemies are taken
    in the order of a lower bound of their distance (centre distance less both circumradii, less
    ``_SLACK``), and once ``k`` are measured an enemy whose bound is above the ``k``-th least
    distance is farther than it, as is every later one."""
    if len(enemies) <= k or REFERENCE.on:
        return nearest_reference(u, enemies, k)
    fp = u.fp
    ux, uy, ur = fp.x, fp.y, fp.radius
    hypot = math.hypot
    bounds = sorted(
        (hypot(ux - e.fp.x, uy - e.fp.y) - ur - e.fp.radius - _SLACK, i) for i, e in enumerate(enemies)
    )
    best: list[tuple[float, int]] = []
    kth = math.inf
    for lb, i in bounds:
        if lb > kth:
            break
        best.append((S.distance_between(u, enemies[i]), i))
        if len(best) >= k:
            best.sort()
            kth = best[k - 1][0]
    best.sort()
    return [enemies[i] for _, i in best[:k]]


def home_point(st: OneHourState, u: Unit) -> tuple[float, float]:
    """A point on the unit's own side's base edge straight behind it."""
    edge = st.game.home_edge[u.side]
    w, d = st.terrain.width, st.terrain.depth
    x, y = u.fp.x, u.fp.y
    pt = {"south": (x, 2.0), "north": (x, d - 2.0), "west": (2.0, y), "east": (w - 2.0, y)}[edge]
    return (round_places(pt[0], 2), round_places(pt[1], 2))


class Candidate(NamedTuple):
    """One entry of the move menu before it is checked. ``move_orders`` checks every entry;
    ``best_move`` checks them best first and stops at the first legal one."""

    #: the orders the menu may hold for it: one, or a charge with each start turn it may take
    variants: tuple[O.Order, ...]
    #: the check: the variant the menu holds (a charge's first start turn that passes), or None
    #: when the entry is not legal
    check: Callable[[], O.Order | None]


def _always(order: O.Order) -> Candidate:
    return Candidate((order,), lambda: order)


def charge_candidates(st: OneHourState, u: Unit) -> list[Candidate]:
    """Every charge the menu may hold, unchecked: one per enemy in reach and facing (with no turn),
    in the menu's order; the check tries the start turns in order (none, then a turn to face)."""
    out: list[Candidate] = []
    reach = st.rolled + float(st.params["grey_margin"])
    for t in S.enemies_within(u, st.live(), reach + 0.01):
        if S.distance_between(u, t) > reach + 0.01:
            continue
        turns: list[O.Turn | None] = [None]
        ang = normalize_angle(bearing(u.fp.centre, t.fp.centre) - u.fp.heading)
        if abs(ang) > 1.0:
            turns.append(O.Turn(round_places(ang, 2), "centre"))
        # the turn, arc and line of sight do not depend on the facing: check them once per turn
        approaches: dict[int, tuple[Footprint, Unit] | None] = {}
        for facing in O.FACING_NAMES:
            variants = tuple(O.Charge(u.id, t.id, facing, turn) for turn in turns)
            out.append(Candidate(variants, partial(_check_charge, st, u, t, facing, turns, approaches)))
    return out


def _check_charge(
    st: OneHourState,
    u: Unit,
    t: Unit,
    facing: str,
    turns: list[O.Turn | None],
    approaches: dict[int, tuple[Footprint, Unit] | None],
) -> O.Charge | None:
    """The charge of ``t``'s ``facing`` with the first start turn that passes, or None."""
    if not REFERENCE.on and _charge_refused(st, u, t, facing):
        return None
    for k, turn in enumerate(turns):
        if not REFERENCE.on and _start_refused(st, u, t, facing, turn):
            continue
        if k not in approaches:
            try:
                approaches[k] = charge_approach(st, u, t, turn)
            except IllegalOrder:
                approaches[k] = None
        approach = approaches[k]
        if approach is None:
            continue
        try:
            plan_charge(st, u, t, facing, turn, approach)
        except IllegalOrder:
            continue
        return O.Charge(u.id, t.id, facing, turn)
    return None


def _charge_refused(st: OneHourState, u: Unit, t: Unit, facing: str) -> bool:
    """Whether ``plan_charge`` refuses the charge of ``t``'s ``facing`` whatever the start turn,
    found without its approach (turn, arc, line of sight): another unit holds that facing
    ("charging.one-per-facing"). (A fast path of ``_check_charge``: the same answers.)"""
    return any(f_t == facing for _, f_t, _ in st.touching(t))


def _start_refused(st: OneHourState, u: Unit, t: Unit, facing: str, turn: O.Turn | None) -> bool:
    """Whether ``plan_charge`` refuses the charge with this start turn, found from the footprint
    the turn gives (``charge_approach``'s, the same floats) without the approach's checks of the
    turn, the place and the line of sight: ``t`` outside the arc ("charging.arc", which
    ``charge_approach`` checks before the line of sight), or, on a flank or the rear, the start
    not wholly past that facing's line ("charging.flank-rear", ``spatial.plan_charge``'s first
    test). Either refusal stands whether or not the approach's other checks pass."""
    fp = u.fp if turn is None else u.fp.turned(turn.angle, turn.pivot)
    target = t.fp
    if facing != "front" and not beyond_edge_line(target, facing, fp.corners()):
        return True
    return not in_front_arc(fp, target.corners(), float(st.params["arc"]))


def charge_orders(st: OneHourState, u: Unit) -> list[O.Charge]:
    out: list[O.Charge] = []
    for _, check in charge_candidates(st, u):
        got = check()
        if got is not None:
            out.append(got)  # type: ignore[arg-type]
    return out


def _check_move(st: OneHourState, u: Unit, m: O.Move) -> O.Move | None:
    try:
        plan_move(st, u, m.steps)
    except IllegalOrder:
        return None
    return m


def _advance_steps(
    st: OneHourState, u: Unit, heading: float, turn: O.Turn | None, budget: float
) -> tuple[O.Step, ...] | None:
    """The steps of the furthest straight advance along ``heading`` (after ``turn``) within
    ``budget``, or None when the unit cannot go 1/4" (the move is then checked by ``_check_move``:
    its end point is rounded)."""
    fp = u.fp if turn is None else u.fp.turned(turn.angle, turn.pivot)
    d = heading_vector(heading)
    # max_advance takes the start footprint explicitly and reads only the unit's id, side and
    # profile, so the unit itself serves (no copy standing at ``fp`` is needed)
    far = S.max_advance(u, fp, d, budget, st.live(), st.terrain)
    if far < 0.25:
        return None
    end = S.advance_point(fp.centre, d, far)
    return (O.Go(*end),) if turn is None else (turn, O.Go(*end))


def move_candidates(st: OneHourState) -> list[Candidate]:
    """The move menu's entries in its order, unchecked (the advances' furthest spots are worked
    out: the orders hold them); equal moves are listed once, the first (its check answers for
    every later one, which the menu would drop as a repeat or refuse alike)."""
    u = st.unit(st.active or "")
    out: list[Candidate] = [_always(O.Hold(u.id))]
    out.extend(charge_candidates(st, u))
    if u.profile.missile == "javelin" and not u.moving_shot:
        for t in moving_shot_targets(st, u):
            out.append(_always(O.MovingShot(u.id, t.id)))
    budget = st.rolled
    menu = _MoveMenu(st, u, out)
    menu.advance(u.fp.heading, None, budget, "advance")
    menu.advance(u.fp.heading, None, budget / 2.0, "advance half")
    enemies = nearest(u, st.live(_other(u.side)), NEAREST)
    rng = _missile_range(st, u)
    for e in enemies:
        ang = round_places(normalize_angle(bearing(u.fp.centre, e.fp.centre) - u.fp.heading), 2)
        turn = O.Turn(ang, "centre") if abs(ang) > 1.0 else None
        if turn is not None:
            menu.add((turn,), f"face {e.id}")
        head = u.fp.heading + (turn.angle if turn else 0.0)
        gap = S.distance_between(u, e)
        menu.advance(head, turn, budget, f"approach {e.id}")
        if rng and gap > rng:
            menu.advance(head, turn, max(0.0, min(budget, gap - rng + 0.5)), f"close to range of {e.id}")
    # withdraw towards the home edge without turning (moving backwards keeps the front to the enemy)
    hp = home_point(st, u)
    if dist(hp, u.fp.centre) > 1.0:
        menu.advance(bearing(u.fp.centre, hp), None, budget, "withdraw")
    menu.add((O.Turn(180.0, "centre"),), "about face")
    return out


class _MoveMenu:
    """The move menu as ``move_candidates`` builds it: the entries so far (``out``) and the moves
    and advances already tried. A class, not two nested functions: compiled, nested functions keep
    their frame's variables in an object that holds them in turn, a reference cycle that left every
    menu (its entries, their checks, the orders) to the cyclic garbage collector (docs/performance.md,
    "Menus freed when they are done with")."""

    def __init__(self, st: OneHourState, u: Unit, out: list[Candidate]) -> None:
        self.st = st
        self.u = u
        self.out = out
        # equal moves (``Move.__eq__``: the same steps) have equal keys here; a step's own hash is a
        # dataclass's (Python code), so the sets hold the steps' fields
        self.seen: set[tuple[tuple[Any, ...], ...]] = set()
        self.tried: set[tuple[float, tuple[float, str] | None, float]] = set()

    def add(self, steps: tuple[O.Step, ...] | None, label: str) -> None:
        if steps is None:
            return
        key = tuple([(s.angle, s.pivot) if isinstance(s, O.Turn) else (s.x, s.y) for s in steps])
        if key not in self.seen:
            self.seen.add(key)
            m = O.Move(self.u.id, steps, label)
            self.out.append(Candidate((m,), partial(_check_move, self.st, self.u, m)))

    def advance(self, heading: float, turn: O.Turn | None, dist_: float, label: str) -> None:
        # the same heading, turn and distance give the same move (or none) whatever the label,
        # and only the first of equal moves is kept: try each once
        key = (heading, None if turn is None else (turn.angle, turn.pivot), dist_)
        if key not in self.tried:
            self.tried.add(key)
            self.add(_advance_steps(self.st, self.u, heading, turn, dist_), label)


def move_orders(st: OneHourState) -> list[O.Order]:
    """The move menu: every entry of ``move_candidates`` that passes its check."""
    out: list[O.Order] = []
    for _, check in move_candidates(st):
        got = check()
        if got is not None:
            out.append(got)
    return out


def best_move(st: OneHourState, score: Callable[[O.Order], float]) -> O.Order:
    """``max(move_orders(st), key=score)``, the first of equal best (the fast path of
    ``OneHourState.best_order``): every entry is scored unchecked, then the entries are checked
    best first (equal scores in the menu's order) until one passes. The menu holds the legal
    entries in the same order, so that one is the menu's first best. An entry whose variants
    (a charge with or without a start turn) score differently is checked at once and scored as
    the variant that passes; when a score is NaN, which ``max`` does not order, the whole menu
    decides."""
    ranked: list[tuple[float, int, Candidate, O.Order | None]] = []
    for i, c in enumerate(move_candidates(st)):
        variants = c.variants
        s = score(variants[0])
        got: O.Order | None = None
        if len(variants) > 1 and any(score(v) != s for v in variants[1:]):
            got = c.check()
            if got is None:
                continue
            s = score(got)
        if s != s:
            return max(move_orders(st), key=score)
        ranked.append((-s, i, c, got))
    ranked.sort(key=lambda r: (r[0], r[1]))
    for _, _, c, got in ranked:
        if got is None:
            got = c.check()
        if got is not None:
            return got
    return max(move_orders(st), key=score)  # (never: a hold is always legal)


def _missile_range(st: OneHourState, u: Unit) -> float:
    if u.profile.missile == "bow":
        return float(st.params["bow_range"])
    if u.profile.missile == "javelin":
        return float(st.params["javelin_range"])
    return 0.0


def shooters(st: OneHourState) -> list[tuple[Unit, Unit]]:
    out = []
    for u in st.live(st.side):
        if u.profile.missile is None or u.shot:
            continue
        # only targets within range may be shot (the last check of ``shot_problem``)
        rng = float(st.params["bow_range"] if u.profile.missile == "bow" else st.params["javelin_range"])
        for t in S.enemies_within(u, st.live(), rng + float(st.params["grey_margin"])):
            if shot_problem(st, u, t, moving=False) is None:
                out.append((u, t))
    return out
