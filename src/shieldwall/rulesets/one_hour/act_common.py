"""Helpers shared by the one-hour-dark-ages order modules: refusals, ownership checks, sight lines."""

from __future__ import annotations

from typing import TYPE_CHECKING

from shieldwall.core.errors import IllegalOrder
from shieldwall.rulesets.one_hour import orders as O
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
