"""The browser's army builder for Knight Hack (the plugin's ``army_builder``): the fields of an army
file (``army.py``) and the choices of the illustrative sample data set (its troop types, classes and
weapons: ``data/sample``, labelled as not the published charts). The page never costs or checks an
army itself: the server runs ``shieldwall army cost`` (``cli.army_cost``) on the file.
"""

from __future__ import annotations

from typing import Any

from shieldwall.rulesets.knight_hack.tables import sample_tables


def army_builder() -> dict[str, Any]:
    """The catalogue of the builder (its format: ``shieldwall.plugin``, ``army_builder``)."""
    t = sample_tables()
    return {
        "note": t.label,
        "new": {
            "ruleset": "knight-hack",
            "name": "My army",
            "provenance": "user",
            "source": "built in the shieldwall army builder",
            "data": "sample",
            "points_limit": 100,
        },
        "fields": [
            {"name": "name", "label": "Army", "kind": "text"},
            {"name": "points_limit", "label": "Points limit", "kind": "number", "min": 1, "optional": True},
        ],
        "sections": [
            {
                "key": "unit",
                "title": "Units",
                "unique": "id",
                "fields": [
                    {"name": "id", "label": "Id", "kind": "text", "default": "unit"},
                    {"name": "name", "label": "Name", "kind": "text", "optional": True},
                    {
                        "name": "type",
                        "label": "Troop type",
                        "kind": "choice",
                        "choices": [[k, f"{v.name} (base {v.base_cost})"] for k, v in t.types.items()],
                        "default": next(iter(t.types)),
                    },
                    {
                        "name": "class",
                        "label": "Class",
                        "kind": "choice",
                        "choices": [[c, c] for c in t.classes.order],
                        "default": t.classes.order[len(t.classes.order) // 2],
                    },
                    {
                        "name": "figures",
                        "label": "Figures",
                        "kind": "number",
                        "min": 1,
                        "max": 100,
                        "default": 6,
                    },
                    {
                        "name": "frontage",
                        "label": "Frontage",
                        "kind": "number",
                        "min": 1,
                        "max": 100,
                        "default": 3,
                    },
                    {
                        "name": "weapons",
                        "label": "Weapons",
                        "kind": "multi",
                        "choices": [[w, w] for w in t.weapons],
                    },
                    {"name": "leader", "label": "Leader with it", "kind": "bool", "default": False},
                    {"name": "fanatic", "label": "Fanatic", "kind": "bool", "default": False},
                    {"name": "ambush", "label": "In ambush", "kind": "bool", "default": False},
                ],
            }
        ],
    }
