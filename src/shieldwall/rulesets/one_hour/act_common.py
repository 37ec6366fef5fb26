"""Helpers shared by the one-hour-dark-ages order modules: refusals, ownership checks, sight lines,
turning limits.

The lowest of the order modules: it imports only the rule modules beneath it (``orders``,
``spatial``, ``clauses``, ``model``, ``profiles``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from shieldwall.core.errors import IllegalOrder
from shieldwall.core.geometry import Footprint, Point
from shieldwall.core.geometry_index import nearby
from shieldwall.core.reference import REFERENCE
from shieldwall.rulesets.one_hour import orders as O
from shieldwall.rulesets.one_hour import sight as LOS
from shieldwall.rulesets.one_hour import spatial as S
from shieldwall.rulesets.one_hour.clauses import rule
from shieldwall.rulesets.one_hour.model import Unit
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


def placement(st: OneHourState, u: Unit, fp: Footprint) -> str | None:
    """``S.placement_problem(u, fp, st.live(), st.terrain)``, answered from the state's
    ``check_memo`` when the same unit and footprint were checked before while this menu is built
    (the units do not move then). The reference (no memo): the check itself."""
    memo = st.check_memo
    if memo is None:
        return S.placement_problem(u, fp, st.live(), st.terrain)
    key = ("place", u.id, fp.x, fp.y, fp.heading, fp.frontage, fp.depth)
    if key in memo:
        return memo[key]
    got = memo[key] = S.placement_problem(u, fp, st.live(), st.terrain)
    return got


def path(st: OneHourState, u: Unit, start: Footprint, end: Point) -> str | None:
    """``S.path_problem(u, start, [end], st.live(), st.terrain)``, memoised as ``placement``."""
    memo = st.check_memo
    if memo is None:
        return S.path_problem(u, start, [end], st.live(), st.terrain)
    key = ("path", u.id, start.x, start.y, start.heading, start.frontage, start.depth, end[0], end[1])
    if key in memo:
        return memo[key]
    got = memo[key] = S.path_problem(u, start, [end], st.live(), st.terrain)
    return got


#: Entries kept in a state's memo of sight lines before it is emptied.
SIGHT_MEMO_MAX = 4096


def _sight_key(
    st: OneHourState, viewer: Unit, target: Unit, facing: str | None
) -> tuple[Any, Sequence[Unit]]:
    """The key of a sight line in ``st.sight_memo`` and the units that may block it."""
    live = st.live()
    o = viewer.fp.front_centre
    tf = target.fp
    half = 0.5 * math.hypot(tf.x - o[0], tf.y - o[1])
    near = nearby(live, 0.5 * (o[0] + tf.x), 0.5 * (o[1] + tf.y), half + tf.radius + 1e-3)
    key = (viewer.id, viewer.fp, target.id, target.fp, facing, tuple([(u.id, u.fp) for u in near]))
    return key, near


def sight(st: OneHourState, viewer: Unit, target: Unit, facing: str | None = None) -> tuple[int, int]:
    """``spatial.visible_points`` of ``viewer`` to ``target`` among the live units, memoised.

    A sight line depends only on the viewer's and the target's footprints, the footprints of the
    other units on the table and the terrain, so the memo key holds every one of them: a unit that
    moves or leaves makes a new key, never a stale answer. Charges test the same line for each
    facing and turn, and the shooting menu is built more than once per decision.
    """
    # Every sight line runs from the viewer's front centre to a point of the target's outline, so
    # within the disc about the midpoint of that front centre and the target's centre whose radius
    # is half their distance plus the target's circumradius: a unit whose own circle misses that
    # disc can block none of them, so only the units that may reach it are passed (and keyed).
    key, near = _sight_key(st, viewer, target, facing)
    memo = st.sight_memo
    got = memo.get(key)
    if got is None:
        if len(memo) >= SIGHT_MEMO_MAX:
            memo.clear()
        got = memo[key] = LOS.visible_points(viewer, target, near, st.terrain, facing)
    return got


def sees(st: OneHourState, viewer: Unit, target: Unit) -> bool:
    """``sight(st, viewer, target)[0] > 0``: the memo's count when it holds the line, else the
    lines traced only until one is clear (``LOS.any_visible``; not memoised, as it counts nothing).
    The reference: ``sight`` itself."""
    if REFERENCE.on:
        return sight(st, viewer, target)[0] > 0
    key, near = _sight_key(st, viewer, target, None)
    got = st.sight_memo.get(key)
    if got is not None:
        return got[0] > 0
    return LOS.any_visible(viewer, target, near, st.terrain)


def _active(st: OneHourState, uid: str) -> Unit:
    if st.active != uid:
        raise bad("movement", f"the unit being moved is {st.active}, not {uid}")
    return st.unit(uid)


def terrain_clause(kind: str) -> str:
    """The "Terrain" clause behind a defensive bonus named by ``spatial.defending_feature``."""
    if kind == "uphill":
        return "terrain.hills"
    if kind == "river bank":
        return "terrain.rivers"
    return terrain_effects()[kind].clause


# --- Turning limits (moves and charges) ------------------------------------------------------


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
