"""Malformed one-hour-dark-ages scenario files give clear ``DataError``s naming the file and the field,
and the CLI turns them into a one-line "error:" message with exit code 2 (no traceback)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import to_move_step

from shieldwall.cli import run
from shieldwall.core.errors import DataError, IllegalOrder
from shieldwall.io.scenarios import load_game

RS = "one-hour-dark-ages"

HEADER = """ruleset = "one-hour-dark-ages"
name = "test"
"""

RED = """
[red]
name = "Red"
units = [
  { id = "r1", type = "infantry", x = 10, y = 5 },
  { id = "r2", type = "infantry", x = 20, y = 5 },
]
"""

BLUE = """
[blue]
name = "Blue"
home_edge = "north"
units = [
  { id = "b1", type = "infantry", x = 10, y = 30, heading = 180 },
  { id = "b2", type = "infantry", x = 20, y = 30, heading = 180 },
]
"""


def write(tmp_path: Path, text: str, name: str = "broken.toml") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def load_error(tmp_path: Path, text: str) -> tuple[DataError, Path]:
    p = write(tmp_path, text)
    with pytest.raises(DataError) as e:
        load_game(p)
    assert e.value.file == str(p)
    assert str(p) in str(e.value)
    return e.value, p


def test_scenario_valid_file_loads(tmp_path: Path) -> None:
    g = load_game(write(tmp_path, HEADER + RED + BLUE, "ok.toml"))
    assert g.scenario_name == "test" and len(g.initial_units) == 4  # type: ignore[attr-defined]


def test_scenario_unknown_unit_type(tmp_path: Path) -> None:
    red = RED.replace('type = "infantry", x = 20', 'type = "hoplites", x = 20')
    err, _ = load_error(tmp_path, HEADER + red + BLUE)
    assert err.field == "red.units[1].type"
    assert "unknown unit type 'hoplites'" in err.reason and "infantry" in err.reason


def test_scenario_duplicate_unit_id(tmp_path: Path) -> None:
    err, _ = load_error(tmp_path, HEADER + RED + BLUE.replace('id = "b2"', 'id = "r1"'))
    assert err.field == "blue.units[1].id" and "duplicate unit id 'r1'" in err.reason


def test_scenario_bad_unit_id_characters(tmp_path: Path) -> None:
    err, _ = load_error(tmp_path, HEADER + RED.replace('id = "r2"', 'id = "r 2"') + BLUE)
    assert err.field == "red.units[1].id"


def test_scenario_unknown_option(tmp_path: Path) -> None:
    err, _ = load_error(tmp_path, HEADER + "[options]\nheroes = true\n" + RED + BLUE)
    assert err.field == "options.heroes" and "unknown option" in err.reason and "personalities" in err.reason


@pytest.mark.parametrize(
    ("line", "field", "words"),
    [
        ("personalities = 1", "options.personalities", "expects a bool"),
        ('dice = "d7"', "options.dice", "must be one of d5, d6"),
        ("initiative_bonus = 5", "options.initiative_bonus", "must be one of 2, 3, 4"),
        ("shots = true", "options.shots", "expects a int"),
        ('bow_range = "far"', "options.bow_range", "expects a float"),
    ],
)
def test_scenario_bad_option_value(tmp_path: Path, line: str, field: str, words: str) -> None:
    err, _ = load_error(tmp_path, HEADER + f"[options]\n{line}\n" + RED + BLUE)
    assert err.field == field and words in err.reason


def test_scenario_int_for_a_float_option_is_fine(tmp_path: Path) -> None:
    g = load_game(write(tmp_path, HEADER + "[options]\nbow_range = 10\n" + RED + BLUE, "ok.toml"))
    assert g.params["bow_range"] == 10


def test_scenario_unit_off_table_is_refused_naming_the_unit(tmp_path: Path) -> None:
    # R42 (movement, figures-basing): a unit must be deployed wholly on the table
    text = HEADER + RED.replace("x = 20, y = 5 }", "x = 20, y = -3 }") + BLUE
    err, _ = load_error(tmp_path, text)
    assert err.field == "red.units[1]" and "r2" in err.reason and "leave the table" in err.reason


def test_scenario_units_deployed_overlapping_are_refused(tmp_path: Path) -> None:
    text = HEADER + RED.replace("x = 20, y = 5 }", "x = 11, y = 5 }") + BLUE
    err, _ = load_error(tmp_path, text)
    assert err.field.startswith("red.units[") and "overlap" in err.reason


def test_movement_a_unit_on_the_table_may_not_move_off_it(tmp_path: Path) -> None:
    g = load_game(write(tmp_path, HEADER + RED + BLUE, "ok.toml"))
    st = g.new_state(1)  # type: ignore[attr-defined]
    to_move_step(st, "r1", [5])
    with pytest.raises(IllegalOrder) as e:
        st.apply("move r1 go 10,0")
    assert e.value.rule == f"{RS}:movement" and "leave the table" in e.value.reason


def test_scenario_area_terrain_needs_three_points(tmp_path: Path) -> None:
    terrain = '\n[[terrain]]\nid = "w"\nkind = "woods"\npoints = [[10, 10], [20, 10]]\n'
    err, _ = load_error(tmp_path, HEADER + terrain + RED + BLUE)
    assert err.field == "terrain[0].points" and "at least 3 points" in err.reason


def test_scenario_terrain_needs_two_points(tmp_path: Path) -> None:
    terrain = '\n[[terrain]]\nid = "rd"\nkind = "road"\npoints = [[10, 10]]\n'
    err, _ = load_error(tmp_path, HEADER + terrain + RED + BLUE)
    assert err.field == "terrain[0].points"


def test_scenario_unknown_terrain_kind(tmp_path: Path) -> None:
    terrain = '\n[[terrain]]\nid = "x"\nkind = "volcano"\npoints = [[10, 10], [20, 10], [15, 15]]\n'
    err, _ = load_error(tmp_path, HEADER + terrain + RED + BLUE)
    assert err.field == "terrain[0].kind" and "volcano" in err.reason


def test_scenario_crossing_not_on_the_river(tmp_path: Path) -> None:
    river = (
        '\n[[terrain]]\nid = "r"\nkind = "river"\npoints = [[0, 18], [48, 18]]\n'
        'crossings = [{ kind = "ford", at = [10, 18] }, { kind = "bridge", at = [30, 22] }]\n'
    )
    err, _ = load_error(tmp_path, HEADER + river + RED + BLUE)
    assert err.field == "terrain[0].crossings[1].at" and "not on the river" in err.reason


def test_scenario_crossings_only_on_rivers(tmp_path: Path) -> None:
    road = (
        '\n[[terrain]]\nid = "rd"\nkind = "road"\npoints = [[0, 18], [48, 18]]\n'
        'crossings = [{ kind = "bridge", at = [10, 18] }]\n'
    )
    err, _ = load_error(tmp_path, HEADER + road + RED + BLUE)
    assert err.field == "terrain[0].crossings" and "only rivers" in err.reason


def test_scenario_duplicate_terrain_id(tmp_path: Path) -> None:
    t = '\n[[terrain]]\nid = "h"\nkind = "hill"\npoints = [[10, 10], [20, 10], [15, 15]]\n'
    err, _ = load_error(tmp_path, HEADER + t + t + RED + BLUE)
    assert err.field == "terrain[1].id" and "duplicate terrain id" in err.reason


def test_scenario_wrong_toml_syntax(tmp_path: Path) -> None:
    err, _ = load_error(tmp_path, HEADER + RED.replace("units = [", "units = [[") + BLUE)
    assert err.field == "" and "not valid TOML" in err.reason


def test_scenario_missing_ruleset_field(tmp_path: Path) -> None:
    err, _ = load_error(tmp_path, 'name = "test"\n' + RED + BLUE)
    assert err.field == "ruleset" and "missing" in err.reason and RS in err.reason


def test_scenario_unknown_ruleset(tmp_path: Path) -> None:
    err, _ = load_error(tmp_path, HEADER.replace(RS, "two-hour-dark-ages") + RED + BLUE)
    assert err.field == "ruleset" and "two-hour-dark-ages" in err.reason


def test_scenario_missing_side(tmp_path: Path) -> None:
    err, _ = load_error(tmp_path, HEADER + RED)
    assert err.field == "blue"


def test_scenario_unknown_field_is_named(tmp_path: Path) -> None:
    red = RED.replace("x = 10, y = 5 }", "x = 10, y = 5, morale = 3 }")
    err, _ = load_error(tmp_path, HEADER + red + BLUE)
    assert err.field == "red.units[0].morale" and "unknown field" in err.reason


def test_scenario_side_needs_units(tmp_path: Path) -> None:
    err, _ = load_error(tmp_path, HEADER + RED + '\n[blue]\nname = "Blue"\nunits = []\n')
    assert err.field == "blue.units"


def test_scenario_missing_file(tmp_path: Path) -> None:
    with pytest.raises(DataError) as e:
        load_game(tmp_path / "nowhere.toml")
    assert "file not found" in e.value.reason


# ================================================================================ CLI


def _cli_error(capsys: pytest.CaptureFixture[str], path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """``shieldwall battle broken.toml`` run from the file's folder."""
    monkeypatch.chdir(path.parent)
    code = run(["battle", path.name])
    out, err = capsys.readouterr()
    assert code == 2
    assert "Traceback" not in out + err
    return err


