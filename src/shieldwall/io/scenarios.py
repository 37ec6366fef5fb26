"""Finding and loading scenario files for any rule system.

Built-in scenarios ship inside each rule system's package (``RuleSystem.scenarios``) and are named
``<ruleset id>/<stem>``; the default is the first rule system's ``default_scenario``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from shieldwall import registry
from shieldwall.core.datafiles import read_toml
from shieldwall.core.errors import DataError, UnknownName
from shieldwall.core.game import Game

#: the source tree's root (``display_name`` shows built-in files relative to it)
_ROOT = Path(__file__).resolve().parents[3]


def default_scenario() -> str:
    """The scenario ``battle`` plays when given none: ``<id>/<stem>`` of the first rule system."""
    rs = registry.default()
    return f"{rs.id}/{rs.default_scenario}"


def builtin_scenarios() -> dict[str, Path]:
    """Built-in scenarios by name ``<ruleset>/<stem>``, rule systems in display order."""
    out: dict[str, Path] = {}
    for rid, rs in registry.systems().items():
        for stem, f in rs.scenario_files().items():
            out[f"{rid}/{stem}"] = Path(str(f))
    return out


def resolve(name_or_path: str | None) -> Path:
    """A path to a scenario file from a path, a built-in name (``ruleset/name`` or just ``name``)."""
    if not name_or_path:
        name_or_path = default_scenario()
    p = Path(name_or_path)
    if p.suffix == ".toml" and p.exists():
        return p
    found = builtin_scenarios()
    if name_or_path in found:
        return found[name_or_path]
    stems = [k for k in found if k.split("/", 1)[1] == name_or_path]
    if len(stems) == 1:
        return found[stems[0]]
    if p.suffix == ".toml":
        raise DataError(str(p), "", "file not found")
    raise UnknownName("scenario", name_or_path, list(found))


def load_game(source: str | Path | None, overrides: Mapping[str, Any] | None = None) -> Game:
    """Load a scenario file (or built-in name) and bind it to its rule system."""
    path = resolve(str(source) if source is not None else None)
    data = read_toml(path)
    return game_from_data(data, display_name(path), overrides)


def game_from_data(data: Mapping[str, Any], file: str, overrides: Mapping[str, Any] | None = None) -> Game:
    rid = data.get("ruleset") if isinstance(data, Mapping) else None
    ids = registry.ids()
    if not isinstance(rid, str):
        raise DataError(file, "ruleset", f"missing; say which rule system: {', '.join(ids)}")
    if rid not in ids:
        raise DataError(file, "ruleset", f"unknown rule system {rid!r}; valid: {', '.join(ids)}")
    cls = registry.game_class(rid)
    game: Game = cls.from_data(data, file, overrides)
    game.source_file = file
    game.source_data = dict(data)
    return game


def display_name(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(_ROOT))
    except ValueError:
        return str(path)
