"""The text's Fig 11 (a and b), reproduced exactly on the board: a golden event log.

Fig 11a: C (blades, general) scores 4 + 5 + 1 - 1 (the 4th rank of the enemy pikes) = 9; I (pikes)
scores 4 + 3 + 1 + 1 (2nd and 3rd ranks) - 1 (overlapped by D) = 8. Fig 11b: B scores 6 + 5 - 1 = 10;
E scores 1 + 3 + 2 - 2 (overlapped by A and C) = 4, half or less: destroyed, and F, less than E's
base depth behind E, is destroyed too; G (with H) is left. The base factors +5 (blades v foot) and
+3 (pikes v foot) are the figure's own; the sample data agrees with them.

Regenerate the golden after a reviewed change: DBM_REGEN=1 pytest tests/dbm/test_dbm_fig11.py
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from shieldwall.rulesets.dbm.board import Board
from shieldwall.rulesets.dbm.elements import Element, make
from shieldwall.rulesets.dbm.melee import close_combat, overlaps
from shieldwall.rulesets.dbm.tables import Tables

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "dbm-3.2" / "fig-11.jsonl"
X0, Y0 = 1200.0, 800.0


def layout(t: Tables) -> Board:
    """Macedonian pikes facing north in two files (E F G H, I J K L); Romans facing south:
    A, B, C (general), D, their front edges on the pikes' front line."""
    els: list[Element] = []
    for name, x in (("E", 0.0), ("I", 80.0)):
        col = ["E", "F", "G", "H"] if name == "E" else ["I", "J", "K", "L"]
        for k, n in enumerate(col):
            els.append(make(t, n, "macedonian", "Pk", "O", X0 + x, Y0 - 15 - 30 * k, 0.0))
    for n, x in (("A", -80.0), ("B", 0.0), ("C", 80.0), ("D", 160.0)):
        els.append(make(t, n, "roman", "Bd", "O", X0 + x, Y0 + 15, 180.0, general=(n == "C")))
    return Board(t, els)


def run(t: Tables) -> list[dict[str, Any]]:
    b = layout(t)
    ev = close_combat(b, "C", "I", 4, 4)  # Fig 11a
    ev += close_combat(b, "B", "E", 6, 1)  # Fig 11b
    ev.append({"kind": "left", "ids": sorted(b.el)})
    return ev


def _text(ev: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(e, sort_keys=True) + "\n" for e in ev)


def test_fig_11_scores(tables: Tables) -> None:
    b = layout(tables)
    assert overlaps(b, b.el["I"]) == ["D"]  # B, fighting E to its front, does not overlap I
    ev = close_combat(b, "C", "I", 4, 4)
    assert ev[0]["totals"] == {"C": 9, "I": 8}
    assert ev[0]["result"]["result"] == "recoil" and ev[0]["result"]["rule"] == "dbm-3.2:out.pk"
    assert overlaps(b, b.el["E"]) == ["A", "C"]  # C is free once I has recoiled
    ev = close_combat(b, "B", "E", 6, 1)
    assert ev[0]["totals"] == {"B": 10, "E": 4}
    assert ev[0]["result"]["band"] == "doubled" and ev[0]["result"]["result"] == "destroyed"
    gone = [e["id"] for e in ev if e["kind"] == "destroyed"]
    assert gone == ["E", "F"]  # F less than E's base depth behind E; G and H stay
    assert {"G", "H", "I", "J", "K", "L"} <= set(b.el)


def test_fig_11_golden(tables: Tables) -> None:
    got = _text(run(tables))
    if os.environ.get("DBM_REGEN"):
        GOLDEN.write_text(got, encoding="utf-8")
    assert GOLDEN.read_text(encoding="utf-8") == got


def test_cc_overlap_rear_element_of_a_double_base_does_not_overlap(tables: Tables) -> None:
    b = layout(tables)
    b.remove("A")
    # a Roman element side by side with E (side edge to side edge): an overlap ...
    side = make(tables, "A", "roman", "Bd", "O", X0 - 80, Y0 - 15, 180.0)
    b.put(side)
    assert overlaps(b, b.el["E"]) == ["A"]
    # ... but not when it is only the rear element of a double base whose front element is A2
    b.put(make(tables, "A", "roman", "Bd", "O", X0 - 80, Y0 - 15, 180.0, double_with="A2"))
    b.put(make(tables, "A2", "roman", "Bd", "O", X0 - 80, Y0 - 45, 180.0, double_with="A"))
    assert "A" not in overlaps(b, b.el["E"])


def test_fig_7_late_overlapper_does_not_count(tables: Tables) -> None:
    b = layout(tables)
    assert overlaps(b, b.el["I"], late=["D"]) == []
    assert overlaps(b, b.el["I"]) == ["D"]
