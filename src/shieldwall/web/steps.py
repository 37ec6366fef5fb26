"""The step-through of the other side's turn: the orders from a point on, one at a time, each with
its words, its events and the table after it, rebuilt by replaying the battle's orders from its
seed (the same replay as the turn-by-turn frames). What a side may not see stays hidden: the view
and the events are filtered for the token's sides, and an order whose events are hidden from them
is "(an order hidden from you)".

The page asks for the steps after each of its orders the other side replied to (``since``: the
first order after its own). The replay is kept with the session (``Session.replay``) and carried
on from one answer to the next: each answer applies only the orders given since the last one,
not the battle from its first order. It starts again from the seed when the kept replay is past
``since`` or is not a replay of the session's orders any more (an undo, a failed order), and
always under the reference switch (``core.reference``), the plain replay it must equal."""

from __future__ import annotations

from typing import Any

from shieldwall.core.game import State
from shieldwall.core.reference import REFERENCE
from shieldwall.visibility import order_text, view_for, visible_unit_ids
from shieldwall.web.session import Session

#: the most orders one answer steps through (the last of them)
MAX_STEPS = 200


def _replay_from(s: Session, since: int) -> tuple[State, int]:
    """A replay of the session's battle to carry on and how many of its orders it holds: the kept
    one if it holds the session's first orders and none from ``since`` on, else a new one."""
    kept = s.replay
    if kept is not None and not REFERENCE.on:
        state, rows = kept
        if len(rows) <= min(since, len(s.orders)) and all(
            a is b for a, b in zip(rows, s.orders[: len(rows)], strict=True)
        ):
            return state, len(rows)
    s.replay = None
    return s.game.new_state(s.rec.seed), 0


def steps_since(s: Session, sides: list[str], since: int) -> list[dict[str, Any]]:
    """For every order from index ``since`` (at most the last ``MAX_STEPS``): its index, side,
    giver (``human``/``bot``), words, the range of its events and the view after it. Call with
    ``s.lock`` held."""
    n = len(s.orders)
    since = max(since, n - MAX_STEPS, 0)
    ends = [*s.marks[1:], len(s.state.events)]
    state, done = _replay_from(s, since)
    s.replay = None  # kept again below once it holds every order
    out: list[dict[str, Any]] = []
    for i in range(done, n):
        row = s.orders[i]
        order = state.parse_order(row.order)
        state.apply(order)
        if i < since:
            continue
        a, b = s.marks[i], ends[i]
        view = view_for(state, sides)
        unit = row.order.get("unit")
        out.append(
            {
                "index": i,
                "side": row.side,
                "by": row.by,
                "text": order_text(str(order), s.state.events[a:b], sides),
                "first_event": a,
                "end_event": b,
                "unit": unit if isinstance(unit, str) and unit in visible_unit_ids(view) else None,
                "view": view,
            }
        )
    s.replay = (state, list(s.orders))
    return out
