"""The scripted general's views of the units (``OneHourGeneral._setup_direct``) are brought up to
date from the units changed since its last decision (``OneHourState.units_touched``), and its
friends' grid is moved rather than made again (``_friends_moved``). At every decision of whole
battles, personalities and tiled big armies included, they must equal what a new general makes
of the same state (every unit looked at), and the grid must answer as a new one does."""

from __future__ import annotations

import numpy as np
import pytest

from shieldwall.ai.base import bot_seed, make_bot
from shieldwall.core.geometry_index import FootprintIndex
from shieldwall.io.scenarios import load_game
from shieldwall.rulesets.one_hour.bots.general import OneHourGeneral
from shieldwall.rulesets.one_hour.state import OneHourState
from shieldwall.rulesets.one_hour.tiling import tiled_game


def _games() -> list[tuple[str, object]]:
    return [
        ("mynydd-baddon", load_game("one-hour-dark-ages/mynydd-baddon")),  # personalities, transfers
        ("llanbadarn", load_game("one-hour-dark-ages/llanbadarn")),
        ("tiled 60", tiled_game(60)),  # the friends' grid in use (big enough for cells)
    ]


@pytest.mark.parametrize(("name", "game"), _games(), ids=lambda v: v if isinstance(v, str) else "")
def test_kept_views_equal_views_made_afresh_at_every_decision(name: str, game: object) -> None:
    st: OneHourState = game.new_state(3)  # type: ignore[attr-defined]
    kept = {side: OneHourGeneral(np.random.default_rng(0)) for side in ("red", "blue")}
    bots = {
        side: make_bot("random", bot_seed(3, i), "one-hour-dark-ages")
        for i, side in enumerate(("red", "blue"))
    }
    incremental = 0
    n = 0
    while not st.is_terminal() and n < 400:
        d = st.decision()
        assert d is not None
        g = kept[d.side]
        before = g._src
        g._setup(st)
        incremental += before is not None and g._src is not None and before[0] is g._src[0]
        fresh = OneHourGeneral(np.random.default_rng(0))
        fresh._setup(st)
        assert list(g.units) == list(fresh.units)  # (the same units in the same order)
        assert g.units == fresh.units and g.fps == fresh.fps
        assert [(f.id, f.fp) for f in g.friend_info] == [(f.id, f.fp) for f in fresh.friend_info]
        index: FootprintIndex = g.friend_index  # type: ignore[type-arg]
        for f in fresh.friend_info[:5]:
            x, y = f.fp.x, f.fp.y
            got = [p.id for p in index.near(x, y, 4.0)]
            want = [p.id for p in FootprintIndex(fresh.friend_info).near(x, y, 4.0)]
            assert [i for i in got if i in want] == want  # (the grid finds at least the same, in order)
        st.apply(bots[d.side].choose(st))
        n += 1
    assert incremental > n // 3  # most decisions were brought up to date, not made afresh
