"""The boundary, by search: no host file names a rule system.

Outside ``src/shieldwall/rulesets/`` no Python, JS, HTML or CSS file of the package may contain a
rule-system id or package name (docstrings and comments included): the host layers learn about rule
systems only through their plugins. Entry points in ``pyproject.toml``, docs and tests aside.
"""

from __future__ import annotations

import re
from pathlib import Path

from shieldwall import registry

SRC = Path(__file__).resolve().parents[2] / "src" / "shieldwall"
SUFFIXES = {".py", ".js", ".html", ".css"}


def _names() -> set[str]:
    names: set[str] = set()
    for rid, rs in registry.systems().items():
        names.add(rid)
        names.add(rs.package.rsplit(".", 1)[-1])
    return names


def _host_files() -> list[Path]:
    return sorted(
        p
        for p in SRC.rglob("*")
        if p.suffix in SUFFIXES and p.is_file() and "rulesets" not in p.relative_to(SRC).parts
    )


def test_no_host_file_names_a_rule_system() -> None:
    names = _names()
    assert {"one-hour-dark-ages", "into-the-dark", "one_hour", "into_the_dark"} <= names
    pattern = re.compile("|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)), re.IGNORECASE)
    found = []
    for p in _host_files():
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
            m = pattern.search(line)
            if m:
                found.append(f"{p.relative_to(SRC)}:{i}: {m.group(0)}")
    assert not found, "host files name a rule system:\n" + "\n".join(found)


def test_the_search_covers_the_host_layers() -> None:
    """The search would see a name if one were there (the host tree is really searched)."""
    files = {str(p.relative_to(SRC)) for p in _host_files()}
    for expected in (
        "cli.py",
        "registry.py",
        "render/svg.py",
        "odds/base.py",
        "ai/base.py",
        "web/static/app.js",
    ):
        assert expected in files
