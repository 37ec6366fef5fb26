"""Loading TOML data files and turning validation failures into DataError (file + field)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import BaseModel, ConfigDict, Field, RootModel

from shieldwall.core.datafiles import format_loc, read_toml, validate, validate_table
from shieldwall.core.errors import DataError, ShieldwallError


class Weapon(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    reach: int = Field(default=1, ge=0)


class UnitSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    size: int = 4
    weapons: list[Weapon] = []


class Army(BaseModel):
    model_config = ConfigDict(extra="forbid")
    title: str
    units: list[UnitSpec]


# ---------------------------------------------------------------------------------------------
# read_toml


def test_read_toml_ok(tmp_path: Path) -> None:
    f = tmp_path / "army.toml"
    f.write_text('title = "Hastings"\n[[units]]\nname = "Huscarls"\nsize = 6\n', encoding="utf-8")
    data = read_toml(f)
    assert data == {"title": "Hastings", "units": [{"name": "Huscarls", "size": 6}]}
    assert read_toml(str(f)) == data  # str paths too


def test_read_toml_utf8(tmp_path: Path) -> None:
    f = tmp_path / "names.toml"
    f.write_text('title = "Æthelflæd\'s fyrd"\n', encoding="utf-8")
    assert read_toml(f) == {"title": "Æthelflæd's fyrd"}


def test_read_toml_missing_file(tmp_path: Path) -> None:
    missing = tmp_path / "nope.toml"
    with pytest.raises(DataError) as ei:
        read_toml(missing)
    err = ei.value
    assert err.file == str(missing)
    assert err.field == ""
    assert err.reason == "file not found"
    assert str(err) == f"{missing}: file not found"
    assert isinstance(err, ShieldwallError) and isinstance(err, ValueError)
    assert err.__suppress_context__  # raised "from None": no FileNotFoundError chained in


def test_read_toml_bad_toml(tmp_path: Path) -> None:
    f = tmp_path / "bad.toml"
    f.write_text('title = "unterminated\n', encoding="utf-8")
    with pytest.raises(DataError, match="not valid TOML") as ei:
        read_toml(f)
    assert ei.value.file == str(f)
    assert ei.value.field == ""
    assert "line 1" in ei.value.reason  # tomllib's position is passed on


def test_read_toml_duplicate_key(tmp_path: Path) -> None:
    f = tmp_path / "dup.toml"
    f.write_text("a = 1\na = 2\n", encoding="utf-8")
    with pytest.raises(DataError, match="not valid TOML"):
        read_toml(f)


def test_read_toml_not_utf8_and_directory(tmp_path: Path) -> None:
    f = tmp_path / "latin1.toml"
    f.write_bytes('title = "Æ"\n'.encode("latin-1"))
    with pytest.raises(DataError, match="cannot read") as ei:
        read_toml(f)
    assert ei.value.file == str(f)
    with pytest.raises(DataError, match="cannot read"):
        read_toml(tmp_path)  # a directory


# ---------------------------------------------------------------------------------------------
# format_loc and validate


@pytest.mark.parametrize(
    ("loc", "text"),
    [
        ((), ""),
        (("title",), "title"),
        (("units", 2, "name"), "units[2].name"),
        (("units", 0, "weapons", 1, "reach"), "units[0].weapons[1].reach"),
        ((3, "name"), "[3].name"),
        (("grid", 1, 2), "grid[1][2]"),
    ],
)
def test_format_loc(loc: tuple[int | str, ...], text: str) -> None:
    assert format_loc(loc) == text


def test_validate_ok() -> None:
    army = validate(Army, {"title": "T", "units": [{"name": "Fyrd"}]}, "a.toml")
    assert isinstance(army, Army)
    assert army.units[0].size == 4


def test_validate_names_file_and_dotted_field() -> None:
    data = {"title": "T", "units": [{"name": "Fyrd"}, {"name": "Huscarls", "size": "many"}]}
    with pytest.raises(DataError) as ei:
        validate(Army, data, "armies/saxon.toml")
    err = ei.value
    assert err.file == "armies/saxon.toml"
    assert err.field == "units[1].size"
    assert "integer" in err.reason
    assert str(err).startswith("armies/saxon.toml: units[1].size: ")


def test_validate_nested_list_field() -> None:
    data = {"title": "T", "units": [{"name": "Fyrd", "weapons": [{"name": "spear", "reach": -1}]}]}
    with pytest.raises(DataError) as ei:
        validate(Army, data, "f.toml")
    assert ei.value.field == "units[0].weapons[0].reach"
    assert "greater than or equal to 0" in ei.value.reason


def test_validate_missing_field() -> None:
    with pytest.raises(DataError) as ei:
        validate(Army, {"units": []}, "f.toml")
    assert ei.value.field == "title"
    assert ei.value.reason == "Field required"


def test_validate_unknown_field_message() -> None:
    with pytest.raises(DataError) as ei:
        validate(Army, {"title": "T", "units": [], "colour": "red"}, "f.toml")
    assert ei.value.field == "colour"
    assert ei.value.reason.startswith("unknown field (check the spelling")


def test_validate_counts_further_problems() -> None:
    with pytest.raises(DataError) as ei:
        validate(Army, {"units": [{"size": "x"}]}, "f.toml")
    # three problems: title missing, units[0].name missing, units[0].size not an int
    assert ei.value.field == "title"
    assert ei.value.reason == "Field required (and 2 more problems)"
    with pytest.raises(DataError) as ei:
        validate(Army, {"units": [{"name": "Fyrd", "size": "x"}]}, "f.toml")
    assert ei.value.reason == "Field required (and 1 more problem)"


def test_validate_prefix() -> None:
    with pytest.raises(DataError) as ei:
        validate(UnitSpec, {"name": "Fyrd", "size": "x"}, "f.toml", prefix="units.fyrd")
    assert ei.value.field == "units.fyrd.size"
    # a whole value of the wrong type: the field is the prefix alone
    with pytest.raises(DataError) as ei:
        validate(UnitSpec, "not a table", "f.toml", prefix="units.fyrd")
    assert ei.value.field == "units.fyrd"
    # no prefix and no location: the field is empty and the message names just the file
    with pytest.raises(DataError) as ei:
        validate(UnitSpec, 5, "f.toml")
    assert ei.value.field == ""
    assert str(ei.value).startswith("f.toml: Input should be")


def test_validate_prefix_before_list_index() -> None:
    roster = RootModel[list[UnitSpec]]
    with pytest.raises(DataError) as ei:
        validate(roster, [{"name": "a"}, {"name": 7}], "f.toml", prefix="units")
    assert ei.value.field == "units[1].name"


def test_validate_table() -> None:
    table = {"fyrd": {"name": "Fyrd"}, "huscarls": {"name": "Huscarls", "size": 6}}
    out = validate_table(UnitSpec, table, "units.toml")
    assert list(out) == ["fyrd", "huscarls"]
    assert out["huscarls"].size == 6
    with pytest.raises(DataError) as ei:
        validate_table(UnitSpec, {"fyrd": {"name": "Fyrd"}, "bad": {"name": "B", "wepons": []}}, "u.toml")
    assert ei.value.file == "u.toml"
    assert ei.value.field == "bad.wepons"


def test_validate_from_file_roundtrip(tmp_path: Path) -> None:
    f = tmp_path / "army.toml"
    f.write_text('title = "T"\n[[units]]\nname = "A"\n[[units]]\nname = "B"\nsize = -2.5\n', encoding="utf-8")
    with pytest.raises(DataError) as ei:
        validate(Army, read_toml(f), str(f))
    assert ei.value.file == str(f)
    assert ei.value.field == "units[1].size"
