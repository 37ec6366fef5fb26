"""``shieldwall army cost FILE``: cost an army file (an order of battle) of any rule system.

The rule system is the one named by ``--ruleset``, else by the file's top-level ``ruleset`` key,
else the one rule system whose army files the file validates as (each plugin's ``army_cost`` hook
checks it first). The hook prints the costed army and checks the points limit; a bad file is a
one-line error naming the file, field and rule.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Annotated, Any

import typer

from shieldwall.core.datafiles import read_text
from shieldwall.core.errors import DataError, ShieldwallError, UnknownName

#: an army file larger than this is refused before it is parsed
MAX_ARMY_FILE = 2_000_000


def _systems() -> dict[str, Any]:
    from shieldwall import registry

    return {rid: rs for rid, rs in registry.systems().items() if rs.army_cost}


def _declared(path: Path) -> str | None:
    """The file's top-level ``ruleset`` key, if it has one (a broken file is the hook's to report)."""
    try:
        # (a regular file of at most MAX_ARMY_FILE bytes, as the core reads data files: a fifo or
        # a device is refused before it is opened, where reading it would block or never end)
        data = tomllib.loads(read_text(path, MAX_ARMY_FILE).removeprefix("\ufeff"))
    except FileNotFoundError:
        raise DataError(str(path), "", "file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(str(path), "", f"cannot be read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise DataError(str(path), "", f"not valid TOML: {exc}") from None
    value = data.get("ruleset")
    if value is not None and not isinstance(value, str):
        raise DataError(str(path), "ruleset", "must be a rule system id (a string)")
    return value


def choose(path: Path, ruleset: str | None) -> Any:
    """The plugin whose ``army_cost`` costs ``path`` (see the module docstring)."""
    systems = _systems()
    name = ruleset or _declared(path)
    if name is not None:
        if name not in systems:
            raise UnknownName("rule system with army files", name, sorted(systems))
        return systems[name]
    fits, why = [], []
    for rid, rs in systems.items():
        try:
            rs.load("army_cost")(path, False, True)
        except ShieldwallError as exc:
            why.append(f"{rid}: {str(exc).splitlines()[0]}")
            continue
        fits.append(rs)
    if len(fits) == 1:
        return fits[0]
    if fits:
        ids = ", ".join(rs.id for rs in fits)
        raise DataError(str(path), "ruleset", f"valid as an army file of {ids}: say which with --ruleset")
    raise DataError(str(path), "", "not an army file of any rule system (" + "; ".join(why) + ")")


def register(app: typer.Typer) -> None:
    army_app = typer.Typer(
        name="army",
        help="Army files (orders of battle) of every rule system that has them: validate and cost them.",
        no_args_is_help=True,
    )

    @army_app.command("cost")
    def cost(
        file: Annotated[Path, typer.Argument(help="An army file (TOML) of any rule system that has them.")],
        as_json: Annotated[
            bool, typer.Option("--json", help="Print the costed army as one JSON object.")
        ] = False,
        ruleset: Annotated[
            str | None,
            typer.Option(help="The rule system (default: the file's `ruleset` key, else the one it fits)."),
        ] = None,
    ) -> None:
        """Validate an army file and print its costed order of battle and points limit."""
        rs = choose(file, ruleset)
        rs.load("army_cost")(file, as_json, False)

    app.add_typer(army_app, name="army")
