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


def _names(tmp_path: Path) -> list[str]:
    """Packaged-army names that are paths: each must name nothing, and read nothing."""
    probe = tmp_path / "probe.toml"
    probe.write_text('name = "x"\n', encoding="utf-8")
    stem = str(tmp_path / "probe")
    return [stem, "../../../../../../../../.." + stem, "/etc/passwd", "/no/such", "../armies/x", "a/b"]


@pytest.mark.parametrize(
    ("scenario", "field"),
    [("knight-hack/bourgtheroulde-1124", "red.army"), ("dbm-3.2/ford-of-ash", "armies.red")],
)
def test_a_packaged_army_name_is_never_a_path(
    client: TestClient, tmp_path: Path, scenario: str, field: str
) -> None:
    """Knight Hack's ``[red] army`` and DBM's ``armies.red`` name a packaged sample army. A name
    that is a path (absolute, with ``..``, to a file that exists or not) once got that file opened
    and parsed, and the error told whether it existed; now every one is an unknown name, answered
    in the same words but for the name itself, listing the packaged armies."""
    ruleset = scenario.split("/")[0]
    answers = set()
    for name in _names(tmp_path):
        data = read_toml(builtin_scenarios()[scenario])
        if ruleset == "knight-hack":
            data["red"]["army"] = name
        else:
            data["armies"]["red"] = name
        r = client.post("/api/games", json={"ruleset": ruleset, "scenario_data": data})
        assert r.status_code == 422, (name, r.text)
        detail = r.json()["detail"]
        assert field in detail and "unknown" in detail and "known:" in detail, detail
        assert "provenance" not in detail and "meta" not in detail  # (nothing was parsed)
        answers.add(detail.replace(repr(name), "NAME"))
    assert len(answers) == 1, answers


def test_the_army_builder_names_no_server_folder(client: TestClient, tmp_path: Path) -> None:
    """A Knight Hack army file's ``data`` names a folder of tables on the command line; sent to the
    army builder, ``/etc``, ``/proc/self`` or a folder holding a ``classes.toml`` was looked in
    (and named in the answer). Now each is refused in the same words, and the sample still costs."""
    kh = tmp_path / "kh"
    kh.mkdir()
    (kh / "classes.toml").write_text('x = "y"\n', encoding="utf-8")
    army = read_toml(
        Path(__file__).resolve().parents[2]
        / "src/shieldwall/rulesets/knight_hack/data/sample/armies/rebels-1124.toml"
    )
    errors = set()
    for folder in ("/etc", "/proc/self", str(kh), "../../../../etc", "no-such-folder"):
        r = client.post("/api/rulesets/knight-hack/army", json={"army": {**army, "data": folder}})
        assert r.status_code == 200, r.text
        out = r.json()
        assert out["legal"] is False
        errors.add(out["error"])
    assert len(errors) == 1, errors
    (only,) = errors
    assert "data" in only and "may not name a folder" in only and "/" not in only.split(":", 1)[1]
    r = client.post("/api/rulesets/knight-hack/army", json={"army": army})
    assert r.status_code == 200 and r.json()["legal"] is True, r.text
