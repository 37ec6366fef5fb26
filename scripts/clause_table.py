#!/usr/bin/env python3
"""The clause tables docs/rules/<ruleset>.md of every registered rule system: each clause of the
text, where the code implements it and which tests name it. One library for all rule systems,
driven by each plugin: its ``clauses`` (the clause list, ``CLAUSES``; the module may also carry a
``CLAUSE_TABLE`` dict of table options, see ``Spec``), its ``package`` (the code searched), its
``clause_table`` (the file written) and the tests under ``tests/<package's last part>/``. A new rule
system needs no script of its own: set ``clause_table`` and ``clauses`` on its plugin.

    python scripts/clause_table.py                     # rewrite every rule system's table
    python scripts/clause_table.py one-hour-dark-ages  # only one
    python scripts/clause_table.py --check [ID ...]    # exit 1 if a table is out of date or a row
                                                       # names a test or code that does not exist

"Implemented" = the modules (or, with ``granularity = "function"``, the top-level functions and
classes) and data files of the package that cite the clause id (quoted, in backticks, after a
colon as in ``<ruleset>:<id>``); the clause list and the presentation modules (``skip``) do not
count. "Tests" = the test functions whose name is named after the clause (dots and dashes as
underscores; a name naming several clauses names the longest) or whose source cites it.

Two styles: ``generate`` writes the whole table (a header, one row per clause, a status line);
``refresh`` keeps a hand-written table (sections, prose) and rewrites the summary, implemented and
tests cells of each row whose first cell is `` `<ruleset>:<id>` ``.
"""

from __future__ import annotations

import ast
import importlib
import re
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "src") not in sys.path:
    sys.path.insert(0, str(ROOT / "src"))

#: presentation and analysis modules: they show or name clauses, they do not play them
PRESENTATION = {"clauses.py", "plugin.py", "narrate.py", "drawing.py", "explain.py", "odds.py", "cli.py"}

_SIMPLE_BEFORE = r"[\"'`:]"
_SIMPLE_AFTER = r"(?=[\"'`:\s),]|$)"
_STRICT_BEFORE = r"(?:^|[\s\"'`(:\[])"
_STRICT_AFTER = r"(?=[\"'`:\s),;\]]|\.(?:[\s\"'`)]|$)|$)"


@dataclass
class Spec:
    """How one rule system's table is made (the keys of a ``CLAUSE_TABLE`` dict)."""

    #: "generate" (the whole table) or "refresh" (the cells of a hand-written one)
    style: str = "generate"
    #: "file" (modules and data files) or "function" (``module.name`` of top-level definitions)
    granularity: str = "file"
    #: search sub-packages too (``rglob``) or only the package's own modules
    recursive: bool = True
    #: count data files (``data/*.toml``) that cite a clause
    data_files: bool = True
    #: modules that do not implement clauses (file names)
    skip: frozenset[str] = frozenset(PRESENTATION)
    #: "simple": a quote, backtick or colon before the id; "strict": also a line start, space,
    #: parenthesis or bracket before it and a sentence's full stop after it
    cites: str = "strict"
    #: "longest-prefix": a test named after several clauses names the longest; "prefix": every
    #: clause the name starts with; "contains": every clause the name contains
    test_names: str = "longest-prefix"
    #: clause -> what to show instead of code (informative text, decided by a ruling)
    notes: Mapping[str, str] = field(default_factory=dict)
    #: clauses the text names but never defines (refresh style)
    undefined: frozenset[str] = frozenset()
    #: shown when a rule has no code citing it
    missing: str = "**missing**"
    #: cells: names shown, and the separator
    show: int = 4
    sep: str = "<br>"
    #: generate style: the lines above the table (``{rs}``, ``{script}`` are filled in)
    header: tuple[str, ...] = ()
    #: generate style: "notes" (without code citation / without a test) or "rules" (the counts of
    #: rules and informative ids)
    status: str = "notes"
    #: tests under ``tests/<this>`` (default: the package's last part)
    tests: str = ""


