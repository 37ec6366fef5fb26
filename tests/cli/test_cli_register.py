"""The sub-commands are added to the command line once per process, however often it runs.

typer keeps every command it is given and builds all of them again at each run: when each run added
them again, a process that ran the command line many times (this suite, in each pytest-xdist
worker) made each run about 8 ms slower than the one before it (200 runs: 156 s of CPU instead of
2.4 s; docs/performance.md, "The test suite's time, seventh slice")."""

from __future__ import annotations

import pytest
import typer

from shieldwall import cli


def test_running_the_command_line_again_adds_no_command_again(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.run(["rulesets"]) == 0
    before = (len(cli.app.registered_commands), len(cli.app.registered_groups))
    names = [c.name for c in cli.app.registered_commands]
    assert len(names) == len(set(names)), names
    for _ in range(3):
        assert cli.run(["rulesets"]) == 0
    assert (len(cli.app.registered_commands), len(cli.app.registered_groups)) == before
    assert "one-hour-dark-ages" in capsys.readouterr().out


def test_a_new_register_function_is_applied_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A plugin that appears later (a new ``commands`` function) still has its commands added."""
    fresh = typer.Typer()
    monkeypatch.setattr(cli, "app", fresh)
    monkeypatch.setattr(cli, "_added", set())
    seen: list[typer.Typer] = []

    def register(app: typer.Typer) -> None:
        seen.append(app)

    cli._add(register)
    cli._add(register)
    assert seen == [fresh]
