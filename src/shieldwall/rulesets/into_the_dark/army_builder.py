"""The browser's army builder for Into the Dark (the plugin's ``army_builder``): the fields of an army
file (``army.py``) and, for each, the choices the rules data allow, so the page can offer the troop
types, qualities, roles, weapons and options of the text to pick from. The page never costs or checks
an army itself: it sends the file to the server, which runs ``shieldwall army cost`` (``cli.army_cost``).
"""

from __future__ import annotations

from typing import Any, get_args

from . import profiles
from .army import BasicWeapon, Option

_DENSITY = {"C": "close order", "L": "loose order", "O": "open order"}
_CATEGORY = {"F": "foot", "M": "mounted"}


def _codes() -> list[list[str]]:
    armour = profiles.armour_classes()
    out = []
    for d in profiles.DENSITIES:
        for a in profiles.ARMOUR_LETTERS:
            for c in profiles.CATEGORIES:
                out.append(
                    [f"{d}{a}{c}", f"{d}{a}{c}: {_DENSITY[d]}, {armour[a].name.lower()}, {_CATEGORY[c]}"]
                )
    return out


def army_builder() -> dict[str, Any]:
    """The catalogue of the builder (its format: ``shieldwall.plugin``, ``army_builder``)."""
    qualities = profiles.qualities()
    ratings = profiles.command().ratings
    return {
        "new": {"ruleset": "into-the-dark", "name": "My army", "points_limit": 1000},
        "fields": [
            {"name": "name", "label": "Army", "kind": "text"},
            {"name": "points_limit", "label": "Points limit", "kind": "number", "min": 1, "optional": True},
            {"name": "description", "label": "Description", "kind": "text", "optional": True},
        ],
        "sections": [
            {
                "key": "generals",
                "title": "Generals",
                "fields": [
                    {"name": "name", "label": "Name", "kind": "text", "default": "General"},
                    {
                        "name": "rating",
                        "label": "Rating",
                        "kind": "choice",
                        "choices": [[k, f"{k} ({r.rating})"] for k, r in ratings.items()],
                        "default": "average",
                    },
                    {"name": "division", "label": "Division", "kind": "text", "default": "Centre"},
                    {"name": "commanding", "label": "Commanding", "kind": "bool", "default": False},
                    {"name": "mounted", "label": "Mounted", "kind": "bool", "default": False},
                ],
            },
            {
                "key": "units",
                "title": "Units",
                "fields": [
                    {"name": "name", "label": "Name", "kind": "text", "default": "Unit"},
                    {"name": "division", "label": "Division", "kind": "text", "default": "Centre"},
                    {
                        "name": "code",
                        "label": "Troop type",
                        "kind": "choice",
                        "choices": _codes(),
                        "default": "CPF",
                    },
                    {
                        "name": "quality",
                        "label": "Quality",
                        "kind": "choice",
                        "choices": [[k, f"{k} (level {q.level})"] for k, q in qualities.items()],
                        "default": "average",
                    },
                    {
                        "name": "type",
                        "label": "Role",
                        "kind": "choice",
                        "choices": [[r, r] for r in profiles.ROLES],
                        "default": "melee",
                    },
                    {
                        "name": "figures",
                        "label": "Figures",
                        "kind": "number",
                        "min": 1,
                        "max": 200,
                        "default": 12,
                    },
                    {
                        "name": "frontage",
                        "label": "Frontage",
                        "kind": "number",
                        "min": 1,
                        "max": 200,
                        "optional": True,
                    },
                    {
                        "name": "weapon",
                        "label": "Missile weapon",
                        "kind": "choice",
                        "choices": [[w, w] for w in get_args(BasicWeapon)],
                        "optional": True,
                    },
                    {
                        "name": "options",
                        "label": "Options",
                        "kind": "multi",
                        "choices": [[o, o] for o in get_args(Option)],
                    },
                ],
            },
        ],
    }
