"""Knight Hack data layer: the sample set loads and is labelled; bad tables are one-line errors
naming the file, the field and (where a value contradicts the errata) the clause."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from shieldwall.core.errors import DataError
from shieldwall.rulesets.knight_hack.schemas import MELEE_CONDITIONS, SAMPLE_LABEL
from shieldwall.rulesets.knight_hack.tables import FILES, load_tables, sample_folder, sample_tables


@pytest.fixture
def tables_dir(tmp_path: Path) -> Path:
    """A writable copy of the sample data set."""
    src = Path(str(sample_folder()))
    for name in FILES:
        shutil.copy(src / name, tmp_path / name)
    return tmp_path


def _edit(folder: Path, name: str, old: str, new: str) -> None:
    p = folder / name
    text = p.read_text(encoding="utf-8")
    assert old in text, old
    p.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_sample_set_loads_and_is_labelled() -> None:
    t = sample_tables()
    assert t.sample and t.label == SAMPLE_LABEL
    assert set(t.provenance) == set(FILES) and set(t.provenance.values()) == {"illustrative-sample"}
    assert len(t.types) == 8 and len(t.chart) == 64 and t.classes.order == ["A", "B", "C", "D", "E"]
    folder = Path(str(sample_folder()))
    for name in FILES:
        head = (folder / name).read_text(encoding="utf-8")[:400]
        assert "ILLUSTRATIVE SAMPLE" in head and "NOT the published Knight Hack charts" in head
    assert all(len(d) == 64 for d in t.digests.values())


def test_user_tables_are_not_labelled(tables_dir: Path) -> None:
    for name in FILES:
        _edit(tables_dir, name, 'provenance = "illustrative-sample"', 'provenance = "user"')
    assert load_tables(tables_dir).label is None


def test_morale_level_heavy_infantry_cost_contradicting_the_errata(tables_dir: Path) -> None:
    _edit(tables_dir, "troop_types.toml", "C = 3, D = 2, E = 1 }  # C = 3", "C = 4, D = 2, E = 1 }  # C = 3")
    with pytest.raises(DataError) as e:
        load_tables(tables_dir, "mine")
    msg = str(e.value)
    assert e.value.file == "mine/troop_types.toml"
    assert e.value.field == "type.heavy-infantry.cost_per_figure.C"
    assert "Clarification 2" in msg and "knight-hack:morale.level" in msg and "\n" not in msg


def test_morale_level_heavy_infantry_base_contradicting_the_errata(tables_dir: Path) -> None:
    _edit(tables_dir, "troop_types.toml", "base_cost = 40", "base_cost = 41")
    with pytest.raises(DataError, match="Clarification 2") as e:
        load_tables(tables_dir)
    assert e.value.field == "type.heavy-infantry.base_cost"


def test_errata_override_accepts_other_numbers(tables_dir: Path) -> None:
    _edit(tables_dir, "troop_types.toml", "base_cost = 40", "base_cost = 41\nerrata_override = true")
    assert load_tables(tables_dir).types["heavy-infantry"].base_cost == 41


def test_unknown_field_is_refused(tables_dir: Path) -> None:
    _edit(tables_dir, "classes.toml", "evolutions = 3", "evolutions = 3\nmorale = 4")
    with pytest.raises(DataError, match="unknown field") as e:
        load_tables(tables_dir)
    assert e.value.field == "class.A.morale"


def test_casualties_target_incomplete_chart_names_the_pair(tables_dir: Path) -> None:
    text = (tables_dir / "melee_chart.toml").read_text(encoding="utf-8")
    block = '[[factor]]\nattacker = "archers"\ndefender = "skirmishers"\n'
    start = text.index(block)
    end = text.index("[[factor]]", start + 1)
    (tables_dir / "melee_chart.toml").write_text(text[:start] + text[end:], encoding="utf-8")
    with pytest.raises(DataError, match="no factor for archers against skirmishers"):
        load_tables(tables_dir)


def test_chart_unknown_type(tables_dir: Path) -> None:
    _edit(tables_dir, "melee_chart.toml", 'attacker = "archers"', 'attacker = "longbowmen"')
    with pytest.raises(DataError, match="unknown type 'longbowmen'") as e:
        load_tables(tables_dir)
    assert e.value.field.endswith(".attacker")


def test_unknown_melee_condition_lists_the_known_ones(tables_dir: Path) -> None:
    _edit(tables_dir, "melee_modifiers.toml", 'when = "uphill"', 'when = "downhill"')
    with pytest.raises(DataError) as e:
        load_tables(tables_dir)
    assert "downhill" in str(e.value) and all(c in str(e.value) for c in MELEE_CONDITIONS)


def test_class_without_cost(tables_dir: Path) -> None:
    _edit(
        tables_dir,
        "troop_types.toml",
        "{ A = 7, B = 6, C = 5, D = 4, E = 3 }",
        "{ A = 7, B = 6, C = 5, D = 4 }",
    )
    with pytest.raises(DataError, match="no cost for class 'E'") as e:
        load_tables(tables_dir)
    assert e.value.field == "type.heavy-cavalry.cost_per_figure"


def test_classes_order_and_tables_agree(tables_dir: Path) -> None:
    _edit(tables_dir, "classes.toml", '"D", "E"]', '"D", "E", "F"]')
    with pytest.raises(DataError, match=r"no \[class.F\]"):
        load_tables(tables_dir)


def test_on_fail_stop_rout_is_fixed_by_the_text(tables_dir: Path) -> None:
    _edit(tables_dir, "morale.toml", 'stop-rout = "remove"', 'stop-rout = "rout"')
    with pytest.raises(DataError, match="Clarification 1, knight-hack.rout.stop") as e:
        load_tables(tables_dir)
    assert e.value.field == "on_fail"


def test_on_fail_receive_charge_is_fixed_by_the_text(tables_dir: Path) -> None:
    _edit(tables_dir, "morale.toml", 'receive-charge = "disorder"', 'receive-charge = "rout"')
    with pytest.raises(DataError, match="Clarification 1, knight-hack.morale.receive-charge"):
        load_tables(tables_dir)


def test_missing_file(tables_dir: Path) -> None:
    (tables_dir / "weapons.toml").unlink()
    with pytest.raises(DataError, match="file not found") as e:
        load_tables(tables_dir, "mine")
    assert e.value.file == "mine/weapons.toml"


def test_weapon_factor_vs_names_a_formation_or_type(tables_dir: Path) -> None:
    _edit(tables_dir, "weapons.toml", "open = 10", "wedge = 10")
    with pytest.raises(DataError, match="not a formation") as e:
        load_tables(tables_dir)
    assert e.value.field == "weapon.lance.factor_vs.wedge"
