"""No tracebacks on the command line: files to write into a missing folder (or onto a folder), a
device given as a save, an invalid port: each a one-line error, before any work is done."""

from __future__ import annotations

from pathlib import Path

import pytest

from shieldwall.cli import run


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["battle", "--seed", "1", "--save", "{tmp}/missing/x.json"], "--save"),
        (["battle", "--seed", "1", "--svg", "{tmp}/missing/x.svg"], "--svg"),
        (["battle", "--seed", "1", "--save", "{tmp}"], "is a folder"),
        (["replay", "/dev/zero"], "not a regular file"),
        (["replay", "{tmp}"], "not a regular file"),
    ],
)
def test_a_bad_path_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], words: str
) -> None:
    code = run([a.replace("{tmp}", str(tmp_path)) for a in args])
    err = capsys.readouterr().err
    assert code != 0 and "error:" in err and words in err, err
    assert list(tmp_path.iterdir()) == []  # nothing written, not even a temporary file


def test_report_and_simulate_into_a_folder_that_cannot_be_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a missing folder is made (with its parents); one under a file cannot be: a one-line error
    out = tmp_path / "sim.parquet"
    assert run(["simulate", "-n", "2", "--seed", "1", "--no-progress", "--out", str(out)]) == 0
    capsys.readouterr()
    (tmp_path / "afile").write_text("x")
    code = run(["report", str(out), "--plots", str(tmp_path / "afile" / "plots")])
    err = capsys.readouterr().err
    assert code != 0 and err.startswith("error: ") and "afile" in err, err
    code = run(["simulate", "-n", "2", "--no-progress", "--out", str(tmp_path / "afile" / "x.parquet")])
    err = capsys.readouterr().err
    assert code != 0 and err.startswith("error: ") and "afile" in err, err


def test_an_invalid_port_is_refused_and_creates_no_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["serve", "--port", "80000", "--db", str(tmp_path / "d" / "g.sqlite3")]) == 2
    assert "65535" in capsys.readouterr().err
    assert not (tmp_path / "d").exists()
