#!/usr/bin/env python3
"""Refresh the "Summary", "Implemented" and "Tests" columns of docs/rules/into-the-dark.md from the code.

Each row of the table keeps its clause id and section (written by hand); this script rewrites the
other three columns:

* Summary: the clause's summary in ``rulesets/into_the_dark/clauses.py`` (``CLAUSES[id][1]``: the
  package carries it, so the web app's clause table needs no docs/);

* Implemented: the functions and classes (``module.name``) of src/shieldwall/rulesets/into_the_dark
  whose source cites the clause id (quoted, in backticks or in parentheses, as the code does in
  ``cite("...")``, in the ``rule`` of events and in docstrings), and the data files that cite it;
* Tests: the test functions under tests/into_the_dark whose name contains the clause id (dots and
  dashes as underscores) or whose source (docstring included) cites it.

    python scripts/itd_clause_table.py          # rewrite the columns
    python scripts/itd_clause_table.py --check  # exit 1 if the table is out of date

``tests/into_the_dark/test_itd_docs.py`` runs the check and verifies every location and test named.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from shieldwall.rulesets.into_the_dark.clauses import CLAUSES, RS  # noqa: E402

SRC = ROOT / "src/shieldwall/rulesets/into_the_dark"
TESTS = ROOT / "tests/into_the_dark"
OUT = ROOT / "docs/rules/into-the-dark.md"
SHOW = 6

#: Sections the text names but never defines: no code may play them.
UNDEFINED = {
    "special-troops.chariots",
    "swat.wedge",
    "swat.hedgehog",
    "misc.scouting",
    "misc.army-lists",
}


_BEFORE = r"(?:^|[\s\"'`(:\[])"
_AFTER = r"(?=[\"'`:\s),;\]]|\.(?:[\s\"'`)]|$)|$)"


def cites(text: str, cid: str) -> bool:
    return bool(re.search(_BEFORE + re.escape(cid) + _AFTER, text, re.M))


def _units(path: Path) -> list[tuple[str, str]]:
    """(qualified name, source) of each top-level function and class of a module."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    out = []
    for node in ast.parse(text).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.append((f"{path.stem}.{node.name}", "\n".join(lines[node.lineno - 1 : node.end_lineno])))
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                if isinstance(t, ast.Name):
                    out.append((f"{path.stem}.{t.id}", "\n".join(lines[node.lineno - 1 : node.end_lineno])))
    return out


def implemented() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {c: [] for c in CLAUSES}
    # clauses.py is the list itself; the plug-in's presentation and analysis modules (narration,
    # drawing, the web's why, the plugin object) cite clauses to show them, not to play them
    skip = {"clauses.py", "narrate.py", "drawing.py", "explain.py", "plugin.py", "cli.py"}
    for f in sorted(SRC.glob("*.py")):
        if f.name in skip:
            continue
        for name, src in _units(f):
            for c in CLAUSES:
                if cites(src, c) and name not in out[c]:
                    out[c].append(name)
    for f in sorted(SRC.glob("data/*.toml")):
        text = f.read_text(encoding="utf-8")
        for c in CLAUSES:
            if cites(text, c):
                out[c].append(f"data/{f.name}")
    return out


def test_functions() -> dict[str, str]:
    """test name -> its source, for every test function under tests/into_the_dark."""
    out: dict[str, str] = {}
    for f in sorted(TESTS.glob("test_*.py")):
        text = f.read_text(encoding="utf-8")
        lines = text.splitlines()
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                out[node.name] = "\n".join(lines[node.lineno - 1 : node.end_lineno])
    return out


def names_clause(name: str, src: str, cid: str) -> bool:
    return cid.replace(".", "_").replace("-", "_") in name or cites(src, cid)


def tests() -> dict[str, list[str]]:
    fns = test_functions()
    return {c: [n for n, src in fns.items() if names_clause(n, src, c)] for c in CLAUSES}


def _cell(items: list[str]) -> str:
    shown = ", ".join(f"`{x}`" for x in items[:SHOW])
    return shown + (f" (+{len(items) - SHOW} more)" if len(items) > SHOW else "")


def render(current: str) -> str:
    imp, tst = implemented(), tests()
    out = []
    for line in current.splitlines():
        m = re.match(r"\| `" + re.escape(RS) + r":([a-z0-9.-]+)` \|", line)
        if not m or m.group(1) not in CLAUSES:
            out.append(line)
            continue
        c = m.group(1)
        cells = line.split(" | ")
        cells[2] = CLAUSES[c][1]
        where = _cell(imp[c]) or "**missing**"
        if c in UNDEFINED:
            where = "not defined by the text: not implemented"
            if imp[c]:
                where += f" (mentioned in {_cell(imp[c])})"
        cells[3] = where
        cells[4] = (_cell(tst[c]) or "**none**") + " |"
        out.append(" | ".join(cells[:5]))
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> int:
    current = OUT.read_text(encoding="utf-8")
    text = render(current)
    if "--check" in argv:
        if text != current:
            print(f"{OUT} is out of date: run python scripts/itd_clause_table.py")
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    missing = [ln.split(" | ")[0] for ln in text.splitlines() if "**missing**" in ln or "**none**" in ln]
    print(f"{len(CLAUSES)} clauses; rows missing code or tests: {len(missing)}")
    for m in missing:
        print("  ", m)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
