"""A state's copy shares the (frozen) events of its log in a list of its own (``state.copy``, issue
16); the reference path (``core.reference``) copies the events too. Either way the copy plays on
without touching the original."""

from __future__ import annotations

from shieldwall.ai.base import make_bot
from shieldwall.core.reference import reference_path
from shieldwall.io.scenarios import load_game
from shieldwall.rulesets.knight_hack.state import KnightHackState

SCENARIO = "knight-hack/bourgtheroulde-1124"


def _played(decisions: int) -> KnightHackState:
    game = load_game(SCENARIO)
    state = game.new_state(5)
    bot = make_bot("scripted", 1, game.info.id)
    for _ in range(decisions):
        state.apply(bot.choose(state))
    assert isinstance(state, KnightHackState)
    return state


def _plays_on_alone(state: KnightHackState, new: KnightHackState) -> None:
    before = [e.to_dict() for e in state.board.events]
    bot = make_bot("scripted", 2, SCENARIO.split("/")[0])
    for _ in range(30):
        new.apply(bot.choose(new))
    assert len(new.board.events) > len(before)
    assert [e.to_dict() for e in state.board.events] == before  # the original's log is untouched
    assert [e.to_dict() for e in new.board.events[: len(before)]] == before


def test_a_copy_shares_the_events_in_a_list_of_its_own() -> None:
    state = _played(25)
    new = state.copy()
    assert isinstance(new, KnightHackState)
    assert new.board.events is not state.board.events
    assert all(a is b for a, b in zip(new.board.events, state.board.events, strict=True))
    assert all(new.board.units[k] is not u for k, u in state.board.units.items())
    _plays_on_alone(state, new)


def test_on_the_reference_path_a_copy_copies_the_events() -> None:
    state = _played(25)
    with reference_path():
        new = state.copy()
    assert isinstance(new, KnightHackState)
    assert [e.to_dict() for e in new.board.events] == [e.to_dict() for e in state.board.events]
    assert not any(a is b for a, b in zip(new.board.events, state.board.events, strict=True))
    _plays_on_alone(state, new)
