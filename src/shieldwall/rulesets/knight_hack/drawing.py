"""knight-hack's layers of the SVG picture (the plugin's ``drawing``): short names of the sample
data set's troop types in the units' labels; a user's own types get the generic abbreviation.
Everything else (terrain, units, figures left as hits) is the generic drawing."""

from __future__ import annotations

from shieldwall.render.layers import BaseDrawing, short_type

#: troop type id -> its short name in a unit's label
SHORT_TYPES: dict[str, str] = {
    "heavy-cavalry": "HC",
    "light-cavalry": "LC",
    "eastern-light-cavalry": "ELC",
    "heavy-infantry": "HI",
    "light-infantry": "LI",
    "open-foot": "Open",
    "archers": "Arch",
    "skirmishers": "Sk",
}


class KnightHackDrawing(BaseDrawing):
    def type_label(self, unit_type: str) -> str:
        return SHORT_TYPES.get(unit_type) or short_type(unit_type)


DRAWING = KnightHackDrawing()
