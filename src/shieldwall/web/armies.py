"""The army builder's server side: an army file (TOML) costed and checked by the rule system's own
``army_cost`` (the code behind ``shieldwall army cost``), and written back as TOML for the page to
export. Names no rule system: the plugin's ``army_cost`` and ``army_builder`` say everything.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import re
import tempfile
import threading
import tomllib
from pathlib import Path
from typing import Any

from shieldwall.core.datafiles import no_file_references
from shieldwall.core.errors import ShieldwallError

#: an army file's text is at most this long (the CLI's limit is larger; a page's army is small)
MAX_TEXT = 200_000
_BARE = re.compile(r"^[A-Za-z0-9_-]+$")
# army_cost prints to stdout: one costing at a time captures it
_LOCK = threading.Lock()


def _key(k: str) -> str:
    return k if _BARE.match(k) else json.dumps(k)


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if not math.isfinite(v):
            raise ValueError(f"{v!r} is not a number TOML can hold")
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_key(str(k))} = {_value(x)}" for k, x in v.items()) + " }"
    raise ValueError(f"{type(v).__name__} is not a TOML value")


def _is_tables(v: Any) -> bool:
    return isinstance(v, list) and bool(v) and all(isinstance(x, dict) for x in v)


def to_toml(data: dict[str, Any]) -> str:
    """``data`` as TOML: plain values first, then tables (``[meta]``), then arrays of tables
    (``[[units]]``); anything deeper is written inline. ``tomllib.loads`` gives ``data`` back."""
    lines = [
        f"{_key(k)} = {_value(v)}" for k, v in data.items() if not isinstance(v, dict) and not _is_tables(v)
    ]
    for k, v in data.items():
        if isinstance(v, dict):
            lines += ["", f"[{_key(k)}]"] + [f"{_key(str(a))} = {_value(b)}" for a, b in v.items()]
    for k, v in data.items():
        if _is_tables(v):
            for entry in v:
                lines += ["", f"[[{_key(k)}]]"] + [f"{_key(str(a))} = {_value(b)}" for a, b in entry.items()]
    return "\n".join(lines) + "\n"


def parse(text: str) -> dict[str, Any]:
    """An army file's text as data (``ShieldwallError``-free: a ``ValueError`` saying what is wrong)."""
    if len(text) > MAX_TEXT:
        raise ValueError(f"an army file is at most {MAX_TEXT} characters")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"not valid TOML: {exc}") from None


def cost(rs: Any, data: dict[str, Any]) -> dict[str, Any]:
    """Cost and check the army ``data`` with the rule system's ``army_cost``, exactly as ``shieldwall
    army cost --json`` does: ``{"text", "legal", "error", "costed"}``; ``costed`` is the hook's JSON
    (None when the file does not validate), ``error`` the one-line reason it is not legal."""
    text = to_toml(data)
    hook = rs.load("army_cost")
    out = io.StringIO()
    error: str | None = None
    with tempfile.TemporaryDirectory(prefix="shieldwall-army-") as tmp:
        path = Path(tmp) / "army.toml"
        path.write_text(text, encoding="utf-8")
        # (an army sent from a page names no file or folder of the server: ``no_file_references``)
        with _LOCK, contextlib.redirect_stdout(out), no_file_references():
            try:
                hook(path, True, False)
            except ShieldwallError as exc:
                error = str(exc).replace(str(path), "army.toml").splitlines()[0]
    costed: Any = None
    printed = out.getvalue().strip()
    if printed:
        try:
            costed = json.loads(printed)
        except json.JSONDecodeError:
            costed = None
    return {"text": text, "legal": error is None, "error": error, "costed": costed}
