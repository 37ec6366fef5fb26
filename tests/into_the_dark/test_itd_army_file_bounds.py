"""An into-the-dark scenario's army, given inline or in an army file, keeps the scenario's bound of
figures a unit (``core.limits.MAX_FIGURES``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from shieldwall.core.datafiles import read_toml
from shieldwall.core.errors import DataError
from shieldwall.io.scenarios import builtin_scenarios, game_from_data


def test_an_army_file_keeps_the_scenario_s_figures_bound(tmp_path: Path) -> None:
    """A unit of 200 figures given in an ``army_file`` was played, where the same unit given inline
    is refused (``core.limits.MAX_FIGURES``)."""
    from shieldwall.core.limits import MAX_FIGURES
    from shieldwall.web.armies import to_toml

    data = read_toml(builtin_scenarios()["into-the-dark/wye-fords"])
    army = data["red"].pop("army")
    army["units"][2]["figures"] = MAX_FIGURES + 100  # (Spearmen of Gwynedd, 16 figures)
    army["points_limit"] = 100_000  # (so that the figures, not the cost, are what is refused)
    (tmp_path / "big.toml").write_text(to_toml(army), encoding="utf-8")
    data["red"]["army_file"] = "big.toml"
    scenario = tmp_path / "wye.toml"
    scenario.write_text(to_toml(data), encoding="utf-8")
    with pytest.raises(DataError, match=rf"army.units\[2\].figures: at most {MAX_FIGURES} figures a unit"):
        game_from_data(read_toml(scenario), str(scenario))


def test_a_save_of_a_scenario_with_an_army_file_replays_from_anywhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A save records the scenario with its army files inline: a relative ``army_file`` was looked
    for beside the save (not the scenario) when it was replayed, so `battle --save` wrote a file
    that `replay` and `report-battle` could not read (found by an exploratory test of the CLI)."""
    from shieldwall.io.saves import make_save, replay
    from shieldwall.io.scenarios import load_game
    from shieldwall.match import play
    from shieldwall.web.armies import to_toml

    here = tmp_path / "scenarios"
    here.mkdir()
    data = read_toml(builtin_scenarios()["into-the-dark/wye-fords"])
    army = data["red"].pop("army")
    (here / "welsh.toml").write_text(to_toml(army), encoding="utf-8")
    data["red"]["army_file"] = "welsh.toml"
    (here / "wye.toml").write_text(to_toml(data), encoding="utf-8")
    game = load_game(str(here / "wye.toml"))
    played = play(game, 2, "scripted", "scripted")
    save = make_save(game, 2, played.orders, played.state)
    assert "army_file" not in save["scenario"]["red"] and save["scenario"]["red"]["army"] == army
    elsewhere = tmp_path / "saves"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    (here / "welsh.toml").unlink()  # (the replay needs nothing but the save)
    assert replay(save, str(elsewhere / "s.json")).result() == played.state.result()
