#!/usr/bin/env python3
"""Write docs/rules/knight-hack.md: the shared clause-table library (``scripts/clause_table.py``)
for knight-hack. Kept so the old command still works; ``python scripts/clause_table.py knight-hack``
does the same.

    python scripts/kh_clause_table.py          # rewrite the table
    python scripts/kh_clause_table.py --check  # exit 1 if the table is out of date
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from clause_table import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(["knight-hack", *sys.argv[1:]]))
