"""``shieldwall army cost FILE``: one command for the army files of every rule system, the rule
system taken from --ruleset, the file's ``ruleset`` key, or the one whose army files it fits."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shieldwall import registry
from shieldwall.cli import run

ROOT = Path(__file__).resolve().parents[2]
ITD = ROOT / "scenarios" / "into-the-dark" / "armies" / "saxon-1066.toml"


def _kh_army() -> Path:
    return (
        Path(str(registry.get("knight-hack").resource("data")))
        / "sample"
        / "armies"
        / "royal-household-1124.toml"
    )


def test_army_cost_finds_the_rule_system_a_file_fits(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["army", "cost", "--json", str(ITD)]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 859
    assert run(["army", "cost", "--json", str(_kh_army())]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 88


def test_army_cost_takes_the_ruleset_key_or_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "itd.toml"
    f.write_text('ruleset = "into-the-dark"\n' + ITD.read_text(encoding="utf-8"), encoding="utf-8")
    assert run(["army", "cost", "--json", str(f)]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 859
    f.write_text('ruleset = "knight-hack"\n' + ITD.read_text(encoding="utf-8"), encoding="utf-8")
    assert run(["army", "cost", str(f)]) == 2  # the key wins: Knight Hack's complaint about the file
    assert str(f) in capsys.readouterr().err
    # naming the wrong system gets that system's complaint, naming the file
    assert run(["army", "cost", "--ruleset", "into-the-dark", str(_kh_army())]) == 2
    err = capsys.readouterr().err
    assert str(_kh_army()) in err and "Traceback" not in err


def test_army_cost_refuses_unknown_systems_and_non_army_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["army", "cost", "--ruleset", "one-hour-dark-ages", str(ITD)]) == 2
    err = capsys.readouterr().err
    assert "one-hour-dark-ages" in err and "into-the-dark" in err and "knight-hack" in err  # the choices
    junk = tmp_path / "junk.toml"
    junk.write_text('name = "not an army"\n', encoding="utf-8")
    assert run(["army", "cost", str(junk)]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert "not an army file of any rule system" in err and "into-the-dark:" in err and "knight-hack:" in err
    bad = tmp_path / "bad.toml"
    bad.write_text("name = [unclosed\n", encoding="utf-8")
    assert run(["army", "cost", str(bad)]) == 2
    assert "not valid TOML" in capsys.readouterr().err
    assert run(["army", "cost", str(tmp_path / "missing.toml")]) == 2
    assert "file not found" in capsys.readouterr().err
