"""Into the Dark army files for ``shieldwall army cost FILE [--json]`` (the plugin's ``army_cost``).

``army_cost`` validates an army file and prints its costed order of battle ("Point Cost of
Troops"). A bad file raises ``DataError`` naming the file, the unit and the rule;
``shieldwall.cli.main`` prints it as one line. Heavy imports happen inside the function.
"""

from __future__ import annotations

from pathlib import Path

import typer


def army_cost(file: Path, as_json: bool = False, check: bool = False) -> None:
    """Validate an army file (only that with ``check``) and print its costed order of battle;
    with ``as_json`` as ``{"units": [...], "total": N}``."""
    from shieldwall.rulesets.into_the_dark.army import load_army
    from shieldwall.rulesets.into_the_dark.points import army_cost as cost

    army = load_army(file)
    if check:
        return
    costed = cost(army)
    if as_json:
        import json

        typer.echo(json.dumps(costed.to_dict(), indent=2))
        return

    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from shieldwall.render.tables import print_table

    title = f"{army.name} — {costed.total} points"
    if army.points_limit is not None:
        title += f" (limit {army.points_limit})"
    # (names are data: shown as they are, never read as console markup or emoji codes)
    t = Table(title=Text(title, style="table.title"), show_footer=True)
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
            Text(r.name),
            Text(r.division or ""),
            Text(r.code),
            Text(r.quality),
            Text(r.type if r.kind == "unit" else r.kind),
            str(r.figures),
            "" if r.kind == "general" else (str(tc.numerator) if tc.denominator == 1 else f"{float(tc):g}"),
            str(r.command) if r.command else "",
            str(r.points),
        )
    # codes and troop types whole (they are typed); names wrap at words
    print_table(t, Console(emoji=False), keys=(2, 4))
