"""spi-dark-ages's layers of the SVG picture (the plugin's ``drawing``): the hex map comes from the
view (``picture.py``: terrain hexes, road hexsides, counters at hex centres facing a hexside); this
adds the sample counters' short type names, each counter's side colour (green or tan: ``inventory``)
and CCRR hex label, and its markers: D
(demoralized), P (panicked, shown inverted in the game: ``panic.mark``), C (in contact)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shieldwall.render.layers import BaseDrawing, Canvas, el, num, short_type, text

SHORT_TYPES = {
    "spear": "Sp",
    "axe": "Ax",
    "levy": "Lv",
    "archer": "Ar",
    "mc": "MC",
    "mc-foot": "MC-D",
    "mc-horse": "Mnt",
    "hc": "HC",
    "ha": "HA",
    "cat": "Cat",
    "leader": "Cmd",
    "fleet": "Flt",
}


class DarkAgesDrawing(BaseDrawing):
    def type_label(self, unit_type: str) -> str:
        return SHORT_TYPES.get(unit_type) or short_type(unit_type)

    def unit(self, c: Canvas, u: Mapping[str, Any]) -> str:
        if u.get("removed"):
            return ""
        x, y = c.p((float(u["x"]), float(u["y"])))
        marks = "".join(
            m
            for m, on in (("P", u.get("panicked")), ("D", u.get("demoralized")), ("C", u.get("in_contact")))
            if on
        )
        size = c.d(0.32)
        colour = {"green": "#2f9e44", "tan": "#b08d57"}.get(str(u.get("side")), "#888888")
        out = [
            el(
                "circle",
                {
                    "cx": num(x - c.d(0.55)),
                    "cy": num(y - c.d(0.45)),
                    "r": num(c.d(0.16)),
                    "fill": colour,
                    "stroke": "#1d1d1d",
                    "stroke-width": num(c.d(0.03)),
                    "class": "side-mark",
                },
            ),
            el(
                "text",
                {
                    "x": num(x),
                    "y": num(y + c.d(0.75)),
                    "font-size": num(size),
                    "text-anchor": "middle",
                    "class": "hex-label",
                },
                text(str(u.get("hex") or "")),
            ),
        ]
        if marks:
            out.append(
                el(
                    "text",
                    {
                        "x": num(x + c.d(0.55)),
                        "y": num(y - c.d(0.45)),
                        "font-size": num(size * 1.2),
                        "font-weight": "bold",
                        "fill": "#b00020",
                        "class": "marker",
                    },
                    text(marks),
                )
            )
        return el("g", {"class": "spi-marks"}, "".join(out))


DRAWING = DarkAgesDrawing()
