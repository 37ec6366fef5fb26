"""The one-hour fast paths that only act in big battles, against their references (issue 16).

The built-in one-hour scenarios field 12-15 units, below ``geometry_index.SMALL`` (24), so their
grids never answer (every piece is scanned, as on the reference path) and
``tests/plugins/test_fast_vs_reference.py`` cannot see the grid branch. Here bryn-glas tiled to 30
units a side plays its first turn (at most ``DECISIONS`` decisions) on the fast paths and on their
references (``core.reference``): the same record, event for event, menus included.
"""

from __future__ import annotations

import pytest

from shieldwall.rulesets.one_hour.tiling import tiled_game
from shieldwall.sim import referee as R

#: decisions compared per battle
DECISIONS = 100


@pytest.mark.parametrize(("seed", "red", "blue"), [(3, "scripted", "scripted"), (4, "random", "scripted")])
def test_a_tiled_battle_plays_the_same_on_the_grid_and_on_its_reference(
    seed: int, red: str, blue: str
) -> None:
    game = tiled_game(30, "bryn-glas", 1)
    case = R.Case("one-hour-dark-ages/bryn-glas tiled to 30 a side", seed, red, blue)
    fast = R.play_record(game, case, reference=False, menus=red == blue, limit=DECISIONS)
    ref = R.play_record(game, case, reference=True, menus=red == blue, limit=DECISIONS)
    assert R.first_difference(fast, ref) is None, R.first_difference(fast, ref)
    assert fast.decisions > 60
