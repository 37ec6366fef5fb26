"""dbm-3.2:move.conform exception (f), the skirmisher case: skirmishers contacted by foot still
pivot or shift if the moving group, moved straight back, makes room for it (ruling R30)."""

from __future__ import annotations

from tests.dbm.test_dbm_geometry import _board

from shieldwall.rulesets.dbm.advance import Plan, apply_plan
from shieldwall.rulesets.dbm.board import Board
from shieldwall.rulesets.dbm.elements import make
from shieldwall.rulesets.dbm.geom import corner, legal_contact
from shieldwall.rulesets.dbm.moves import conform
from shieldwall.rulesets.dbm.tables import Tables


def _scene(tables: Tables, target: str = "Ps", mover: str = "Sp") -> Board:
    """Foot m (with g beside it) has touched a tilted enemy ``target`` with its front edge; a second
    enemy 5 p too close ahead leaves no room to pivot in place."""
    hd = tables.depth(mover) / 2
    m = make(tables, "m", "red", mover, "O", 0, 0, 0)
    g = make(tables, "g", "red", mover, "O", -80, 0, 0)
    t = make(tables, "t", "blue", target, "O", 0, 0, 200)
    c = corner(t.fp, "fl")
    t = t.at(t.fp.moved(10 - c[0], hd - c[1]))
    x_y = hd + tables.depth(target) - 5 + tables.depth("Bd") / 2
    x = make(tables, "x", "blue", "Bd", "O", 70, x_y, 180)  # clear of t, but in its pivot space
    return _board(tables, m, g, t, x)


def test_skirmishers_contacted_by_foot_get_room_from_the_group(tables: Tables) -> None:
    b = _scene(tables)
    c = conform(b, "t", "m", mover_group_size=2, group_ids=["m", "g"])
    assert c.kind == "pivot" and c.exception == "" and c.group_back == 5.0 and c.fp is not None
    # without the group moving back there is no room: a non-skirmisher keeps exception (f)
    assert conform(_scene(tables, target="Sp"), "t", "m", mover_group_size=2).exception == "f"


def test_make_room_only_for_foot_contactors(tables: Tables) -> None:
    b = _scene(tables, mover="Cv")
    assert conform(b, "t", "m", mover_group_size=2, group_ids=["m", "g"]).exception == "f"


def test_make_room_applied_by_the_battle_move(tables: Tables) -> None:
    """apply_plan (what a battle's advance order runs) moves the group back, then the skirmisher
    pivots to face its contactor, in legal front-to-front contact."""
    b = _scene(tables)
    before = {i: b.el[i].fp for i in ("m", "g")}
    plan = Plan(["m", "g"], fps={i: b.el[i].fp for i in ("m", "g")}, dist=0.0)
    plan.contacts = [("m", "t", "front-on-corner")]
    ev = apply_plan(b, plan)
    room = next(e for e in ev if e["kind"] == "make-room")
    assert room["rule"] == "dbm-3.2:move.conform" and room["paces"] == 5.0 and room["for"] == "t"
    assert any(e["kind"] == "conform" and e["id"] == "t" for e in ev)
    for i in ("m", "g"):
        assert b.el[i].fp.y == before[i].y - 5.0 and b.el[i].fp.x == before[i].x
    assert legal_contact(b.el["t"].fp, b.el["m"].fp) == "front-to-front"
