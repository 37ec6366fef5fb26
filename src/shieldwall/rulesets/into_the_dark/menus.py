"""The legal-order menus of into-the-dark: finite, meaningful choices at each decision.

Moves are sampled: advance (full and half), wheel to face each of the nearest enemies and advance,
about face (and advance), every charge that reaches (squared up on each edge in reach, or straight
ahead; impetuous when allowed), frontage changes of two figures, shieldwall, turning to face.
``State.apply`` accepts any other exact order the rules allow.

One of the three dispatch modules (with ``actions`` and ``turns``; the layers are described in
``actions``): it asks the ``act_*`` handlers and the rules below them what is allowed, and is
imported by none of them.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import TYPE_CHECKING, Final, cast

from shieldwall.core.errors import IllegalOrder
from shieldwall.core.geometry import round_places
from shieldwall.core.reference import REFERENCE

from . import act_champions, act_command, act_deploy, act_generals, act_maneuver, act_obey
from . import orders as O
from .act_charge import reaction_options
from .act_form import plan_face, plan_frontage, reform_problem, shieldwall_problem
from .act_rally import rally_problem
from .act_zoc import opportunity_options
from .charging import charge_orders
from .generals import on as command_on
from .model import Unit
from .movement import Problem, Trace, max_straight, trace
from .moves import about_cost, act_problem, angle_to, can_move, plan_move, remaining
from .shooting import targets
from .spatial import gap

if TYPE_CHECKING:
    from .state import IntoTheDarkState

# charge_orders: from charging, for reach
__all__ = ["legal_orders", "unit_orders", "UnitMenu", "charge_orders"]

NEAREST: Final = 2
#: how many of the nearest enemies the menu reads (``UnitMenu.enemies``: the charges' four and
#: the wheels' ``NEAREST``)
READ = max(4, NEAREST)
#: slack on ``nearest_enemies``' bounds (the corners' rounding, the centres' distance and radii)
NEAR_SLACK: Final = 1e-9


def legal_orders(st: IntoTheDarkState) -> list[O.Order]:
    p = st.pending
    if p is None:
        return []
    kind = p["kind"]
    side = p["side"]
    if kind == "rally":
        return [O.End(), *(O.Rally(u.id) for u in st.live(side) if rally_problem(st, u) is None)]
    if kind == "initiative":
        return [O.Keep(), O.Pass()]
    if kind == "movement":
        first: list[O.Order] = [] if act_obey.must_still_move(st, side) else [O.End()]
        return [
            *first,
            *(O.Activate(u.id) for u in st.live(side) if act_problem(st, u) is None),
            *act_command.command_menu(st, side),
            *act_champions.leave_menu(st, side),
        ]
    if kind == "unit":
        return _obeying(st, unit_orders(st, st.units[p["unit"]]))
    if kind == "react":
        return reaction_options(st)
    if kind == "opportunity":
        e, m = st.units[p["unit"]], st.units[p["data"]["mover"]]
        return [O.Decline(e.id), *opportunity_options(st, e, m)]
    if kind == "fire":
        ordered = {uid for uid, _ in st.fire_orders}
        out: list[O.Order] = [O.End()]
        for u in st.live(side):
            if u.id in ordered:
                continue
            out.extend(O.Shoot(u.id, a.target.id) for a in targets(st, u))
        return out
    if kind == "pursue":
        return [O.Pursue(p["unit"]), O.Resist(p["unit"])]
    if kind == "chase":  # into-the-dark:movement.charging.target-runs
        return [O.Halt(p["unit"]), O.Continue(p["unit"])]
    if kind == "consent":
        return [O.Allow(p["unit"]), O.Refuse(p["unit"])]
    if kind == "declare":
        return [O.End(), *cast("list[O.Order]", act_generals.menu(st, side))]
    if kind == "orders":
        return act_command.orders_menu(st, side)
    if kind == "deploy":
        return cast("list[O.Order]", act_deploy.menu(st))
    return []


def _obeying(st: IntoTheDarkState, orders: list[O.Order]) -> list[O.Order]:
    """Only the orders a unit's general's orders and its combat preferences allow (act_command)."""
    if not command_on(st):
        return orders
    out = []
    for o in orders:
        try:
            act_obey.guard(st, o)
        except IllegalOrder:
            continue
        out.append(o)
    return out or orders[:1]


def _floor(v: float) -> float:
    return math.floor(v * 100.0 + 1e-9) / 100.0


def _ok_move(st: IntoTheDarkState, u: Unit, steps: tuple[O.Step, ...]) -> O.Move | None:
    return _ok_move_traced(st, u, steps)[0]


def _ok_move_traced(
    st: IntoTheDarkState, u: Unit, steps: tuple[O.Step, ...]
) -> tuple[O.Move | None, Trace | None]:
    """The move if it is legal, and its trace (``trace(u, steps, st.world(), about_cost=...)``, as
    ``plan_move`` made it); (None, None) if it is not."""
    try:
        tr = plan_move(st, u, steps, verdict=True)  # (only whether it is legal)
    except IllegalOrder:
        return None, None
    return O.Move(u.id, steps), tr


def _advance(
    st: IntoTheDarkState,
    u: Unit,
    lead: tuple[O.Step, ...],
    budget: float,
    lead_trace: Trace | None = None,
) -> O.Move | None:
    """``lead`` then the furthest straight run within ``budget``. ``lead_trace``: the lead's trace,
    when the menu has just checked the lead as a move of its own (``_ok_move_traced``: the very
    trace this would make); on the reference path the lead is traced again."""
    world = st.world()
    try:
        if not lead:
            tr = None
        elif lead_trace is not None and not REFERENCE.on:
            tr = lead_trace
        else:
            tr = trace(u, lead, world, about_cost=about_cost(st, u))
    except Problem:
        return None
    start = tr.fp if tr is not None else u.fp
    spent = tr.cost if tr is not None else 0.0
    left = budget - spent
    if left < 0.25:
        return _ok_move(st, u, lead) if lead else None
    d, _ = max_straight(u, start, _floor(left), world, budget=left)
    d = _floor(d)
    if d < 0.25:
        return _ok_move(st, u, lead) if lead else None
    return _ok_move(st, u, (*lead, O.Fwd(d)))


def nearest_enemies_reference(u: Unit, enemies: list[Unit]) -> list[Unit]:
    """Every one of ``enemies`` nearest ``u`` first (a stable sort: equal distances in list order)."""
    return sorted(enemies, key=lambda e: gap(u.fp, e.fp))


def nearest_enemies(u: Unit, enemies: list[Unit], k: int) -> list[Unit]:
    """The first ``k`` (or more) of ``nearest_enemies_reference(u, enemies)`` (issue 16): an enemy's
    footprint is no nearer than the distance of the centres less both radii (each footprint lies
    within its circumscribed circle), so the enemies are measured in the order of that bound until
    ``k`` are measured and the next bound passes the ``k``-th nearest distance measured. Every enemy
    left unmeasured is then farther than it, so the measured ones sorted by (distance, list order)
    begin with the reference's first ``k``; only those are answered. On the reference path (and
    for ``k`` enemies or fewer) the whole list, sorted."""
    if REFERENCE.on or len(enemies) <= k:
        return nearest_enemies_reference(u, enemies)
    fp = u.fp
    x, y, r = fp.x, fp.y, fp._radius
    hypot = math.hypot
    bounds = sorted((hypot(e.fp.x - x, e.fp.y - y) - r - e.fp._radius, i) for i, e in enumerate(enemies))
    got: list[tuple[float, int]] = []
    kth = math.inf
    for low, i in bounds:
        if len(got) >= k and low > kth + NEAR_SLACK:
            break
        got.append((gap(fp, enemies[i].fp), i))
        if len(got) >= k:
            kth = sorted(d for d, _ in got)[k - 1]
    got.sort()  # by distance, then list order: the stable sort of the reference
    return [enemies[i] for _, i in got[:k]]


def unit_orders(st: IntoTheDarkState, u: Unit) -> list[O.Order]:
    return UnitMenu(st, u).orders()


class UnitMenu:
    """A unit's menu (``unit_orders``) in three parts, each worked out only when first asked for:
    ``head`` (hold, and the charges), the moves (advances, wheels to face, about faces, back-ups:
    the costliest part, every one traced) and ``rest`` (frontage changes, shieldwall, turning to
    face, reform, joins, Command & Control's moves, Difficult Maneuvers). ``orders()`` is the whole
    menu: the three parts in that order, each order in its first place. The scripted general asks
    for the moves only when it weighs them (``bots.general``); the parts are pure functions of the
    state, so working one out before another changes nothing."""

    __slots__ = ("st", "u", "_enemies", "_head", "_moves", "_rest")

    def __init__(self, st: IntoTheDarkState, u: Unit) -> None:
        self.st, self.u = st, u
        self._enemies: list[Unit] | None = None
        self._head: list[O.Order] | None = None
        self._moves: list[O.Order] | None = None
        self._rest: list[O.Order] | None = None

    def enemies(self) -> list[Unit]:
        """The enemies on the table nearest first (equal distances in the state's order): at least
        the first ``READ`` of them, all the menu reads (``nearest_enemies``)."""
        if self._enemies is None:
            u = self.u
            self._enemies = nearest_enemies(u, [e for e in self.st.live() if e.side != u.side], READ)
        return self._enemies

    def head(self) -> list[O.Order]:
        """``Hold`` first, then every charge (``charge_orders`` on the four nearest enemies)."""
        if self._head is None:
            st, u = self.st, self.u
            out: list[O.Order] = [O.Hold(u.id)]
            if can_move(st, u) is None:
                for o in charge_orders(st, u, self.enemies()[:4]):
                    if o not in out[1:]:
                        out.append(o)
            self._head = out
        return self._head

    def moves(self) -> list[O.Order]:
        """The moves of the menu's second part (each a legal ``Move``, in the menu's order)."""
        if self._moves is None:
            memo = None if REFERENCE.on else getattr(self.st, "plan_memo", None)
            if memo is None:
                self._moves = [o for o in self._move_part() if o is not None]
            else:
                with memo.held(self.st.units, self.st.still_token):  # (working the moves out changes no unit)
                    self._moves = [o for o in self._move_part() if o is not None]
        return self._moves

    def rest(self) -> list[O.Order]:
        """The orders of the menu's third part."""
        if self._rest is None:
            self._rest = [o for o in self._rest_part() if o is not None]
        return self._rest

    def orders(self) -> list[O.Order]:
        head = self.head()
        out: list[O.Order] = head[:1]
        seen: set[O.Order] = set()
        for o in (*head[1:], *self.moves(), *self.rest()):
            if o not in seen:
                seen.add(o)
                out.append(o)
        return out

    def _move_part(self) -> Iterator[O.Order | None]:
        st, u = self.st, self.u
        if can_move(st, u) is not None:
            return
        left = remaining(st, u)
        if left < 0.25:
            return
        yield _advance(st, u, (), left)
        yield _advance(st, u, (), left / 2.0)
        for e in self.enemies()[:NEAREST]:
            a = round_places(max(-90.0, min(90.0, angle_to(u, e.fp.centre))), 2)
            if abs(a) > 1.0:
                lead: tuple[O.Step, ...] = (O.Wheel(a),)
                move, tr = _ok_move_traced(st, u, lead)
                yield move
                yield _advance(st, u, lead, left, tr)
        if about_cost(st, u) <= left + 1e-9:
            move, tr = _ok_move_traced(st, u, (O.About(),))
            yield move
            yield _advance(st, u, (O.About(),), left, tr)
        if u.spec.has("skirmisher"):
            d = _floor(left / 2.0)
            for _ in range(8):
                if d < 0.25:
                    break
                got = _ok_move(st, u, (O.Back(d),))
                if got is not None:
                    yield got
                    break
                d = _floor(d - 0.5)

    def _rest_part(self) -> Iterator[O.Order | None]:
        st, u = self.st, self.u
        # frontage changes
        for n in (u.front + 2, u.front - 2):
            try:
                plan_frontage(st, u, n)
            except IllegalOrder:
                continue
            yield O.Frontage(u.id, n)
        for on in (True, False):
            if shieldwall_problem(st, u, on) is None:
                yield O.Shieldwall(u.id, on)
        for side in ("left", "right", "rear"):
            for how in ("column", "figures"):
                try:
                    plan_face(st, u, side, how)
                except IllegalOrder:
                    continue
                yield O.Face(u.id, side, how)
        if reform_problem(st, u) is None:
            yield O.Reform(u.id)
        if u.champion or u.general:
            yield from act_champions.join_menu(st, u)  # type: ignore[misc]
        if command_on(st) and can_move(st, u) is None:
            half = _floor(remaining(st, u) / 2.0)
            if half > 0.02:
                yield _ok_move(st, u, (O.Fwd(half),))
                yield _ok_move(st, u, (O.About(), O.Fwd(half - 0.01)))
        yield from act_maneuver.menu(st, u)
