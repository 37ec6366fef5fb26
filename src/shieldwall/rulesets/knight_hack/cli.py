"""``shieldwall kh-army``: Knight Hack army files (this rule system's own CLI command).

``shieldwall kh-army cost FILE [--json]`` validates an army file and prints each unit's points and
morale level, the total and the points limit; an army over its limit is reported after the table as
a one-line error (exit status 2). With the illustrative sample tables the header says so.
"""

from __future__ import annotations

from pathlib import Path

import typer

army_app = typer.Typer(
    name="kh-army",
    help="Army files for Knight Hack: validate them, cost them, check the points limit.",
    no_args_is_help=True,
)


@army_app.command("cost")
def cost_cmd(
    file: Path = typer.Argument(..., help="A knight-hack army file (TOML)."),
    as_json: bool = typer.Option(False, "--json", help="Print the costed army as one JSON object."),
) -> None:
    """Validate an army file and print its units' points and morale levels."""
    from shieldwall.core.errors import ShieldwallError

    try:
        army_cost(file, as_json)
    except ShieldwallError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None


def army_cost(file: Path, as_json: bool = False, check: bool = False) -> None:
    """Validate an army file (only that with ``check``), print its costed units (or one JSON
    object), then check its points limit (``ShieldwallError`` if over it). The plugin's
    ``army_cost``, behind ``shieldwall army cost``."""
    from shieldwall.rulesets.knight_hack.army import army_cost as cost
    from shieldwall.rulesets.knight_hack.army import check_limit, load_army

    army = load_army(file)
    if check:
        return
    costed = cost(army)
    if as_json:
        import json

        typer.echo(json.dumps(costed.to_dict(), indent=2))
    else:
        from rich.console import Console
        from rich.table import Table
        from rich.text import Text

        from shieldwall.render.tables import print_table

        title = f"{army.name} — {costed.total} points"
        if army.points_limit is not None:
            title += f" (limit {army.points_limit})"
        # (names are data: shown as they are, never read as console markup or emoji codes)
        t = Table(title=Text(title, style="table.title"), show_footer=True)
        t.add_column("Unit", footer="Total", no_wrap=True)
        t.add_column("Type")
        t.add_column("Class")
        t.add_column("Figs", justify="right")
        t.add_column("Cost/fig", justify="right")
        t.add_column("Points", justify="right", footer=str(costed.total))
        t.add_column("Base", justify="right")
        t.add_column("Morale level", justify="right")
        for r in costed.rows:
            t.add_row(
                Text(r.name),
                Text(r.type),
                Text(r.cls),
                str(r.figures),
                str(r.cost_per_figure),
                str(r.points),
                str(r.base_cost),
                str(r.morale_level),
            )
        console = Console(emoji=False)
        if costed.label:
            console.print(Text(costed.label, style="bold"))
        print_table(t, console, keys=(1,))  # troop types whole (they are typed); names wrap at words
    check_limit(army, costed)


def register(app: typer.Typer) -> None:
    """Add the ``kh-army`` sub-command group to the main CLI."""
    app.add_typer(army_app, name="kh-army")