def test_cli_battle_broken_scenario_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    p = write(tmp_path, HEADER + RED + BLUE.replace('id = "b2"', 'id = "r1"'))
    err = _cli_error(capsys, p, monkeypatch)
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0] == "error: broken.toml: blue.units[1].id: duplicate unit id 'r1'"


def test_cli_battle_bad_toml_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    p = write(tmp_path, "ruleset = \n")
    err = _cli_error(capsys, p, monkeypatch)
    assert err.startswith("error: broken.toml: not valid TOML") and len(err.strip().splitlines()) == 1


def test_cli_battle_long_error_stays_on_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    p = write(tmp_path, HEADER + RED.replace('type = "infantry", x = 20', 'type = "hoplites", x = 20') + BLUE)
    err = _cli_error(capsys, p, monkeypatch)
    assert len(err.strip().splitlines()) == 1, err


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("[table]\nwidth = inf\ndepth = 36\n" + RED + BLUE, "table.width"),
        (RED.replace("x = 10,", "x = nan,") + BLUE, "red.units[0].x"),
        (RED.replace("x = 10,", "x = 10, heading = inf,") + BLUE, "red.units[0].heading"),
        (
            '[[terrain]]\nid = "w"\nkind = "woods"\npoints = [[30, 10], [40, 10], [nan, 15]]\n' + RED + BLUE,
            "terrain[0].points[2][0]",
        ),
    ],
)
def test_scenario_numbers_must_be_finite(tmp_path: Path, text: str, field: str) -> None:
    # TOML can write inf and nan; before, a heading of inf ended in a math domain error traceback
    err, _ = load_error(tmp_path, HEADER + text)
    assert err.field == field and "finite number" in err.reason


