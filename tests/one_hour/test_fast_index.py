"""The grid paths of big battles against their references (issue 16): equal answers, not close.

Small battles (under ``geometry_index.SMALL`` units) scan every unit as before, so these tests
use bryn-glas tiled to 30 units a side (``tiling.tiled_game``), where the grid answers, stopped at
decisions of a scripted battle; each fast path is compared with the same question asked of a plain
list (every unit scanned) or with the reference function kept beside it.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from shieldwall.ai.base import bot_seed, make_bot
from shieldwall.core.errors import IllegalOrder
from shieldwall.core.geometry import Footprint, heading_vector
from shieldwall.core.geometry_index import SMALL, FootprintIndex
from shieldwall.core.polygons import polygon_distance
from shieldwall.rulesets.one_hour import actions, menus
from shieldwall.rulesets.one_hour import orders as O
from shieldwall.rulesets.one_hour import sight as LOS
from shieldwall.rulesets.one_hour import spatial as S
from shieldwall.rulesets.one_hour.bots.general import OneHourGeneral
from shieldwall.rulesets.one_hour.clauses import rule
from shieldwall.rulesets.one_hour.state import OneHourState
from shieldwall.rulesets.one_hour.tiling import tiled_game

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
N = 30


@cache
def _states() -> tuple[OneHourState, ...]:
    """Copies of a tiled battle (30 a side, 4 turns, scripted v scripted) at every 4th decision."""
    game = tiled_game(N, "bryn-glas", 4)
    bots = {s: make_bot("scripted", bot_seed(7, i), game.info.id) for i, s in enumerate(game.info.sides)}
    state = game.new_state(7)
    assert isinstance(state, OneHourState)
    out = []
    k = 0
    while not state.is_terminal():
        if k % 4 == 0:
            out.append(state.copy())
        d = state.decision()
        assert d is not None
        state.apply(bots[d.side].choose(state))
        k += 1
    return tuple(out)


def _pick(i: int) -> OneHourState:
    states = _states()
    return states[i % len(states)].copy()


class _P:
    def __init__(self, fp: Footprint) -> None:
        self.fp = fp


@settings(max_examples=300, deadline=None)
@given(
    pts=st_.lists(
        st_.tuples(
            st_.floats(-50, 250),
            st_.floats(-50, 80),
            st_.floats(-180, 180),
            st_.floats(1, 6),
            st_.floats(1, 6),
        ),
        min_size=SMALL - 4,
        max_size=80,
    ),
    q=st_.tuples(
        st_.floats(-60, 260), st_.floats(-60, 90), st_.floats(0, 40) | st_.floats(0, 300), st_.integers(1, 2)
    ),
)
def test_index_near_holds_every_piece_within_reach_in_list_order(
    pts: list[tuple[float, float, float, float, float]], q: tuple[float, float, float, int]
) -> None:
    pieces = [_P(Footprint(*p)) for p in pts]
    index = FootprintIndex(pieces)
    x, y, reach, radii = q
    got = index.near(x, y, reach, radii)
    pos = {id(p): i for i, p in enumerate(pieces)}
    order = [pos[id(p)] for p in got]
    assert order == sorted(order) and len(set(order)) == len(order)
    want = [p for p in pieces if math.hypot(p.fp.x - x, p.fp.y - y) - radii * p.fp.radius <= reach]
    assert {id(p) for p in want} <= {id(p) for p in got}
    if len(pieces) < SMALL:
        assert got is index


@settings(max_examples=200, deadline=None)
@given(
    pts=st_.lists(
        st_.tuples(st_.floats(-50, 250), st_.floats(-50, 80), st_.floats(-180, 180), st_.floats(1, 6)),
        min_size=SMALL,
        max_size=60,
    ),
    moves=st_.lists(
        st_.tuples(st_.integers(0, 10**6), st_.floats(-40, 40), st_.floats(-40, 40), st_.floats(0.5, 7)),
        min_size=1,
        max_size=9,
    ),
    built=st_.booleans(),
)
def test_a_grid_with_pieces_moved_is_the_grid_made_again(
    pts: list[tuple[float, float, float, float]],
    moves: list[tuple[int, float, float, float]],
    built: bool,
) -> None:
    """``FootprintIndex.moved`` (the state's grid after a unit moves): the same pieces, cells and
    greatest radius as a new index of the moved pieces builds, and the old index unchanged."""
    pieces = [_P(Footprint(x, y, h, w, 2.0)) for x, y, h, w in pts]
    index = FootprintIndex(pieces)
    if built:
        index.near(0.0, 0.0, 1.0)  # (the grid made before the moves)
    before = (None if index._cells is None else {k: list(v) for k, v in index._cells.items()}, index._max_r)
    changes = []
    for k, dx, dy, w in moves:
        i = k % len(pieces)
        old = pieces[i].fp
        pieces[i].fp = Footprint(old.x + dx, old.y + dy, old.heading, w, old.depth)
        changes.append((i, old))
    # a piece moved twice: the footprint it had when the index was made
    first: dict[int, Footprint] = {}
    for i, old in changes:
        first.setdefault(i, old)
    got = index.moved(sorted(first.items()))
    want = FootprintIndex(pieces)
    assert list(got) == list(want) and list(index) == pieces
    assert (None if index._cells is None else index._cells, index._max_r) == before
    if built:
        cells = want._build()
        assert got._cells == cells and got._max_r == want._max_r
    for x, y, reach in ((10.0, 10.0, 5.0), (100.0, 20.0, 30.0), (200.0, 60.0, 0.5)):
        assert list(got.near(x, y, reach)) == list(want.near(x, y, reach))


def test_the_tiled_states_are_big_enough_for_the_grid() -> None:
    assert min(len(s.live()) for s in _states()) >= SMALL
    assert type(_states()[0].live()) is FootprintIndex


@SETTINGS
@given(i=st_.integers(0, 10**6), draws=st_.integers(0, 2**32 - 1))
def test_spatial_checks_with_the_grid_equal_the_plain_scans(i: int, draws: int) -> None:
    st = _pick(i)
    live = st.live()
    assert type(live) is FootprintIndex
    plain = list(live)
    rng = np.random.default_rng(draws)
    for _ in range(40):
        u = plain[int(rng.integers(len(plain)))]
        base = plain[int(rng.integers(len(plain)))].fp if rng.random() < 0.5 else u.fp
        spread = float(rng.choice([0.5, 3.0, 8.0, 14.0]))
        dx, dy = rng.uniform(-spread, spread, 2)
        heading = u.fp.heading + float(rng.choice([0.0, 90.0, 180.0, rng.uniform(-180, 180)]))
        fp = Footprint(base.x + float(dx), base.y + float(dy), heading, u.fp.frontage, u.fp.depth)
        assert S.placement_problem(u, fp, live, st.terrain) == S.placement_problem(u, fp, plain, st.terrain)
        end = [(fp.x, fp.y)]
        assert S.path_problem(u, u.fp, end, live, st.terrain) == S.path_problem(
            u, u.fp, end, plain, st.terrain
        )
        d = heading_vector(float(rng.uniform(-180, 180)))
        budget = float(rng.choice([2.0, 6.0, 12.0, 17.0]))
        assert S.max_advance(u, u.fp, d, budget, live, st.terrain) == S.max_advance(
            u, u.fp, d, budget, plain, st.terrain
        )
        reach = float(rng.uniform(0, 20))
        within = S.enemies_within(u, live, reach)
        assert within == S.enemies_within(u, plain, reach)
        every = [t for t in plain if t.side != u.side and S.distance_between(u, t) <= reach]
        assert [t for t in within if S.distance_between(u, t) <= reach] == every
        assert S.contacts(u, live.near(u.fp.x, u.fp.y, u.fp.radius + S.CONTACT_TOL)) == S.contacts(u, plain)
        t = plain[int(rng.integers(len(plain)))]
        if t.id != u.id:
            assert LOS.visible_points(u, t, live.near(0, 0, math.inf), st.terrain) == LOS.visible_points(
                u, t, plain, st.terrain
            )


@SETTINGS
@given(i=st_.integers(0, 10**6))
def test_menu_helpers_equal_their_references(i: int) -> None:
    st = _pick(i)
    for u in st.live():
        enemies = st.live("blue" if u.side == "red" else "red")
        assert menus.nearest(u, enemies, menus.NEAREST) == menus.nearest_reference(u, enemies, menus.NEAREST)
        reach = 12.0
        every = [t for t in enemies if S.distance_between(u, t) <= reach]
        assert [
            t for t in S.enemies_within(u, st.live(), reach) if S.distance_between(u, t) <= reach
        ] == every


@SETTINGS
@given(i=st_.integers(0, 10**6))
def test_cached_contacts_equal_a_fresh_scan_after_every_order(i: int) -> None:
    """The contact cache is emptied only near units that moved or left: after each of a few
    orders, every unit's contacts equal a scan of all the live units."""
    st = _pick(i)
    bots = {s: make_bot("scripted", k, st.game.info.id) for k, s in enumerate(st.game.info.sides)}
    for _ in range(6):
        if st.is_terminal():
            break
        for u in st.live():
            assert st.touching(u) == S.contacts(u, list(st.live()))
        d = st.decision()
        assert d is not None
        st.apply(bots[d.side].choose(st))


@SETTINGS
@given(i=st_.integers(0, 10**6))
def test_the_grid_moved_after_each_order_is_the_grid_made_again(i: int) -> None:
    """After each of a few orders the state's grid of live units (moved, not made again, when a
    few units moved: ``OneHourState._geometry_moved``) holds the live units in order, in the
    cells and with the greatest radius of a grid made afresh."""
    st = _pick(i)
    bots = {s: make_bot("scripted", k, st.game.info.id) for k, s in enumerate(st.game.info.sides)}
    moved = 0
    for _ in range(8):
        if st.is_terminal():
            break
        live = st.live()
        want = FootprintIndex([u for u in st.units.values() if not u.removed])
        assert list(live) == list(want)
        if live._cells is not None:
            assert live._cells == want._build() and live._max_r == want._max_r
            moved += 1
        live.near(0.0, 0.0, 1.0)  # (the grid made, to be moved by the next order)
        d = st.decision()
        assert d is not None
        st.apply(bots[d.side].choose(st))
    assert moved or st.is_terminal() or st._geo_fps is None


@SETTINGS
@given(i=st_.integers(0, 10**6), draws=st_.integers(0, 2**32 - 1))
def test_an_illegal_order_leaves_the_state_as_it_was(i: int, draws: int) -> None:
    st = _pick(i)
    if st.is_terminal() or st.step != "move":
        return
    rng = np.random.default_rng(draws)
    before = (st.view(), [e.to_dict() for e in st.events], st._menu_key(), st.rng.bit_generator.state)
    u = st.unit(st.active or "")
    far = float(rng.uniform(st.rolled + 0.5, st.rolled + 30.0))
    ang = float(rng.uniform(-180, 180))
    dx, dy = heading_vector(ang)
    with pytest.raises(IllegalOrder):
        st.apply(O.Move(u.id, (O.Go(u.fp.x + dx * far, u.fp.y + dy * far),), "test"))
    after = (st.view(), [e.to_dict() for e in st.events], st._menu_key(), st.rng.bit_generator.state)
    assert after == before
    for x in st.live():
        assert st.touching(x) == S.contacts(x, list(st.live()))


@SETTINGS
@given(i=st_.integers(0, 10**6), draws=st_.integers(0, 2**32 - 1))
def test_the_general_reads_the_state_as_its_view_gives_it(i: int, draws: int) -> None:
    st = _pick(i)
    if st.is_terminal():
        return
    fast = OneHourGeneral(np.random.default_rng(0))
    fast._setup(st)
    ref = OneHourGeneral(np.random.default_rng(0))
    ref._setup(st)
    ref._setup_view(st)  # the view's units and cover in place of the state's own
    assert list(fast.units) == list(ref.units)
    for uid, v in fast.units.items():
        assert v == {k: ref.units[uid][k] for k in v}
    assert fast.fps == ref.fps
    assert fast.cover_polys == ref.cover_polys
    # positions and nearest gaps: the grid's answers against every enemy measured
    rng = np.random.default_rng(draws)
    units = list(fast.units.values())
    for _ in range(60):
        u = units[int(rng.integers(len(units)))]
        own = fast.fps[u["id"]]
        base = fast.fps[units[int(rng.integers(len(units)))]["id"]] if rng.random() < 0.5 else own
        spread = float(rng.choice([0.5, 3.0, 8.0, 14.0, 30.0]))
        dx, dy = rng.uniform(-spread, spread, 2)
        fp = Footprint(base.x + float(dx), base.y + float(dy), own.heading, own.frontage, own.depth)
        assert fast._position(u, fp) == fast._position_reference(u, fp)
        every = [polygon_distance(fp.corners(), fast.fps[e["id"]].corners()) for e in fast.enemies]
        assert fast._nearest_gap(fp) == min(every, default=99.0)


@SETTINGS
@given(i=st_.integers(0, 10**6), draws=st_.integers(0, 2**32 - 1))
def test_fields_set_directly_are_seen_by_the_caches(i: int, draws: int) -> None:
    """The caches (grid, contacts, menu) follow every change of a unit's field, however made:
    after moving or removing units by hand, the state answers as a fresh copy does."""
    st = _pick(i)
    if st.is_terminal():
        return
    st.legal_orders()
    for u in st.live():
        st.touching(u)
    rng = np.random.default_rng(draws)
    live = list(st.live())
    for _ in range(3):
        u = live[int(rng.integers(len(live)))]
        # the unit whose move is being given stays on the table: the engine never removes it
        # mid-move, and a state without it has no menu to compare
        if rng.random() < 0.2 and u.id != st.active:
            u.removed = True
        else:
            dx, dy = rng.uniform(-6.0, 6.0, 2)
            u.fp = u.fp.moved(float(dx), float(dy))
    fresh = st.copy()
    assert [str(o) for o in st.legal_orders()] == [str(o) for o in fresh.legal_orders()]
    for u in st.live():
        assert [(e.id, a, b) for e, a, b in st.touching(u)] == [
            (e.id, a, b) for e, a, b in fresh.touching(fresh.units[u.id])
        ]


def test_an_order_failing_after_changes_is_undone(monkeypatch: pytest.MonkeyPatch) -> None:
    """An order that changes units and then proves illegal leaves nothing changed (the journal of
    unit fields, the events, the caches)."""
    st = _states()[3].copy()
    before = (st.view(), [e.to_dict() for e in st.events], st.legal_orders())

    def half_done(state: OneHourState, order: object) -> None:
        a, b = state.live()[0], state.live()[-1]
        a.fp = a.fp.moved(3.0, 1.0)
        a.hits += 2
        b.removed = True
        a.fp = a.fp.moved(-1.0, 0.5)
        state.log("test", "orders", unit=a.id)
        state.touching(a)
        raise IllegalOrder(rule("orders"), "found illegal after changing things")

    monkeypatch.setattr(actions, "apply_order", half_done)
    with pytest.raises(IllegalOrder):
        st.apply(O.End())
    monkeypatch.undo()
    assert (st.view(), [e.to_dict() for e in st.events], st.legal_orders()) == before
    for u in st.live():
        assert st.touching(u) == S.contacts(u, list(st.live()))


@pytest.mark.parametrize("scenario", ["bryn-glas", "rhyd-y-groes", "mynydd-baddon"])
def test_tiled_games_have_n_units_a_side_and_play(scenario: str) -> None:
    game = tiled_game(13, scenario, 1)
    for side in ("red", "blue"):
        assert len([u for u in game.initial_units if u.side == side]) == 13
    ids = [u.id for u in game.initial_units]
    assert len(ids) == len(set(ids))
    assert game.terrain.width == 3 * tiled_game(1, scenario, 1).terrain.width
    bots = {s: make_bot("scripted", k, game.info.id) for k, s in enumerate(game.info.sides)}
    st = game.new_state(1)
    while not st.is_terminal():
        d = st.decision()
        assert d is not None
        st.apply(bots[d.side].choose(st))
    with pytest.raises(ValueError, match="at least one unit"):
        tiled_game(0)
