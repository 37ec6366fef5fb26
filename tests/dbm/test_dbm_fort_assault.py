"""Undefended fortification sections and fortification corners played in battles (ruling R41):
dbm-3.2:cc.fort-corner and the "higher score than an undefended fortification" case of
dbm-3.2:storm.pursue. Illustrative sample data (NOT the published DBM tables)."""

from __future__ import annotations

from typing import Any

import pytest
from tests.dbm.test_dbm_game import _data

from shieldwall.core.errors import DataError
from shieldwall.rulesets.dbm.advance import plan_advance
from shieldwall.rulesets.dbm.board import Board
from shieldwall.rulesets.dbm.elements import Element, make
from shieldwall.rulesets.dbm.fortgeom import corners, front_of, inner_edge_distance
from shieldwall.rulesets.dbm.game import DbmGame
from shieldwall.rulesets.dbm.scenario import build_scenario
from shieldwall.rulesets.dbm.state import DbmState
from shieldwall.rulesets.dbm.turn import Bound

# a blue wall facing south, and at its east end a blue wall facing east: a 90 degree corner
WALL = {"x0": 1000.0, "y0": 1170.0, "x1": 1400.0, "y1": 1200.0, "side": "blue"}
SIDE = {"x0": 1400.0, "y0": 1170.0, "x1": 1430.0, "y1": 1500.0, "side": "blue", "front": "east"}
D = 30.0  # Bd and Sp depth in the sample


def _state(seed: int, forts: list[dict[str, Any]], els: list[Element]) -> DbmState:
    st = DbmGame.from_data(_data(fortifications=forts), "f.toml").new_state(seed)
    st.board = Board(st.tables, els)
    st.board.forts = st.forts
    return st


def _el(st_or_t: Any, eid: str, side: str, code: str, x: float, y: float, h: float) -> Element:
    return make(st_or_t, eid, side, code, "O", x, y, h)


def _finish(st: DbmState, moved: set[str]) -> list[dict[str, Any]]:
    b = Bound("red")
    b.moved = set(moved)
    return b.finish(st)


def test_cc_fort_corner_an_undefended_section_stops_an_enemy_move(tables: Any) -> None:
    a = _el(tables, "a", "red", "Bd", 1200.0, 1100.0, 0.0)
    brd = Board(tables, [a])
    brd.forts = [WALL]
    plan = plan_advance(brd, ["a"], 200.0)
    assert plan.dist == pytest.approx(1170.0 - 1100.0 - D / 2)  # front edge on the outer edge
    # a defender across its path: the mover meets the defender instead (inside the strip)
    dfd = _el(tables, "d", "blue", "Sp", 1200.0, 1180.0 + D / 2, 180.0)
    brd2 = Board(tables, [a, dfd])
    brd2.forts = [WALL]
    assert plan_advance(brd2, ["a"], 200.0).dist == pytest.approx(1180.0 - 1100.0 - D / 2)
    # the holder's own elements cross their own fortification freely
    own = _el(tables, "o", "blue", "Bd", 1200.0, 1300.0, 180.0)
    brd3 = Board(tables, [own])
    brd3.forts = [WALL]
    assert plan_advance(brd3, ["o"], 200.0).dist == pytest.approx(200.0)


def test_storm_pursue_higher_than_an_undefended_fortification(tables: Any) -> None:
    seen = set()
    for seed in range(30):
        a = _el(tables, "a", "red", "Bd", 1200.0, 1170.0 - D / 2, 0.0)
        st = _state(seed, [WALL], [a])
        ev = _finish(st, {"a"})
        fa = next(e for e in ev if e["kind"] == "fort-assault")
        assert fa["rule"] == "dbm-3.2:cc.fort-corner" and fa["id"] == "a" and fa["section"] == 0
        da, db = fa["dice"]
        assert fa["totals"] == {"a": tables.base("Bd").v_foot + da, "fort": tables.game.undefended_fort + db}
        seen.add(fa["result"])
        if fa["result"] == "higher":
            sp = next(e for e in ev if e["kind"] == "storm-pursue")
            assert sp["rule"] == "dbm-3.2:storm.pursue"
            # 1 base depth measured from the inner edge: its front edge at y1 + its depth
            assert st.board.el["a"].fp.front_centre[1] == pytest.approx(WALL["y1"] + D)
        else:
            assert not any(e["kind"] == "storm-pursue" for e in ev)
            assert st.board.el["a"].fp.y == pytest.approx(1170.0 - D / 2)
    assert "higher" in seen and len(seen) >= 2


def test_cc_fort_corner_corners_and_fronts() -> None:
    assert corners([WALL, SIDE]) == [(0, 1)]
    assert corners([WALL, {**SIDE, "front": "south"}]) == []  # a straight run is no corner
    assert corners([WALL, {**SIDE, "side": "red"}]) == []
    assert front_of(WALL) == "south" and front_of({**WALL, "side": "red"}) == "north"


