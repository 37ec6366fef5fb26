"""A picture's title fits its width: a long one (a rule system's data label in it, say) is drawn
smaller, as Chromium measures it, and a short one is drawn as before."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from tests.browser_fixtures import BROWSER
from tests.render.test_svg import demo_view

from shieldwall.render.svg import render_svg

LONG = "Tours — ILLUSTRATIVE DATA — not SPI's charts, counters or map · turn 10/10 · winner: green"


def _title(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    return next(e for e in root.iter() if e.get("class") == "title")


def test_a_short_title_keeps_its_size_and_a_long_one_is_smaller() -> None:
    short = _title(render_svg(demo_view(), title="Bryn Glas · turn 3/15"))
    long = _title(render_svg(demo_view(), title=LONG * 2))
    assert float(long.get("font-size", "0")) < float(short.get("font-size", "0"))
    assert "textLength" not in short.attrib


@pytest.mark.browser
@BROWSER[1]
def test_a_long_title_fits_the_picture_in_chromium(tmp_path: Path, page: Any) -> None:
    for title in ("Bryn Glas · turn 3/15", LONG, LONG * 2):
        svg = render_svg(demo_view(), title=title)
        f = tmp_path / "t.svg"
        f.write_text(svg, encoding="utf-8")
        page.goto(f.as_uri())
        box = page.evaluate(
            "(() => { const t = document.querySelector('text.title').getBBox();"
            " const v = document.documentElement.viewBox.baseVal; return [t.x, t.width, v.x, v.width]; })()"
        )
        tx, tw, vx, vw = box
        assert tx + tw <= vx + vw, (title, box)
