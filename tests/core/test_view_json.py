"""A view's JSON text with its drawn parts encoded once (``shieldwall.core.view_json``) is the text
of the whole view encoded (``json.dumps(view, sort_keys=True, default=str)``), on every path."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from shieldwall.core import view_json
from shieldwall.core.reference import reference_path
from shieldwall.core.view_json import Drawn, dumps, dumps_reference
from shieldwall.io.scenarios import load_game
from shieldwall.sim.referee import scenarios
from shieldwall.visibility import view_for


def whole(view: dict[str, Any]) -> str:
    return json.dumps(view, sort_keys=True, default=str)


scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=6)
values = st.recursive(
    scalars | st.tuples(st.integers()) | st.frozensets(st.integers(), max_size=2),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300)
@given(st.dictionaries(st.text(max_size=5), st.tuples(st.booleans(), values), max_size=6))
def test_any_view_with_drawn_lists_encodes_as_the_whole_view(raw: dict[str, tuple[bool, Any]]) -> None:
    view = {k: Drawn(v) if drawn and isinstance(v, list) else v for k, (drawn, v) in raw.items()}
    assert dumps(view) == whole(view)
    assert dumps(view) == whole(view)  # again, from the texts kept
    with reference_path():
        assert dumps(view) == whole(view) == dumps_reference(view)


def test_a_drawn_list_is_encoded_once_and_a_new_one_afresh() -> None:
    first = Drawn([{"x": 1.5, "kind": "woods"}])
    view = {"units": [{"id": "a"}], "terrain": first, "turn": 3}
    assert dumps(view) == whole(view)
    assert view_json._TEXTS[id(first)] == (first, json.dumps(first, sort_keys=True))
    # a list made after (the old one gone, its id perhaps reused) is encoded from what it holds
    for n in range(3 * view_json.KEPT):
        other = Drawn([{"x": float(n), "kind": "hill"}])
        assert dumps({"terrain": other, "turn": n}) == whole({"terrain": other, "turn": n})
    assert len(view_json._TEXTS) <= view_json.KEPT


def test_keys_that_are_not_text_and_views_without_drawn_lists_are_encoded_whole() -> None:
    mixed: dict[Any, Any] = {2: Drawn([1]), 1: Drawn([2]), 10: [3]}
    assert dumps(mixed) == whole(mixed)
    assert dumps({"a": [1, 2], "b": {"c": None}}) == whole({"a": [1, 2], "b": {"c": None}})


def test_every_built_in_scenario_s_views_encode_as_the_whole_view() -> None:
    """Every scenario of every rule system: its opening view and each side's, and a few orders on;
    the hex maps' pictures are drawn lists (encoded once), the rest is encoded as it was."""
    drawn = 0
    for scenario in scenarios():
        game = load_game(scenario)
        state = game.new_state(0)
        for _ in range(6):
            views = [state.view()] + [view_for(state, [side]) for side in game.info.sides]
            for view in views:
                drawn += sum(type(v) is Drawn for v in view.values())
                assert dumps(view) == whole(view), scenario
            orders = list(state.legal_orders()) if not state.is_terminal() else []
            if not orders:
                break
            state.apply(orders[0])
    assert drawn > 0  # the hex maps' pictures took the path
