"""``shieldwall serve``: registered on the CLI, with its options and its default database."""

from __future__ import annotations

from pathlib import Path

import pytest

from shieldwall.cli import run
from shieldwall.cli_web import default_db


def test_serve_is_a_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["serve", "--help"]) == 0
    out = capsys.readouterr().out
    assert "--host" in out and "--port" in out and "--db" in out


def test_default_database(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SHIELDWALL_DB", str(tmp_path / "x.sqlite3"))
    assert default_db() == tmp_path / "x.sqlite3"
    monkeypatch.delenv("SHIELDWALL_DB")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_db() == tmp_path / "shieldwall" / "games.sqlite3"


def test_serve_prints_the_url(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import uvicorn

    seen: dict[str, object] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: seen.update(kw, app=app))
    assert run(["serve", "--port", "8123", "--db", str(tmp_path / "g.sqlite3")]) == 0
    assert "http://127.0.0.1:8123/" in capsys.readouterr().out
    assert seen["host"] == "127.0.0.1" and seen["port"] == 8123 and (tmp_path / "g.sqlite3").exists()
