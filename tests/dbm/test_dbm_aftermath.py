"""Pursuit and pressing forward played in battles (rulings R35, R36), with the illustrative sample
data (NOT the published DBM tables)."""

from __future__ import annotations

import pytest
from tests.dbm.test_dbm_game import _data, _play
from tests.dbm.test_dbm_outmoves import mk

from shieldwall.ai.random_bot import RandomBot
from shieldwall.core.errors import IllegalOrder
from shieldwall.rulesets.dbm.aftermath import press_forward
from shieldwall.rulesets.dbm.board import Board
from shieldwall.rulesets.dbm.game import DbmGame
from shieldwall.rulesets.dbm.orders import Order
from shieldwall.rulesets.dbm.state import DbmState
from shieldwall.rulesets.dbm.tables import Tables


def _winner(cc: dict[str, object]) -> str:
    res = cc["result"]
    assert isinstance(res, dict)
    return str(cc["b"] if res["loser"] == "a" else cc["a"])


def test_pursue_ranks_played_in_scripted_battles(tables: Tables) -> None:
    seen = 0
    for seed in range(4):
        st = _play(seed)
        types = {u["id"]: u["type"] for u in DbmGame.from_data(_data(), "x").new_state(seed).view()["units"]}
        last_cc: dict[str, object] | None = None
        for e in st.events:
            if e.kind == "close-combat":
                last_cc = e.data
            if e.kind != "pursue":
                continue
            seen += 1
            assert e.rule == "dbm-3.2:pursue.ranks"
            assert last_cc is not None and last_cc["result"] is not None
            code = types[e.data["id"]]
            assert 0 < e.data["paces"] <= tables.movement.type[code].pursue
            # the pursuer is the frontal winner or one of the ranks lined up behind it
            win = _winner(last_cc)
            assert e.data["id"] == win or types[e.data["id"]] == types[win]
    assert seen > 0
    zero = {c for c, m in tables.movement.type.items() if m.pursue == 0}
    assert zero and "Sp" in zero  # the sample's non-pursuing foot (docs/dbm-data.md)


def _to_press() -> DbmState:
    """The first scripted battle (by seed) that offers a press forward."""
    from shieldwall.rulesets.dbm.bots import ScriptedBot

    for seed in range(40):
        st = DbmGame.from_data(_data(), "ford-of-ash.toml").new_state(seed)
        bots = {"red": ScriptedBot(1), "blue": ScriptedBot(2)}
        while st.phase != "press" and not st.is_terminal():
            d = st.decision()
            assert d is not None
            st.apply(bots[d.side].choose(st))
        if st.phase == "press":
            return st
    raise AssertionError("no scripted battle pressed forward")


def test_press_forward_offered_and_played_in_a_battle(tables: Tables) -> None:
    st = _to_press()
    d = st.decision()
    assert d is not None and d.kind == "press" and d.side == st.bound.side  # type: ignore[union-attr]
    orders = [str(o) for o in st.legal_orders()]
    assert orders[-1] == "end" and all(o.startswith("press ") for o in orders[:-1]) and len(orders) > 1
    with pytest.raises(IllegalOrder, match="press.forward"):
        st.apply("press nobody")
    lead = orders[0].split()[1]
    fled = [e for e in st.events if e.kind == "close-combat" and e.data["result"] is not None]
    assert any(_winner(e.data) == lead and e.data["result"]["result"] == "flee" for e in fled)
    ev = st.apply(orders[0])
    pf = next(e for e in ev if e.kind == "press-forward")
    assert pf.rule == "dbm-3.2:press.forward" and pf.data["ids"][0] == lead
    slowest = min(tables.movement.type[st.board.el[i].code].good for i in pf.data["ids"] if i in st.board.el)
    assert 0 < pf.data["paces"] <= slowest
    # skirmishers driven off by the press flee perpendicularly away (flee.skirm-press)
    # (the press's own events come first; the next bound starts once no group is left to press)
    mine = ev[: ev.index(pf)]
    assert all(e.rule == "dbm-3.2:flee.skirm-press" for e in mine if e.kind == "flee")
    assert st.phase != "press" or "end" in [str(o) for o in st.legal_orders()]


