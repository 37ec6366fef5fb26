"""Slice 1: the data schemas, the sample set (labelled illustrative), the text's locked values and
army points (T1, T2 of the clause inventory)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from shieldwall.core.errors import DataError
from shieldwall.rulesets.dbm.army import baggage_required, cost_army, list_entry_mounted, paid_as
from shieldwall.rulesets.dbm.schemas import SAMPLE_LABEL, ArmyElement, ListEntry, OrderOfBattle
from shieldwall.rulesets.dbm.tables import Tables, load_order_of_battle, load_tables

from .conftest import SAMPLE


def _edit(folder: Path, name: str, old: str, new: str) -> None:
    p = folder / name
    text = p.read_text()
    assert old in text, old
    p.write_text(text.replace(old, new, 1))


def test_sample_is_labelled_everywhere(tables: Tables) -> None:
    assert tables.illustrative and tables.label == SAMPLE_LABEL
    for p in SAMPLE.rglob("*.toml"):
        assert "NOT the published DBM tables" in p.read_text(), p


def test_cost_bd_ax_text_rows(tables: Tables) -> None:  # T1
    assert [tables.cost(True, "Bd", g) for g in "SOIFX"] == [8, 6, 4, 6, 7]
    assert tables.cost(False, "Bd", "I") == 3
    assert [tables.cost(True, "Ax", g) for g in "SOIX"] == [4.5, 3.5, 2.5, 3]


def test_cost_bd_ax_contradiction_names_the_clause(sample_copy: Path) -> None:
    _edit(sample_copy, "costs.toml", "ap = 8.0   # text: cost.bd-ax", "ap = 9.0")
    with pytest.raises(DataError, match=re.escape("dbm-3.2:cost.bd-ax")) as e:
        load_tables(sample_copy)
    assert e.value.file.endswith("costs.toml") and e.value.field.startswith("cost[")


def test_cost_bd_ax_half_points_only(sample_copy: Path) -> None:
    _edit(sample_copy, "costs.toml", "ap = 4.5", "ap = 4.25")
    with pytest.raises(DataError, match="multiple of 0.5"):
        load_tables(sample_copy)


def test_factor_bw_cm_locked(sample_copy: Path, tables: Tables) -> None:
    assert tables.base("Bw").v_mounted == 4 and tables.base("Bw").v_bowmen_shooting == 3
    assert (tables.base("Cm").v_mounted, tables.base("Cm").v_naval, tables.base("Cm").v_foot) == (4, 3, 2)
    _edit(
        sample_copy,
        "factors.toml",
        "v_mounted = 4\nv_naval = 3\nv_bowmen_shooting",
        "v_mounted = 5\nv_naval = 3\nv_bowmen_shooting",
    )
    with pytest.raises(DataError, match=re.escape("dbm-3.2:factor.bw-cm")) as e:
        load_tables(sample_copy)
    assert e.value.field == "base.Bw.v_mounted"


def test_factor_bw_cm_filled_when_omitted(sample_copy: Path) -> None:
    p = sample_copy / "factors.toml"
    text = p.read_text()
    start = text.index("[base.Cm]")
    end = text.index("[[tactical]]")
    p.write_text(text[:start] + text[end:])
    t = load_tables(sample_copy)
    assert t.base("Cm").v_mounted == 4


def test_rs_deleted_bullets_refused(sample_copy: Path) -> None:
    p = sample_copy / "factors.toml"
    p.write_text("[rear_support]\nrs_base_13 = 1\n\n" + p.read_text())
    with pytest.raises(DataError, match=re.escape("dbm-3.2:rs.deleted")):
        load_tables(sample_copy)


def test_fig_10b_bow_range_locked(sample_copy: Path, tables: Tables) -> None:
    assert tables.ranges.range_p["Bw"] == 200
    _edit(sample_copy, "ranges.toml", "Bw = 200.0", "Bw = 240.0")
    with pytest.raises(DataError, match=re.escape("dbm-3.2:fig.10b")):
        load_tables(sample_copy)


def test_fig_11_overlap_and_general_locked(sample_copy: Path) -> None:
    _edit(sample_copy, "factors.toml", "delta = -1     # text: Fig 11a/b", "delta = -2     #")
    with pytest.raises(DataError, match=re.escape("dbm-3.2:fig.11")):
        load_tables(sample_copy)


def test_out_kn_text_row_cannot_be_replaced(sample_copy: Path) -> None:
    p = sample_copy / "outcomes.toml"
    p.write_text('[[row]]\nloser = "Kn"\nband = "beaten"\ndestroyed_by = []\n\n' + p.read_text())
    with pytest.raises(DataError, match=re.escape("dbm-3.2:out.kn")):
        load_tables(sample_copy)


def test_terrain_ww_extent_one_fe(sample_copy: Path) -> None:
    _edit(sample_copy, "terrain.toml", "fe = 1.0         # text", "fe = 2.0         #")
    with pytest.raises(DataError, match=re.escape("dbm-3.2:terrain.ww-extent")):
        load_tables(sample_copy)


def test_victory_quarter_scale_locked(sample_copy: Path) -> None:
    _edit(sample_copy, "game.toml", "vp_scale_max = 10", "vp_scale_max = 20")
    with pytest.raises(DataError, match=re.escape("dbm-3.2:victory.quarter")):
        load_tables(sample_copy)


def test_missing_file_and_unknown_field(sample_copy: Path) -> None:
    (sample_copy / "pips.toml").unlink()
    with pytest.raises(DataError, match="pips.toml: file not found"):
        load_tables(sample_copy)


def test_unknown_troop_code(sample_copy: Path) -> None:
    _edit(sample_copy, "ranges.toml", "Art = 500.0", "Xyz = 500.0")
    with pytest.raises(DataError, match="unknown troop type 'Xyz'"):
        load_tables(sample_copy)


def _oob(tables: Tables, name: str) -> OrderOfBattle:
    return load_order_of_battle(SAMPLE / "armies" / f"{name}.toml")


def test_sample_armies_cost_and_validate(tables: Tables) -> None:
    for n in ("frankish", "norse-irish"):
        rep = cost_army(_oob(tables, n), tables)
        assert rep.ok, rep.problems
        assert rep.baggage == 6 and rep.total <= 400
    assert cost_army(_oob(tables, "frankish"), tables).total == 130.5


def test_size_baggage_400_and_401(tables: Tables) -> None:  # T2
    assert baggage_required(400) == 6 and baggage_required(400.5) == 8 and baggage_required(401) == 8
    oob = _oob(tables, "frankish")
    rep = cost_army(oob.model_copy(update={"baggage": 8}), tables)
    assert any(c == "dbm-3.2:size.baggage" for c, _ in rep.problems)


def test_lists_baggage_is_army_level(tables: Tables) -> None:
    # allied contingents bring no baggage: the order of battle has one baggage count for the army
    assert "baggage" not in OrderOfBattle.model_fields["commands"].annotation.__args__[0].model_fields  # type: ignore[union-attr]


def test_flank_who_c_in_c_cannot_flank_march(tables: Tables) -> None:
    oob = _oob(tables, "frankish")
    cmds = [oob.commands[0].model_copy(update={"flank_march": True}), oob.commands[1]]
    rep = cost_army(oob.model_copy(update={"commands": cmds}), tables)
    assert any(c == "dbm-3.2:flank.who" for c, _ in rep.problems)


def test_basing_cv_double_paid_as_cv_o(tables: Tables) -> None:
    el = ArmyElement(id="c", code="Cv", grade="S", regular=True, double_base=True)
    assert paid_as(el) == (True, "Cv", "O")
    assert paid_as(el.model_copy(update={"double_base": False})) == (True, "Cv", "S")


def test_lists_cv_s_double_downgraded(tables: Tables) -> None:
    el = ArmyElement(id="c", code="Cv", grade="S", regular=False, double_base=True)
    assert paid_as(el)[2] == "O"


def test_exchange_optional_mount() -> None:
    e = ListEntry(code="Ax", grade="O", regular=True, min=0, max=2, mounted="compulsory")
    assert list_entry_mounted(e) == "optional"


def test_size_el_general_paid_as_regular(tables: Tables) -> None:
    el = ArmyElement(id="g", code="El", grade="O", regular=True, general=True)
    assert paid_as(el) == (True, "El", "O")


def test_troops_cv_s_and_cv_o_are_list_grades(tables: Tables) -> None:
    # classification only ("troops.cv-s", "troops.cv-o"): the list carries the grade; both are legal
    assert {"S", "O"} <= set(tables.troops.type["Cv"].grades)
    assert ListEntry(code="Cv", grade="S", regular=True, min=0, max=2).grade == "S"
