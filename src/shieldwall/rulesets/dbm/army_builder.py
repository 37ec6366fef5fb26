"""The browser's army builder for DBM (the plugin's ``army_builder``): an order of battle (``army.py``,
``schemas.OrderOfBattle``) picked from the army lists of the sample data set, which are illustrative
and invented (``data/sample/lists``, labelled as not the published DBM lists). Elements are entered
within their command (the section's ``within``). The page never costs or checks an army itself: the
server runs ``shieldwall army cost`` (``cli.army_cost``: minima and maxima of the list, costs to the
half point, baggage, points limit) on the file.
"""

from __future__ import annotations

from typing import Any

from shieldwall.rulesets.dbm.schemas import GRADES, ArmyList, ListEntry
from shieldwall.rulesets.dbm.tables import sample_tables


def _troop(e: ListEntry) -> str:
    return f"{'Reg' if e.regular else 'Irr'} {e.code}({e.grade}) {e.min}-{e.max}"


def _list_line(lst: ArmyList) -> str:
    return f"{lst.id}: {', '.join(_troop(e) for e in lst.entries)}"


def army_builder() -> dict[str, Any]:
    """The catalogue of the builder (its format: ``shieldwall.plugin``, ``army_builder``)."""
    t = sample_tables()
    lists = sorted(t.lists.values(), key=lambda x: x.id)
    # each troop code the lists name, with the lists (and grades, minima-maxima) that allow it
    codes: dict[str, list[str]] = {}
    for lst in lists:
        for e in lst.entries:
            codes.setdefault(e.code, []).append(f"{lst.id.removesuffix('-illustrative')} {_troop(e)}")
    label = t.label or "the data set's lists"
    return {
        "note": f"Army lists: {label} (invented sample lists, not the publisher's). "
        + "; ".join(_list_line(x) for x in lists),
        "new": {
            "ruleset": "dbm-3.2",
            "list": lists[0].id,
            "name": "My army",
            "ap_limit": 200.0,
            "baggage": 6,
            "baggage_mobile": True,
            "commands": [],
            "meta": {
                "source": "built in the shieldwall army builder",
                "illustrative": t.illustrative,
                "ruleset_version": "dbm-3.2",
            },
        },
        "fields": [
            {"name": "name", "label": "Army", "kind": "text"},
            {
                "name": "list",
                "label": "Army list",
                "kind": "choice",
                "choices": [[x.id, x.name] for x in lists],
            },
            {"name": "ap_limit", "label": "Points limit (AP)", "kind": "number", "min": 1},
            {"name": "baggage", "label": "Baggage elements", "kind": "number", "min": 0, "max": 8},
            {"name": "baggage_mobile", "label": "Mobile baggage", "kind": "bool"},
        ],
        "sections": [
            {
                "key": "commands",
                "title": "Commands",
                "fields": [
                    {"name": "name", "label": "Command", "kind": "text", "default": "C-in-C"},
                    {"name": "c_in_c", "label": "C-in-C", "kind": "bool", "default": False},
                    {"name": "ally", "label": "Allied", "kind": "bool", "default": False},
                    {"name": "flank_march", "label": "Flank march", "kind": "bool", "default": False},
                ],
            },
            {
                "key": "elements",
                "title": "Elements",
                "unique": "id",
                "within": {"section": "commands", "field": "elements", "label": "In command"},
                "fields": [
                    {"name": "id", "label": "Id", "kind": "text", "default": "e"},
                    {
                        "name": "code",
                        "label": "Troop type",
                        "kind": "choice",
                        "choices": [
                            [c, f"{c} {t.troops.type[c].name} ({'; '.join(w)})"] for c, w in codes.items()
                        ],
                        "default": next(iter(codes)),
                    },
                    {
                        "name": "grade",
                        "label": "Grade",
                        "kind": "choice",
                        "choices": [[g, g] for g in GRADES],
                        "default": "O",
                    },
                    {"name": "regular", "label": "Regular", "kind": "bool", "default": True},
                    {"name": "general", "label": "General", "kind": "bool", "default": False},
                    {"name": "double_base", "label": "Double-based", "kind": "bool", "default": False},
                    {"name": "bow", "label": "Bow", "kind": "bool", "default": False},
                ],
            },
        ],
    }
