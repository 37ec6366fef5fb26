"""Small things an exploratory test of the command line found: a TOML file that begins with a
byte-order mark was refused ("Invalid statement (at line 1, column 1)"); Into the Dark's result
said "1 units" and its matchup table "its charge charge"."""

from __future__ import annotations

from pathlib import Path

from shieldwall.core.datafiles import read_toml
from shieldwall.core.events import Event
from shieldwall.rulesets.into_the_dark.narrate import describe


def test_a_byte_order_mark_is_read_past(tmp_path: Path) -> None:
    f = tmp_path / "bom.toml"
    f.write_bytes("\ufeffname = 'x'\n".encode())
    assert read_toml(f) == {"name": "x"}


def test_into_the_dark_result_counts_are_singular_for_one() -> None:
    ev = Event(
        9,
        "end",
        None,
        "result",
        "into-the-dark:turn-sequence.end-of-battle",
        {"winner": "red", "reason": "r", "losses": {"blue": {"units_lost": 1, "figures_lost": 1}}},
    )
    assert "blue lost 1 unit, 1 figure" in describe(ev)


def test_into_the_dark_matrix_names_its_charge_once() -> None:
    from shieldwall.rulesets.into_the_dark.odds import PLUGIN

    notes = " ".join(PLUGIN.matrix_float({"charge": "charge"}).notes)
    assert "charge charge" not in notes and "opens with its charge" in notes


def test_a_scenario_coordinate_is_a_number_not_true() -> None:
    """The core's coordinate and heading types took ``true`` as 1.0 (and a string as its number)
    in every rule system's scenario files (found while fixing Knight Hack's counts)."""
    from pydantic import TypeAdapter, ValidationError

    from shieldwall.core.limits import Coord, Heading

    for t in (Coord, Heading):
        ta = TypeAdapter(t)
        assert ta.validate_python(3) == 3.0 and ta.validate_python(2.5) == 2.5
        for bad in (True, "3"):
            try:
                ta.validate_python(bad)
            except ValidationError:
                continue
            raise AssertionError(f"{bad!r} was taken for a number")
