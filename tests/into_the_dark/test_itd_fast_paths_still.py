"""Into the Dark big armies, fifth slice (issue 16): the scripted general weighs a decision on one
still world (``IntoTheDarkState.still``), compared with the plain computation.

While the general weighs a decision no unit of the state moves (its look-aheads move copies), so
``world()`` answers one world for the whole decision and its ``near`` answers from a grid of the
units instead of all of them (``movement.World.near``: what a path and a move's end are checked
against). At every decision of seeded battles (senlac, wye-fords, senlac tiled to 30 a side: their
first 100 decisions) the grid's answer holds every unit on the table within reach, in the world's
order; the units stand
where they stood once the general has chosen; the still world holds what a fresh one would. The
general's question whether an enemy is near a unit (``_near``) measures only the enemies within a
bound of the centres, with the same answer as every enemy measured. The units' views the general
reads (``shared_view``: the view memo's own, not copies) are those made afresh. A tiled
battle played on the fast paths (the still world among them) and on their references makes the
same decisions: ``test_itd_fast_paths_menu_enemies``.
"""

from __future__ import annotations

import math
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from shieldwall.ai.base import bot_seed, make_bot
from shieldwall.core.geometry import Footprint
from shieldwall.core.geometry_index import SMALL
from shieldwall.core.reference import reference_path
from shieldwall.io.scenarios import load_game
from shieldwall.rulesets.into_the_dark.bots import nearest
from shieldwall.rulesets.into_the_dark.contacts import poses_of
from shieldwall.rulesets.into_the_dark.movement import World
from shieldwall.rulesets.into_the_dark.tiling import tiled_game

RADII = (0.0, 0.5, 3.0, 12.0, 40.0)


def _within(w: World, x: float, y: float, r: float) -> list[str]:
    """The reference: every unit of the world on the table whose footprint's circle comes within
    ``r`` of (x, y), in the world's order."""
    out = []
    for u in w.units:
        fp = u.fp
        if u.on_table and math.hypot(fp.x - x, fp.y - y) <= r + fp.radius:
            out.append(u.id)
    return out


def _check_near(w: World, seen: dict[str, int]) -> None:
    order = {u.id: i for i, u in enumerate(w.units)}
    for u in w.units:
        if not u.on_table:
            continue
        fp = u.fp
        for r in RADII:
            for x, y in ((fp.x, fp.y), (fp.x + r + 1.3, fp.y - 0.7)):
                got = [g.id for g in w.near(x, y, r)]
                want = _within(w, x, y, r)
                assert [k for k in got if k in set(want)] == want, (u.id, r)
                assert [order[k] for k in got] == sorted(order[k] for k in got), (u.id, r)
                seen["asked"] += 1
                seen["pruned"] += len(got) < len(w.units)
            # a point just within reach of the unit's circle, in a direction of its own
            a = math.radians(37.0 * order[u.id] + 11.0 * r)
            d = r + fp.radius - 1e-3
            x, y = fp.x + d * math.cos(a), fp.y + d * math.sin(a)
            assert u.id in [g.id for g in w.near(x, y, r)], (u.id, r)


def _check_general_near(general: Any, seen: dict[str, int]) -> None:
    """The general's ``_near`` (enemies measured only within the circles' bound) against every
    enemy measured, for each of its units, at the distances it asks and more."""
    for u in general.mine:
        for within in (0.5, 3.0, 10.0, 12.0, 30.0):
            got = general._near(u, within)
            with reference_path():
                want = general._near(u, within)
            assert got == want, (u["id"], within)
            seen["near"] += 1
            seen["near_true"] += want


def _play_checked(game: Any, seed: int, limit: int, seen: dict[str, int]) -> None:
    bots = {
        side: make_bot("scripted", bot_seed(seed, i), game.info.id) for i, side in enumerate(game.info.sides)
    }
    state = game.new_state(seed)
    for _ in range(limit):
        if state.is_terminal():
            return
        d = state.decision()
        assert d is not None
        before = poses_of(state.units)
        with state.still():
            w = state.world()
            assert w.still
            _check_near(w, seen)
            order = bots[d.side].choose(state)
            assert state.world() is w
            assert poses_of(state.units) == before, "a unit moved while the general weighed"
        _check_general_near(bots[d.side].general, seen)
        # the views the general was given (``shared_view``: the memo's own) are as made afresh
        shared = bots[d.side].general.view["units"]
        with reference_path():
            want = state.view()["units"]
        assert shared == want and state.view()["units"] == want, "a view the memo keeps was changed"
        seen["shared"] += sum(1 for v in shared if v is state.view_memo.kept[v["id"]][1])
        fresh = state.world()
        assert not fresh.still and fresh is not w
        assert [u.id for u in fresh.units] == [u.id for u in w.units] and fresh.in_melee == w.in_melee
        state.apply(order)
        seen["decisions"] += 1


