"""``shieldwall dbm-army``: DBM 3.2 orders of battle (this rule system's own CLI command).

``shieldwall army cost FILE`` (the host's command, through the plugin's ``army_cost``) and
``shieldwall dbm-army cost FILE [--data DIR] [--json]`` validate an order of battle against its
army list (list minima and maxima, one general per command, one C-in-C, no C-in-C flank march,
6 or 8 baggage elements by the 400 AP line) and prints each element's cost to the half point, the
total and the points limit. FILE is a TOML file or the name of a sample order of battle
(``frankish``, ``norse-irish``). Problems are listed with their clause and give exit status 2.
With the sample data the header says it is illustrative, not the published tables.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

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
    from shieldwall.core.errors import ShieldwallError

    try:
        army_cost(file, as_json, data=data)
    except ShieldwallError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None


def _load(file: str | Path) -> Any:
    from importlib import resources

    from shieldwall.core.errors import ShieldwallError
    from shieldwall.rulesets.dbm.tables import load_order_of_battle

    p = Path(file)
    if p.is_file():
        return load_order_of_battle(p)
    node = resources.files("shieldwall.rulesets.dbm") / "data" / "sample" / "armies" / f"{file}.toml"
    if not node.is_file():
        raise ShieldwallError(f"{file}: no such file, nor a sample order of battle (frankish, norse-irish)")
    return load_order_of_battle(node, f"dbm-3.2/sample/armies/{file}.toml")


def army_cost(file: str | Path, as_json: bool = False, check: bool = False, data: Path | None = None) -> None:
    """Validate an order of battle (only that with ``check``), print its costed elements (or one
    JSON object), then refuse it (``ShieldwallError`` naming the clause) if it breaks its list, the
    baggage count or its points limit. The plugin's ``army_cost``, behind ``shieldwall army cost``."""
    from shieldwall.core.errors import ShieldwallError
    from shieldwall.rulesets.dbm.army import cost_army, format_report
    from shieldwall.rulesets.dbm.tables import load_tables, sample_tables

    oob = _load(file)
    if check:
        return
    tables = load_tables(data) if data is not None else sample_tables()
    rep = cost_army(oob, tables, str(file))
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
        c, w = rep.problems[0]
        raise ShieldwallError(f"{file}: {c + ': ' if c else ''}{w}")


def register(app: typer.Typer) -> None:
    """Add the ``dbm-army`` sub-command group to the main CLI."""
    app.add_typer(army_app, name="dbm-army")
