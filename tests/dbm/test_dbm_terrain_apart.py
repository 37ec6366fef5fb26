"""The terrain procedure's features kept apart (dbm-3.2:terrain.position, ruling R47) and the
defender's and invader's further options in play. Sample data: illustrative, NOT the published
DBM tables."""

from __future__ import annotations

import tomllib
from importlib import resources
from itertools import combinations
from typing import Any

import pytest

from shieldwall.ai.random_bot import RandomBot
from shieldwall.rulesets.dbm.bots import ScriptedBot
from shieldwall.rulesets.dbm.game import DbmGame
from shieldwall.rulesets.dbm.state import DbmState
from shieldwall.rulesets.dbm.terrain import position_ok
from shieldwall.rulesets.dbm.terrain_place import clear_spot, nearest_edge, overlaps, taken_areas, waterways

SCEN = resources.files("shieldwall.rulesets.dbm") / "scenarios"


def _game(name: str, **kw: object) -> DbmGame:
    d = tomllib.loads((SCEN / f"{name}.toml").read_text(encoding="utf-8"))
    d.update(kw)
    return DbmGame.from_data(d, f"{name}.toml")


def _terrain(g: DbmGame, seed: int, bot: type) -> DbmState:
    st = g.new_state(seed)
    bots = {"red": bot(seed), "blue": bot(seed + 7)}
    while st.phase == "terrain":
        d = st.decision()
        assert d is not None
        st.apply(bots[d.side].choose(st))
    return st


def _areas(st: DbmState) -> list[dict[str, Any]]:
    return taken_areas(st)


GAMES = [("ash-burh", {}), ("ash-strand", {}), ("ford-of-ash", {"terrain_procedure": "dbm"})]


@pytest.mark.parametrize(("name", "kw"), GAMES)
def test_no_battle_terrain_overlaps(name: str, kw: dict[str, object]) -> None:
    """dbm-3.2:terrain.position (ruling R47): over many seeded battles, with the scripted and the
    random bots, no two area features (nor a feature and a fortification) overlap, and every
    feature the procedure placed stands where its position die allows."""
    g = _game(name, **kw)
    fixed = len(g.new_state(0).terrain)
    shifted = 0
    for seed in range(60):
        st = _terrain(g, seed, RandomBot if seed % 2 else ScriptedBot)
        areas = _areas(st)
        for a, b in combinations(areas, 2):
            assert not overlaps(a, b), (seed, a, b)
        placed = [e for e in st.events if e.kind == "terrain-placed" and "position_die" in e.data]
        for e in placed:
            rect = {k: e.data[k] for k in ("x0", "y0", "x1", "y1")}
            near = nearest_edge(rect, st.board.width, st.board.depth, waterways(st))
            assert position_ok(e.data["position_die"], near), (seed, e.data, near)
        assert len(st.terrain) >= fixed + len(placed)
        shifted += sum(1 for e in placed if e.data.get("shifted"))
    assert shifted > 0  # the rule was exercised, not only met by luck


def test_clear_spot_moves_to_the_nearest_clear_place_or_none() -> None:
    """Ruling R47 (dbm-3.2:terrain.position): the diced place if clear, else the nearest clear one
    at the same distance from a long edge; None when the table has no room at that distance."""
    w, d = 2400.0, 1600.0
    assert clear_spot(w, d, 1, 0.0, (250.0, 0.0), []) == (250.0, 0.0)
    wood = {"x0": 200.0, "y0": 0.0, "x1": 500.0, "y1": 250.0}
    assert clear_spot(w, d, 1, 0.0, (250.0, 0.0), [wood]) == (500.0, 0.0)
    # 5-6: no part within 300 p of any edge: the west sector's centre (x0 = 250) is too near
    x0, y0 = clear_spot(w, d, 5, 350.0, (250.0, 350.0), []) or (0.0, 0.0)
    assert (x0, y0) == (310.0, 350.0)
    full = [{"x0": 0.0, "y0": 0.0, "x1": w, "y1": d}]
    assert clear_spot(w, d, 3, 200.0, (250.0, 200.0), full) is None


def _orders(st: DbmState) -> list[str]:
    return [o.arg or "" for o in st.legal_orders()]


def _new(seed: int, *orders: str) -> DbmState:
    st = _game("ash-burh").new_state(seed)
    for o in orders:
        st.apply(f"terrain {o}")
    return st


