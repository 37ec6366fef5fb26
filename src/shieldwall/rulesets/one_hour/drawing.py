"""one-hour-dark-ages' layers of the SVG picture (the plugin's ``drawing``): short names of its unit
types in the units' labels, and the icons of its personalities (a star for a hero, a cross for a
priest, a crown for a leader, a flag beside it for a banner). Its terrain kinds are the renderer's
own, and a unit needs no marks beyond the generic ones (``shieldwall.render.layers``).
"""

from __future__ import annotations

from shieldwall.render.layers import BaseDrawing, crown, el, num, short_type, star

#: unit type -> its short name in a unit's label
SHORT_TYPES: dict[str, str] = {
    "infantry": "Inf",
    "warriors": "War",
    "raiders": "Rdr",
    "cavalry": "Cav",
    "cavalry-javelins": "Cav Jav",
    "skirmishers-javelins": "Sk Jav",
    "skirmishers-bows": "Sk Bow",
    "roman-militia": "Militia",
    "roman-cavalry": "Rom Cav",
    "arthurs-cavalry": "Arthur",
    "roundtable-knights": "Knights",
    "mounted-servants": "Servants",
    "irish-nobles": "Irish Nob",
    "scots-nobles": "Scots Nob",
}


class OneHourDrawing(BaseDrawing):
    def type_label(self, unit_type: str) -> str:
        return SHORT_TYPES.get(unit_type) or short_type(unit_type)

    def personality_width(self, label: str, r: float) -> float:
        return r * (4.0 if label.endswith("+banner") else 2.4)

    def personality(self, label: str, cx: float, cy: float, r: float) -> str:
        kind, _, extra = label.partition("+")
        parts = []
        if kind == "hero":
            parts.append(star(cx, cy, r, "#ffd83b"))
        elif kind == "priest":
            w = r * 0.32
            parts.append(
                el(
                    "path",
                    {
                        "d": f"M{num(cx)},{num(cy - r)} V{num(cy + r)}"
                        f" M{num(cx - r * 0.65)},{num(cy - r * 0.3)} H{num(cx + r * 0.65)}",
                        "stroke": "#fff6d0",
                        "stroke-width": w,
                        "stroke-linecap": "round",
                    },
                )
            )
        else:  # leader (or anything else): a small crown
            parts.append(crown(cx, cy, r))
        if extra == "banner":
            fx = cx + r * 1.35
            parts.append(
                el(
                    "path",
                    {
                        "d": f"M{num(fx)},{num(cy + r)} V{num(cy - r)}",
                        "stroke": "#f4efe0",
                        "stroke-width": r * 0.22,
                        "stroke-linecap": "round",
                    },
                )
            )
            parts.append(
                el(
                    "path",
                    {
                        "d": f"M{num(fx)},{num(cy - r)} h{num(r * 1.2)} l{num(-r * 0.35)},{num(r * 0.45)}"
                        f" l{num(r * 0.35)},{num(r * 0.45)} h{num(-r * 1.2)} Z",
                        "fill": "#ffd83b",
                        "stroke": "#3a2a00",
                        "stroke-width": r * 0.12,
                    },
                )
            )
        return "".join(parts)


DRAWING = OneHourDrawing()
