"""The menu's move plans remembered while nothing near them changes (``plan_memo``, issue 16)
against the plans made afresh: at every single move and group advance the scripted bot weighs in
a tiled battle, and after each step of an element walked over a lattice of places around a mover.
"""

from __future__ import annotations

from typing import Any

from shieldwall.ai.base import bot_seed, make_bot
from shieldwall.core.reference import reference_path
from shieldwall.rulesets.dbm import menu, plan_memo
from shieldwall.rulesets.dbm.board import Board
from shieldwall.rulesets.dbm.moves import faced_position
from shieldwall.rulesets.dbm.state import DbmState
from shieldwall.rulesets.dbm.tiling import tiled_game


def _bots(game: Any, seed: int) -> dict[str, Any]:
    return {s: make_bot("scripted", bot_seed(seed, i), game.info.id) for i, s in enumerate(game.info.sides)}


def _deployed(n: int, seed: int) -> tuple[DbmState, dict[str, Any]]:
    game = tiled_game(n)
    state = game.new_state(seed)
    bots = _bots(game, seed)
    while state.phase != "bound":
        d = state.decision()
        assert d is not None
        state.apply(bots[d.side].choose(state))
    assert isinstance(state, DbmState)
    return state, bots


def test_every_remembered_plan_is_the_plan_made_afresh(monkeypatch: Any) -> None:
    """At every single move and group advance the menu weighs for the scripted bot in ford-of-ash
    tiled to 96 a side (300 decisions), the remembered answer (option and plan, field for field) is
    the one made on the board as it stands; many come from the memo, others were made again."""
    real = plan_memo.remembered
    seen = {"asked": 0, "made": 0}

    def checked(board: Board, key: Any, group: Any, reach: Any, make: Any) -> Any:
        def counted(r: float) -> Any:
            seen["made"] += 1
            return make(r)

        got = real(board, key, group, reach, counted)
        with reference_path():
            assert got == make(reach()), key
        seen["asked"] += 1
        return got

    monkeypatch.setattr(menu, "remembered", checked)
    state, bots = _deployed(96, 1)
    for _ in range(300):
        if state.is_terminal():
            break
        d = state.decision()
        assert d is not None
        state.apply(bots[d.side].choose(state))
    remembered = seen["asked"] - seen["made"]
    assert seen["asked"] > 1000 and remembered > seen["asked"] // 3, seen
    assert seen["made"] > 300, seen


def test_a_move_is_planned_again_whenever_an_element_near_it_moves() -> None:
    """An enemy element, then a friend, walked over a lattice of places around the front elements
    of two red commands of a deployed tiled battle (every place a board move, logged in the grid):
    after each step each element's single move and its command's advance are the ones made afresh.
    The places reach from contact (legal or not, in a gap or not) to beyond the plans' reach, so a
    memo that missed a move near a mover answers wrongly here."""
    state, _ = _deployed(30, 1)
    board = state.board
    b = state.bound
    assert b is not None
    answers = set()
    for side in ("blue", "red"):
        walker = next(e for e in board.el.values() if e.side == side and e.code != "Bge" and not e.general)
        for cmd in ("red1", "red2"):
            ids = sorted(e.id for e in board.el.values() if e.command == cmd and e.code != "Bge")
            ids = [i for i in ids if i != walker.id]
            els = [board.el[i] for i in ids]
            x0 = min(e.fp.x for e in els) - 300.0
            x1 = max(e.fp.x for e in els) + 300.0
            y0 = max(e.fp.y for e in els) - 60.0
            for j in range(14):
                for i in range(int((x1 - x0) // 53.0) + 1):
                    heading = 180.0 if side == "blue" else (0.0, 90.0)[(i + j) % 2]
                    fp = type(walker.fp)(
                        x0 + 53.0 * i, y0 + 41.0 * j, heading, walker.fp.frontage, walker.fp.depth
                    )
                    board.move(walker.id, fp)
                    for eid in ids[:4]:
                        got = menu._move(state, cmd, eid)
                        with reference_path():
                            want = menu._move(state, cmd, eid)
                        assert got == want, (cmd, eid, fp)
                        answers.add(None if got is None else round(got[2].dist, 3))
                    got_adv = menu._advance(state, cmd, 99, ids)
                    with reference_path():
                        assert got_adv == menu._advance(state, cmd, 99, ids), (cmd, fp)
    assert len(answers) > 5, answers


def test_every_remembered_group_is_the_group_worked_out_afresh(monkeypatch: Any) -> None:
    """At every group the menu lists in ford-of-ash tiled to 96 a side (300 decisions), the
    elements in no frontal combat are the ones worked out on the board as it stands (``unengaged``
    against ``unengaged_reference``); most answers come from the memo."""
    real = plan_memo.unengaged
    seen = {"asked": 0, "made": 0}
    real_ref = plan_memo.unengaged_reference

    def counted(board: Board, ids: Any) -> list[str]:
        seen["made"] += 1
        return real_ref(board, ids)

    def checked(board: Board, cmd: str, ids: Any) -> list[str]:
        got = real(board, cmd, ids)
        assert got == real_ref(board, ids), cmd
        seen["asked"] += 1
        return got

    monkeypatch.setattr(plan_memo, "unengaged_reference", counted)
    monkeypatch.setattr(menu, "unengaged", checked)
    state, bots = _deployed(96, 1)
    for _ in range(300):
        if state.is_terminal():
            break
        d = state.decision()
        assert d is not None
        state.apply(bots[d.side].choose(state))
    assert seen["asked"] > 2000 and seen["made"] < seen["asked"] // 3, seen


def test_a_group_is_worked_out_again_whenever_an_enemy_touches_it() -> None:
    """An enemy element put in front contact with each element of two red commands in turn (and
    just short of it, and beside it), then a friend: after each move the command's elements in no
    frontal combat are those worked out afresh, and the enemy in front contact takes its element
    out of the group."""
    state, _ = _deployed(30, 1)
    board = state.board
    taken = 0
    for side in ("blue", "red"):
        walker = next(e for e in board.el.values() if e.side == side and e.code != "Bge" and not e.general)
        for cmd in ("red1", "red2"):
            ids = [i for i in state.commands[cmd].elements if i != walker.id]
            for eid in ids:
                if eid not in board.el or board.el[eid].code == "Bge":
                    continue
                face = faced_position(board.el[walker.id], board.el[eid])
                fx, fy = board.el[eid].fp.forward
                rx, ry = board.el[eid].fp.right
                for back, across in (
                    (0.0, 0.0),
                    (0.5, 0.0),
                    (0.0, 0.3 * face.frontage),
                    (0.0, face.frontage),
                ):
                    board.move(walker.id, face.moved(fx * back + rx * across, fy * back + ry * across))
                    got = plan_memo.unengaged(board, cmd, ids)
                    want = plan_memo.unengaged_reference(board, ids)
                    assert got == want, (side, cmd, eid, back, across)
                    taken += eid not in got
    assert taken >= 4, taken