def test_cc_fort_corner_defender_moves_to_the_assaulted_section(tables: Any) -> None:
    a = _el(tables, "a", "red", "Bd", 1300.0, 1170.0 - D / 2, 0.0)
    # an unengaged defender of the east-facing section (front edge centre on it)
    d = _el(tables, "d", "blue", "Sp", 1420.0 - D / 2, 1350.0, 90.0)
    st = _state(1, [WALL, SIDE], [a, d])
    ev = _finish(st, {"a"})
    mv = next(e for e in ev if e["kind"] == "fort-corner-defend")
    assert mv == {"kind": "fort-corner-defend", "id": "d", "assaulter": "a", "section": 0,
                  "rule": "dbm-3.2:cc.fort-corner"}  # fmt: skip
    cc = next(e for e in ev if e["kind"] == "close-combat")
    assert {cc["a"], cc["b"]} == {"a", "d"} and cc["defending_fort"] == ["d"]
    assert not any(e["kind"] == "fort-assault" for e in ev)  # the section is defended now


def test_cc_fort_corner_flanker_when_one_section_is_defended(tables: Any) -> None:
    seen = set()
    for seed in range(16):
        a = _el(tables, "a", "red", "Bd", 1300.0, 1170.0 - D / 2, 0.0)
        d = _el(tables, "d", "blue", "Sp", 1300.0, 1170.0 + D / 2, 180.0)  # defends the wall
        f = _el(tables, "f", "red", "Bd", 1430.0 + D / 2, 1300.0, 270.0)  # on the east section
        st = _state(seed, [WALL, SIDE], [a, d, f])
        ev = _finish(st, set())
        cc = next(e for e in ev if e["kind"] == "close-combat")
        assert cc["corner_flanker"] == "f"
        assert any(s["what"] == "flank" for s in cc["steps"]["d"])  # fights as a flank contact
        assert not any(e["kind"] == "fort-assault" for e in ev)  # f does not fight the section
        res = cc["result"]
        if res is None:
            continue
        lost = cc["a"] if res["loser"] == "a" else cc["b"]
        seen.add(lost)
        rec = [e for e in ev if e["kind"] == "recoil" and e["id"] == "f"]
        if lost == "a":  # its side lost: the flanker recoils
            assert rec and rec[0]["rule"] == "dbm-3.2:cc.fort-corner"
        else:  # its side won: the flanker neither recoils nor pursues over the fortification
            assert not rec and not any(
                e.get("id") == "f" for e in ev if e["kind"] in ("storm-pursue", "pursue")
            )
            assert "d" not in st.board.el or not any(
                e["kind"] == "destroyed" and e["id"] == "d" and e.get("why") == "recoil blocked" for e in ev
            )
    assert seen == {"a", "d"}


def test_cc_fort_corner_neither_section_defended_main_and_flanker(tables: Any) -> None:
    results = set()
    for seed in range(16):
        a = _el(tables, "a", "red", "Sp", 1300.0, 1170.0 - D / 2, 0.0)
        f = _el(tables, "f", "red", "Bd", 1430.0 + D / 2, 1300.0, 270.0)
        st = _state(seed, [WALL, SIDE], [a, f])
        ev = _finish(st, {"a", "f"})
        fa = [e for e in ev if e["kind"] == "fort-assault"]
        assert len(fa) == 1
        # the engine chooses for the assaulting player: the higher base factor v foot is the main
        assert fa[0]["id"] == "f" and fa[0]["flanker"] == "a" and fa[0]["section"] == 1
        da, db = fa[0]["dice"]
        flank = sum(m.delta for m in tables.factors.tactical if m.when == "flank-contact")
        assert fa[0]["totals"]["fort"] == tables.game.undefended_fort + db + flank
        results.add(fa[0]["result"])
        if fa[0]["result"] == "lower":
            assert any(e["kind"] == "recoil" and e["id"] == "a" for e in ev)
        assert not any(e["kind"] == "storm-pursue" and e["id"] == "a" for e in ev)
    assert "higher" in results


def test_inner_edge_of_an_east_facing_section(tables: Any) -> None:
    f = _el(tables, "f", "red", "Bd", 1430.0 + D / 2, 1300.0, 270.0)
    assert inner_edge_distance(SIDE, f) == pytest.approx(30.0)


def test_undefended_fort_score_is_user_data(tmp_path: Any) -> None:
    import shieldwall.rulesets.dbm.scenario as sc

    real = sc.sample_tables()
    game = real.game.model_copy(update={"undefended_fort": None})
    fake = type(real).__new__(type(real))
    fake.__dict__.update(real.__dict__)
    fake.__dict__["game"] = game
    orig = sc.sample_tables
    sc.sample_tables = lambda: fake  # type: ignore[assignment]
    try:
        with pytest.raises(DataError, match="undefended_fort"):
            build_scenario(_data(fortifications=[WALL]), "f.toml")
        build_scenario(_data(), "f.toml")  # without fortifications it is not needed
    finally:
        sc.sample_tables = orig  # type: ignore[assignment]
