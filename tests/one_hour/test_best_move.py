"""The best-first move menu against the whole menu (issue 16): the same order, every time.

``OneHourState.best_order(score)`` is ``max(legal_orders(), key=score)``; at a move decision whose
menu is not built its fast path (``menus.best_move``) scores the menu's entries unchecked and checks
them best first. This sweep plays real battles on the fast path and, at every move decision, asks a
copy of the state for its best order under several scores (the scripted general's; the same
rounded, so that many entries tie; its negation, which picks the entries the general likes least,
often the ones that fail their checks; a score of each order's text, which gives a charge with a
start turn another score than the entry it was checked from) and compares it with the maximum of
the whole menu of another copy: the same order, with the same label (``Move`` equality ignores it).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_
from test_fast_paths import _state_after

from shieldwall.core.reference import reference_path
from shieldwall.io.scenarios import load_game
from shieldwall.match import play
from shieldwall.rulesets.one_hour import orders as O
from shieldwall.rulesets.one_hour.bots.general import OneHourGeneral
from shieldwall.rulesets.one_hour.state import OneHourState

Score = Callable[[Any], float]


def _scores(st: OneHourState, salt: int = 0) -> dict[str, Score]:
    g = OneHourGeneral(np.random.default_rng(0))
    g._setup(st)
    uid = st.active or ""

    def general(o: Any) -> float:
        return g._score_move(o, uid)

    def text(o: Any) -> float:
        return float(zlib.crc32(f"{salt} {o!r}".encode()) % 5)

    return {
        "general": general,
        "rounded": lambda o: round(general(o) * 2.0) / 2.0,
        "worst": lambda o: -general(o),
        "text": text,
        "flat": lambda o: 0.0,
    }


def _check(st: OneHourState, salt: int = 0) -> int:
    """Every score's best order from the fast path equals the whole menu's first best; returns how
    many move entries the fast path left unchecked (none would mean it never took its path)."""
    assert st.step == "move"
    cached = st._menu_cache
    assert cached is None or cached[0] != st._menu_key()  # (else the fast path is not taken)
    menu = st.copy().legal_orders()
    for name, score in _scores(st, salt).items():
        fast = st.copy().best_order(score)
        want = max(menu, key=score)
        assert (fast, repr(fast)) == (want, repr(want)), name
        with reference_path():
            ref = st.copy().best_order(score)
        assert (ref, repr(ref)) == (want, repr(want)), name
    return len(menu)


def _sweep(scenario: str, seed: int, limit: int) -> int:
    """Play one scripted battle; check its first ``limit`` move decisions; how many were checked."""
    checked = 0

    def watch(state: Any, order: Any) -> None:
        nonlocal checked
        if checked < limit and not state.is_terminal() and state.step == "move":
            _check(state, seed)
            checked += 1

    play(load_game(scenario), seed, "scripted", "scripted", on_order=watch)
    return checked


@pytest.mark.parametrize(
    ("scenario", "seed"), [("bryn-glas", 1), ("bryn-glas", 2), ("rhyd-y-groes", 3), ("mynydd-baddon", 4)]
)
def test_best_first_gives_the_menus_best(scenario: str, seed: int) -> None:
    assert _sweep(scenario, seed, limit=40) >= 20


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st_.integers(0, 2**16), decisions=st_.integers(0, 160), salt=st_.integers(0, 2**16))
def test_best_first_at_any_move_decision(seed: int, decisions: int, salt: int) -> None:
    st = _state_after(seed, decisions)
    g = OneHourGeneral(np.random.default_rng(seed))
    for _ in range(40):  # on to the next move decision
        if st.is_terminal() or st.step == "move":
            break
        st.apply(g.choose(st))
    if st.is_terminal() or st.step != "move":
        return
    _check(st, salt)


def test_a_charge_scored_by_its_start_turn() -> None:
    """A score that reads a charge's start turn, and likes only a charge that needs one: the entry
    is checked as it is scored (found in a real battle)."""
    found = 0

    def watch(state: Any, order: Any) -> None:
        nonlocal found
        if found or state.is_terminal() or state.step != "move":
            return
        charges = [o for o in state.copy().legal_orders() if isinstance(o, O.Charge) and o.turn]
        if charges:
            pick = charges[-1]
            score: Score = lambda o: 1.0 if o == pick else 0.0  # noqa: E731
            assert state.copy().best_order(score) == pick
            found += 1

    for seed in range(6):
        play(load_game("bryn-glas"), seed, "scripted", "scripted", on_order=watch)
        if found:
            break
    assert found
