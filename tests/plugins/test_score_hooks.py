"""Every registered rule system's ``score`` hook (the search bot's leaf value, ``shieldwall.plugin``):
on states of a seeded battle, one value per side, each in [-1, 1], zero-sum, the same on a second
call, and the state untouched (a hook is called on the search's playout copies, never copies)."""

from __future__ import annotations

import json
import math

import pytest

from shieldwall import registry
from shieldwall.ai.base import make_bot
from shieldwall.io.scenarios import load_game

#: decisions played, and every how many the hook is checked
DECISIONS, EVERY = 60, 6

HOOKED = [rid for rid in registry.ids() if registry.get(rid).score is not None]


def test_every_built_in_rule_system_has_a_score_hook() -> None:
    assert {"one-hour-dark-ages", "into-the-dark", "knight-hack", "spi-dark-ages", "dbm-3.2"} <= set(HOOKED)


@pytest.mark.parametrize("rid", HOOKED)
def test_the_score_hook_is_bounded_zero_sum_deterministic_and_pure(rid: str) -> None:
    rs = registry.get(rid)
    score = rs.optional("score")
    st = load_game(f"{rid}/{rs.default_scenario}").new_state(3)
    bots = {s: make_bot("scripted" if i == 0 else "random", 7 + i, rid) for i, s in enumerate(rs.info.sides)}
    for n in range(DECISIONS):
        if st.is_terminal():
            break
        if n % EVERY == 0:
            before = json.dumps(st.view(), sort_keys=True, default=str)
            s = score(st)
            assert set(s) == set(rs.info.sides)
            assert all(-1.0 <= v <= 1.0 and math.isfinite(v) for v in s.values())
            assert sum(s.values()) == pytest.approx(0.0, abs=1e-12)
            assert score(st) == s
            assert json.dumps(st.view(), sort_keys=True, default=str) == before
        d = st.decision()
        assert d is not None
        st.apply(bots[d.side].choose(st))
