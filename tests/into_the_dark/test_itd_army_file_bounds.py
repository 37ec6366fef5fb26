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
