"""The CLI's tables fit the terminal without cutting a name: at COLUMNS=80 every scenario name,
rule-system id and variant is printed whole, no cell ends in an ellipsis, and no line is wider
than the terminal; a table too wide for whole words folds them rather than cut them."""

from __future__ import annotations

from typing import Any

import pytest
from rich.console import Console
from rich.table import Table

from shieldwall import registry
from shieldwall.cli import run
from shieldwall.cli_sim import print_summary
from shieldwall.io.scenarios import builtin_scenarios
from shieldwall.render.tables import fit_table


def _lines(out: str) -> list[str]:
    return out.rstrip("\n").split("\n")


@pytest.fixture
def columns_80(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.delenv("LINES", raising=False)


def test_scenarios_at_80_columns_print_every_name_whole(columns_80: None, capsys: Any) -> None:
    assert run(["scenarios"]) == 0
    out = capsys.readouterr().out
    assert "…" not in out
    assert max(len(line) for line in _lines(out)) <= 80
    names = [line.split()[0] for line in _lines(out) if line.strip() and "/" in line.split()[0]]
    assert sorted(names) == sorted(n for n in builtin_scenarios() if "/" in n and not n.startswith("_"))
    assert "default)" in out  # the default scenario is marked


def test_rulesets_at_80_columns(columns_80: None, capsys: Any) -> None:
    assert run(["rulesets"]) == 0
    out = capsys.readouterr().out
    assert "…" not in out and max(len(line) for line in _lines(out)) <= 80
    ids = {line.split()[0] for line in _lines(out) if line.strip()}
    assert set(registry.ids()) <= ids


def _summary(variants: list[str]) -> dict[str, Any]:
    def one(name: str) -> dict[str, Any]:
        return {
            "variant": name,
            "battles": 20,
            "wins": {"red": 9, "blue": 10},
            "win_rate": {"red": 0.45, "blue": 0.5},
            "ci95": {"red": [0.2581, 0.6579], "blue": [0.2993, 0.7007]},
            "draws": 1,
            "mean_turns": 11.35,
            "sd_turns": 3.2,
            "turns_histogram": {"9": 4, "12": 16},
            "mean_losses": {
                "red": {"skirmishers-javelins": 0.5, "cavalry-javelins": 1.0},
                "blue": {"infantry": 2.0},
            },
            "mean_units_lost": {"red": 1.5, "blue": 2.0},
        }

    diff = {"diff": 0.05, "ci95": [-0.1, 0.2], "higher": 3, "lower": 2}
    return {
        "variants": [one(v) for v in variants],
        "differences": [
            {
                "variant": v,
                "win_rate": {"red": diff, "blue": diff},
                "mean_turns": {"diff": 0.5, "ci95": [-1.0, 2.0]},
            }
            for v in variants[1:]
        ],
    }


def test_the_simulation_tables_at_80_columns_keep_every_variant_and_unit_type(
    columns_80: None, capsys: Any
) -> None:
    variants = ["baseline", "personalities=yes,rally_variation=yes", "force_morale=yes"]
    print_summary(_summary(variants), "Mynydd Baddon: scripted v scripted", bps=3.5)
    out = capsys.readouterr().out
    assert "…" not in out
    assert max(len(line) for line in _lines(out)) <= 80
    for name in (*variants, "skirmishers-javelins", "cavalry-javelins"):
        assert name in out, name


def test_a_table_too_narrow_for_whole_words_folds_them_and_cuts_nothing() -> None:
    con = Console(width=20, record=True)
    t = Table()
    t.add_column("name")
    t.add_row("one-hour-dark-ages/mynydd-baddon")
    t.add_row("initiative_routed_penalty")
    con.print(fit_table(t, con))
    out = con.export_text()
    assert "…" not in out and max(len(line) for line in _lines(out)) <= 20
    flat = "".join(out.split())
    assert "one-hour-dark-ages/mynydd-baddon" in flat and "initiative_routed_penalty" in flat


def test_a_table_that_fits_is_left_as_it_is() -> None:
    con = Console(width=120, record=True)
    t = Table()
    t.add_column("a")
    t.add_row("short")
    box = t.box
    fit_table(t, con)
    assert t.box is box and t.columns[0].width is None


def test_scenarios_at_80_columns_keep_each_title_word_whole_and_note_sample_data(
    columns_80: None, capsys: Any
) -> None:
    """A column whose longest word fits keeps its words whole (only the column that cannot, if
    any, folds), and a scenario that plays on a rule system's illustrative sample is marked with
    a note naming it."""
    assert run(["scenarios"]) == 0
    out = capsys.readouterr().out
    assert "Bourgthéroulde" in out  # not "Bourgthérould" then "e" on the next line
    notes = [line for line in _lines(out) if line.startswith("[") and "plays on" in line]
    assert notes and all("illustrative" in line.lower() for line in notes)
    marks = {line.split("] ")[0] + "]" for line in notes}
    tours = next(line for line in _lines(out) if line.startswith("spi-dark-ages/tours"))
    assert any(m in tours for m in marks)
    bryn = next(line for line in _lines(out) if line.startswith("one-hour-dark-ages/bryn-glas"))
    assert not any(m in bryn for m in marks)


def test_fit_table_folds_only_the_column_whose_words_cannot_fit() -> None:
    console = Console(width=48, force_terminal=False)
    t = Table()
    t.add_column("key")
    t.add_column("short")
    t.add_column("long")
    t.add_row("k" * 20, "Bourgthéroulde", "x" * 30)
    fit_table(t, console)
    assert t.columns[1].width == len("Bourgthéroulde")
    assert t.columns[2].width is not None and t.columns[2].width < 30
