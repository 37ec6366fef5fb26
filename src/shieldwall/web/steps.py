"""The step-through of the other side's turn: the orders from a point on, one at a time, each with
its words, its events and the table after it, rebuilt by replaying the battle's orders from its
seed (the same replay as the turn-by-turn frames). What a side may not see stays hidden: the view
and the events are filtered for the token's sides, and an order whose events are hidden from them
is "(an order hidden from you)"."""

from __future__ import annotations

from typing import Any

from shieldwall.visibility import order_text, view_for, visible_unit_ids
from shieldwall.web.sessions import Session

#: the most orders one answer steps through (the last of them)
MAX_STEPS = 200


def steps_since(s: Session, sides: list[str], since: int) -> list[dict[str, Any]]:
    """For every order from index ``since`` (at most the last ``MAX_STEPS``): its index, side,
    giver (``human``/``bot``), words, the range of its events and the view after it. Call with
    ``s.lock`` held."""
    n = len(s.orders)
    since = max(since, n - MAX_STEPS, 0)
    ends = [*s.marks[1:], len(s.state.events)]
    state = s.game.new_state(s.rec.seed)
    out: list[dict[str, Any]] = []
    for i, row in enumerate(s.orders):
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
    return out
