"""Fortifications in battles (ruling R40): defenders, storming pursuit (dbm-3.2:storm.pursue), no
rear support when defending (dbm-3.2:rs.general), no press forward across them
(dbm-3.2:press.forward). Illustrative sample data (NOT the published DBM tables)."""

from __future__ import annotations

import pytest
from tests.dbm.test_dbm_game import _data, _play

from shieldwall.ai.random_bot import RandomBot
from shieldwall.core.errors import DataError, IllegalOrder
from shieldwall.core.geometry import Footprint
from shieldwall.rulesets.dbm.fortgeom import crosses_fort
from shieldwall.rulesets.dbm.game import DbmGame
from shieldwall.rulesets.dbm.special import PressGroup, check_press_forward

# blue's deployed front edges stand at y = 1180: this strip is its fortification
FORT = {"x0": 600.0, "y0": 1170.0, "x1": 1800.0, "y1": 1200.0, "side": "blue"}


def test_storming_pursuit_played_in_a_battle() -> None:
    st = _play(2, fortifications=[FORT])
    ev = st.events
    storms = [i for i, e in enumerate(ev) if e.kind == "storm-pursue"]
    assert storms
    assert any(e.kind == "fort-assault" for e in ev)  # undefended sections are fought too (R41)
    for i in storms:
        e = ev[i]
        assert e.rule == "dbm-3.2:storm.pursue"
        cc = next(x for x in reversed(ev[:i]) if x.kind in ("close-combat", "fort-assault"))
        if cc.kind == "fort-assault":  # an undefended section beaten (ruling R41)
            assert cc.data["id"] == e.data["id"] and cc.data["result"] == "higher"
            continue
        res = cc.data["result"]
        winner = cc.data["b"] if res["loser"] == "a" else cc.data["a"]
        loser = cc.data["a"] if winner == cc.data["b"] else cc.data["b"]
        assert e.data["id"] == winner and res["result"] in ("destroyed", "flee", "recoil")
        assert cc.data["defending_fort"] == [loser]  # the loser defended, the winner assaulted
        # 1 base depth beyond the inner edge: at least its own depth
        assert e.data["paces"] >= st.tables.depth(st._elements_meta[winner][0]) - 1e-6
    # assaulters beating defenders storm instead of the ordinary pursuit
    for i in storms:
        assert not any(x.kind == "pursue" and x.data["id"] == ev[i].data["id"] for x in ev[i - 3 : i + 3])


def test_defenders_get_no_rear_support_in_battle() -> None:
    st = _play(2, fortifications=[FORT])
    for e in st.events:
        if e.kind == "close-combat" and e.data.get("defending_fort"):
            for d in e.data["defending_fort"]:
                assert not any(s["rule"].startswith("dbm-3.2:rs.") for s in e.data["steps"][d])


def test_no_press_forward_across_fortifications() -> None:
    start = Footprint(1200.0, 1100.0, 0.0, 80.0, 30.0)
    assert crosses_fort([FORT], start, 100.0)
    assert not crosses_fort([FORT], start, 40.0)
    g = PressGroup(True, False, False, True, False, True, False, True, across_fortifications=True)
    with pytest.raises(IllegalOrder, match="across fortifications"):
        check_press_forward(g)


def test_fortification_errors_name_the_field() -> None:
    with pytest.raises(DataError, match=r"fortifications\[0\]: a fortification needs"):
        DbmGame.from_data(_data(fortifications=[{**FORT, "x1": 0.0}]), "f.toml")
    with pytest.raises(DataError, match=r"fortifications\[0\]\.side"):
        DbmGame.from_data(_data(fortifications=[{**FORT, "side": "green"}]), "f.toml")


def test_random_bots_play_battles_with_fortifications() -> None:
    for seed in (1, 2):
        st = DbmGame.from_data(_data(fortifications=[FORT]), "f.toml").new_state(seed)
        bots = {"red": RandomBot(seed), "blue": RandomBot(seed + 9)}
        for _ in range(3000):
            d = st.decision()
            if d is None:
                break
            st.apply(bots[d.side].choose(st))
        assert st.is_terminal()
        assert st.view()["fortifications"] == [FORT]