def test_press_forward_stops_at_fresh_non_skirmishers_and_flees_skirmishers(tables: Tables) -> None:
    a = mk(tables, "a", "red", "Bd", "O", 0, 0)
    ps = mk(tables, "p", "blue", "Ps", "O", 0, 100, 180)  # skirmishers in the way: flee once
    sp = mk(tables, "s", "blue", "Sp", "O", 400, 140, 180)  # off the line: not met
    wb = mk(tables, "w", "blue", "Wb", "O", 0, 180, 180)  # fresh non-skirmishers: the move ends
    brd = Board(tables, [a, ps, sp, wb])
    ev = press_forward(brd, ["a"])
    assert ev[0]["kind"] == "flee" and ev[0]["rule"] == "dbm-3.2:flee.skirm-press"
    pf = next(e for e in ev if e["kind"] == "press-forward")
    gap = (wb.fp.y - wb.fp.depth / 2) - (a.fp.y + a.fp.depth / 2)
    assert pf["paces"] == pytest.approx(gap) and gap < tables.movement.type["Bd"].good
    assert any(e["kind"] == "contact" and e["enemy"] == "w" for e in ev)


def test_random_bots_play_pursuit_and_press_forward() -> None:
    pressed = 0
    for seed in range(20, 30):
        st = DbmGame.from_data(_data(), "ford-of-ash.toml").new_state(seed)
        bots = {"red": RandomBot(seed), "blue": RandomBot(seed + 100)}
        for _ in range(3000):
            d = st.decision()
            if d is None:
                break
            st.apply(bots[d.side].choose(st))
        assert st.is_terminal()
        pressed += sum(e.kind == "press-forward" for e in st.events)
    assert pressed > 0


def test_press_order_round_trips() -> None:
    assert Order("press", "r-bw1").to_dict() == {"kind": "press", "arg": "r-bw1"}


def _first_bound(seed: int) -> DbmState:
    from shieldwall.rulesets.dbm.bots import ScriptedBot

    st = DbmGame.from_data(_data(), "ford-of-ash.toml").new_state(seed)
    bot = ScriptedBot(1)
    while st.phase != "bound":
        st.apply(bot.choose(st))
    return st


def _aid_scene(st: DbmState, second_rank: bool, rear_command: str | None = None) -> None:
    t = st.tables
    bw = st.board.el["r-bw1"]
    els = [mk(t, "r-bw1", "red", "Bw", "O", 0, 0, command=bw.command)]
    if second_rank:
        depth = els[0].fp.depth
        els.append(mk(t, "r-bw2", "red", "Bw", "O", 0, -depth, command=rear_command or bw.command))
    els.append(mk(t, "b-bd1", "blue", "Bd", "O", 0, 120, 180))
    st.board = Board(t, els)


def test_shoot_aid_played_in_battle_shooting() -> None:
    """dbm-3.2:shoot.aid in a battle: the 2nd rank of bowmen aids the front rank instead of shooting,
    and the aid's tactical factor (sample: +1, ruling R37) is in the shooting score."""
    st = _first_bound(1)
    plain = st.copy()
    _aid_scene(st, True)
    _aid_scene(plain, False)
    ev = [e for e in st.apply("end") if e.kind == "shooting"]
    ev0 = [e for e in plain.apply("end") if e.kind == "shooting"]
    assert [e.data["a"] for e in ev] == ["r-bw1"]  # r-bw2 aids: it does not shoot too
    assert ev[0].data["aided_by"] == "r-bw2" and ev[0].data["aid_rule"] == "dbm-3.2:shoot.aid"
    assert "aided_by" not in ev0[0].data
    assert ev[0].data["dice"] == ev0[0].data["dice"]
    assert ev[0].data["totals"]["r-bw1"] == ev0[0].data["totals"]["r-bw1"] + 1


def test_shoot_aid_not_in_difficult_going_or_other_command() -> None:
    st = _first_bound(1)
    _aid_scene(st, True, rear_command="C-in-C")
    assert all("aided_by" not in e.data for e in st.apply("end") if e.kind == "shooting")
    st = _first_bound(1)
    _aid_scene(st, True)
    bw2 = st.board.el["r-bw2"].fp
    assert st.tables.terrain.feature["wood"].going == "difficult"
    st.terrain = [{"kind": "wood", "x0": bw2.x - 60, "y0": bw2.y - 30, "x1": bw2.x + 60, "y1": bw2.y - 5}]
    assert all("aided_by" not in e.data for e in st.apply("end") if e.kind == "shooting")
