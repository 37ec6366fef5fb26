"""The ``shieldwall`` command line (typer + rich).

Sub-commands live in small ``cli_*`` modules so that each stays light to import: heavy libraries
(numpy-heavy engines, icepool, duckdb, ray, fastapi) are imported inside the commands.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import typer

from shieldwall.cli_errors import check_folder, fail
from shieldwall.core.errors import ShieldwallError

__all__ = ["app", "check_folder", "fail", "main", "run"]

app = typer.Typer(
    name="shieldwall",
    help="A rules engine, opponent and analyst for Dark Age and early medieval wargames.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.command("rulesets")
def rulesets_cmd() -> None:
    """List the rule systems shieldwall knows."""
    from rich.table import Table

    from shieldwall import registry
    from shieldwall.cli_text import console, literal
    from shieldwall.render.tables import print_table

    t = Table(title="Rule systems")
    for col in ("id", "title", "board", "sides", "status"):
        t.add_column(col)
    for rid, rs in registry.systems().items():
        info = rs.info
        # a plug-in's words are data: shown as they are, never read as markup
        cells = (
            rid,
            info.title,
            info.board,
            " v ".join(info.sides),
            "complete" if info.complete else "partial",
        )
        t.add_row(*map(literal, cells))
    print_table(t, console())


#: the ``register`` functions already applied to ``app``: each adds its commands once per process
_added: set[Callable[[typer.Typer], None]] = set()


def _add(register: Callable[[typer.Typer], None]) -> None:
    """Apply ``register`` to ``app`` unless it already was. typer keeps every command it is given
    and builds all of them again at each call of ``app``: a process that runs the command line
    many times (the tests) would otherwise add every command once more at each run, and each
    run would take longer than the one before."""
    if register not in _added:
        register(app)
        _added.add(register)


def _register() -> None:
    from shieldwall import cli_battle

    _add(cli_battle.register)
    for name in ("cli_army", "cli_odds", "cli_report", "cli_sim", "cli_web"):
        try:
            mod = __import__(f"shieldwall.{name}", fromlist=["register"])
        except ModuleNotFoundError as exc:
            if exc.name == f"shieldwall.{name}":
                continue
            raise
        _add(mod.register)
    # each rule system's own commands (e.g. its army files), declared by its plugin
    from shieldwall import registry

    for rs in registry.systems().values():
        add = rs.optional("commands")
        if add is not None:
            _add(add)


def run(argv: list[str] | None = None) -> int:
    """Run the CLI and return its exit code; a ShieldwallError becomes a one-line message."""
    try:
        _register()
        app(args=argv, prog_name="shieldwall")
    except SystemExit as exc:
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    except ShieldwallError as exc:
        try:
            fail(str(exc))
        except typer.Exit as ex:
            return ex.exit_code
    except OSError as exc:  # a file that cannot be written or read: a message, never a traceback
        where = f"{exc.filename}: " if exc.filename else ""
        try:
            fail(f"{where}{exc.strerror or exc}", code=1)
        except typer.Exit as ex:
            return ex.exit_code
    except KeyboardInterrupt:
        return 130
    return 0


def main() -> None:
    sys.exit(run(sys.argv[1:]))


if __name__ == "__main__":
    main()
