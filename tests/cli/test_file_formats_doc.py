"""docs/file-formats.md: every example it gives is a file the engine takes. Each scenario is
loaded and its battle started; each army file is costed by its rule system's own command. An
example marked ``<!-- example: <ruleset> scenario|army -->`` is the TOML block after the mark."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from shieldwall.cli import run
from shieldwall.io.scenarios import game_from_data

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "file-formats.md"
MARK = re.compile(r"<!-- example: ([a-z-]+) (scenario|army) -->\s*```toml\n(.*?)```", re.S)
#: the command that costs an army file of each rule system (its plugin's own CLI command)
ARMY_COMMAND = {"into-the-dark": "army", "knight-hack": "kh-army"}


def _examples() -> list[tuple[str, str, str]]:
    return [(m.group(1), m.group(2), m.group(3)) for m in MARK.finditer(DOC.read_text(encoding="utf-8"))]


def test_the_doc_gives_a_scenario_and_an_army_for_each_system_with_army_files() -> None:
    got = {(rs, what) for rs, what, _ in _examples()}
    assert got == {(rs, w) for rs in ARMY_COMMAND for w in ("scenario", "army")}


@pytest.mark.parametrize(("ruleset", "what", "text"), _examples(), ids=lambda x: x if len(x) < 20 else "")
def test_each_example_is_taken_by_the_engine(
    ruleset: str, what: str, text: str, tmp_path: Path, capsys: Any
) -> None:
    data = tomllib.loads(text)
    if what == "scenario":
        assert data["ruleset"] == ruleset
        game = game_from_data(data, f"docs/file-formats.md ({ruleset} scenario)")
        state = game.new_state(1)
        assert state.decision() is not None and state.view()["units"]
        return
    path = tmp_path / "army.toml"
    path.write_text(text, encoding="utf-8")
    capsys.readouterr()
    assert run([ARMY_COMMAND[ruleset], "cost", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["total"] > 0 and out["total"] <= data.get("points_limit", 10**9)
