"""The clause table (docs/rules/into-the-dark.md) agrees with the code, the data and the tests."""

from __future__ import annotations

import ast
import functools
import importlib.util
import re
from pathlib import Path
from types import ModuleType

from shieldwall.rulesets.into_the_dark.clauses import CLAUSES, cite

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rules" / "into-the-dark.md"
RULINGS = ROOT / "docs" / "rulings" / "into-the-dark.md"
SRC = ROOT / "src" / "shieldwall" / "rulesets" / "into_the_dark"
TESTS = Path(__file__).resolve().parent
SCRIPT = ROOT / "scripts" / "itd_clause_table.py"


#: Rows whose play rules are still being written (Command & Control); empty when done.
PENDING: set[str] = set()


def table_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("itd_clause_table", SCRIPT)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def cells(line: str) -> tuple[list[str], list[str]]:
    """The names in backticks of a row's Implemented and Tests cells."""
    parts = line.split(" | ")
    return re.findall(r"`([^`]+)`", parts[3]), re.findall(r"`([^`]+)`", parts[4])


@functools.cache
def _parsed(module: str) -> tuple[list[str], list[ast.stmt]] | None:
    """A module's lines and top-level statements, parsed once (a module is named by many rows)."""
    path = SRC / f"{module}.py"
    if not path.exists():
        return None
    text = path.read_text(encoding="utf-8")
    return text.splitlines(), ast.parse(text).body


def top_level(module: str, name: str) -> str | None:
    """The source of a module's top-level function, class or (all) assignments named ``name``."""
    parsed = _parsed(module)
    if parsed is None:
        return None
    lines, body = parsed
    found = []
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name == name:
            found.append("\n".join(lines[node.lineno - 1 : node.end_lineno]))
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                found.append("\n".join(lines[node.lineno - 1 : node.end_lineno]))
    return "\n".join(found) if found else None


def rows() -> dict[str, str]:
    out: dict[str, str] = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\| `into-the-dark:([a-z0-9.-]+)` \|", line)
        if m:
            assert m.group(1) not in out, f"duplicate row {m.group(1)}"
            out[m.group(1)] = line
    return out


def test_docs_every_clause_has_a_row() -> None:
    assert set(rows()) == set(CLAUSES)


def test_docs_every_cited_clause_exists() -> None:
    cited: set[str] = set()
    for path in list(SRC.rglob("*.py")) + list(SRC.rglob("*.toml")):
        text = path.read_text(encoding="utf-8")
        cited |= set(re.findall(r'cite\("([a-z0-9.-]+)"\)', text))
        cited |= set(re.findall(r'clause = "([a-z0-9.-]+)"', text))
        cited |= set(re.findall(r'_clause = "([a-z0-9.-]+)"', text))
        cited |= set(re.findall(r"into-the-dark:([a-z][a-z0-9-]*\.[a-z0-9.-]+)", text))
    assert cited, "no citations found"
    assert cited <= set(CLAUSES), sorted(cited - set(CLAUSES))


def test_docs_undefined_sections_marked() -> None:
    r = rows()
    for clause in (
        "special-troops.chariots",
        "swat.wedge",
        "swat.hedgehog",
        "misc.scouting",
        "misc.army-lists",
    ):
        assert "not defined by the text" in r[clause] and "not implemented" in r[clause], clause


def test_docs_tests_named_in_the_table_exist() -> None:
    names = set()
    for path in TESTS.glob("test_*.py"):
        names |= set(re.findall(r"^def (test_\w+)", path.read_text(encoding="utf-8"), re.M))
    mentioned = set(re.findall(r"`(test_\w+)`", DOC.read_text(encoding="utf-8")))
    assert mentioned <= names, sorted(mentioned - names)


def test_docs_rulings_cite_known_clauses() -> None:
    cited = set(re.findall(r"`([a-z-]+\.[a-z0-9-]+)`", RULINGS.read_text(encoding="utf-8")))
    clauses = {c for c in cited if c.split(".")[0] in {k.split(".")[0] for k in CLAUSES}}
    assert clauses and clauses <= set(CLAUSES), sorted(clauses - set(CLAUSES))


def test_cite_rejects_unknown_clause() -> None:
    assert cite("combat.dice") == "into-the-dark:combat.dice"
    try:
        cite("combat.nope")
    except KeyError:
        pass
    else:
        raise AssertionError("unknown clause accepted")


def test_docs_table_is_current() -> None:
    """The Implemented and Tests columns are what scripts/itd_clause_table.py computes."""
    current = DOC.read_text(encoding="utf-8")
    assert table_script().render(current) == current, "run python scripts/itd_clause_table.py"


def test_docs_every_row_names_real_code_that_cites_it() -> None:
    mod = table_script()
    for clause, line in rows().items():
        where, _ = cells(line)
        if clause in PENDING:
            continue
        if clause in mod.UNDEFINED:
            assert "not defined by the text: not implemented" in line, clause
            continue
        assert where, f"{clause}: no code location"
        assert "not yet" not in line.split(" | ")[3], clause
        for w in where:
            if w.startswith("data/"):
                path = SRC / w
                assert path.exists(), (clause, w)
                assert mod.cites(path.read_text(encoding="utf-8"), clause), (clause, w)
                continue
            module, _, name = w.partition(".")
            src = top_level(module, name)
            assert src is not None, f"{clause}: {w} does not exist"
            assert mod.cites(src, clause), f"{clause}: {w} does not cite it"


def test_docs_every_row_names_tests_that_exist_and_name_it() -> None:
    mod = table_script()
    fns = mod.test_functions()
    for clause, line in rows().items():
        if clause in PENDING:
            continue
        _, tests = cells(line)
        assert tests, f"{clause}: no test"
        for t in tests:
            assert t in fns, f"{clause}: {t} does not exist"
            assert mod.names_clause(t, fns[t], clause), f"{clause}: {t} does not name it"


def test_the_rule_system_is_listed_complete_and_its_rulings_simplify_nothing() -> None:
    """Every rule the text defines is played: the registry says so, and the rulings file has no
    section of rules played in simplified form."""
    from pathlib import Path

    from shieldwall.rulesets.into_the_dark.game import IntoTheDarkGame

    assert IntoTheDarkGame.info.complete
    rulings = (Path(__file__).resolve().parents[2] / "docs" / "rulings" / "into-the-dark.md").read_text()
    assert "## What is simplified" not in rulings
