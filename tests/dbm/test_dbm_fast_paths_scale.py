"""The DBM fast paths that act in big battles, against their references (issue 16).

The scripted bot's grid of enemy centres (``nearest.Centres``: the nearest enemy, any enemy in a
box) against scanning every centre, on random points with many ties; the menu's march limits
remembered while nothing near the group changes (``march_memo.march_distance``) against working
each out afresh, at every march the bot weighs in a tiled battle; and ford-of-ash tiled to 30
elements a side (``rulesets.dbm.tiling``) played on the fast paths and on their references
(``core.reference``): the same record, event for event.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shieldwall.ai.base import bot_seed, make_bot
from shieldwall.core.reference import reference_path
from shieldwall.rulesets.dbm import march_memo, menu
from shieldwall.rulesets.dbm.board import Board
from shieldwall.rulesets.dbm.elements import Element
from shieldwall.rulesets.dbm.nearest import SMALL, Centres, UnitViews
from shieldwall.rulesets.dbm.tiling import tiled_game
from shieldwall.sim import referee as R

# coordinates on a coarse lattice (many equal distances: the first of equals must win) or anywhere,
# a few cells of the grid across (crowded rings: the nearest often lies a ring beyond the first found)
_coord = st.integers(-3, 15).map(lambda k: k * 40.0) | st.floats(-200.0, 700.0)
_point = st.tuples(_coord, _coord)
_far = st.tuples(st.floats(-2000.0, 3000.0), st.floats(-2000.0, 3000.0))


@settings(max_examples=300, deadline=None)
@given(
    st.lists(_point, min_size=SMALL, max_size=90), _point | _far, st.floats(1.0, 500.0), st.floats(1.0, 900.0)
)
def test_the_grid_of_centres_answers_as_the_scan_of_every_centre(
    points: list[tuple[float, float]], at: tuple[float, float], hx: float, hy: float
) -> None:
    units = [{"id": str(i), "x": x, "y": y} for i, (x, y) in enumerate(points)]
    c = Centres(units)
    u = {"x": at[0], "y": at[1]}
    want = c.nearest_reference(u)
    assert c.nearest(u) is want
    assert c.any_in_box(u, hx, hy) == c.any_in_box_reference(u, hx, hy)
    for v in units[:5]:  # a centre of the grid itself, and boxes just around it
        assert c.nearest(v) is c.nearest_reference(v)
        assert c.any_in_box(v, 1e-9, 1e-9) and c.any_in_box(v, 40.0, 40.0)
    with reference_path():
        assert c.nearest(u) is want


@settings(max_examples=300, deadline=None)
@given(
    st.lists(_far, min_size=SMALL, max_size=60),
    st.integers(0, SMALL - 1),
    st.floats(-1.5, 1.5),
    st.floats(-1.5, 1.5),
    st.floats(1.0, 300.0),
    st.floats(1.0, 500.0),
)
def test_a_box_around_a_centre_finds_it_from_every_side(
    points: list[tuple[float, float]], k: int, fx: float, fy: float, hx: float, hy: float
) -> None:
    """Sparse centres, and a box whose asker stands up to one and a half box sides from centre
    ``k`` in any direction: the grid's answer is the scan's (in the box or just out of it)."""
    units = [{"id": str(i), "x": x, "y": y} for i, (x, y) in enumerate(points)]
    c = Centres(units)
    u = {"x": units[k]["x"] + fx * hx, "y": units[k]["y"] + fy * hy}
    assert c.any_in_box(u, hx, hy) == c.any_in_box_reference(u, hx, hy)
    assert c.nearest(u) is c.nearest_reference(u)


def test_big_armies_use_the_grid() -> None:
    """The grid answers (not the scan) from ``SMALL`` centres on: a query far from most centres."""
    units = [{"id": str(i), "x": 80.0 * i, "y": 0.0} for i in range(SMALL)]
    c = Centres(units)
    assert c._cells
    assert c.nearest({"x": 10.0 * 80.0 + 1.0, "y": 5.0}) is units[10]


def _bots(game: Any, seed: int) -> dict[str, Any]:
    return {s: make_bot("scripted", bot_seed(seed, i), game.info.id) for i, s in enumerate(game.info.sides)}


@pytest.mark.python_sources  # patches a compiled module's internals (tests/python_sources.py)
def test_every_remembered_march_limit_is_the_limit_worked_out_afresh(monkeypatch: Any) -> None:
    """At every march the scripted bot weighs in ford-of-ash tiled to 48 a side (200 decisions),
    the menu's answer is the reference's (``march_limit`` worked out on the board as it stands);
    many answers come from the memo, and others were worked out again after moves near the group."""
    real = march_memo.march_distance
    seen = {"asked": 0, "computed": 0}
    real_ref = march_memo.march_distance_reference

    def computed(board: Board, group: list[Element]) -> float:
        seen["computed"] += 1
        return real_ref(board, group)

    def checked(board: Board, group: list[Element]) -> float:
        got = real(board, group)
        with reference_path():
            assert got == real_ref(board, group), [e.id for e in group]
        seen["asked"] += 1
        return got

    monkeypatch.setattr(march_memo, "march_distance_reference", computed)
    monkeypatch.setattr(menu, "march_distance", checked)
    game = tiled_game(48)
    state = game.new_state(1)
    bots = _bots(game, 1)
    for _ in range(200):
        if state.is_terminal():
            break
        d = state.decision()
        assert d is not None
        state.apply(bots[d.side].choose(state))
    remembered = seen["asked"] - seen["computed"]
    assert seen["asked"] > 300 and remembered > seen["asked"] // 4, seen
    assert seen["computed"] > 30, seen  # groups worked out (again) on the fast path


def test_a_tiled_battle_plays_the_same_on_the_fast_paths_and_on_their_references() -> None:
    """Ford-of-ash tiled to 30 elements a side, its first 60 decisions, scripted v scripted: the
    bot's nearest enemies come from the grid, the menu's march limits from the memo; the record
    (every event, every order) is the reference's."""
    game = tiled_game(30)
    case = R.Case("dbm-3.2/ford-of-ash tiled to 30 a side", 2, "scripted", "scripted")
    fast = R.play_record(game, case, reference=False, limit=60)
    ref = R.play_record(game, case, reference=True, limit=60)
    assert R.first_difference(fast, ref) is None, R.first_difference(fast, ref)
    assert fast.decisions == 60