def test_defender_ww_with_its_bua_in_play() -> None:
    """dbm-3.2:terrain.def-ww, dbm-3.2:terrain.ww-extent and dbm-3.2:terrain.def-bua in a battle:
    the defender (Norse-Irish, whose illustrative list permits a WW and allows a BUA) dices 5-6 for
    his WW; it runs along a full short edge, 300 to 300 + 100 x die p deep (never over 600 p), and
    his BUA touches it at his rear edge within one sector; a refused WW is not offered again."""
    st = _new(0, "none")
    assert "WW" in _orders(st) and st.terrain_steps.defender_fe == 0.5
    st.apply("terrain WW")
    assert [e.kind for e in st.events[-2:]] == ["die", "terrain-refused"]
    assert st.events[-1].rule == "dbm-3.2:terrain.def-ww" and "WW" not in _orders(st)
    st = _new(4, "none", "WW")
    ww = next(t for t in st.terrain if t["kind"] == "WW")
    bua = next(t for t in st.terrain if t["kind"] == "BUA")
    placed = next(e for e in st.events if e.kind == "terrain-placed" and e.data["what"] == "WW")
    face = placed.data["extent_die"]
    assert placed.rule == "dbm-3.2:terrain.def-ww" and placed.side == "blue"
    assert (ww["y0"], ww["y1"]) == (0.0, 1600.0) and (ww["x0"] == 0.0 or ww["x1"] == 2400.0)
    assert 300 <= ww["x1"] - ww["x0"] <= min(600, 300 + 100 * face)
    assert bua["x0"] == ww["x1"] or bua["x1"] == ww["x0"]  # in contact with the WW
    assert bua["y1"] == 1600.0 and (bua["x1"] <= 800 or bua["x0"] >= 1600)  # rear edge, 1 sector
    assert st.terrain_steps.defender_fe == 2.5 and st.terrain_steps.placed == ["wood", "WW", "BUA"]
    assert "WW" not in _orders(st) and "BUA" not in _orders(st)


def test_defender_bua_and_roads_in_play() -> None:
    """dbm-3.2:terrain.def-bua and dbm-3.2:terrain.def-roads in a battle: no WW, so the BUA goes
    in a flank sector, at his rear edge unless he dices 5-6; a road is offered only once it can
    link with his BUA or cross a road; at most 2 roads, each 1 FE (roads are not compulsory)."""
    st = _new(0, "none")
    assert "road" not in _orders(st)
    st.apply("terrain BUA")
    bua = st.terrain[-1]
    die = next(e for e in reversed(st.events) if e.kind == "die" and e.rule == "dbm-3.2:terrain.def-bua")
    assert die.data["face"] < 5 and bua["y1"] == 1600.0  # his rear edge (blue's, y = 1600)
    assert bua["x1"] <= 800 or bua["x0"] >= 1600
    assert "road" in _orders(st) and "BUA" not in _orders(st)
    st.apply("terrain road")
    road = st.terrain[-1]
    assert road["kind"] == "road" and (road["x0"], road["x1"]) == (0.0, 2400.0)
    assert road["y0"] < (bua["y0"] + bua["y1"]) / 2 < road["y1"]  # it links with the BUA
    assert st.events[-1].rule == "dbm-3.2:terrain.def-roads" and st.terrain_steps.defender_fe == 2.5
    # after the invader's road: two roads crossing it and each other, then no third
    st = _new(0, "road", "road", "road")
    first, second = st.terrain[-2], st.terrain[-1]
    assert (first["x0"], first["x1"]) == (0.0, 2400.0) and (second["y0"], second["y1"]) == (0.0, 1600.0)
    assert st.terrain_steps.roads == 2 and "road" not in _orders(st)
    assert st.terrain_steps.defender_fe == 2.5


def test_invader_road_with_steep_hills_in_play() -> None:
    """dbm-3.2:terrain.inv-road: a road through the central sectors plus 2-3 FE of steep hills,
    placed by the invader (kept apart like any feature) and not satisfying compulsory terrain."""
    for seed, n in ((1, 2), (2, 3)):
        st = _new(seed, f"road-hills-{n}")
        hills = [e for e in st.events if e.kind == "terrain-placed" and e.data["what"] == "hill-steep"]
        assert len(hills) == n and {(e.side, e.rule) for e in hills} == {("red", "dbm-3.2:terrain.inv-road")}
        road = next(t for t in st.terrain if t["kind"] == "road")
        assert (road["x0"] + road["x1"]) / 2 == 1200.0 and (road["y0"], road["y1"]) == (0.0, 1600.0)
        assert st.terrain_steps.invader == "road" and st.side == "blue"
        wood = [e for e in st.events if e.kind == "terrain-placed" and e.data["what"] == "wood"]
        assert len(wood) == 1  # the defender's compulsory wood is still his to place
        for a, b in combinations(taken_areas(st), 2):
            assert not overlaps(a, b)


