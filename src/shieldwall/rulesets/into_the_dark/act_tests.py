"""The morale test task (morale.morale-tests, morale.test-triggers): one unit tests, for missile
casualties, a melee, a friend's rout or being passed through, and its result is applied at once.
The modifiers, the test and its results are ``morale_rolls``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .morale_rolls import base_mods, in_sight, melee_mods, missile_mods, morale_test, outcome_tasks

if TYPE_CHECKING:
    from .state import IntoTheDarkState

__all__ = ["run_test", "base_mods"]  # base_mods: from morale_rolls, for the tests


def run_test(st: IntoTheDarkState, uid: str, reason: str, causes: tuple[str, ...], kind: str) -> None:
    """Task: one morale test with its result applied immediately."""
    u = st.units[uid]
    if not u.on_table or u.routed or u.general:
        # a general's figure has no morale of its own to test (docs/rulings, ruling 75)
        return
    clause = {
        "missile": "morale.test-triggers",
        "melee": "morale.melee-test-order",
        "friend": "morale.test-triggers",
        "interpenetrated": "morale.test-triggers",
    }.get(kind, "morale.test-triggers")
    extra: dict[str, Any] = {}
    if kind == "missile":
        extra = missile_mods(st, u, st.fire_received.get(uid, {}))
    elif kind == "melee":
        extra = melee_mods(st, u)
    elif kind == "friend":
        # into-the-dark:morale.modifiers.in-cover ("behind the front lines and cannot see the enemy")
        extra = {"in_cover": not any(in_sight(st, u, e) for e in st.live() if e.side != u.side)}
    out = morale_test(st, u, reason, clause, extra)
    st.push(*outcome_tasks(st, u, out, causes, kind == "melee"))
