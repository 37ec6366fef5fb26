"""``shieldwall army cost FILE [--json]`` through the main CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from shieldwall import cli
from shieldwall.core.errors import DataError

ROOT = Path(__file__).resolve().parents[2]
ARMIES = ROOT / "scenarios" / "into-the-dark" / "armies"
BROKEN = ROOT / "tests" / "data" / "into_the_dark"

_registered = False


@pytest.fixture(scope="module")
def runner() -> CliRunner:
    global _registered
    if not _registered:
        cli._register()
        _registered = True
    return CliRunner()


def test_cli_army_cost_table(runner: CliRunner) -> None:
    r = runner.invoke(cli.app, ["army", "cost", str(ARMIES / "saxon-1066.toml")], env={"COLUMNS": "160"})
    assert r.exit_code == 0, r.output
    assert "Anglo-Saxon army, 1066" in r.output
    assert "859" in r.output
    assert "Harold's huscarls" in r.output


def test_cli_army_cost_json(runner: CliRunner) -> None:
    r = runner.invoke(cli.app, ["army", "cost", "--json", str(ARMIES / "welsh-1282.toml")])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert set(data) == {"units", "total"}
    assert data["total"] == 769 == sum(u["points"] for u in data["units"])
    rows = {u["name"]: u for u in data["units"]}
    assert rows["Dafydd ap Gruffudd"]["points"] == 195
    assert rows["Dafydd ap Gruffudd"]["kind"] == "champion-general"
    assert rows["Archers of Gwent"]["points"] == 80
    assert all(isinstance(u["points"], int) for u in data["units"])
    assert all(s["rule"].startswith("into-the-dark:") for u in data["units"] for s in u["breakdown"])


def test_cli_army_cost_bad_file_raises_data_error(runner: CliRunner) -> None:
    path = BROKEN / "cross-trained-longbow.toml"
    r = runner.invoke(cli.app, ["army", "cost", str(path)])
    assert isinstance(r.exception, DataError)
    msg = str(r.exception)
    assert str(path) in msg and '"Yeomen"' in msg and "into-the-dark:swat.longbow" in msg


def test_cli_army_cost_main_prints_one_line_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Through ``shieldwall.cli.main`` (in this process: an exception escaping it would fail the
    test): a clear one-line error, no traceback, exit code 2."""
    path = BROKEN / "peasant-swat.toml"
    monkeypatch.setattr(sys, "argv", ["shieldwall", "army", "cost", str(path)])
    with pytest.raises(SystemExit) as ended:
        cli.main()
    assert ended.value.code == 2
    stderr = capsys.readouterr().err
    err = " ".join(stderr.split())
    assert "Traceback" not in stderr
    assert "error:" in err and "Churls with bills" in err and "into-the-dark:swat.swat" in err


def test_cli_army_module_imports_light() -> None:
    code = (
        "import sys, shieldwall.rulesets.into_the_dark.cli; "
        "bad = [m for m in ('numpy', 'pydantic', 'icepool', 'rich.table') if m in sys.modules]; "
        "print(','.join(bad))"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == ""
