"""``shieldwall army``: Into the Dark army files (this rule system's own CLI commands).

``shieldwall army cost FILE [--json]`` validates an army file and prints its costed order of battle
("Point Cost of Troops"). A bad file raises ``DataError`` naming the file, the unit and the rule;
``shieldwall.cli.main`` prints it as one line. Heavy imports happen inside the command.
"""

from __future__ import annotations

from pathlib import Path

import typer

army_app = typer.Typer(
    name="army",
    help="Army files (orders of battle) for Into the Dark: validate and cost them.",
    no_args_is_help=True,
)


@army_app.command("cost")
def cost_cmd(
    file: Path = typer.Argument(..., help="An into-the-dark army file (TOML)."),
    as_json: bool = typer.Option(False, "--json", help='Print {"units": [...], "total": N} as JSON.'),
) -> None:
    """Validate an army file and print its costed order of battle."""
    from shieldwall.rulesets.into_the_dark.army import load_army
    from shieldwall.rulesets.into_the_dark.points import army_cost

    army = load_army(file)
    costed = army_cost(army)
    if as_json:
        import json

        typer.echo(json.dumps(costed.to_dict(), indent=2))
        return

    from rich.console import Console
    from rich.table import Table

    title = f"{army.name} — {costed.total} points"
    if army.points_limit is not None:
        title += f" (limit {army.points_limit})"
    t = Table(title=title, show_footer=True)
    t.add_column("Name", footer="Total", no_wrap=True)
    t.add_column("Division")
    t.add_column("Code")
    t.add_column("Quality")
    t.add_column("Type")
    t.add_column("Figs", justify="right")
    t.add_column("Cost/fig", justify="right")
    t.add_column("Cmd", justify="right")
    t.add_column("Points", justify="right", footer=str(costed.total))
    for r in costed.rows:
        tc = r.troop_cost
        t.add_row(
            r.name,
            r.division or "",
            r.code,
            r.quality,
            r.type if r.kind == "unit" else r.kind,
            str(r.figures),
            "" if r.kind == "general" else (str(tc.numerator) if tc.denominator == 1 else f"{float(tc):g}"),
            str(r.command) if r.command else "",
            str(r.points),
        )
    Console().print(t)


def register(app: typer.Typer) -> None:
    """Add the ``army`` sub-command group to the main CLI."""
    app.add_typer(army_app, name="army")
