"""No request names a server path: a scenario sent to the web app that names an army file is refused
with the same words whatever the path (absolute, ../, a symlink, a device, a file that exists or
not), on the new-game and on the save-import route; data files are read only if regular and small."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from shieldwall.core.datafiles import MAX_FILE_BYTES, read_toml
from shieldwall.core.errors import DataError
from shieldwall.io.scenarios import builtin_scenarios, game_from_data

ARMIES = Path(__file__).resolve().parents[2] / "scenarios" / "into-the-dark" / "armies"


def _itd_with_army_file(path: str) -> dict[str, Any]:
    data = read_toml(builtin_scenarios()["into-the-dark/senlac"])
    data["red"].pop("army")
    data["red"]["army_file"] = path
    return data


def _paths(tmp_path: Path) -> list[str]:
    link = tmp_path / "link.toml"
    link.symlink_to(ARMIES / "saxon-1066.toml")
    return [
        str(ARMIES / "saxon-1066.toml"),  # exists, and is a valid army
        "/etc/passwd",  # exists
        "/no/such/file.toml",  # does not
        "../../../../etc/hostname",
        "/dev/zero",  # a device: would be read without limit
        str(link),  # a symlink
        str(tmp_path),  # a folder
    ]


def test_new_game_names_no_server_path(client: TestClient, tmp_path: Path) -> None:
    details = set()
    for p in _paths(tmp_path):
        data = _itd_with_army_file(p)
        r = client.post("/api/games", json={"ruleset": "into-the-dark", "scenario_data": data})
        assert r.status_code == 422, (p, r.text)
        details.add(r.json()["detail"])
    assert len(details) == 1, details  # the same answer: it reveals nothing of what exists
    (only,) = details
    assert "red.army_file" in only and "may not name a file" in only


def test_save_import_names_no_server_path(client: TestClient, tmp_path: Path) -> None:
    details = set()
    for p in _paths(tmp_path):
        save = {"scenario": _itd_with_army_file(p), "seed": 1, "orders": []}
        r = client.post("/api/games/import", json={"save": save})
        assert r.status_code == 422, (p, r.text)
        details.add(r.json()["detail"])
    assert len(details) == 1, details


def test_the_command_line_still_loads_local_army_files(tmp_path: Path) -> None:
    data = _itd_with_army_file(str(ARMIES / "saxon-1066.toml"))
    game = game_from_data(data, str(tmp_path / "mine.toml"))
    assert game.info.id == "into-the-dark"


def test_read_toml_refuses_devices_folders_and_huge_files(tmp_path: Path) -> None:
    for p in ("/dev/zero", str(tmp_path)):
        with pytest.raises(DataError):
            read_toml(p)
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * (MAX_FILE_BYTES + 10))
    with pytest.raises(DataError, match="larger than"):
        read_toml(big)
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    with pytest.raises(DataError, match="not a regular file"):
        read_toml(fifo)  # refused before open(), which would block


def test_a_knight_hack_scenario_names_no_server_data_folder(client: TestClient, tmp_path: Path) -> None:
    """Knight Hack's ``data`` may name a folder of tables (the command line); from the web it is
    refused with the same words whatever the path."""
    details = set()
    for p in [*_paths(tmp_path), "../../../../etc"]:
        data = read_toml(builtin_scenarios()["knight-hack/bourgtheroulde-1124"])
        data["data"] = p
        r = client.post("/api/games", json={"ruleset": "knight-hack", "scenario_data": data})
        assert r.status_code == 422, (p, r.text)
        details.add(r.json()["detail"])
    assert len(details) == 1, details
    (only,) = details
    assert "data" in only and "may not name a file" in only
    ok = read_toml(builtin_scenarios()["knight-hack/bourgtheroulde-1124"])
    assert client.post("/api/games", json={"ruleset": "knight-hack", "scenario_data": ok}).status_code == 201