def test_invader_water_refused_then_a_non_water_option() -> None:
    """dbm-3.2:terrain.inv-river: a river the dice refuse leaves the invader to choose again, a
    non-water-feature option only."""
    st = _new(1, "river")
    assert st.events[-1].kind == "terrain-refused" and st.events[-1].rule == "dbm-3.2:terrain.inv-river"
    assert st.side == "red" and _orders(st) == ["none", "road", "road-hills-2", "road-hills-3"]
    st.apply("terrain road")
    assert st.side == "blue" and st.terrain_steps.invader == "road"


def test_invader_ww_in_a_battle() -> None:
    """dbm-3.2:terrain.inv-ww and dbm-3.2:terrain.ww-extent in a battle: the illustrative scenario
    ash-strand gives the invader 2 boats, so he may provide a WW (4-6 to place it, the WW not being
    compulsory for the defender); it runs along a full short edge, 300 to 300 + 100 x die p deep,
    never over 600 p; the battle then plays to its end. Without 2 naval elements (ash-burh) the
    option is not offered."""
    assert "WW" not in _orders(_new(0))
    g = _game("ash-strand")
    st = g.new_state(0)
    assert "WW" in _orders(st)
    st.apply("terrain WW")
    die = st.events[1]
    assert die.kind == "die" and die.rule == "dbm-3.2:terrain.inv-ww" and die.data["face"] >= 4
    placed = next(e for e in st.events if e.kind == "terrain-placed" and e.data["what"] == "WW")
    assert placed.rule == "dbm-3.2:terrain.inv-ww" and placed.side == "red"
    ww = next(t for t in st.terrain if t["kind"] == "WW")
    assert (ww["y0"], ww["y1"]) == (0.0, 1600.0) and (ww["x0"] == 0.0 or ww["x1"] == 2400.0)
    assert 300 <= ww["x1"] - ww["x0"] <= min(600, 300 + 100 * placed.data["extent_die"])
    assert st.terrain_steps.invader == "WW" and st.side == "blue"
    assert "WW" not in _orders(st)  # one WW only (terrain.def-ww: none already present)
    st = g.new_state(1)
    st.apply("terrain WW")
    assert st.events[-1].kind == "terrain-refused" and st.side == "red"
    assert "WW" not in _orders(st) and "river" not in _orders(st)  # a non-water option now
    st = g.new_state(0)
    bots = {"red": ScriptedBot(1), "blue": ScriptedBot(2)}
    st.apply("terrain WW")
    for _ in range(3000):
        if st.is_terminal():
            break
        d = st.decision()
        assert d is not None
        st.apply(bots[d.side].choose(st))
    assert st.is_terminal() and st.result() is not None


def test_scripted_defender_takes_bua_and_road_only_when_needed() -> None:
    """dbm-3.2:terrain.def-total with dbm-3.2:terrain.def-bua and dbm-3.2:terrain.def-roads: the
    scripted defender keeps to area kinds of his list when they reach 2 FE (the sample battles), and
    takes his BUA, then a road linking it, when nothing else can (a list permitting only its
    compulsory wood, a BUA and roads)."""
    from dataclasses import replace

    from shieldwall.rulesets.dbm.scenario import Scenario

    g = _game("ash-burh")
    st = _terrain(g, 0, ScriptedBot)
    mine = [e.data["what"] for e in st.events if e.kind == "terrain-placed" and e.side == "blue"]
    assert mine == ["wood", "brush", "hill-gentle"]
    sc = g.scenario
    name = sc.armies["blue"].army_list
    lst = sc.tables.lists[name].model_copy(update={"permitted_terrain": ["wood", "BUA", "road"]})
    tables = replace(sc.tables, lists={**sc.tables.lists, name: lst})
    g2 = DbmGame(Scenario(sc.spec, tables, sc.armies), {})
    st = _terrain(g2, 0, ScriptedBot)
    mine = [e.data["what"] for e in st.events if e.kind == "terrain-placed" and e.side == "blue"]
    assert mine == ["wood", "BUA", "road"] and st.terrain_steps.defender_fe == 2.5


