#!/usr/bin/env python3
"""Refresh the "Summary", "Implemented" and "Tests" columns of docs/rules/into-the-dark.md: the
shared clause-table library (``scripts/clause_table.py``) for into-the-dark, whose table is
written by hand (sections, prose) and refreshed cell by cell. Kept so the old command and the
names ``tests/into_the_dark/test_itd_docs.py`` uses still work;
``python scripts/clause_table.py into-the-dark`` does the same.

    python scripts/itd_clause_table.py          # rewrite the columns
    python scripts/itd_clause_table.py --check  # exit 1 if the table is out of date
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from clause_table import main, table  # noqa: E402

TABLE = table("into-the-dark")
CLAUSES = TABLE.clauses
RS = TABLE.rs
OUT = TABLE.out
UNDEFINED = TABLE.spec.undefined
cites = TABLE.cites
implemented = TABLE.implemented
test_functions = TABLE.test_functions
names_clause = TABLE.names_clause
tests = TABLE.tests
render = TABLE.render

if __name__ == "__main__":
    sys.exit(main(["into-the-dark", *sys.argv[1:]]))
