"""``shieldwall dbm-army``: DBM 3.2 orders of battle (this rule system's own CLI command).

``shieldwall dbm-army cost FILE [--data DIR] [--json]`` validates an order of battle against its
army list (list minima and maxima, one general per command, one C-in-C, no C-in-C flank march,
6 or 8 baggage elements by the 400 AP line) and prints each element's cost to the half point, the
total and the points limit. FILE is a TOML file or the name of a sample order of battle
(``frankish``, ``norse-irish``). Problems are listed with their clause and give exit status 2.
With the sample data the header says it is illustrative, not the published tables.
"""

from __future__ import annotations

from pathlib import Path

import typer

army_app = typer.Typer(
    name="dbm-army",
    help="DBM 3.2 orders of battle: validate them against their list and cost them.",
    no_args_is_help=True,
)


@army_app.command("cost")
def cost_cmd(
    file: str = typer.Argument(
        ..., help="An order of battle (TOML), or a sample one: frankish, norse-irish."
    ),
    data: Path | None = typer.Option(
        None, "--data", help="A data set folder (default: the illustrative sample)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the costed army as one JSON object."),
) -> None:
    """Validate an order of battle and print its army points."""
    from importlib import resources

    from shieldwall.core.errors import ShieldwallError
    from shieldwall.rulesets.dbm.army import cost_army, format_report
    from shieldwall.rulesets.dbm.tables import load_order_of_battle, load_tables, sample_tables

    try:
        tables = load_tables(data) if data is not None else sample_tables()
        p = Path(file)
        if p.is_file():
            oob = load_order_of_battle(p)
        else:
            node = resources.files("shieldwall.rulesets.dbm") / "data" / "sample" / "armies" / f"{file}.toml"
            if not node.is_file():
                raise ShieldwallError(
                    f"{file}: no such file, nor a sample order of battle (frankish, norse-irish)"
                )
            oob = load_order_of_battle(node, f"dbm-3.2/sample/armies/{file}.toml")
        rep = cost_army(oob, tables, str(file))
    except ShieldwallError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    if as_json:
        import json

        out = {
            "army": rep.army,
            "list": rep.list_id,
            "label": tables.label,
            "lines": [ln.__dict__ for ln in rep.lines],
            "total": rep.total,
            "ap_limit": rep.ap_limit,
            "baggage": rep.baggage,
            "baggage_required": rep.baggage_required,
            "problems": [{"rule": c, "problem": w} for c, w in rep.problems],
        }
        typer.echo(json.dumps(out, indent=2))
    else:
        typer.echo(format_report(rep, tables.label))
    if not rep.ok:
        raise typer.Exit(2)


def register(app: typer.Typer) -> None:
    """Add the ``dbm-army`` sub-command group to the main CLI."""
    app.add_typer(army_app, name="dbm-army")
