"""The Dark Ages board and units copied field by field (issue 16): compiled, ``Board`` and ``Unit``
are native classes with no ``__dict__``, so ``Unit.copy``, ``Board.copy`` and their ``__reduce__``
(``copy.deepcopy``, ``pickle``) name every field. Checked here against the dataclasses' own field
lists, with every field given a value its default is not, and on states in the middle of battles
(deep-copied, pickled and copied, they play on as the original)."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from typing import Any

import pytest

from shieldwall.ai.base import make_bot
from shieldwall.core.hexgrid import Hex
from shieldwall.io.scenarios import load_game
from shieldwall.rulesets.spi_dark_ages.board import Board, Unit
from shieldwall.rulesets.spi_dark_ages.state import DarkAgesState


def _odd_unit() -> Unit:
    """A unit whose every field differs from its default (and from the other fields' values)."""
    return Unit(
        "u1", "green", "I", Hex(3, 4), 2, "exited", (3, 1, "movement"), True, "north", 7, 5,
        Hex(1, 1), Hex(2, 2), "f1", "II", 2.5, True, True, True, True, 3, True, True, True,
    )  # fmt: skip


def _fields(x: Any) -> dict[str, Any]:
    return {f.name: getattr(x, f.name) for f in dataclasses.fields(x)}


def test_a_units_copy_and_reduce_name_every_field() -> None:
    u = _odd_unit()
    defaults = Unit("u1", "green", "I", None)
    assert all(getattr(u, f.name) != getattr(defaults, f.name) for f in dataclasses.fields(Unit)[3:])
    for twin in (u.copy(), copy.copy(u), copy.deepcopy(u), pickle.loads(pickle.dumps(u))):
        assert twin is not u and _fields(twin) == _fields(u)


def _mid_battle(scenario: str, decisions: int) -> tuple[DarkAgesState, Any, Any]:
    st = load_game(scenario).new_state(5)
    assert isinstance(st, DarkAgesState)
    red, blue = make_bot("scripted", 1, "spi-dark-ages"), make_bot("scripted", 2, "spi-dark-ages")
    for _ in range(decisions):
        d = st.decision()
        assert d is not None
        st.apply((red if d.side == st.board.sides[0] else blue).choose(st))
    return st, red, blue


def _play_on(st: DarkAgesState, red: Any, blue: Any) -> list[dict[str, Any]]:
    while not st.is_terminal():
        d = st.decision()
        assert d is not None
        st.apply((red if d.side == st.board.sides[0] else blue).choose(st))
    return [e.to_dict() for e in st.events]


@pytest.mark.parametrize("scenario", ["spi-dark-ages/tours", "spi-dark-ages/stamford-bridge"])
def test_a_board_copied_deep_copied_or_pickled_mid_battle_plays_on_as_the_original(scenario: str) -> None:
    st, red, blue = _mid_battle(scenario, 90)
    b = st.board
    assert b.bonds or b.melee_alloc or b.fire_alloc or any(u.moved for u in b.units.values())
    boards = [b.copy(), copy.deepcopy(b), pickle.loads(pickle.dumps(b))]
    for twin in boards:
        assert twin is not b and twin.units is not b.units and twin.at is not b.at
        for f in dataclasses.fields(Board):
            if f.name in ("rng", "units", "menu_cache", "charts", "map"):
                continue
            assert getattr(twin, f.name) == getattr(b, f.name), f.name
        assert {k: _fields(u) for k, u in twin.units.items()} == {k: _fields(u) for k, u in b.units.items()}
        assert twin.rng.bit_generator.state == b.rng.bit_generator.state
    assert boards[0].charts is b.charts and boards[0].map is b.map  # (shared: they never change)
    states = [st.copy(), copy.deepcopy(st), pickle.loads(pickle.dumps(st))]
    bots = [(copy.deepcopy(red), copy.deepcopy(blue)) for _ in states]
    want = _play_on(st, red, blue)
    for twin, (r, bl) in zip(states, bots, strict=True):
        assert _play_on(twin, r, bl) == want
