"""What the menu and the scripted bot remember while nothing near it changes (issue 16), against
what is worked out afresh: the move plans and the groups in no frontal combat (``plan_memo``), the
bot's "favoured" answers (``nearest.Favoured``): at every one the bot weighs in a tiled battle, and
after each step of an element walked over a lattice of places around the elements concerned.
"""

from __future__ import annotations

from typing import Any

import pytest

from shieldwall.ai.base import bot_seed, make_bot
from shieldwall.core.reference import reference_path
from shieldwall.rulesets.dbm import march_memo, menu, plan_memo
from shieldwall.rulesets.dbm.board import Board
from shieldwall.rulesets.dbm.bots import ScriptedBot, favour
from shieldwall.rulesets.dbm.moves import faced_position, march_standoff
from shieldwall.rulesets.dbm.nearest import Favoured, Sight
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


def _play(state: DbmState, bots: dict[str, Any], decisions: int) -> None:
    """The scripted bots play up to ``decisions`` decisions of ``state``."""
    for _ in range(decisions):
        if state.is_terminal():
            break
        d = state.decision()
        assert d is not None
        state.apply(bots[d.side].choose(state))


@pytest.mark.python_sources  # patches a compiled module's internals (tests/python_sources.py)
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
    _play(*_deployed(96, 1), 300)
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


@pytest.mark.python_sources  # patches a compiled module's internals (tests/python_sources.py)
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
    _play(*_deployed(96, 1), 300)
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


@pytest.mark.python_sources  # patches a compiled module's internals (tests/python_sources.py)
def test_every_remembered_favour_is_the_favour_worked_out_afresh(monkeypatch: Any) -> None:
    """At every command the scripted bot weighs for an advance in ford-of-ash tiled to 96 a side
    (300 decisions), the remembered answer (``nearest.Favoured``) is the one worked out from the
    view as it stands; many come from the memo."""
    real = Favoured.of
    seen = {"asked": 0, "made": 0}

    def checked(self: Favoured, state: Any, side: str, cmd: Any, sight: Any, work: Any) -> bool:
        def counted(c: Any) -> Any:
            seen["made"] += 1
            return work(c)

        got = real(self, state, side, cmd, sight, counted)
        with reference_path():
            assert got == work(cmd)[0], cmd
        seen["asked"] += 1
        return got

    monkeypatch.setattr(Favoured, "of", checked)
    _play(*_deployed(96, 1), 300)
    assert seen["asked"] > 1000 and seen["made"] < seen["asked"] // 2, seen


def _favour_both_ways(state: DbmState, bot: ScriptedBot, memo: Favoured, cmd: str) -> bool:
    units = {u["id"]: u for u in bot.views.of(state)["units"]}
    sight = Sight(units)
    got = memo.of(state, "red", cmd, sight, lambda c: favour(state.tables, units, "red", c, sight))
    assert got == ScriptedBot._favoured(state.tables, units, "red", cmd), cmd
    return got


