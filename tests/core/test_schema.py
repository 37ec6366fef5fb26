"""Scenario schema pieces shared by the rule systems (core/schema.py)."""

from __future__ import annotations

from typing import Any, Literal

import pytest

from shieldwall.core import schema
from shieldwall.core.datafiles import validate
from shieldwall.core.errors import DataError
from shieldwall.core.game import Parameter
from shieldwall.core.terrain import Crossing


class _Crossing(schema.StrictModel):
    kind: Literal["ford"]
    at: schema.Pt
    width: float = 3.0


class _Terrain(schema.TerrainSpecBase[_Crossing]):
    @classmethod
    def terrain_kinds(cls) -> tuple[str, ...]:
        return ("hill", "stream")


_PARAMS = {
    "turns": Parameter("turns", 12, "turn limit"),
    "reach": Parameter("reach", 1.5, "inches"),
    "dice": Parameter("dice", "d6", "the die", choices=("d6", "d5")),
    "bold": Parameter("bold", False, "a switch"),
}


def test_known_name_lists_the_valid_names() -> None:
    assert schema.known_name("hill", ("hill", "wood"), "terrain kind") == "hill"
    with pytest.raises(ValueError, match="unknown terrain kind 'lava'; valid: hill, wood"):
        schema.known_name("lava", ("hill", "wood"), "terrain kind")


def test_terrain_table_checks_its_kind_and_its_fields() -> None:
    t = validate(_Terrain, {"id": "h", "kind": "hill", "points": [[0, 0], [4, 0], [4, 4]]}, "f.toml")
    assert (t.width, t.crossings, t.crest, t.plateau) == (None, [], [], False)
    with pytest.raises(DataError, match="kind: unknown terrain kind 'lava'; valid: hill, stream"):
        validate(_Terrain, {"id": "h", "kind": "lava", "points": [[0, 0], [4, 0]]}, "f.toml")
    with pytest.raises(DataError, match="colour: unknown field"):
        validate(_Terrain, {"id": "h", "kind": "hill", "points": [[0, 0], [4, 0]], "colour": 1}, "f.toml")


@pytest.mark.parametrize(
    ("options", "int_as_float", "message"),
    [
        ({"pace": 1}, False, "options.pace: unknown option; valid: turns, reach, dice, bold"),
        ({"turns": True}, False, "options.turns: expects a int, got True"),
        ({"reach": 2}, False, "options.reach: expects a float, got 2"),
        ({"bold": 1}, False, "options.bold: expects a bool, got 1"),
        ({"dice": "d7"}, False, "options.dice: must be one of d6, d5"),
        ({"reach": 9}, True, "options.reach: at most 3 inches"),
    ],
)
def test_check_options_refusals(options: dict[str, Any], int_as_float: bool, message: str) -> None:
    def too_far(name: str, value: Any) -> str | None:
        return "at most 3 inches" if name == "reach" and value > 3 else None

    with pytest.raises(DataError, match=message):
        schema.check_options(options, _PARAMS, "f.toml", int_as_float=int_as_float, range_problem=too_far)


def test_check_options_accepts_a_whole_number_for_a_float_only_when_asked() -> None:
    schema.check_options(
        {"reach": 2, "turns": 8, "dice": "d5", "bold": True}, _PARAMS, "f.toml", int_as_float=True
    )
    schema.check_options({"reach": 2.0}, _PARAMS, "f.toml")


def test_feature_id_and_points_checks() -> None:
    seen: set[str] = set()
    hill = _Terrain(id="h", kind="hill", points=[(0, 0), (4, 0)])
    schema.check_feature_id_and_points(0, hill, True, seen, "f.toml")
    assert seen == {"h"}
    with pytest.raises(DataError, match=r"terrain\[1\].id: duplicate terrain id 'h'"):
        schema.check_feature_id_and_points(1, hill, True, seen, "f.toml")
    with pytest.raises(
        DataError, match=r"terrain\[2\].points: an area feature \(hill\) needs at least 3 points"
    ):
        schema.check_feature_id_and_points(2, hill.model_copy(update={"id": "h2"}), False, seen, "f.toml")


def test_crossings_must_lie_within_half_an_inch_of_the_line_and_become_feature_crossings() -> None:
    stream = _Terrain(
        id="s",
        kind="stream",
        name="",
        points=[(0, 0), (10, 0)],
        crossings=[_Crossing(kind="ford", at=(5, 0.4))],
        crest=[(1, 1)],
    )
    schema.check_crossings_on_line(0, stream, 2.0, "stream", "f.toml")
    off = stream.model_copy(update={"crossings": [_Crossing(kind="ford", at=(5, 1.7))]})
    with pytest.raises(DataError, match=r"terrain\[0\].crossings\[0\].at: the crossing is not on the stream"):
        schema.check_crossings_on_line(0, off, 2.0, "stream", "f.toml")
    f = schema.terrain_feature(stream, name="Stream", linear=True, width=2.0)
    assert (f.id, f.kind, f.name, f.points, f.linear, f.width) == (
        "s",
        "stream",
        "Stream",
        ((0, 0), (10, 0)),
        True,
        2.0,
    )
    assert (f.crossings, f.crest, f.plateau) == ((Crossing("ford", (5, 0.4), 3.0),), ((1, 1),), False)
    assert (
        schema.terrain_feature(
            stream.model_copy(update={"name": "Brook"}), name="Stream", linear=True, width=2.0
        ).name
        == "Brook"
    )
