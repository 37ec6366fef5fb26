"""One conformance suite every rule system passes (PettingZoo-style API test).

For each registered rule system and its built-in scenarios: legal orders are accepted (and their
text and dict forms round-trip), illegal ones are refused without changing the state, the same
seed gives the same log, a copy is independent of its original, and a random game terminates.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from shieldwall.core.errors import IllegalOrder
from shieldwall.io.scenarios import builtin_scenarios, load_game
from shieldwall.match import play
from shieldwall.registry import ids as ruleset_ids

CASES = [name for name in builtin_scenarios() if name.split("/")[0] in ruleset_ids()]


def _snapshot(st: object) -> str:
    return json.dumps(st.view(), sort_keys=True) + str(len(st.events))  # type: ignore[attr-defined]


@pytest.mark.parametrize("scenario", CASES)
def test_legal_orders_are_accepted_and_round_trip(scenario: str) -> None:
    game = load_game(scenario)
    st = game.new_state(3)
    rng = np.random.default_rng(3)
    for _ in range(60):
        if st.is_terminal():
            break
        orders = st.legal_orders()
        assert orders, st.decision()
        for o in orders:
            assert st.parse_order(str(o)) == o
            assert st.parse_order(o.to_dict()) == o
            st.copy().apply(o)  # every menu entry is legal
        st.apply(orders[int(rng.integers(len(orders)))])


@pytest.mark.parametrize("scenario", CASES)
@pytest.mark.parametrize(
    "bad",
    [
        "activate nobody",
        "charge r1 b1 sideways",
        "move r1 go 1000,1000",
        "fight",
        {"kind": "teleport"},
        {"kind": "move", "unit": "r1"},
        "shoot b1 r1",
    ],
)
def test_illegal_orders_are_refused_and_change_nothing(scenario: str, bad: object) -> None:
    st = load_game(scenario).new_state(5)
    before = _snapshot(st)
    with pytest.raises(IllegalOrder) as e:
        st.apply(bad)
    assert e.value.rule and e.value.reason
    assert _snapshot(st) == before


@pytest.mark.parametrize("scenario", CASES)
def test_sealed_state_refuses_illegal_orders_and_plays_on_the_same(scenario: str) -> None:
    """``State.seal`` (a battle loop's promise that only orders change the state) changes nothing a
    player sees: illegal orders part way through a battle are refused without changing the state,
    and the battle goes on as an unsealed twin's."""
    game = load_game(scenario)
    st, twin = game.new_state(6), game.new_state(6)
    st.seal()
    rng = np.random.default_rng(6)
    for i in range(45):
        if st.is_terminal():
            break
        if i % 15 == 14:
            before = _snapshot(st)
            for bad in ("activate nobody", {"kind": "move", "unit": "r1"}, "fight"):
                with pytest.raises(IllegalOrder):
                    st.apply(bad)
            assert _snapshot(st) == before
        orders = st.legal_orders()
        o = orders[int(rng.integers(len(orders)))]
        assert [e.to_dict() for e in st.apply(o)] == [e.to_dict() for e in twin.apply(o)]
    assert st.sealed
    st.unseal()
    assert not st.sealed and _snapshot(st) == _snapshot(twin)


@pytest.mark.parametrize("scenario", CASES)
def test_same_seed_same_log_and_copy_is_independent(scenario: str) -> None:
    game = load_game(scenario)
    a = play(game, 9, "random", "random").state
    b = play(game, 9, "random", "random").state
    assert [e.to_dict() for e in a.events] == [e.to_dict() for e in b.events]
    st = game.new_state(9)
    c = st.copy()
    snap = _snapshot(st)
    while not c.is_terminal() and len(c.events) < 200:
        c.apply(c.legal_orders()[-1])
    assert _snapshot(st) == snap
    # the copy carries the dice too: the same orders from a copy give the same events
    d = st.copy()
    for _ in range(30):
        if st.is_terminal():
            break
        o = st.legal_orders()[0]
        assert [e.to_dict() for e in st.apply(o)] == [e.to_dict() for e in d.apply(o)]


@pytest.mark.parametrize("scenario", CASES)
def test_random_game_terminates_with_a_result(scenario: str) -> None:
    st = play(load_game(scenario), 21, "random", "random").state
    r = st.result()
    assert st.is_terminal() and r is not None
    assert r.winner in (*st.game.info.sides, None) and r.reason
    assert st.decision() is None and st.legal_orders() == []
