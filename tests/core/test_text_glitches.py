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
