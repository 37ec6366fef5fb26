"""The filter between a battle and a side's browser: what one side may not see never leaves."""

from __future__ import annotations

from typing import Any

from shieldwall.core.events import Event
from shieldwall.io.scenarios import load_game
from shieldwall.visibility import filter_event, filter_view, view_for


def _view() -> dict[str, Any]:
    return {
        "turn": 1,
        "units": [
            {"id": "r1", "side": "red"},
            {"id": "b1", "side": "blue", "hidden_from": ["red"]},  # concealed deployment
            {"id": "b2", "side": "blue"},
        ],
    }


def test_concealed_units_leave_the_other_sides_view() -> None:
    v = _view()
    assert [u["id"] for u in filter_view(v, ["red"])["units"]] == ["r1", "b2"]
    assert [u["id"] for u in filter_view(v, ["blue"])["units"]] == ["r1", "b1", "b2"]
    # hotseat: a token for both sides sees what either may not: nothing is hidden from both
    assert [u["id"] for u in filter_view(v, ["red", "blue"])["units"]] == ["r1", "b2"]
    assert len(v["units"]) == 3  # the original is untouched


def test_hidden_events_keep_only_when_and_who() -> None:
    ev = Event(
        2, "movement", "blue", "deploy", "x:deploy", {"unit": "b1", "at": [3, 4], "hidden_from": ["red"]}
    )
    seen = filter_event(ev, ["red"], hide_seed=False)
    assert (seen.kind, seen.data, seen.turn, seen.side) == ("hidden", {}, 2, "blue")
    assert seen.rule == "x"  # the rule system, not the clause of what is hidden
    assert filter_event(ev, ["blue"], hide_seed=False) is ev


def test_the_seed_is_hidden_when_asked() -> None:
    ev = Event(1, "movement", None, "battle", "x:play", {"scenario": "s", "seed": 42})
    assert filter_event(ev, ["red"], hide_seed=True).data == {"scenario": "s", "seed": None}
    assert filter_event(ev, ["red"], hide_seed=False).data["seed"] == 42


class _Secretive:
    """A state offering its own per-side view (as a rule system with hidden information may)."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def view_for(self, side: str) -> dict[str, Any]:
        self.asked.append(side)
        return {"units": [{"id": "x", "side": side}]}

    def view(self) -> dict[str, Any]:
        raise AssertionError("view_for should be used")


def test_a_states_own_view_for_is_used() -> None:
    st = _Secretive()
    assert view_for(st, ["blue"]) == {"units": [{"id": "x", "side": "blue"}]}  # type: ignore[arg-type]
    assert st.asked == ["blue"]


def test_one_hour_has_nothing_hidden() -> None:
    st = load_game(None).new_state(1)
    assert view_for(st, ["red"]) == st.view() == view_for(st, ["blue"])
