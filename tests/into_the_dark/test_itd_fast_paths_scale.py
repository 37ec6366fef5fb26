"""The into-the-dark fast paths that only act in big battles, against their references (issue 16).

The built-in scenarios field 12 units or so a side, below ``geometry_index.SMALL`` (24), so the
scripted general's grid of enemy footprints (``bots.nearest.nearest_gap``) answers with the whole
list there, as on the reference path. Here: that search against measuring every piece, on random
footprints; the zone-of-control task's choice of the enemies near a move (``act_zoc.within_reach``)
against testing every enemy's zones; and senlac tiled to 26 units a side
(``rulesets.into_the_dark.tiling``) played on the fast paths and on their references
(``core.reference``): the same record, event for event.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shieldwall.core.geometry import Footprint
from shieldwall.core.geometry_index import SMALL
from shieldwall.core.polygons import footprint_distance
from shieldwall.core.reference import reference_path
from shieldwall.io.scenarios import load_game
from shieldwall.rulesets.into_the_dark import act_zoc
from shieldwall.rulesets.into_the_dark.bots import nearest
from shieldwall.rulesets.into_the_dark.moves import zoc_length
from shieldwall.rulesets.into_the_dark.spatial import zone
from shieldwall.rulesets.into_the_dark.state import IntoTheDarkState
from shieldwall.rulesets.into_the_dark.tiling import tiled_game
from shieldwall.sim import referee as R

from . import test_itd_mixed as mixed_tests
from .test_itd_fast_paths_zoc import _corner_at

_piece = st.tuples(
    st.floats(0.0, 240.0),
    st.floats(0.0, 120.0),
    st.floats(0.0, 360.0),
    st.floats(0.5, 12.0),
    st.floats(0.5, 4.0),
)


def _tight_pair(
    p0: tuple[float, float],
    u: tuple[float, float],
    gap: float,
    mine: tuple[float, ...],
    theirs: tuple[float, ...],
) -> tuple[Footprint, Footprint]:
    """A unit whose corner stands at ``p0`` and a piece whose corner stands ``gap`` further along
    ``u``, each centre beyond its corner on that line: the distance of their circles is their
    distance (the bound the search sorts by is tight)."""
    fp = _corner_at(p0, (-u[0], -u[1]), mine[0], mine[1], int(mine[2]))
    q = (p0[0] + gap * u[0], p0[1] + gap * u[1])
    return fp, _corner_at(q, u, theirs[0], theirs[1], int(theirs[2]))


_shape = st.tuples(st.floats(0.5, 12.0), st.floats(0.5, 4.0), st.integers(0, 3))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(_piece, min_size=SMALL, max_size=60),
    st.tuples(st.floats(20.0, 220.0), st.floats(20.0, 100.0)),
    st.floats(0.0, 360.0),
    st.sampled_from([0.0, 1e-9, 1e-6, 0.01, 0.5, 3.0, 30.0]) | st.floats(0.0, 40.0),
    st.floats(0.0, 0.5),
    _shape,
    _shape,
)
def test_the_nearest_enemy_found_in_the_grid_is_the_nearest_of_all(
    pieces: list[tuple[float, ...]],
    p0: tuple[float, float],
    angle: float,
    gap: float,
    later: float,
    mine: tuple[float, ...],
    theirs: tuple[float, ...],
) -> None:
    """``nearest_gap`` answers exactly what measuring every footprint answers: among random pieces,
    one whose bound is tight (corner to corner on the centres' line, ``gap`` apart: also touching)
    and a decoy face on, a little farther (``later``) but with a lower bound, measured first."""
    u = (math.cos(math.radians(angle)), math.sin(math.radians(angle)))
    fp, tight = _tight_pair(p0, u, gap, mine, theirs)
    # the decoy: a long piece square on to the line through the unit's corner, ``gap + later`` out
    far = gap + later + 6.0
    decoy = Footprint(p0[0] + far * u[0], p0[1] + far * u[1], (90.0 - angle) % 360.0, 11.0, 12.0)
    fps = [Footprint(*p) for p in pieces] + [decoy, tight]
    by_id = {str(i): f for i, f in enumerate(fps)}
    index = nearest.index_of([{"id": i} for i in by_id], by_id)
    want = min(footprint_distance(fp, f) for f in fps)
    assert nearest.nearest_gap(fp, index) == want
    assert nearest.nearest_gap(tight, index) == 0.0  # the piece itself stands in the index
    with reference_path():
        assert nearest.nearest_gap(fp, index) == want


@settings(max_examples=100, deadline=None)
@given(
    st.lists(_piece, min_size=SMALL, max_size=60),
    st.lists(st.tuples(st.integers(0, 59), st.floats(-40.0, 40.0), st.floats(-40.0, 40.0)), max_size=8),
    st.booleans(),
    st.booleans(),
)
def test_a_grid_made_from_the_last_decisions_is_a_grid_made_again(
    pieces: list[tuple[float, ...]], moves: list[tuple[int, float, float]], built: bool, shrink: bool
) -> None:
    """``nearest.index_again`` (the general's grids kept from one decision to the next): after
    some units move (a new footprint) the grid holds the same pieces in the same places, with the
    same cells and greatest radius, as ``index_of`` makes afresh; no unit moved: the very index;
    other units (another list of ids): made afresh."""
    units = [{"id": f"u{i}"} for i in range(len(pieces))]
    fps = {f"u{i}": Footprint(*p) for i, p in enumerate(pieces)}
    kept = nearest.index_again(None, units, fps)
    if built:
        kept[1].near(0.0, 0.0, 1.0)  # (the grid made, to be moved)
    assert nearest.index_again(kept, units, fps)[1] is kept[1]
    now = dict(fps)
    for k, dx, dy in moves:
        old = now[f"u{k % len(pieces)}"]
        w = 0.5 if shrink else old.frontage
        now[f"u{k % len(pieces)}"] = Footprint(old.x + dx, old.y + dy, old.heading, w, old.depth)
    got = nearest.index_again(kept, units, now)
    want = nearest.index_of(units, now)
    assert [(p.fp, p.i) for p in got[1]] == [(p.fp, p.i) for p in want]
    assert [(p.fp, p.i) for p in kept[1]] == [(fps[u["id"]], i) for i, u in enumerate(units)]  # (unchanged)
    if built:
        assert got[1]._cells == want._build() and got[1]._max_r == want._max_r
    for x, y, reach in ((10.0, 10.0, 5.0), (100.0, 20.0, 30.0), (200.0, 60.0, 0.5)):
        assert [p.i for p in got[1].near(x, y, reach)] == [p.i for p in want.near(x, y, reach)]
    fewer = units[1:]
    again = nearest.index_again(got, fewer, now)
    assert [(p.fp, p.i) for p in again[1]] == [(p.fp, p.i) for p in nearest.index_of(fewer, now)]
    with reference_path():
        assert nearest.index_again(kept, units, fps)[1] is not kept[1]


def test_no_enemies_is_the_no_enemy_distance() -> None:
    index = nearest.index_of([], {})
    assert nearest.nearest_gap(Footprint(0.0, 0.0, 0.0, 4.0, 2.0), index) == nearest.NO_ENEMY


@pytest.mark.python_sources
def test_the_enemies_a_move_leaves_out_have_no_zone_it_meets(monkeypatch: Any) -> None:
    """At every zone-of-control task of a tiled battle, each enemy ``within_reach`` leaves out has
    no zone (melee, or missile while it has not fired) that any position of the move meets, tested
    position by position on the reference path; most enemies of a big army are left out."""
    real = act_zoc.within_reach
    seen = {"kept": 0, "left out": 0, "moves": 0}

    def checked(s: IntoTheDarkState, es: list[Any], samples: Any) -> list[Any]:
        out = real(s, es, samples)
        kept = {e.id for e in out}
        assert [e.id for e in es if e.id in kept] == [e.id for e in out]  # in order
        with reference_path():
            for e in es:
                if e.id in kept:
                    continue
                kinds = (["melee"] if e.has_melee else []) + (
                    ["missile"] if e.has_missiles and not e.fired else []
                )
                for kind in kinds:
                    z = zone(e, zoc_length(s, e, kind))
                    assert not act_zoc.samples_meet(z, samples, {}), (e.id, kind)
        seen["kept"] += len(out)
        seen["left out"] += len(es) - len(out)
        seen["moves"] += 1
        return out

    monkeypatch.setattr(act_zoc, "within_reach", checked)
    # the general plays each move it weighs on a copy (as it did before ``ends_of_moves``): every
    # look-ahead runs the zone-of-control task
    monkeypatch.setattr(IntoTheDarkState, "ends_of_moves", lambda self, uid, orders: None)
    game = tiled_game(26)
    st_ = game.new_state(4)
    play_limit(st_, 150)
    assert seen["moves"] > 100 and seen["kept"] > 20, seen
    assert seen["left out"] > 10 * seen["kept"], seen


def play_limit(state: Any, limit: int) -> None:
    from shieldwall.ai.base import bot_seed, make_bot

    bots = {
        side: make_bot(b, bot_seed(4, i), state.game.info.id)
        for i, (side, b) in enumerate(zip(state.game.info.sides, ("random", "scripted"), strict=True))
    }
    for _ in range(limit):
        if state.is_terminal():
            return
        d = state.decision()
        state.apply(bots[d.side].choose(state))


def test_a_tiled_battle_plays_the_same_on_the_fast_paths_and_on_their_references() -> None:
    """Senlac tiled to 26 a side, its first 100 decisions, scripted v scripted: the grid's nearest
    enemy orders the activations, the zone-of-control task tests only nearby enemies; the record
    (every event, every order) is the reference's."""
    game = tiled_game(26)
    case = R.Case("into-the-dark/senlac tiled to 26 a side", 3, "scripted", "scripted")
    fast = R.play_record(game, case, reference=False, limit=100)
    ref = R.play_record(game, case, reference=True, limit=100)
    assert R.first_difference(fast, ref) is None, R.first_difference(fast, ref)
    assert fast.decisions == 100


def test_a_zone_reach_kept_is_the_zone_reach_worked_out() -> None:
    """``act_zoc.kept_zone_reach`` (one memo kept throughout) answers ``zone_reach`` for every unit
    of senlac at two scales, of wye-fords with Command & Control (generals' figures) and of a
    mixed unit (its majority changing with its figures), as each part of its key changes: fired,
    unhorsed, a general, the figures left."""
    senlac = load_game("into-the-dark/senlac").new_state(1)
    smaller = senlac.copy()  # the same army entries at another scale
    smaller.factor = 0.5
    states = [
        senlac,
        smaller,
        load_game("into-the-dark/wye-fords", {"command_and_control": True}).new_state(1),
        mixed_tests._mixed_game(),  # its majority stays the melee part
        mixed_tests._mixed_game(mixed=[{**mixed_tests.ARCHERS, "figures": 8}]),  # archers, then melee
    ]
    kept: dict[Any, Any] = {}
    answers: set[float] = set()
    checked = 0
    for state in states:
        for u in state.units.values():
            for figures in sorted({u.figures, max(1, u.figures // 2), 1}):
                for fired in (False, True):
                    for unhorsed in (False, True):
                        for general in (False, True):
                            x = u.clone_reference()
                            x.figures, x.fired, x.unhorsed, x.general = figures, fired, unhorsed, general
                            want = act_zoc.zone_reach(state, x)
                            assert act_zoc.kept_zone_reach(state, x, kept) == want, (u.id, figures, fired)
                            answers.add(want)
                            checked += 1
    assert checked > 500 and len(answers) > 4, (checked, answers)