#: Table options of rule systems whose clause modules do not (yet) carry a ``CLAUSE_TABLE``: their
#: tables regenerate exactly as their former scripts wrote them. A clause module's own
#: ``CLAUSE_TABLE`` wins.
LEGACY: dict[str, dict[str, Any]] = {
    "into-the-dark": {
        "style": "refresh",
        "granularity": "function",
        "recursive": False,
        "skip": {"clauses.py", "narrate.py", "drawing.py", "explain.py", "plugin.py", "cli.py"},
        "test_names": "contains",
        "show": 6,
        "sep": ", ",
        "undefined": {
            "special-troops.chariots",
            "swat.wedge",
            "swat.hedgehog",
            "misc.scouting",
            "misc.army-lists",
        },
    },
}


def _spec(data: Mapping[str, Any]) -> Spec:
    kw = dict(data)
    for k in ("skip", "undefined"):
        if k in kw:
            kw[k] = frozenset(kw[k])
    if "header" in kw:
        kw["header"] = tuple(kw["header"])
    return Spec(**kw)


def _named(cid: str) -> str:
    return cid.replace(".", "_").replace("-", "_")


class Table:
    """One rule system's clause table."""

    def __init__(self, rs: str, clauses: Mapping[str, tuple[str, str]], src: Path, tests: Path, out: Path,
                 spec: Spec) -> None:  # fmt: skip
        self.rs = rs
        self.clauses = clauses
        self.src = src
        self.tests_dir = tests
        self.out = out
        self.spec = spec
        if spec.cites == "simple":
            self._before, self._after, self._flags = _SIMPLE_BEFORE, _SIMPLE_AFTER, 0
        else:
            self._before, self._after, self._flags = _STRICT_BEFORE, _STRICT_AFTER, re.M
        self._patterns: dict[str, re.Pattern[str]] = {}

    # --- what cites what -------------------------------------------------------------------------

    def cites(self, text: str, cid: str) -> bool:
        # a citation holds the id itself: most (text, clause) pairs are ruled out by a substring
        # test, without the pattern (a check asks 330,000 of them; re's own cache holds 512)
        if cid not in text:
            return False
        pattern = self._patterns.get(cid)
        if pattern is None:
            pattern = self._patterns[cid] = re.compile(
                self._before + re.escape(cid) + self._after, self._flags
            )
        return pattern.search(text) is not None

    def _modules(self) -> list[Path]:
        files = self.src.rglob("*.py") if self.spec.recursive else self.src.glob("*.py")
        return sorted(f for f in files if f.name not in self.spec.skip)

    def _data(self) -> list[Path]:
        return sorted(self.src.glob("data/*.toml")) if self.spec.data_files else []

    def implemented(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {c: [] for c in self.clauses}
        if self.spec.granularity == "function":
            for f in self._modules():
                for name, src in _definitions(f):
                    for c in self.clauses:
                        if self.cites(src, c) and name not in out[c]:
                            out[c].append(name)
            for f in self._data():
                text = f.read_text(encoding="utf-8")
                for c in self.clauses:
                    if self.cites(text, c):
                        out[c].append(f"data/{f.name}")
            return out
        for f in sorted([*self._modules(), *self._data()]):
            text = f.read_text(encoding="utf-8")
            for c in self.clauses:
                if self.cites(text, c):
                    out[c].append(f.relative_to(self.src).as_posix())
        return out

    def test_functions(self) -> dict[str, str]:
        """``file::name`` (generate style) or ``name`` (refresh style) -> its source."""
        out: dict[str, str] = {}
        for f in sorted(self.tests_dir.glob("test_*.py")):
            text = f.read_text(encoding="utf-8")
            lines = text.splitlines()
            for node in ast.walk(ast.parse(text)):
                if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                    key = node.name if self.spec.style == "refresh" else f"{f.stem}::{node.name}"
                    out[key] = "\n".join(lines[node.lineno - 1 : node.end_lineno])
        return out

    def names_clause(self, name: str, src: str, cid: str) -> bool:
        """Whether the test ``name`` (with source ``src``) names the clause."""
        if self.cites(src, cid):
            return True
        fn = name.rsplit("::", 1)[-1]
        if self.spec.test_names == "contains":
            return _named(cid) in fn
        if not fn.startswith(f"test_{_named(cid)}"):
            return False
        if self.spec.test_names == "prefix":
            return True
        longest = max(len(_named(c)) for c in self.clauses if fn.startswith(f"test_{_named(c)}"))
        return len(_named(cid)) == longest

    def tests(self) -> dict[str, list[str]]:
        fns = self.test_functions()
        return {c: [n for n, src in fns.items() if self.names_clause(n, src, c)] for c in self.clauses}

    # --- rendering -------------------------------------------------------------------------------

    def _cell(self, items: list[str]) -> str:
        show, sep = self.spec.show, self.spec.sep
        shown = sep.join(f"`{x}`" for x in items[:show])
        more = len(items) - show
        if more > 0:
            shown += f"{sep}(+{more} more)" if sep == "<br>" else f" (+{more} more)"
        return shown

    def render(self, current: str = "") -> str:
        return self._refresh(current) if self.spec.style == "refresh" else self._generate()

    def _generate(self) -> str:
        imp, tst = self.implemented(), self.tests()
        notes = self.spec.notes
        lines = [x.format(rs=self.rs, script="python scripts/clause_table.py") for x in self.spec.header]
        lines += [
            "",
            "| clause | section | the text says | implemented in | tests |",
            "|---|---|---|---|---|",
        ]
        for c, (section, summary) in self.clauses.items():
            where = ", ".join(f"`{w}`" for w in imp[c]) or notes.get(c, self.spec.missing)
            shown = self._cell(tst[c])
            lines.append(
                f"| `{c}` | {section} | {summary.replace('|', '/')} | {where} | {shown or '**none**'} |"
            )
        rules = [c for c in self.clauses if c not in notes]
        missing_impl = [c for c in rules if not imp[c]]
        missing_test = [c for c in rules if not tst[c]]
        if self.spec.status == "rules":
            done = [c for c in rules if imp[c] and tst[c]]
            status = (
                f"Status: {len(self.clauses)} clause ids ({len(rules)} rules, {len(notes)} informative); "
                f"implemented and tested: {len(done)}; without code citation: {len(missing_impl)}; without "
                f"a test: {len(missing_test)}."
            )
        else:
            status = (
                f"Status: {len(self.clauses)} clauses; without code citation: {len(missing_impl)}"
                f"{' (' + ', '.join(missing_impl) + ')' if missing_impl else ''}; without a test: "
                f"{len(missing_test)}{' (' + ', '.join(missing_test) + ')' if missing_test else ''}."
            )
        lines += ["", status, ""]
        return "\n".join(lines)

    def _refresh(self, current: str) -> str:
        imp, tst = self.implemented(), self.tests()
        out = []
        for line in current.splitlines():
            m = re.match(r"\| `" + re.escape(self.rs) + r":([a-z0-9.-]+)` \|", line)
            if not m or m.group(1) not in self.clauses:
                out.append(line)
                continue
            c = m.group(1)
            cells = line.split(" | ")
            cells[2] = self.clauses[c][1]
            where = self._cell(imp[c]) or self.spec.missing
            if c in self.spec.undefined:
                where = "not defined by the text: not implemented"
                if imp[c]:
                    where += f" (mentioned in {self._cell(imp[c])})"
            cells[3] = where
            cells[4] = (self._cell(tst[c]) or "**none**") + " |"
            out.append(" | ".join(cells[:5]))
        return "\n".join(out) + "\n"

    # --- checking --------------------------------------------------------------------------------

    def dangling(self, text: str) -> list[str]:
        """Rows of ``text`` naming a test that does not exist or a code location that is gone."""
        fns = self.test_functions()
        known = set(fns) | {n.rsplit("::", 1)[-1] for n in fns}
        defs: set[str] = set()
        if self.spec.granularity == "function":
            defs = {name for f in self._modules() for name, _ in _definitions(f)}
        problems = []
        for line in text.splitlines():
            m = re.match(r"\| `(?:" + re.escape(self.rs) + r":)?([a-z0-9.-]+)` \|", line)
            if not m or m.group(1) not in self.clauses:
                continue
            cells = line.split(" | ")
            if len(cells) < 5:
                continue
            for t in re.findall(r"`([^`]+)`", cells[4]):
                if t not in known:
                    problems.append(f"{m.group(1)}: names the test {t}, which does not exist")
            for w in re.findall(r"`([^`]+)`", cells[3]):
                if w.startswith("data/") or w.endswith(".py"):
                    if not (self.src / w).exists():
                        problems.append(f"{m.group(1)}: names {w}, which does not exist")
                elif self.spec.granularity == "function" and w not in defs:
                    problems.append(f"{m.group(1)}: names {w}, which does not exist")
        return problems

    def check(self) -> list[str]:
        """What is wrong with the checked-in table (nothing when it is current)."""
        if not self.out.exists():
            return [f"{self.out} is missing: run python scripts/clause_table.py {self.rs}"]
        current = self.out.read_text(encoding="utf-8")
        problems = self.dangling(current)
        if self.render(current) != current:
            problems.append(f"{self.out} is out of date: run python scripts/clause_table.py {self.rs}")
        return problems

    def write(self) -> str:
        current = self.out.read_text(encoding="utf-8") if self.out.exists() else ""
        text = self.render(current)
        self.out.parent.mkdir(parents=True, exist_ok=True)
        self.out.write_text(text, encoding="utf-8")
        imp, tst = self.implemented(), self.tests()
        rules = [c for c in self.clauses if c not in self.spec.notes and c not in self.spec.undefined]
        gaps = [c for c in rules if not imp[c] or not tst[c]]
        return f"{self.rs}: {len(self.clauses)} clauses; rows missing code or tests: {len(gaps)}" + "".join(
            f"\n   {c}" for c in gaps
        )


def _definitions(path: Path) -> list[tuple[str, str]]:
    """(``module.name``, source) of each top-level function, class and assignment of a module."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    out = []
    for node in ast.parse(text).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            out.append((f"{path.stem}.{node.name}", "\n".join(lines[node.lineno - 1 : node.end_lineno])))
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                if isinstance(t, ast.Name):
                    out.append((f"{path.stem}.{t.id}", "\n".join(lines[node.lineno - 1 : node.end_lineno])))
    return out


def table(rs: str) -> Table:
    """The clause table of the registered rule system ``rs``, from its plugin."""
    from shieldwall import registry

    plugin = registry.get(rs)
    if not plugin.clauses or not plugin.clause_table:
        raise SystemExit(f"{rs}: its plugin names no clauses or no clause_table")
    module = importlib.import_module(plugin.clauses.split(":", 1)[0])
    clauses = plugin.load("clauses")
    pkg = importlib.import_module(plugin.package)
    src = Path(pkg.__file__ or "").parent
    data = getattr(module, "CLAUSE_TABLE", None) or LEGACY.get(rs) or {}
    spec = _spec(data)
    tests = ROOT / "tests" / (spec.tests or plugin.package.rsplit(".", 1)[-1])
    return Table(rs, clauses, src, tests, ROOT / plugin.clause_table, spec)


def tables(ids: list[str]) -> list[Table]:
    from shieldwall import registry

    chosen = ids or [p.id for p in registry.systems().values() if p.clauses and p.clause_table]
    return [table(rs) for rs in chosen]


def main(argv: list[str], say: Callable[[str], Any] = print) -> int:
    ids = [a for a in argv if not a.startswith("-")]
    if "--check" in argv:
        bad = [p for t in tables(ids) for p in t.check()]
        for p in bad:
            say(p)
        return 1 if bad else 0
    for t in tables(ids):
        say(t.write())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
