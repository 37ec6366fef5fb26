"""The observation numbers on a state's own cheap path (``encoding.observed``: the state's
``observed_for(side)`` instead of its whole view, issue 16) are those of the whole view: on every
built-in scenario of every rule system, for each side, along the first decisions of a seeded random
battle, the numbers are the same bytes on the fast path and on the reference path
(``core.reference``: the whole view), and what the cheap path gives is the whole view's, key for
key."""

from __future__ import annotations

import random
from typing import Any

import pytest

from shieldwall.agents.encoding import Encoding, observed
from shieldwall.core.reference import reference_path
from shieldwall.io.scenarios import builtin_scenarios, load_game
from shieldwall.visibility import view_for

#: decisions of each battle looked at
DECISIONS = 40


def _same_part(part: dict[str, Any], whole: dict[str, Any]) -> None:
    assert set(part) >= {"turn", "max_turns", "table", "units"}
    for key in ("turn", "max_turns", "table"):
        assert part[key] == whole.get(key), key
    assert [u["id"] for u in part["units"]] == [u["id"] for u in whole["units"]]
    for mine, full in zip(part["units"], whole["units"], strict=True):
        assert {k: full.get(k) for k in mine} == mine, mine["id"]
    # every key the numbers read is there (a missing one would read as 0 whatever the view says)
    read = ("side", "x", "y", "heading", "hits", "max_hits", "removed", "gone", "destroyed")
    for full in whole["units"]:
        part_unit = next(u for u in part["units"] if u["id"] == full["id"])
        assert all(k in part_unit for k in read if k in full), full["id"]


@pytest.mark.parametrize("scenario", list(builtin_scenarios()))
def test_the_observation_numbers_are_those_of_the_whole_view(scenario: str) -> None:
    game = load_game(scenario)
    state = game.new_state(7)
    enc = Encoding(state)
    sides = sorted({str(u["side"]) for u in state.view()["units"]})
    pick = random.Random(7)
    cheap = callable(getattr(state, "observed_for", None))
    for _ in range(DECISIONS + 1):
        for side in sides:
            fast = enc.features(state, side, 3)
            with reference_path():
                ref = enc.features(state, side, 3)
            assert fast.tobytes() == ref.tobytes(), (side, state.view().get("turn"))
            if cheap:
                _same_part(observed(state, side), view_for(state, [side]))
        if state.is_terminal():
            break
        state.apply(pick.choice(state.legal_orders()))


def test_a_rule_system_takes_the_cheap_path() -> None:
    """At least one built-in system offers it (else the test above compares the whole view with itself)."""
    states = [load_game(s).new_state(1) for s in builtin_scenarios()]
    assert any(callable(getattr(st, "observed_for", None)) for st in states)