@pytest.mark.parametrize(
    ("line", "field", "words"),
    [
        ("hit_limit = 0", "options.hit_limit", "from 4 to 100, not 0"),
        ("arc = 500.0", "options.arc", "from 1 to 180"),
        ("shots = -1", "options.shots", "from 0 to 99"),
        ("grey_margin = nan", "options.grey_margin", "finite number"),
        ("turns = 100000", "options.turns", "from 1 to 100"),
    ],
)
def test_scenario_option_out_of_range(tmp_path: Path, line: str, field: str, words: str) -> None:
    err, _ = load_error(tmp_path, HEADER + f"[options]\n{line}\n" + RED + BLUE)
    assert err.field == field and words in err.reason


@pytest.mark.parametrize(
    ("variant", "words"),
    [
        ("hit_limit=0", "rule parameters: hit_limit: must be from 4 to 100, not 0"),
        ("arc=nan", "rule parameters: arc: must be a finite number, not nan"),
        ("bow_range=inf", "rule parameters: bow_range: must be a finite number"),
        ("turns=100000", "rule parameters: turns: must be from 1 to 100"),
        ("shots=abc", "parameter 'shots' expects a whole number, got 'abc'"),
    ],
)
def test_cli_battle_bad_variant_one_line_error(
    capsys: pytest.CaptureFixture[str], variant: str, words: str
) -> None:
    # before: turns=100000 ended in a RuntimeError traceback, shots=abc in a ValueError traceback,
    # and hit_limit=0 or arc=nan played a battle that meant nothing
    code = run(["battle", "--seed", "1", "--variant", variant])
    out, err = capsys.readouterr()
    assert code == 2 and "Traceback" not in out + err
    assert err.startswith("error: ") and words in err and len(err.strip().splitlines()) == 1, err


def test_terrain_sizes_are_not_enforced_ruling_r20(tmp_path: Path) -> None:
    # "terrain.sizes" (Linear 6-12" long, Area 6-12" a side) describes pieces; ruling R20: a scenario
    # is not refused for size, a long river is several pieces end to end. A 22" wood and a 48" river
    # (four 12" pieces) load and fight as their kinds.
    terrain = (
        '\n[[terrain]]\nid = "w"\nkind = "woods"\npoints = [[25, 12], [47, 12], [47, 25]]\n'
        '\n[[terrain]]\nid = "r"\nkind = "river"\npoints = [[0, 18], [48, 18]]\n'
        'crossings = [{ kind = "ford", at = [10, 18] }]\n'
    )
    g = load_game(write(tmp_path, HEADER + terrain + RED + BLUE, "big.toml"))
    st = g.new_state(1)
    kinds = {f["id"]: f["kind"] for f in st.view()["terrain"]}
    assert kinds == {"w": "woods", "r": "river"}
    # the whole 22" wood is woods: infantry may not stand in its far corner
    inside = RED.replace("x = 20, y = 5 }", "x = 44, y = 16 }")
    err, _ = load_error(tmp_path, HEADER + terrain + inside + BLUE)
    assert err.field == "red.units[1]" and "terrain.woods-marsh" in err.reason
