"""Saves record the tables they were played on and refuse to replay on others, in one clear line
(the issue's "Saves record which tables they used and refuse to replay on others")."""

from __future__ import annotations

import json
import shutil
import tomllib
from importlib import resources
from pathlib import Path

import pytest

from shieldwall.cli import run
from shieldwall.core.errors import DataError
from shieldwall.io.saves import make_save, read_save, replay, write_save
from shieldwall.io.scenarios import game_from_data
from shieldwall.rulesets.knight_hack.tables import FILES, sample_folder

SCENARIO = resources.files("shieldwall.rulesets.knight_hack") / "scenarios" / "bourgtheroulde-1124.toml"


def _user_tables(folder: Path) -> Path:
    src = Path(str(sample_folder()))
    folder.mkdir()
    for name in FILES:
        text = (src / name).read_text(encoding="utf-8").replace('"illustrative-sample"', '"user"', 1)
        (folder / name).write_text(text, encoding="utf-8")
    shutil.copytree(src / "armies", folder / "armies")
    return folder


def _played(tmp_path: Path, data_dir: Path) -> Path:
    data = tomllib.loads(SCENARIO.read_text("utf-8"))
    data["data"] = str(data_dir)
    game = game_from_data(data, "bourg.toml")
    state = game.new_state(5)
    orders = []
    for _ in range(12):
        o = state.legal_orders()[0]
        state.apply(o)
        orders.append(o)
    save = make_save(game, 5, orders, state)
    path = tmp_path / "battle.json"
    write_save(path, save)
    return path


def test_save_records_the_tables_it_was_played_on(tmp_path: Path) -> None:
    tables = _user_tables(tmp_path / "tables")
    path = _played(tmp_path, tables)
    save = read_save(path)
    digests = save["scenario"]["tables_sha256"]
    assert set(digests) == set(FILES) and all(len(d) == 64 for d in digests.values())
    assert replay(save, str(path)).events  # the same tables: it replays


def test_save_refuses_to_replay_on_other_tables(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tables = _user_tables(tmp_path / "tables")
    path = _played(tmp_path, tables)
    w = tables / "weapons.toml"
    w.write_text(w.read_text(encoding="utf-8").replace("open = 10", "open = 15", 1), encoding="utf-8")
    with pytest.raises(DataError) as ei:
        replay(read_save(path), str(path))
    msg = str(ei.value)
    assert "tables_sha256" in msg and "weapons.toml differs" in msg and "refusing to replay" in msg
    assert "\n" not in msg
    code = run(["replay", str(path)])
    err = capsys.readouterr().err
    assert code != 0 and "weapons.toml differs" in err and "Traceback" not in err


def test_a_scenario_may_pin_its_tables() -> None:
    data = tomllib.loads(SCENARIO.read_text("utf-8"))
    data["tables_sha256"] = {name: "0" * 64 for name in FILES}
    with pytest.raises(DataError, match="classes.toml, melee_chart.toml"):
        game_from_data(data, "bourg.toml")
    good = game_from_data(tomllib.loads(SCENARIO.read_text("utf-8")), "bourg.toml")
    data["tables_sha256"] = good.source_data["tables_sha256"]  # type: ignore[attr-defined]
    assert json.dumps(game_from_data(data, "bourg.toml").source_data)  # type: ignore[attr-defined]
