"""Touch screens, in Debian's Chromium with a touch-enabled context: two fingers pinch the table's
zoom about their midpoint and pan it when they move together, one finger on the background pans;
none of it gives an order. The fingers are the DevTools protocol's (``Input.dispatchTouchEvent``),
which the page receives as pointer events of pointerType touch."""

from __future__ import annotations

import math
from typing import Any

import pytest
from tests.browser_fixtures import BROWSER, state
from tests.web.test_web_table import _start, _view

pytestmark = BROWSER


def _fingers(cdp: Any, kind: str, points: list[tuple[float, float]]) -> None:
    cdp.send(
        "Input.dispatchTouchEvent",
        {"type": kind, "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]},
    )


def _gesture(
    cdp: Any, start: list[tuple[float, float]], end: list[tuple[float, float]], steps: int = 8
) -> None:
    """Fingers down at `start`, moved in steps to `end`, lifted."""
    _fingers(cdp, "touchStart", start)
    for i in range(1, steps + 1):
        f = i / steps
        at = [(a + (b - a) * f, c + (d - c) * f) for (a, c), (b, d) in zip(start, end, strict=True)]
        _fingers(cdp, "touchMove", at)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def _background(page: Any) -> dict[str, float]:
    """A screen point of the table in the view with no unit under it."""
    pt: dict[str, float] | None = page.evaluate(
        """(() => {
          const b = window.shieldwall.board;
          for (let i = 1; i < 10; i++) for (let j = 1; j < 10; j++) {
            const s = b.toScreen(b.width * i / 10, b.depth * j / 10);
            const hit = document.elementFromPoint(s.x, s.y);
            if (hit && b.el.contains(hit) && !hit.closest('[data-unit]')) return s;
          }
          return null;
        })()"""
    )
    assert pt is not None
    return pt


def test_pinch_zooms_about_the_fingers_and_drags_pan(server: str, touch: tuple[Any, Any]) -> None:
    page, cdp = touch
    _start(page, server, opponent="hotseat")
    st = state(page)
    full = _view(page)
    assert full["k"] == 1
    # two fingers 80 px apart spread to 240 px about the table point (30, 12): three times the zoom,
    # the point still between them
    at = page.evaluate("window.shieldwall.board.toScreen(30, 12)")
    x, y = at["x"], at["y"]
    _gesture(cdp, [(x - 40, y), (x + 40, y)], [(x - 120, y), (x + 120, y)])
    z = _view(page)
    assert z["k"] == pytest.approx(3, rel=0.02)
    assert z["w"] == pytest.approx(full["w"] / z["k"]) and z["h"] == pytest.approx(full["h"] / z["k"])
    p = page.evaluate(f"window.shieldwall.board.toTable({x}, {y})")
    assert math.hypot(p["x"] - 30, p["y"] - 12) < 0.05
    assert page.inner_text("#zoom-level") == f"{round(z['k'] * 100)}%"
    # two fingers moved together 60 px right and 30 px down: the table follows them, the zoom stays
    ppu = page.evaluate("window.shieldwall.board.svg.getScreenCTM().a")
    _gesture(cdp, [(x - 50, y), (x + 50, y)], [(x + 10, y + 30), (x + 110, y + 30)])
    panned = _view(page)
    assert panned["k"] == pytest.approx(z["k"])
    assert (z["x"] - panned["x"]) * ppu == pytest.approx(60, abs=2)
    assert (z["y"] - panned["y"]) * ppu == pytest.approx(30, abs=2)
    # one finger on the background pans the other way
    s = _background(page)
    _gesture(cdp, [(s["x"], s["y"])], [(s["x"] - 80, s["y"] - 40)])
    one = _view(page)
    assert one["k"] == pytest.approx(z["k"])
    assert (one["x"] - panned["x"]) * ppu == pytest.approx(80, abs=2)
    assert (one["y"] - panned["y"]) * ppu == pytest.approx(40, abs=2)
    # fingers pinched together: back out to the whole table (never below it)
    _gesture(cdp, [(x - 200, y), (x + 200, y)], [(x - 20, y), (x + 20, y)])
    assert _view(page) == {**full, "k": 1}
    # none of it was an order
    assert state(page)["version"] == st["version"]
    assert page.errors == []  # type: ignore[attr-defined]
