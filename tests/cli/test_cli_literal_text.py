"""Names are printed as they are: a scenario, unit, spec, type, note or file name holding rich
markup (``[/x]``, ``[bold]``, ``[alternate history]``) or emoji codes (``:B:``) is shown literally
by every command, never read as markup (a ``MarkupError`` traceback, or a bracket lost) nor as an
emoji (``heavy-cavalry:B:6`` printed as ``heavy-cavalry🅱6``). Found by an exploratory test of the
command line."""

from __future__ import annotations

import dataclasses
import re
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from rich.console import Console

from shieldwall.cli import run
from shieldwall.io.scenarios import resolve

#: a scenario name with every kind of markup: a bare closing tag (MarkupError), an unmatched one
#: (MarkupError), a style tag (swallowed), a bracketed word (swallowed) and emoji codes
NAME = "Brunanburh [/] Bryn [/x] Glas [bold]Hastings[/bold] [alternate history] :B: :A:"
#: a unit's name with markup and an emoji code
UNIT = "Hengist [/x] [bold]:A:"


def _literal(out: str, text: str) -> bool:
    """``text`` appears in ``out`` as it is (a table's title may wrap between its words), and no
    emoji took the place of a code."""
    return " ".join(text.split()) in " ".join(out.split()) and "🅱" not in out and "🅰" not in out


@pytest.fixture
def wide(monkeypatch: pytest.MonkeyPatch) -> None:
    """A wide terminal: no title is wrapped across lines."""
    monkeypatch.setenv("COLUMNS", "400")
    monkeypatch.delenv("LINES", raising=False)


