"""Where a move ends, told without a copy of the state (``move_ends``, ``State.ends_of_moves``),
against the copy the scripted general probes (issue 16, big armies).

Every unit decision of a few battles (senlac, wye-fords with its fords and streams, senlac tiled to
30 a side), scripted v scripted: each move of the unit's menu, the general's own waypoint moves
and two more (one too long, one into whatever stands ahead) told by ``ends_of_moves`` and carried
out on a copy of the state (``State.probe`` on the reference path: the order in full, then play
to the next decision within the side's Movement phase), the unit's entry in the copy's view read
as the general reads it (``bots.general._after``): the same end, to the view's rounding, the
same disorder, the same refusals. Every unit decision is told, also the last of a side's Movement
phase (before the fourteenth session the probe played on through the turn's later phases there,
and it was not told).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from shieldwall.ai.base import bot_seed, make_bot
from shieldwall.core.game import Game
from shieldwall.core.reference import reference_path
from shieldwall.io.scenarios import load_game
from shieldwall.rulesets.into_the_dark import orders as O
from shieldwall.rulesets.into_the_dark.state import IntoTheDarkState
from shieldwall.rulesets.into_the_dark.tiling import tiled_game


def _probed(st: IntoTheDarkState, o: O.Move, uid: str) -> tuple[Any, ...] | None:
    """``o`` carried out on a copy (``probe``'s reference); the unit's end as the general reads it."""
    with reference_path():
        got = st.probe(o)
    if got is None:
        return None
    c, evs = got
    disordered = any(e.kind == "disordered" and e.data.get("unit") == uid for e in evs)
    v = c.view_of(uid)
    if v is None or v["removed"]:
        return None
    return (v["x"], v["y"], v["heading"], v["frontage"], v["depth"], disordered or bool(v["disordered"]))


def _drive(game: Game[Any], seed: int, limit: int, seen: Counter[str]) -> None:
    bots = {s: make_bot("scripted", bot_seed(seed, i), game.info.id) for i, s in enumerate(game.info.sides)}
    st = game.new_state(seed)
    assert isinstance(st, IntoTheDarkState)
    for _ in range(limit):
        if st.is_terminal():
            break
        d = st.decision()
        assert d is not None
        choice = bots[d.side].choose(st)
        if d.kind == "unit":
            general = bots[d.side].general  # type: ignore[attr-defined]
            uid = str(d.unit)
            moves = [o for o in st.legal_orders() if isinstance(o, O.Move)]
            moves += general._waypoint_moves(general.units[uid])
            moves += [O.Move(uid, (O.Fwd(40.0),)), O.Move(uid, (O.Wheel(30.0), O.Fwd(2.0)))]
            ends = st.ends_of_moves(uid, moves)
            if ends is None:
                seen["not told"] += 1
            else:
                seen["told"] += 1
                assert len(ends) == len(moves)
                was = st.units[uid].disordered
                for o, end in zip(moves, ends, strict=True):
                    probed = _probed(st, o, uid)
                    assert end == probed, (st.turn, uid, o)
                    seen["moves"] += 1
                    seen["refused"] += probed is None
                    seen["disordered by it"] += bool(probed is not None and probed[5] and not was)
        st.apply(choice)


def test_every_move_ends_where_the_copy_says() -> None:
    seen: Counter[str] = Counter()
    _drive(load_game("into-the-dark/senlac"), 1, 300, seen)
    _drive(load_game("into-the-dark/wye-fords"), 2, 300, seen)
    _drive(tiled_game(30), 1, 250, seen)
    # the comparison covered each answer: ends, refusals, disorder; every unit decision told
    assert seen["told"] > 250 and seen["moves"] > 2500, seen
    assert seen["refused"] > 800 and seen["disordered by it"] > 150, seen
    assert seen["not told"] == 0, seen


def test_not_told_on_the_reference_path_nor_under_command_and_control() -> None:
    st = tiled_game(8).new_state(1)
    assert isinstance(st, IntoTheDarkState)
    while (d := st.decision()) is not None and d.kind != "unit":
        st.apply(st.legal_orders()[0] if d.kind != "movement" else _activate(st))
    d = st.decision()
    assert d is not None and d.kind == "unit"
    uid = str(d.unit)
    moves = [O.Move(uid, (O.Fwd(1.0),))]
    assert st.ends_of_moves(uid, moves) is not None
    with reference_path():
        assert st.ends_of_moves(uid, moves) is None
    assert st.ends_of_moves("no-such-unit", moves) is None
    assert st.ends_of_moves(uid, [O.Hold(uid)]) is None
    # a fanatic due to pursue moves first: not told; the last unit of the side to act: told, as
    # the probe (which stops where the phase ends) sees it
    mover = st.units[uid]
    others = [x for x in st.live(mover.side) if x is not mover]
    c = st.copy()
    c.units[others[0].id].pursuing = "someone"
    assert c.ends_of_moves(uid, moves) is None
    c = st.copy()
    for x in others:
        c.units[x.id].acted = True
    assert c.ends_of_moves(uid, moves) == [_probed(c, moves[0], uid)] != [None]
    cc = load_game("into-the-dark/wye-fords", {"command_and_control": True}).new_state(1)
    assert isinstance(cc, IntoTheDarkState)
    for _ in range(200):
        d = cc.decision()
        if d is None or d.kind == "unit":
            break
        cc.apply(cc.legal_orders()[0] if d.kind != "movement" else _activate(cc))
    d = cc.decision()
    if d is None or d.kind != "unit":
        pytest.fail("no unit decision under Command & Control")
    assert cc.ends_of_moves(str(d.unit), [O.Move(str(d.unit), (O.Fwd(1.0),))]) is None


def _activate(st: IntoTheDarkState) -> Any:
    return next(o for o in st.legal_orders() if isinstance(o, O.Activate))
