"""The line-up shifts (dbm-3.2:move.lineup-shift) and conforms (dbm-3.2:move.conform) of the last two
bounds on the table: ``DbmState.view()["recent_adjustments"]`` and each moved unit's ``adjustments``,
drawn by the plugin's drawing as a dashed ghost of the base before, an arrow to the base after and a
label, with a tooltip citing the clause. The event log is unchanged by them (the goldens check it
byte for byte). Played on ford-of-ash, seed 2, scripted v scripted (illustrative sample data, NOT
the published DBM tables)."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from typing import Any

from tests.dbm.test_dbm_game import _data
from tests.dbm.test_dbm_make_room import _scene

from shieldwall.render.svg import render_svg
from shieldwall.rulesets.dbm.advance import Plan, apply_plan, corners
from shieldwall.rulesets.dbm.bots import ScriptedBot
from shieldwall.rulesets.dbm.game import DbmGame
from shieldwall.rulesets.dbm.state import DbmState
from shieldwall.rulesets.dbm.tables import Tables

SVG = "{http://www.w3.org/2000/svg}"


def _until(kind: str, seed: int = 2) -> tuple[DbmState, dict[str, list[list[float]]], int]:
    """Play until an order makes an adjustment of ``kind``: the state, every base's corners before
    that order, and how many events there were before it."""
    st = DbmGame.from_data(_data(), "ford-of-ash.toml").new_state(seed)
    bots = {"red": ScriptedBot(1), "blue": ScriptedBot(2)}
    for _ in range(400):
        d = st.decision()
        assert d is not None, f"no {kind} before the end of the battle"
        before = {i: corners(e.fp) for i, e in st.board.el.items()}
        n = len(st.events)
        st.apply(bots[d.side].choose(st))
        if any(e.kind == kind for e in st.events[n:]):
            return st, before, n
    raise AssertionError(f"no {kind} in 400 orders")


def _marks(svg: str, kind: str) -> list[ET.Element]:
    root = ET.fromstring(svg)
    return [g for g in root.iter(SVG + "g") if g.get("class") == f"dbm-adjust dbm-adjust-{kind}"]


def _centre(cs: list[list[float]]) -> tuple[float, float]:
    return (sum(p[0] for p in cs) / 4, sum(p[1] for p in cs) / 4)


def _check_drawn(view: dict[str, Any], kind: str, clause: str, ids: list[str], label: str) -> None:
    marks = {g.get("data-unit"): g for g in _marks(render_svg(view, scale=0.5), kind)}
    assert set(ids) <= set(marks)
    for i in ids:
        g = marks[i]
        assert g.get("data-clause") == clause
        title = g.find(SVG + "title")
        assert title is not None and clause in str(title.text) and label in str(title.text)
        ghost = g.find(SVG + "polygon[@class='dbm-ghost']")
        assert ghost is not None and ghost.get("stroke-dasharray")
        assert g.find(SVG + "line[@class='dbm-arrow']") is not None
        assert g.find(SVG + "polygon[@class='dbm-arrow-head']") is not None
    labels = [t.text for g in marks.values() for t in g.iter(SVG + "text")]
    assert label in labels  # once per group, on its first element


def test_move_lineup_shift_shown_on_the_table() -> None:
    st, before, n = _until("lineup-shift")
    shift = next(e for e in st.events[n:] if e.kind == "lineup-shift")
    assert shift.rule == "dbm-3.2:move.lineup-shift" and "adjust" not in shift.data  # the log as before
    ids, paces = list(shift.data["ids"]), abs(float(shift.data["paces"]))
    view = st.view()
    got = {a["id"]: a for a in view["recent_adjustments"] if a["kind"] == "lineup-shift"}
    assert set(got) == set(ids)
    label = f"line-up shift {paces:g} p"
    for i in ids:
        a = got[i]
        assert a["clause"] == "dbm-3.2:move.lineup-shift" and a["label"] == label
        assert (a["bound"], a["side"]) == (st.bound_no, st.side)
        assert a["from"] == before[i] and a["to"] == corners(st.board.el[i].fp)
        # the sideways part of the move is the shift: along the front edge of the base before
        (fx, fy), (tx, ty) = _centre(a["from"]), _centre(a["to"])
        (ax, ay), (bx, by) = a["from"][0], a["from"][1]
        ux, uy = (bx - ax) / math.dist((ax, ay), (bx, by)), (by - ay) / math.dist((ax, ay), (bx, by))
        assert math.isclose(abs((tx - fx) * ux + (ty - fy) * uy), paces, abs_tol=0.01)
        unit = next(u for u in view["units"] if u["id"] == i)
        assert unit["adjustments"] == [{k: v for k, v in a.items() if k != "id"}]
    assert [a["lead"] for a in view["recent_adjustments"] if a["id"] in ids] == [i == ids[0] for i in ids]
    _check_drawn(view, "lineup-shift", "dbm-3.2:move.lineup-shift", ids, label)


def test_move_conform_shown_on_the_table() -> None:
    st, before, n = _until("conform")
    ev = next(e for e in st.events[n:] if e.kind == "conform")
    assert ev.rule == "dbm-3.2:move.conform" and set(ev.data) == {"id", "to", "how"}
    tid = str(ev.data["id"])
    view = st.view()
    a = next(a for a in view["recent_adjustments"] if a["kind"] == "conform" and a["id"] == tid)
    assert a["clause"] == "dbm-3.2:move.conform" and a["label"] == "conformed" and a["how"] == ev.data["how"]
    assert a["from"] == before[tid] and a["to"] == corners(st.board.el[tid].fp) and a["from"] != a["to"]
    _check_drawn(view, "conform", "dbm-3.2:move.conform", [tid], "conformed")


def test_adjustments_kept_for_two_bounds_and_deterministic() -> None:
    st, _, _ = _until("lineup-shift")
    again, _, _ = _until("lineup-shift")
    assert st.view() == again.view() and render_svg(st.view()) == render_svg(again.view())
    shifted = {(a["bound"], a["side"]) for a in st.view()["recent_adjustments"]}
    assert (st.bound_no, st.side) in shifted
    bots = {"red": ScriptedBot(1), "blue": ScriptedBot(2)}
    seen = [(st.bound_no, st.side)]
    copy = st.copy()
    while len(seen) < 3 and not st.is_terminal():  # the next bound keeps them, the one after drops them
        d = st.decision()
        assert d is not None
        st.apply(bots[d.side].choose(st))
        if (st.bound_no, st.side) != seen[-1]:
            seen.append((st.bound_no, st.side))
            kept = {(a["bound"], a["side"]) for a in st.view()["recent_adjustments"]}
            assert kept <= set(seen[-2:])
            assert (seen[0] in kept) == (len(seen) == 2)
    assert len(seen) == 3
    assert copy.view()["recent_adjustments"] != [] and copy.adjustments is not st.adjustments


def test_make_room_carries_where_the_group_went(tables: Tables) -> None:
    b = _scene(tables)
    was = {i: corners(b.el[i].fp) for i in ("m", "g", "t")}
    plan = Plan(["m", "g"], fps={i: b.el[i].fp for i in ("m", "g")}, dist=0.0)
    plan.contacts = [("m", "t", "front-on-corner")]
    ev = apply_plan(b, plan)
    room = next(e for e in ev if e["kind"] == "make-room")
    assert [(r["id"], r["from"]) for r in room["adjust"]] == [("m", was["m"]), ("g", was["g"])]
    assert [r["to"] for r in room["adjust"]] == [corners(b.el["m"].fp), corners(b.el["g"].fp)]
    conf = next(e for e in ev if e["kind"] == "conform")
    assert conf["adjust"] == [{"id": "t", "from": was["t"], "to": corners(b.el["t"].fp)}]
