"""The map's picture in a view (terrain polygons, hex list) is drawn once per map and kept on it
(``picture.terrain``, ``picture.hexes``; issue 16): every view is the one the reference path draws
afresh, for every scenario and after moves, and two maps never share a picture."""

from __future__ import annotations

import json

import pytest

from shieldwall.ai.base import make_bot
from shieldwall.core.reference import reference_path
from shieldwall.io.scenarios import load_game
from shieldwall.rulesets.spi_dark_ages import picture

SCENARIOS = ("spi-dark-ages/tours", "spi-dark-ages/dorylaeum", "spi-dark-ages/stamford-bridge")


def _views(scenario: str, moves: int) -> list[str]:
    state = load_game(scenario).new_state(3)
    bot = make_bot("random", 11, state.view()["ruleset"])
    out = [json.dumps(state.view(), sort_keys=True, default=str)]
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply(bot.choose(state))
        out.append(json.dumps(state.view(), sort_keys=True, default=str))
    return out


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_views_are_those_the_reference_path_draws(scenario: str) -> None:
    fast = _views(scenario, 12)
    with reference_path():
        ref = _views(scenario, 12)
    assert fast == ref


def test_each_map_keeps_its_own_picture() -> None:
    maps = [load_game(s).new_state(1).board.map for s in SCENARIOS]
    for m in maps:  # every map drawn (and kept) before any is compared
        picture.terrain(m), picture.hexes(m)
    for m in maps:
        assert picture.terrain(m) is picture.terrain(m)
        assert picture.terrain(m) == picture.terrain_reference(m)
        assert picture.hexes(m) == picture.hexes_reference(m)
