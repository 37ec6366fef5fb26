"""The clause table (docs/rules/into-the-dark.md) agrees with the code, the data and the tests."""

from __future__ import annotations

import re
from pathlib import Path

from shieldwall.rulesets.into_the_dark.clauses import CLAUSES, cite

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rules" / "into-the-dark.md"
RULINGS = ROOT / "docs" / "rulings" / "into-the-dark.md"
SRC = ROOT / "src" / "shieldwall" / "rulesets" / "into_the_dark"
TESTS = Path(__file__).resolve().parent


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
