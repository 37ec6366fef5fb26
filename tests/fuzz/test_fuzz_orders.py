"""Fuzzing orders: garbage, and mutations of legal orders (their dict and their text forms), given
at decision points of real battles. Only ``IllegalOrder`` (naming its rule and reason) or another of
the project's own errors may come out, and a refused order leaves the state unchanged."""

from __future__ import annotations

import functools
import json
import random
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from shieldwall.core.datafiles import read_toml
from shieldwall.core.errors import IllegalOrder, ShieldwallError
from shieldwall.core.game import State
from shieldwall.io.scenarios import builtin_scenarios, game_from_data

from .budget import budget
from .strategies import JSON, NUMBERS, TEXT, mutated

#: decision points per scenario: after 0, 5, 20, 60, 150 random orders
DEPTHS = (0, 5, 20, 60, 150)


@functools.cache
def _states(name: str) -> tuple[State, ...]:
    game = game_from_data(read_toml(builtin_scenarios()[name]), name)
    st_ = game.new_state(7)
    rnd = random.Random(7)
    out = []
    for i in range(max(DEPTHS) + 1):
        if i in DEPTHS:
            out.append(st_.copy())
        if st_.is_terminal():
            break
        st_.apply(rnd.choice(st_.legal_orders()))
    return tuple(out)


def _fingerprint(s: State) -> str:
    d = s.decision()
    return json.dumps(
        [len(s.events), None if d is None else [d.side, d.kind, d.unit], s.view()],
        sort_keys=True,
        default=str,
    )


@st.composite
def _garbage_order(draw: st.DrawFn, legal: list[Any]) -> Any:
    how = draw(st.sampled_from(["json", "dict", "text", "text-numbers"]))
    if how == "json" or not legal:
        return draw(JSON)
    o = draw(st.sampled_from(legal))
    if how == "dict":
        return draw(mutated(o.to_dict()))
    text = str(o)
    if how == "text-numbers":
        words = text.split(" ")
        i = draw(st.integers(0, len(words) - 1))
        n = draw(NUMBERS)
        words[i] = draw(st.sampled_from([f"{n}", f"{n},{n}", f"{n}@centre", f"{n},1"]))
        return " ".join(words)
    i = draw(st.integers(0, len(text)))
    return text[:i] + draw(TEXT) + text[i + draw(st.integers(0, 3)) :]


@budget(2)
@given(st.data())
def test_fuzz_orders(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(sorted(builtin_scenarios())))
    state = data.draw(st.sampled_from(_states(name))).copy()
    if state.is_terminal():
        return
    spec = data.draw(_garbage_order(state.legal_orders()))
    before = _fingerprint(state)
    try:
        order = state.parse_order(spec)
        state.apply(order)
    except IllegalOrder as exc:
        assert exc.rule and exc.reason, exc
        assert _fingerprint(state) == before, "a refused order changed the state"
    except ShieldwallError as exc:
        assert str(exc)
        assert _fingerprint(state) == before, "a refused order changed the state"