@pytest.fixture
def scenario(tmp_path: Path) -> Path:
    """The default scenario copied with ``NAME``, a unit named ``UNIT``, and 2 turns (quick)."""
    text = resolve(None).read_text(encoding="utf-8")
    text, n = re.subn(r'(?m)^name = "Bryn Glas"$', lambda _: f'name = "{NAME}"', text, count=1)
    assert n == 1
    text, n = re.subn(r"(?m)^turns\s*=\s*\d+", "turns = 2", text)
    assert n == 1
    text, n = re.subn(r'(\{ id = "r1", [^}]*?)\s*\}', lambda m: f'{m.group(1)}, name = "{UNIT}" }}', text)
    assert n == 1
    path = tmp_path / "markup.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_simulate_prints_a_scenario_name_with_markup_as_it_is(
    scenario: Path, wide: None, capsys: pytest.CaptureFixture[str]
) -> None:
    code = run(["simulate", str(scenario), "-n", "2", "--workers", "1", "--no-progress"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert _literal(out, f"{NAME}: scripted (red) v scripted (blue)"), out


def test_report_prints_the_scenario_and_file_names_as_they_are(
    scenario: Path, wide: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_file = tmp_path / "runs [bold] :B:.parquet"  # a file's name holds no "/": no closing tag
    code = run(
        ["simulate", str(scenario), "-n", "2", "--workers", "1", "--no-progress", "--out", str(out_file)]
    )
    assert code == 0, capsys.readouterr().err
    capsys.readouterr()
    code = run(["report", str(out_file), "--plots", str(tmp_path / "plots")])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert _literal(out, f"{out_file.name}: {NAME}, scripted (red) v scripted (blue)"), out


def test_battle_and_replay_print_the_names_as_they_are(
    scenario: Path, wide: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "markup.json"
    code = run(["battle", str(scenario), "--save", str(save)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert _literal(out, NAME) and _literal(out, f"{UNIT} [r1]"), out
    code = run(["replay", str(save)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert out.startswith(f"{NAME}: replayed "), out
    assert "🅱" not in out


def test_report_battle_prints_a_path_with_markup_as_it_is(
    scenario: Path, wide: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "markup.json"
    assert run(["battle", str(scenario), "--save", str(save)]) == 0
    folder = tmp_path / "[bold]reports [" / "x]:B:"  # the path holds "[/x]"
    folder.mkdir(parents=True)
    html = folder / "r.html"
    capsys.readouterr()
    code = run(["report-battle", str(save), "-o", str(html)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert _literal(out, f"Wrote {html} ("), out


@pytest.mark.parametrize(
    ("args", "texts"),
    [
        (
            ["duel", "knight-hack", "--first", "heavy-cavalry:B:6", "--second", "heavy-infantry:C:12"],
            [
                "heavy-cavalry:B:6 (first) against heavy-infantry:C:12",
                "heavy-cavalry:B:6 (first) wins",
                "heavy-infantry:C:12 (second) wins",
            ],
        ),
        (
            ["attack", "knight-hack", "--attacker", "heavy-cavalry:B:6", "--target", "heavy-infantry:A:12"],
            ["heavy-cavalry:B:6 attacks heavy-infantry:A:12"],
        ),
        (["morale", "knight-hack", "--unit", "heavy-cavalry:B:6"], ["heavy-cavalry:B:6: morale test"]),
    ],
)
def test_odds_print_unit_specs_as_they_are(
    wide: None, capsys: pytest.CaptureFixture[str], args: list[str], texts: list[str]
) -> None:
    code = run(["odds", *args])
    out, err = capsys.readouterr()
    assert code == 0, err
    for text in texts:
        assert _literal(out, text), out


def test_matrix_tables_show_type_names_descriptions_and_notes_as_they_are() -> None:
    from shieldwall.odds.render import matrix_tables
    from shieldwall.odds.results import MatrixOdds

    types = ("heavy-cavalry:B:6 [/x]", "[bold]foot:A:")
    grid = [[Fraction(1), Fraction(2)], [Fraction(3), None]]
    odds = MatrixOdds(
        ruleset="rs [/]",
        settings={"terrain": "[red]wood"},
        types=types,
        facings=("front",),
        mean_hits={"front": grid},
        first_wins={"front": [[Fraction(1, 2), Fraction(1, 3)], [Fraction(2, 3), None]]},
        unit="hits :B:",
        short=("HC [/x]", ":A:"),
        descriptions=("knights [/x] :B:", "foot [bold]x"),
        notes=("a note [/x] :A:",),
    )
    console = Console(width=300, record=True)
    for table in matrix_tables(odds):
        console.print(table)
    out = console.export_text()
    for text in (*types, "HC [/x]", "knights [/x] :B:", "foot [bold]x", "a note [/x] :A:"):
        assert _literal(out, text), out
    assert _literal(out, "rs [/], front facing: mean hits :B: of one attack"), out
    # without descriptions, the notes are printed on their own
    console = Console(width=300, record=True)
    for table in matrix_tables(dataclasses.replace(odds, descriptions=())):
        console.print(table)
    assert _literal(console.export_text(), "a note [/x] :A:")


def test_scenarios_lists_a_title_with_markup_as_it_is(
    scenario: Path, wide: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import shieldwall.io.scenarios as scenarios

    monkeypatch.setattr(scenarios, "builtin_scenarios", lambda: {"one-hour-dark-ages/markup": scenario})
    monkeypatch.setattr(scenarios, "default_scenario", lambda: "one-hour-dark-ages/markup")
    code = run(["scenarios"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert _literal(out, f"{NAME} (the default)"), out


def test_rulesets_lists_a_plugins_words_as_they_are(
    wide: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from shieldwall import registry
    from shieldwall.cli import rulesets_cmd

    info = SimpleNamespace(title="Rules [/x] [bold]:B:", board="table [/]", sides=(":A:", "b"), complete=True)
    systems: dict[str, Any] = {"odd[/x]": SimpleNamespace(info=info)}
    monkeypatch.setattr(registry, "systems", lambda: systems)
    rulesets_cmd()
    out = capsys.readouterr().out
    for text in ("odd[/x]", "Rules [/x] [bold]:B:", "table [/]", ":A: v b"):
        assert _literal(out, text), out


def test_ordinary_names_print_as_before(wide: None, capsys: pytest.CaptureFixture[str]) -> None:
    """The same words as rich printed them from strings: only markup is no longer read."""
    code = run(["odds", "duel", "one-hour-dark-ages", "--first", "cavalry", "--second", "infantry"])
    out = capsys.readouterr().out
    assert code == 0
    assert "cavalry (first) against infantry (one-hour-dark-ages)" in out
    assert "│ cavalry (first) wins   │" in out and "│ infantry (second) wins │" in out
