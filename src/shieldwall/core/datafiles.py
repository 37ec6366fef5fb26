"""Loading validated data files (TOML) with errors that name the file, the field and the reason."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from shieldwall.core.errors import DataError

M = TypeVar("M", bound=BaseModel)


def read_toml(path: str | Path) -> dict[str, Any]:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError(str(p), "", "file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(str(p), "", f"cannot read: {exc}") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(str(p), "", f"not valid TOML: {exc}") from None


def format_loc(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


def validate(model: type[M], data: Any, file: str, prefix: str = "") -> M:
    """Validate ``data`` against a pydantic model; the first error becomes a ``DataError``."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = format_loc(tuple(err["loc"]))
        sep = "" if loc.startswith("[") else "."  # "units[0].name", not "units.[0].name"
        field = f"{prefix}{sep}{loc}" if prefix and loc else (prefix or loc)
        msg = err["msg"]
        if msg.startswith("Value error, "):
            msg = msg[len("Value error, ") :]
        if err["type"] == "extra_forbidden":
            msg = "unknown field (check the spelling; see docs/scenario-format.md)"
        more = len(exc.errors()) - 1
        if more:
            msg += f" (and {more} more problem{'s' if more > 1 else ''})"
        raise DataError(file, field, msg) from None


def validate_table(model: type[M], table: Mapping[str, Any], file: str) -> dict[str, M]:
    return {key: validate(model, value, file, key) for key, value in table.items()}