def test_a_favour_is_worked_out_again_whenever_an_enemy_comes_nearer_or_goes() -> None:
    """Enemy elements of each kind walked over a lattice of places around two red commands (each
    place a board move, logged), then taken off the table one by one: after each step the bot's
    remembered answer for each command is the one worked out afresh from the view; the answers
    change on the way."""
    state, _ = _deployed(30, 1)
    board = state.board
    bot = ScriptedBot()
    memo = Favoured()
    answers: set[tuple[str, bool]] = set()
    kinds: dict[str, Any] = {}
    for e in board.el.values():
        if e.side == "blue" and e.code != "Bge":
            kinds.setdefault(e.code, e)
    for cmd in ("red1", "red2"):
        els = [e for e in board.el.values() if e.command == cmd and e.code != "Bge"]
        x0, x1 = min(e.fp.x for e in els) - 250.0, max(e.fp.x for e in els) + 250.0
        y0 = max(e.fp.y for e in els) - 100.0
        for walker in kinds.values():
            for j in range(8):
                for i in range(int((x1 - x0) // 70.0) + 1):
                    fp = type(walker.fp)(
                        x0 + 70.0 * i, y0 + 45.0 * j, 180.0, walker.fp.frontage, walker.fp.depth
                    )
                    board.move(walker.id, fp)
                    for c in ("red1", "red2"):
                        answers.add((c, _favour_both_ways(state, bot, memo, c)))
    for walker in kinds.values():
        board.remove(walker.id)
        for c in ("red1", "red2"):
            answers.add((c, _favour_both_ways(state, bot, memo, c)))
    assert {a for _, a in answers} == {True, False}, answers


def test_a_foot_groups_march_standoff_and_limit_are_the_references() -> None:
    """A red skirmisher, then a red knight, walked over a lattice of places ahead of and beside the
    foot group of blue commands (out to beyond 200 p and a move): at each place the march
    standoff (friends dropped before their distance is measured) and the march limit (enemies
    whose centres are too far not measured) are the references', and both standoffs occur."""
    state, _ = _deployed(30, 1)
    board = state.board
    standoffs = set()
    limits = set()
    walkers = [next(e for e in board.el.values() if e.side == "red" and e.code == c) for c in ("Ps", "Kn")]
    for walker in walkers:
        for cmd in ("blue1", "blue3"):
            ids = sorted(e.id for e in board.el.values() if e.command == cmd and e.code != "Bge")
            x0 = min(board.el[i].fp.x for i in ids) - 350.0
            x1 = max(board.el[i].fp.x for i in ids) + 350.0
            y1 = min(board.el[i].fp.y for i in ids) - 30.0
            for j in range(12):
                for i in range(int((x1 - x0) // 61.0) + 1):
                    fp = type(walker.fp)(
                        x0 + 61.0 * i, y1 - 43.0 * j, 0.0, walker.fp.frontage, walker.fp.depth
                    )
                    board.move(walker.id, fp)
                    group = [board.el[k] for k in ids]
                    got = (
                        march_standoff(board, group, set(board.el)),
                        march_memo.march_distance_reference(board, group),
                    )
                    with reference_path():
                        want = (
                            march_standoff(board, group, set(board.el)),
                            march_memo.march_distance_reference(board, group),
                        )
                    assert got == want, (cmd, walker.id, fp)
                    standoffs.add(got[0])
                    limits.add(got[1])
    assert standoffs == {50.0, 200.0} and len(limits) > 5, (standoffs, limits)


def test_a_favour_remembered_on_one_board_is_not_given_on_another() -> None:
    """The bot's memo of "favoured" answers counts one board's logs: an answer remembered in one
    battle (an enemy brought next to a command after many moves) is not given in the next battle of
    the same deployment (the command's view entries equal, the new board's logs shorter), where
    that enemy stands elsewhere and the answer differs."""
    first, _ = _deployed(30, 1)
    second, _ = _deployed(30, 1)
    memo = Favoured()
    bot = ScriptedBot()
    checked = 0
    for cmd in ("red1", "red2"):
        els = [e for e in first.board.el.values() if e.command == cmd and e.code != "Bge"]
        want = _favour_both_ways(second, ScriptedBot(), Favoured(), cmd)
        for walker in [e for e in first.board.el.values() if e.side == "blue" and e.code != "Bge"]:
            home = walker.fp
            for e in els:
                fx, fy = e.fp.forward
                board = first.board
                board.move(
                    walker.id,
                    type(home)(e.fp.x + fx * 60.0, e.fp.y + fy * 60.0, 180.0, home.frontage, home.depth),
                )
                if _favour_both_ways(first, bot, memo, cmd) != want:
                    assert _favour_both_ways(second, ScriptedBot(), memo, cmd) == want
                    checked += 1
                board.move(walker.id, home)
    assert checked > 0
