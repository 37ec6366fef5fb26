"""The general's memo of ``_position`` (``_pos_memo``): the parts of a place's value that friends
do not change are kept from one decision to the next while the enemies stand still, and the
friends' term is counted again each time. Every answer must equal the reference's, which measures
everything afresh, at every decision of Declared Movement battles (where a side's ``activate``
decisions follow one another while its own units move and the enemy's do not)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from shieldwall.core.geometry import Footprint
from shieldwall.core.reference import reference_path
from shieldwall.io.scenarios import load_game
from shieldwall.match import play
from shieldwall.rulesets.one_hour.bots.declared import _advanced
from shieldwall.rulesets.one_hour.bots.general import OneHourGeneral
from shieldwall.rulesets.one_hour.state import OneHourState


def _places(g: OneHourGeneral, u: dict[str, Any]) -> list[Footprint]:
    """The unit's own place and the places its intents weigh: toward each enemy and back."""
    fp = g.fps[u["id"]]
    out = [fp]
    for e in g.enemies[:3]:
        for length in (3.0, 7.5):
            out.append(_advanced(fp, g.fps[e["id"]].centre, length))
    out.append(_advanced(fp, (fp.x, 2.0), 4.0))
    return out


@pytest.mark.parametrize(("scenario", "seed"), [("llanbadarn", 0), ("llanbadarn", 3), ("rhyd-y-groes", 1)])
def test_the_kept_parts_give_the_reference_answers(scenario: str, seed: int) -> None:
    game = load_game(scenario)
    g = OneHourGeneral(np.random.default_rng(0))  # kept for the whole battle, as a bot's is
    hits = 0
    checked = 0

    def watch(state: Any, order: Any) -> None:
        nonlocal hits, checked
        assert isinstance(state, OneHourState)
        d = state.decision()
        if state.is_terminal() or d is None or d.kind not in ("activate", "move") or checked >= 3000:
            return
        g._setup(state)
        kept = set(g._pos_memo)
        for u in g.mine:
            for fp in _places(g, u):
                hits += (u["id"], fp) in kept
                assert g._position(u, fp) == g._position_reference(u, fp)
                checked += 1

    with reference_path(False):  # the fast paths, whatever SHIELDWALL_REFERENCE says
        play(game, seed, "scripted", "scripted", on_order=watch)
    assert checked > 500
    # the memo was used: answers kept from an earlier decision, after friends had moved
    assert hits > checked // 10
