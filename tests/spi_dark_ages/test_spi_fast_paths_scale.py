"""The Dark Ages fast paths that act in big battles, against their references (issue 16).

The scripted bot's "next to a command unit" (``bots.Led``: a look at a hex and its six neighbours)
against measuring every command unit's distance, on random hexes; and tours tiled to 30 units a
side (``rulesets.spi_dark_ages.tiling``) played on the fast paths and on their references
(``core.reference``): the same record, event for event.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from shieldwall.core.hexgrid import Hex
from shieldwall.core.reference import reference_path
from shieldwall.rulesets.spi_dark_ages.bots import Led
from shieldwall.rulesets.spi_dark_ages.tiling import tiled_game
from shieldwall.sim import referee as R

_hex = st.builds(Hex, st.integers(-6, 6), st.integers(-6, 6))


@settings(max_examples=300, deadline=None)
@given(st.lists(_hex | st.none(), max_size=12), _hex)
def test_next_to_a_command_unit_is_within_one_hex_of_one(leaders: list[Hex | None], n: Hex) -> None:
    led = Led(leaders)
    want = any(h is not None and h.distance(n) <= 1 for h in leaders)
    assert led.within_one(n) == want == led.within_one_reference(n)
    for h in leaders:
        if h is not None:  # a leader's own hex and each of its neighbours
            assert led.within_one(h) and all(led.within_one(x) for x in h.neighbours())
    with reference_path():
        assert led.within_one(n) == want


def test_the_tiled_map_repeats_the_scenario() -> None:
    """Tours tiled to 30 a side: three tiles, in one row of maps; the units of tile 1 stand one map
    east of tile 0's, with the same terrain under them; every unit on the map, on no river."""
    game = tiled_game(30)
    sc = game.scenario
    assert (sc.map.cols, sc.map.rows) == (72, 18)
    by_id = {p.id: p for p in sc.units}
    assert len(sc.units) == 60 and {p.side for p in sc.units} == {"green", "tan"}
    for p in sc.units:
        assert sc.map.on_map(p.hex) and not sc.map.is_river(p.hex)
        if p.id.endswith("-1"):
            q = by_id[p.id[:-2] + "-0"]
            assert sc.map.terrain_of(p.hex) == sc.map.terrain_of(q.hex)
            assert p.hex.distance(q.hex) == 24
    armies = {a.name: (a.pv, a.pl) for a in sc.spec.army.values()}
    assert armies == {"Franks": (55 * 30 // 14, 22 * 30 // 14), "Arabs": (80 * 30 // 14, 24 * 30 // 14)}


def test_a_tiled_battle_plays_the_same_on_the_fast_paths_and_on_their_references() -> None:
    """Tours tiled to 30 units a side, its first 400 decisions (movement, attack allocation,
    defensive fire), scripted v scripted: the bot's command-unit test looks at seven hexes, the
    menus come from their memos; the record (every event, every order, every menu) is the
    reference's."""
    game = tiled_game(30)
    case = R.Case("spi-dark-ages/tours tiled to 30 a side", 3, "scripted", "scripted")
    fast = R.play_record(game, case, reference=False, menus=True, limit=400)
    ref = R.play_record(game, case, reference=True, menus=True, limit=400)
    assert R.first_difference(fast, ref) is None, R.first_difference(fast, ref)
    assert fast.decisions == 400