def test_a_still_worlds_near_holds_every_unit_within_reach() -> None:
    seen = {"asked": 0, "pruned": 0, "decisions": 0, "near": 0, "near_true": 0, "shared": 0}
    for scenario, seed in (("into-the-dark/senlac", 1), ("into-the-dark/wye-fords", 2)):
        _play_checked(load_game(scenario), seed, 100, seen)
    _play_checked(tiled_game(30), 1, 100, seen)
    assert seen["decisions"] > 250 and seen["pruned"] > seen["asked"] // 2, seen
    assert seen["near_true"] > seen["near"] // 10 and seen["near_true"] < seen["near"], seen
    assert seen["shared"] > 10 * seen["decisions"], seen


def test_a_world_that_is_not_still_answers_every_unit() -> None:
    game = tiled_game(20)
    state = game.new_state(1)
    w = state.world()
    assert not w.still and w.near(0.0, 0.0, 1.0) is w.units
    with state.still():
        s = state.world()
        assert s.still and list(s.near(0.0, 0.0, math.inf)) == s.units
        assert len(s.near(0.0, 0.0, 1.0)) < len(s.units)
        with reference_path():
            assert list(s.near(0.0, 0.0, 1.0)) == s.units
        assert state.copy().world() is not s  # (a copy moves: it is asked afresh)
    assert state.world() is not s


def test_a_still_block_ends_where_the_state_moves() -> None:
    game = tiled_game(10)
    bot = make_bot("scripted", bot_seed(1, 0), game.info.id)
    state = game.new_state(1)
    with state.still():
        s = state.world()
        state.apply(bot.choose(state))
        assert state.world() is not s


def test_the_grid_measures_from_the_largest_footprint() -> None:
    """A unit's centre farther from the point than the reach: still answered (its circle is not)."""
    game = tiled_game(20)
    state = game.new_state(1)
    with state.still():
        w = state.world()
        big = w.units[0]
        fp = big.fp
        probe = Footprint(fp.x + fp.radius + 2.0, fp.y, 0.0, 1.0, 1.0)
        assert big.id in [u.id for u in w.near(probe.x, probe.y, 2.5)]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.floats(-150.0, 150.0), st.floats(-40.0, 40.0), st.sampled_from([0.0, 45.0, 90.0, 200.0])
        ),
        min_size=SMALL,
        max_size=60,
    ),
    st.tuples(st.floats(-150.0, 150.0), st.floats(-40.0, 40.0), st.floats(0.0, 360.0)),
    st.sampled_from([(2.0, 1.0), (8.0, 3.0), (1.0, 6.0)]),
    st.sampled_from([0.0, 12.0]),
)
def test_the_generals_distances_from_a_grid_are_the_measured_ones(
    places: list[tuple[float, float, float]],
    at: tuple[float, float, float],
    size: tuple[float, float],
    near: float,
) -> None:
    """``nearest.gaps``, ``friends_near`` and ``any_within`` asked with a grid of the units
    (``index_of``): the three nearest and every one within ``near`` (12", or 0 for the waypoint's
    nearest) of the whole sorted list, the friends within 4" counted up to two, whether any is
    within a distance, as measured against every unit."""
    units = [{"id": f"u{i}", "morale": "routed" if i % 7 == 3 else "steady"} for i in range(len(places))]
    fps = {f"u{i}": Footprint(x, y, a, 4.0 + (i % 3), 1.0 + (i % 2)) for i, (x, y, a) in enumerate(places)}
    fp = Footprint(at[0], at[1], at[2], size[0], size[1])
    index = nearest.index_of(units, fps)
    got = nearest.gaps(fp, units, fps, near, index)
    whole = nearest.gaps_reference(fp, units, fps)
    assert got == [g for k, g in enumerate(whole) if k < 3 or g[0] <= near]
    want = min(nearest.friends_near_reference(fp, units, fps, "u0"), 2)
    assert nearest.friends_near(fp, units, fps, "u0", index) == want
    # whether any is within a distance (the general's ``_near``), against every one measured
    for within in (0.5, 4.0, 12.0, 30.0):
        assert nearest.any_within(fp, index, within) == any(g < within for g, _ in whole)