def test_rivers_end_at_the_ww_and_a_ww_never_covers_a_river() -> None:
    """dbm-3.2:terrain.def-river ("to a WW") and dbm-3.2:terrain.ww-extent (ruling R48): a river
    from short edge to short edge is cut back to the WW's inner edge; the invader's river, from
    long edge to long edge, is never covered by a WW. Checked over seeded random procedures."""
    for name in ("ash-burh", "ash-strand"):
        g = _game(name)
        for seed in range(1, 80, 2):
            st = _terrain(g, seed, RandomBot)
            ww = waterways(st)
            rivers = [t for t in st.terrain if t["kind"] in ("river", "stream")]
            for r in rivers:
                for x in ww:
                    assert not overlaps(r, x), (name, seed, r, x)
    # the invader's WW along the west edge, 400 p deep; the defender's river (a 6) flows to it
    st = _game("ash-strand").new_state(3)
    st.apply("terrain WW")
    st.apply("terrain river")
    assert st.events[-1].rule == "dbm-3.2:terrain.def-river" and st.events[-1].kind == "terrain-placed"
    ww, river = waterways(st)[0], st.terrain[-1]
    assert (ww["x0"], ww["x1"]) == (0.0, 400.0)
    assert river["kind"] == "river" and (river["x0"], river["x1"]) == (400.0, 2400.0)


def _variant(compulsory: list[str], **update: object) -> DbmGame:
    """ash-burh with the defender's illustrative Norse-Irish list given other compulsory terrain
    (an illustrative variant built here, not the publisher's)."""
    from dataclasses import replace

    from shieldwall.rulesets.dbm.scenario import Scenario

    sc = _game("ash-burh").scenario
    name = sc.armies["blue"].army_list
    lst = sc.tables.lists[name].model_copy(update={"compulsory_terrain": compulsory, **update})
    return DbmGame(Scenario(sc.spec, replace(sc.tables, lists={**sc.tables.lists, name: lst}), sc.armies), {})


def _placed(st: DbmState) -> list[tuple[str, str]]:
    return [
        (e.data["what"], e.rule or "") for e in st.events if e.kind == "terrain-placed" and e.side == "blue"
    ]


def test_compulsory_ww_river_bua_road_placed_first_for_the_defender() -> None:
    """dbm-3.2:terrain.def-phases with dbm-3.2:terrain.def-total, dbm-3.2:terrain.def-ww,
    dbm-3.2:terrain.def-river, dbm-3.2:terrain.def-bua and dbm-3.2:terrain.def-roads (ruling R46):
    one feature of each compulsory terrain type is placed for him in phase (i), WW (with its BUA
    touching it), river, then his area kind, then the road, whatever the list's order; no die for
    the compulsory WW or river (the zone die still places the river); each counts half, the first
    compulsory road 0 FE: 0.5 + 0.5 + 0.5 + 0.5 + 0 = 2 FE (the BUA is compulsory too)."""
    g = _variant(["road", "wood", "BUA", "river", "WW"])
    for seed in (0, 1, 2):
        st = g.new_state(seed)
        st.apply("terrain none")
        ts = st.terrain_steps
        assert [w for w, _ in _placed(st)] == ["WW", "BUA", "river", "wood", "road"]
        assert ts.placed == ["WW", "BUA", "river", "wood", "road"] and ts.compulsory == 5
        assert ts.defender_fe == 2.0 and ts.roads == 1 and ts.bua and ts.ww_tried and ts.river_tried
        dice = [e.data.get("why") for e in st.events if e.kind == "die"]
        assert "defender WW: 5-6" not in dice and "defender river: 6" not in dice
        assert "river zone" in dice
        ww = next(t for t in st.terrain if t["kind"] == "WW")
        bua = next(t for t in st.terrain if t["kind"] == "BUA")
        river = next(t for t in st.terrain if t["kind"] == "river")
        assert bua["x0"] == ww["x1"] or bua["x1"] == ww["x0"]  # in contact with the WW
        assert not overlaps(river, ww)  # the river flows to the WW (ruling R48)
        # phase (ii): no second WW, BUA or river; a second road (1 FE) still fits
        assert {"WW", "BUA", "river"}.isdisjoint(_orders(st)) and "road" in _orders(st)
        assert "done" in _orders(st)


