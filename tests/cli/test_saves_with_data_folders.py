"""A save of a scenario whose tables (Knight Hack) or charts (SPI) are a folder named relative to
the scenario file replays from any folder: the folder was looked for beside the save, so `battle
--save` wrote a file `replay` could not read (found by an exploratory test of the command line)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from shieldwall.io.saves import make_save, replay
from shieldwall.io.scenarios import load_game
from shieldwall.match import play

ROOT = Path(__file__).resolve().parents[2] / "src/shieldwall/rulesets"


@pytest.mark.parametrize(
    ("package", "scenario"),
    [("knight_hack", "bourgtheroulde-1124.toml"), ("spi_dark_ages", "tours.toml")],
)
def test_a_save_names_its_data_folder_so_it_replays_anywhere(
    package: str, scenario: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    here = tmp_path / "scenarios"
    shutil.copytree(ROOT / package / "data" / "sample", here / "mydata")
    text = (ROOT / package / "scenarios" / scenario).read_text(encoding="utf-8")
    assert '\ndata = "sample"\n' in text
    (here / scenario).write_text(text.replace('\ndata = "sample"\n', '\ndata = "mydata"\n'), encoding="utf-8")
    monkeypatch.chdir(here)
    game = load_game(str(here / scenario))
    played = play(game, 3, "scripted", "random")
    save = make_save(game, 3, played.orders, played.state)
    assert save["scenario"]["data"] == str((here / "mydata").resolve())
    elsewhere = tmp_path / "saves"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert replay(save, str(elsewhere / "s.json")).result() == played.state.result()
