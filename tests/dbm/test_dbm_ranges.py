"""The ranges DBM's table draws from a selected element (the plugin's ``ranges``), in paces: its
range from the tables' range_p (Bw 200 p, dbm-3.2:fig.10b), the arc of fire the engine tests
(the rectangle 1 BW either side of the front, dbm-3.2:shoot.who, ruling R27) and a line to each
enemy within range saying whether ``shooting.targets`` lets it shoot (dbm-3.2:shoot.forbidden).
Illustrative sample data (NOT the published DBM tables)."""

from __future__ import annotations

import math
from typing import Any

from shieldwall import registry
from shieldwall.core.polygons import point_in_polygon
from shieldwall.rulesets.dbm.board import Board
from shieldwall.rulesets.dbm.elements import make
from shieldwall.rulesets.dbm.game import DbmGame
from shieldwall.rulesets.dbm.geom import can_target, shooting_box
from shieldwall.rulesets.dbm.ranges import ranges
from shieldwall.rulesets.dbm.shooting import targets
from shieldwall.rulesets.dbm.tables import Tables
from shieldwall.rulesets.dbm.turn import Bound

from .test_dbm_game import _data

X, Y = 1000.0, 600.0


def _st(tables: Tables, *els: Any) -> Any:
    st = DbmGame.from_data(_data(), "f.toml").new_state(1)
    st.board = Board(tables, list(els))
    st.bound = None
    return st


def _mk(t: Tables, eid: str, side: str, code: str, x: float, y: float, h: float = 0.0) -> Any:
    return make(t, eid, side, code, "O", X + x, Y + y, h)


def test_bow_range_and_arc_of_fire_are_the_engines(tables: Tables) -> None:
    st = _st(
        tables,
        _mk(tables, "a", "red", "Bw", 0, 0),
        _mk(tables, "b", "blue", "Sp", 0, 150, 180),  # straight ahead
        _mk(tables, "c", "blue", "Sp", 110, 150, 180),  # partly in the arc
        _mk(tables, "f", "blue", "Sp", 250, 100, 180),  # within range, outside the arc
        _mk(tables, "g", "blue", "Sp", 0, 600, 180),  # beyond range: no line
    )
    r = ranges(st, "a")
    assert r is not None and r["sight_label"] == "may shoot at"
    band, arc = r["shapes"]
    assert band["label"] == "Bw range 200 p" and band["rule"] == "dbm-3.2:fig.10b"
    a = st.board.el["a"]
    far = [min(math.dist(p, c) for c in a.fp.corners()) for p in band["points"]]
    assert min(far) >= 200 - 0.1 and max(far) <= 200 + 0.1
    assert arc["rule"] == "dbm-3.2:shoot.who" and "shoots b" in arc["label"]
    box = shooting_box(a.fp, 200, tables.bw)
    assert [tuple(p) for p in arc["points"]] == [(round(x, 3), round(y, 3)) for x, y in box]
    for e in st.board.el.values():
        if e.side == "blue":
            assert can_target(a.fp, e.fp, 200, tables.bw) is (e.id in ("b", "c"))
    lines = {x["unit"]: x for x in r["sight"]}
    assert set(lines) == {"b", "c", "f"}
    assert {k for k, v in lines.items() if v["visible"]} == {t.id for t in targets(st.board, a)} == {"b", "c"}
    assert "rectangle 1 BW" in lines["f"]["why"] and lines["f"]["rule"] == "dbm-3.2:shoot.who"
    assert point_in_polygon(tuple(lines["b"]["to"]), [tuple(p) for p in arc["points"]])


def test_a_marched_bow_and_an_element_that_does_not_shoot(tables: Tables) -> None:
    st = _st(tables, _mk(tables, "a", "red", "Bw", 0, 0), _mk(tables, "b", "blue", "Sp", 0, 150, 180))
    st.bound = Bound("red")
    st.bound.marched.add("a")
    r = ranges(st, "a")
    assert r is not None and [x["visible"] for x in r["sight"]] == [False]
    assert (
        r["sight"][0]["why"] == "a marched or fled this bound"
        and r["sight"][0]["rule"] == "dbm-3.2:shoot.who"
    )
    assert ranges(st, "b") == {"unit": "b", "shapes": [], "sight": []}  # spears do not shoot
    assert ranges(st, "zz") is None


def test_dbm_plugin_names_its_ranges() -> None:
    rs = registry.find("dbm-3.2")
    assert rs is not None and rs.optional("ranges") is ranges