def test_compulsory_kinds_already_present_are_not_placed_again() -> None:
    """dbm-3.2:terrain.def-phases ("each compulsory terrain type not yet present") and
    dbm-3.2:terrain.def-roads: after the invader's road the defender's compulsory road is not
    placed again (his river and BUA are, river first); without a WW his compulsory BUA goes in a
    flank sector after the die for his rear edge (5-6 frees it)."""
    g = _variant(["road", "BUA", "river"])
    st = g.new_state(0)
    st.apply("terrain road")
    ts = st.terrain_steps
    assert ts.placed == ["river", "BUA"] and ts.compulsory == 2 and ts.defender_fe == 1.0
    assert ts.roads == 0 and [t["kind"] for t in st.terrain].count("road") == 1
    die = next(e for e in st.events if e.kind == "die" and e.rule == "dbm-3.2:terrain.def-bua")
    bua = next(t for t in st.terrain if t["kind"] == "BUA")
    assert bua["x1"] <= 800 or bua["x0"] >= 1600  # a flank sector
    assert die.data["face"] >= 5 or bua["y1"] == 1600.0  # his rear edge unless he diced 5-6


def test_optional_area_feature_closes_ww_river_and_bua() -> None:
    """dbm-3.2:terrain.def-phases: in his optional phase WW, river and BUA/fields come first: once
    he places an optional area feature (not fields) they are no longer offered."""
    st = _new(0, "none")
    assert {"WW", "river", "BUA"} <= set(_orders(st))
    st.apply("terrain brush")
    assert {"WW", "river", "BUA"}.isdisjoint(_orders(st))


def test_compulsory_area_kind_present_is_not_placed_but_invader_hills_do_not_count() -> None:
    """dbm-3.2:terrain.def-total ("each compulsory terrain type not yet present") with
    dbm-3.2:terrain.inv-road: the scenario's wood satisfies the defender's compulsory wood (ford-of-
    ash played by the procedure), so he starts at 0 FE; the invader's steep hills never satisfy a
    compulsory steep hill (an illustrative list variant), so the defender still places one."""
    st = _game("ford-of-ash", terrain_procedure="dbm").new_state(0)
    st.apply("terrain none")
    assert st.terrain_steps.placed == [] and st.terrain_steps.defender_fe == 0.0
    assert st.side == "blue" and "done" not in _orders(st)
    st = _variant(["hill-steep"], permitted_terrain=["hill-steep", "wood"]).new_state(1)
    st.apply("terrain road-hills-2")
    assert st.terrain_steps.placed == ["hill-steep"] and st.terrain_steps.defender_fe == 0.5
    assert [t["kind"] for t in st.terrain].count("hill-steep") == 3


def test_bua_off_the_rear_edge_only_on_a_5_or_6() -> None:
    """dbm-3.2:terrain.def-bua: away from a WW the BUA's die is thrown: below 5 it stands at his
    rear edge (blue's, y = 1600); on 5-6 its position die places it in its flank sector (ruling R48).
    Both outcomes are reached over seeds."""
    seen = set()
    for seed in range(30):
        st = _new(seed, "none", "BUA")
        die = next(e for e in st.events if e.kind == "die" and e.rule == "dbm-3.2:terrain.def-bua")
        placed = next(e for e in st.events if e.kind == "terrain-placed" and e.data["what"] == "BUA")
        bua = next(t for t in st.terrain if t["kind"] == "BUA")
        assert bua["x1"] <= 800 or bua["x0"] >= 1600
        if die.data["face"] >= 5:
            assert "position_die" in placed.data and "rear_edge" not in placed.data
        else:
            assert placed.data["rear_edge"] is True and bua["y1"] == 1600.0
        seen.add(die.data["face"] >= 5)
    assert seen == {True, False}


def test_compulsory_feature_that_cannot_be_placed_is_logged(monkeypatch: pytest.MonkeyPatch) -> None:
    """dbm-3.2:terrain.def-ww, dbm-3.2:terrain.def-bua and dbm-3.2:terrain.def-total in phase (i)
    (ruling R46): a compulsory WW or BUA that no place fits, or an area kind that would take the
    defender past 3 FE, is not placed, and the log says which and why (a terrain-refused event
    marked compulsory) instead of leaving it out silently."""
    from shieldwall.rulesets.dbm import terrain_steps

    monkeypatch.setattr(terrain_steps, "ww_room", lambda *a, **k: False)
    monkeypatch.setattr(terrain_steps, "bua_room", lambda *a, **k: False)
    st = _variant(["WW", "BUA", "wood"]).new_state(0)
    st.apply("terrain none")
    refused = [e for e in st.events if e.kind == "terrain-refused" and e.data.get("compulsory")]
    assert [(e.data["what"], e.rule) for e in refused] == [
        ("WW", "dbm-3.2:terrain.def-ww"),
        ("BUA", "dbm-3.2:terrain.def-bua"),
    ]
    assert all("no place" in e.data["why"] for e in refused)
    assert [w for w, _ in _placed(st)] == ["wood"]
