"""``shieldwall odds``: exact probabilities from the rules code (attack, morale, duel, matrix).

Registered by ``shieldwall.cli`` through :func:`register`. Start-up stays light: only the odds
plug-ins' metadata (plain data) is imported here, for the help texts; the rules, rich and
matplotlib are imported when a command runs.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer

from shieldwall.core.errors import ShieldwallError
from shieldwall.odds.base import OddsPlugin, get_plugin, ruleset_ids
from shieldwall.odds.results import Progress
from shieldwall.odds.settings import COMMANDS


def _plugins() -> list[OddsPlugin]:
    return [get_plugin(r) for r in ruleset_ids()]


def _epilog(command: str, spec: bool = True) -> str:
    """Help text: the SPEC grammar and the --set keys of every rule system for one query."""
    parts: list[str] = []
    supported = [p for p in _plugins() if command in p.commands]
    for p in supported:
        if spec:
            parts.append(f"[bold]SPEC for {p.ruleset}[/]: {p.spec_help}")
            if p.spec_examples:
                parts.append("Examples: " + ", ".join(p.spec_examples))
        keys = [k for k in p.set_keys.values() if command in k.commands]
        if keys:
            parts.append(f"[bold]--set keys for {p.ruleset}[/] (odds {command}):")
            for k in keys:
                default = "not stated" if k.default is None else str(k.default)
                parts.append(f"• [bold]{k.name}[/]={k.values_text()} (default {default}): {k.doc}")
    if not supported:
        others = ", ".join(f"{p.ruleset} ({', '.join(p.commands)})" for p in _plugins())
        parts.append(f"No rule system with odds answers `odds {command}` yet. Available: {others}.")
    return "\n\n".join(parts)


def _ruleset_help() -> str:
    return "Rule system: " + " | ".join(ruleset_ids()) + "."


def _run(body: Callable[[], None]) -> None:
    """Run a command body; a ShieldwallError becomes a one-line error and exit status 2."""
    try:
        body()
    except ShieldwallError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None


def _check_image(path: str, option: str) -> None:
    """Fail before any work when the image file ``path`` given to ``option`` cannot be written: an
    extension that is not an image format it writes (``image_format``), a folder, no folder to go
    into."""
    from shieldwall.cli_errors import check_folder, fail
    from shieldwall.odds.render import image_format

    check_folder(Path(path), option)
    try:
        image_format(path)
    except ValueError as exc:
        fail(f"{option} {path}: {exc}")


def _echo_json(obj: dict[str, Any]) -> None:
    typer.echo(json.dumps(obj))


def _print(*renderables: Any, width: int = 0) -> None:
    """Print with rich; ``width``: at least this many columns (a wide table is not squeezed)."""
    from shieldwall.cli_text import console as make_console

    console = make_console()
    if width > console.width:
        console = make_console(width=width)
    for r in renderables:
        console.print(r)


#: seconds of work before a progress bar appears (quick answers show none)
PROGRESS_AFTER = 0.3


@contextmanager
def _progress_bar(enabled: bool) -> Iterator[Progress | None]:
    """A ``Progress`` callback drawing a rich progress bar on stderr, one line per stage (a duel's
    win probabilities, its turns; a matrix's duels). The bar appears once the work has taken
    ``PROGRESS_AFTER`` seconds and is cleared when it ends, on a terminal only; None when not
    ``enabled``."""
    if not enabled:
        yield None
        return
    start = time.monotonic()
    bar: Any = None  # False: stderr is not a terminal
    tasks: dict[str, Any] = {}

    def report(stage: str, done: int, total: int | None) -> None:
        nonlocal bar
        if bar is None:
            if time.monotonic() - start < PROGRESS_AFTER:
                return
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            console = Console(stderr=True)
            if not console.is_terminal:
                bar = False
                return
            bar = Progress(
                TextColumn("{task.description}", style="bold", markup=False),  # a stage's name as it is
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=console,
                transient=True,
            )
            bar.start()
        elif bar is False:
            return
        task = tasks.get(stage)
        if task is None:
            task = tasks[stage] = bar.add_task(stage, total=total)
        bar.update(task, completed=done, total=total)

    try:
        yield report
    finally:
        if bar:
            bar.stop()


SetOpt = Annotated[
    list[str] | None,
    typer.Option("--set", metavar="KEY=VALUE", help="A situation or rule setting; repeatable. Keys below."),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")]
ExactOpt = Annotated[
    bool,
    typer.Option(
        "--exact",
        help="Solve the duels in exact fractions (slower) instead of float64 with a stated error bound.",
    ),
]
ProgressOpt = Annotated[
    bool,
    typer.Option(
        help=f"Show a progress bar on stderr when the work takes over {PROGRESS_AFTER} s (not with --json)."
    ),
]
RulesetArg = Annotated[str, typer.Argument(metavar="RULESET", help=_ruleset_help(), show_default=False)]


def register(app: typer.Typer) -> None:
    """Add the ``odds`` sub-app (attack, morale, duel, matrix) to ``app``."""
    odds_app = typer.Typer(
        name="odds",
        help="Exact odds from the rules code: one attack, a morale test, a duel to the finish, the "
        "matchup table. Probabilities are exact fractions, with floats beside them.",
        no_args_is_help=True,
    )

    @odds_app.command("attack", epilog=_epilog("attack"))
    def attack_cmd(
        ruleset: RulesetArg,
        attacker: Annotated[str, typer.Option("--attacker", metavar="SPEC", help="The attacking unit.")],
        target: Annotated[str, typer.Option("--target", metavar="SPEC", help="The unit attacked.")],
        sets: SetOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Exact distribution of the hits of one melee attack or one shot.

        JSON: {"distribution": [{"value", "probability": "N/D", "p"}...], "mean", ...}.
        """

        def body() -> None:
            res = get_plugin(ruleset).attack(attacker, target, sets or [])
            if as_json:
                _echo_json(res.to_json())
            else:
                from shieldwall.odds.render import attack_table

                _print(attack_table(res))

        _run(body)

    @odds_app.command("morale", epilog=_epilog("morale"))
    def morale_cmd(
        ruleset: RulesetArg,
        unit: Annotated[str, typer.Option("--unit", metavar="SPEC", help="The unit taking the test.")],
        sets: SetOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Exact outcome probabilities of a morale or control test: passed / shaken / driven back / routed.

        JSON: {"outcomes": {"passed": {"probability": "N/D", "p"}, ...}}.
        """

        def body() -> None:
            res = get_plugin(ruleset).morale(unit, sets or [])
            if as_json:
                _echo_json(res.to_json())
            else:
                from shieldwall.odds.render import morale_table

                _print(morale_table(res))

        _run(body)

    @odds_app.command("duel", epilog=_epilog("duel"))
    def duel_cmd(
        ruleset: RulesetArg,
        first: Annotated[str, typer.Option("--first", metavar="SPEC", help="The unit that attacks first.")],
        second: Annotated[str, typer.Option("--second", metavar="SPEC", help="Its opponent.")],
        sets: SetOpt = None,
        as_json: JsonOpt = False,
        exact: ExactOpt = False,
        progress: ProgressOpt = True,
    ) -> None:
        """Two units locked in frontal melee until one is removed: P(each wins) and the
        distribution of the number of turns (an absorbing Markov chain, not sampling), in float64
        with a bound on the error of every probability, or exact fractions with --exact.

        JSON: {"exact", "error_bound", "first_wins": "N/D" (null in float64), "p_first_wins",
        "second_wins", "p_second_wins", "turns": [{"value", "probability", "p"}...],
        "turns_beyond", "undecided", ...}.
        """

        def body() -> None:
            with _progress_bar(progress and not as_json) as report:
                plugin = get_plugin(ruleset)
                ask = plugin.duel if exact else plugin.duel_float
                res = ask(first, second, sets or [], progress=report)
            if as_json:
                _echo_json(res.to_json())
            else:
                from shieldwall.odds.render import duel_tables

                _print(*duel_tables(res))

        _run(body)

    @odds_app.command("matrix", epilog=_epilog("matrix", spec=False))
    def matrix_cmd(
        ruleset: RulesetArg,
        sets: SetOpt = None,
        as_json: JsonOpt = False,
        png: Annotated[
            str | None,
            typer.Option(
                "--png",
                metavar="FILE",
                help="Also write a heat map: a PNG (or .svg, .pdf: the file's extension).",
            ),
        ] = None,
        exact: ExactOpt = False,
        progress: ProgressOpt = True,
    ) -> None:
        """Every unit type against every other, for each facing: mean hits of one attack and
        P(the row type wins a duel it opens on that facing), the duels in float64 with a stated
        error bound (--exact: exact fractions).

        JSON: {"types", "facings", "exact", "error_bound", "mean_hits": {facing: rows x columns},
        "p_first_wins": {...}, "first_wins": {...} (exact; null entries in float64), ...}.
        """

        if png:
            _check_image(png, "--png")  # before the matrix is worked out

        def body() -> None:
            with _progress_bar(progress and not as_json) as report:
                plugin = get_plugin(ruleset)
                ask = plugin.matrix if exact else plugin.matrix_float
                res = ask(sets or [], progress=report)
            if png:
                from shieldwall.odds.render import matrix_png

                try:
                    matrix_png(res, png)
                except OSError as exc:
                    raise ShieldwallError(f"cannot write {png}: {exc.strerror or exc}") from None
            if as_json:
                _echo_json(res.to_json())
            else:
                from shieldwall.odds.render import matrix_tables, matrix_width

                _print(*matrix_tables(res), width=matrix_width(res))
                if png:
                    typer.echo(f"heat map written to {png}")

        _run(body)

    assert set(COMMANDS) == {"attack", "morale", "duel", "matrix"}
    app.add_typer(odds_app, name="odds")
