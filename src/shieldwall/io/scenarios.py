"""Finding and loading scenario files for any rule system."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from shieldwall.core.datafiles import read_toml
from shieldwall.core.errors import DataError, UnknownName
from shieldwall.core.game import Game
from shieldwall.rulesets import get_game_class, ruleset_ids

BUILTIN = Path(__file__).resolve().parent.parent / "scenarios"
DEFAULT_SCENARIO = "one-hour-dark-ages/bryn-glas"


def builtin_scenarios() -> dict[str, Path]:
    """Built-in scenarios by name ``<ruleset>/<stem>``."""
    out: dict[str, Path] = {}
    if BUILTIN.is_dir():
        for p in sorted(BUILTIN.glob("*/*.toml")):
            out[f"{p.parent.name}/{p.stem}"] = p
    return out


def resolve(name_or_path: str | None) -> Path:
    """A path to a scenario file from a path, a built-in name (``ruleset/name`` or just ``name``)."""
    if not name_or_path:
        name_or_path = DEFAULT_SCENARIO
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
    if not isinstance(rid, str):
        raise DataError(file, "ruleset", f"missing; say which rule system: {', '.join(ruleset_ids())}")
    if rid not in ruleset_ids():
        raise DataError(file, "ruleset", f"unknown rule system {rid!r}; valid: {', '.join(ruleset_ids())}")
    cls = get_game_class(rid)
    game: Game = cls.from_data(data, file, overrides)  # type: ignore[attr-defined]
    game.source_data = dict(data)  # type: ignore[attr-defined]
    return game


def display_name(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(BUILTIN.parent.parent.parent))
    except ValueError:
        return str(path)
