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


GAMES = [("ash-burh", {}), ("ford-of-ash", {"terrain_procedure": "dbm"})]


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
