"""Loading validated data files (TOML) with errors that name the file, the field and the reason."""

from __future__ import annotations

import stat
import tomllib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from shieldwall.core.errors import DataError

M = TypeVar("M", bound=BaseModel)

#: the largest data file read (scenario, army, chart): a device or a huge file is refused, not read
MAX_FILE_BYTES = 4_000_000

_FILE_REFERENCES: ContextVar[bool] = ContextVar("shieldwall_file_references", default=True)


@contextmanager
def no_file_references() -> Iterator[None]:
    """Inside this block, data may not name a file to load (a scenario's ``army_file``): data that
    came from the network travels as content, never as a path on the server. A rule system's loader
    asks :func:`file_references_allowed` and refuses with the same words whatever the path."""
    token = _FILE_REFERENCES.set(False)
    try:
        yield
    finally:
        _FILE_REFERENCES.reset(token)


def file_references_allowed() -> bool:
    """Whether the data being loaded may name files (yes on the command line, no from the web)."""
    return _FILE_REFERENCES.get()


def packaged_toml(folder: Traversable, name: str, file: str, field: str, what: str) -> Traversable:
    """The packaged data file ``<name>.toml`` of ``folder`` (a rule system's sample armies),
    found among the folder's own files: the name is matched against them, never joined to a path,
    so a name with a separator, ``..`` or an absolute path names nothing here and reads nothing
    elsewhere. An unknown name is a ``DataError`` listing the known ones (in the same words
    whatever the name: they reveal nothing of the server's other files)."""
    known = sorted(f.name[:-5] for f in folder.iterdir() if f.name.endswith(".toml") and f.is_file())
    if name not in known:
        raise DataError(file, field, f"unknown {what} {name!r}; known: {', '.join(known)}")
    return folder / f"{name}.toml"


def read_text(p: Path, limit: int = MAX_FILE_BYTES) -> str:
    """A regular file of at most ``limit`` bytes as text (a device, a fifo or a folder is refused
    with a ``DataError``; a missing file raises ``FileNotFoundError``)."""
    if not stat.S_ISREG(p.stat().st_mode):  # before opening: a fifo would block the open
        raise DataError(str(p), "", "cannot read: not a regular file")
    with p.open("rb") as fh:
        raw = fh.read(limit + 1)
    if len(raw) > limit:
        raise DataError(str(p), "", f"larger than {limit} bytes")
    return raw.decode("utf-8")


def read_toml(path: str | Path) -> dict[str, Any]:
    p = Path(path)
    try:
        text = read_text(p)
    except FileNotFoundError:
        raise DataError(str(p), "", "file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(str(p), "", f"cannot read: {exc}") from None
    # a byte-order mark (some editors write one) is not TOML: read past it rather than refuse the
    # file with "Invalid statement (at line 1, column 1)"
    text = text.removeprefix("\ufeff")
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