def test_a_march_limit_is_worked_out_again_whenever_an_enemy_near_it_moves() -> None:
    """One enemy element walked over a lattice of places in front of and beside each red command
    of a deployed tiled battle (every place a board move, logged in the grid): after each move
    the remembered limit is the limit worked out afresh. The places reach from contact to beyond
    the 200 p standoff and a march's reach, so a memo that missed a move near the group answers
    wrongly here."""
    game = tiled_game(30)
    state = game.new_state(1)
    bots = _bots(game, 1)
    while state.phase != "bound":
        state.apply(bots[state.decision().side].choose(state))  # type: ignore[union-attr]
    board = state.board
    enemy = next(e for e in board.el.values() if e.side == "blue" and e.code != "Bge")
    answers = set()
    for cmd in ("red1", "red2"):
        group = sorted(
            (e for e in board.el.values() if e.command == cmd and e.code != "Bge"), key=lambda e: e.id
        )
        x0 = min(e.fp.x for e in group) - 450.0
        x1 = max(e.fp.x for e in group) + 450.0
        y0 = max(e.fp.y for e in group) + 40.0
        for j in range(22):
            for i in range(int((x1 - x0) // 60.0) + 1):
                fp = type(enemy.fp)(x0 + 60.0 * i, y0 + 37.0 * j, 180.0, enemy.fp.frontage, enemy.fp.depth)
                board.move(enemy.id, fp)
                group = [board.el[e.id] for e in group]
                got = march_memo.march_distance(board, group)
                assert got == march_memo.march_distance_reference(board, group), (cmd, fp)
                answers.add(got)
    assert len(answers) > 5, answers


def test_the_bots_unit_entries_are_the_views() -> None:
    """At every decision of ford-of-ash tiled to 40 a side once deployed (200 decisions, one
    ``UnitViews`` kept throughout, as the bot keeps it), its units are the view's, key for key (the
    adjustment marks apart), in the view's order, and its fortifications the view's; asked twice,
    the second answer keeps every entry."""
    game = tiled_game(40)
    state = game.new_state(2)
    bots = _bots(game, 2)
    views = UnitViews()
    kept = built = 0
    for _ in range(200):
        if state.is_terminal():
            break
        if state.phase not in ("terrain", "deploy"):  # (before the battle: the view itself)
            before = {u["id"]: u for u in views.of(state)["units"]}
            got = views.of(state)
            want = state.view()
            assert got["units"] == [
                {k: v for k, v in u.items() if k not in ("adjustments", "preview")} for u in want["units"]
            ]
            assert got["fortifications"] == want["fortifications"]
            same = sum(1 for u in got["units"] if before.get(u["id"]) is u)
            kept, built = kept + same, built + len(got["units"]) - same
        d = state.decision()
        assert d is not None
        state.apply(bots[d.side].choose(state))
    assert kept > 10_000 and built == 0, (kept, built)
