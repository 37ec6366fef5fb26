"""Touch screens, in Debian's Chromium with a touch-enabled context: two fingers pinch the table's
zoom about their midpoint and pan it when they move together, one finger on the background pans;
none of it gives an order. One finger drags the unit being moved, measures with the ruler, and
drags the unit to place in a deployment by hand (One Hour, Knight Hack). The fingers are the
DevTools protocol's (``Input.dispatchTouchEvent``), which the page receives as pointer events of
pointerType touch."""

from __future__ import annotations

import math
from typing import Any

import pytest
from tests.browser_fixtures import BROWSER, idle, state, unit_of, wait_version
from tests.knight_hack.test_kh_deploy_browser import _start as _start_knight_hack
from tests.web.test_web_deploy import _start as _start_one_hour
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


def _tap(cdp: Any, at: dict[str, float]) -> None:
    _fingers(cdp, "touchStart", [(at["x"], at["y"])])
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def _finger_path(cdp: Any, a: dict[str, float], b: dict[str, float], steps: int = 4) -> None:
    """The finger already down at ``a`` moved in steps to ``b`` (not lifted)."""
    for i in range(1, steps + 1):
        f = i / steps
        _fingers(cdp, "touchMove", [(a["x"] + (b["x"] - a["x"]) * f, a["y"] + (b["y"] - a["y"]) * f)])


def test_one_finger_drags_the_unit_being_moved_as_the_mouse_does(server: str, touch: tuple[Any, Any]) -> None:
    """A finger on the unit being moved drags it as the mouse does (test_web_table.py): its ghost
    follows the finger, the drop mark and the hint say where a lift would put it and, when the rules
    refuse it, why (the clause); the lift drops it there, snapping like a click (0.2" beyond its
    roll, it goes the roll). Before its move is rolled, the same finger moves nothing; a drag the
    browser cancels, or that a second finger turns into a pinch, plays nothing and leaves no ghost."""
    page, cdp = touch
    _start(page, server, opponent="hotseat")
    st = state(page)
    uid = next(m["unit"] for m in st["menu"] if m["kind"] == "activate")
    u = unit_of(st, uid)
    heading = math.radians(u["heading"])

    def at(d: float) -> dict[str, float]:
        x, y = u["x"] + math.sin(heading) * d, u["y"] + math.cos(heading) * d
        p: dict[str, float] = page.evaluate(f"window.shieldwall.board.toScreen({x}, {y})")
        return p

    # a tap selects it (a tap right after a quick drag stops the drag's fling: Chromium gives it
    # no click, so the tap comes first)
    _tap(cdp, at(0))
    page.wait_for_selector("#unit h3")
    assert uid in page.inner_text("#unit h3")
    # before its move is rolled the unit is not dragged: a finger from it moves nothing
    _gesture(cdp, [(at(0)["x"], at(0)["y"])], [(at(3)["x"], at(3)["y"])])
    assert state(page)["version"] == st["version"]
    assert page.locator("#board svg .page-overlay rect").count() == 0
    page.click("#actions button.primary")  # roll to move
    assert wait_version(page, st["version"])
    st = state(page)
    rolled = float(st["decision"]["data"]["rolled"])

    # cancelled by the browser: no order, no ghost
    _fingers(cdp, "touchStart", [(at(0)["x"], at(0)["y"])])
    _finger_path(cdp, at(0), at(rolled / 2))
    assert page.locator("#board svg .page-overlay rect").count() == 1
    cdp.send("Input.dispatchTouchEvent", {"type": "touchCancel", "touchPoints": []})
    page.wait_for_function("document.querySelector('#hint').textContent.includes('cancelled')")
    assert page.locator("#board svg .page-overlay > *").count() == 0
    assert page.locator("#board.dragging").count() == 0
    # a second finger makes it a pinch: no order, no ghost when the fingers lift
    a, b = at(0), at(rolled / 2)
    _fingers(cdp, "touchStart", [(a["x"], a["y"])])
    _finger_path(cdp, a, b)
    _fingers(cdp, "touchStart", [(b["x"], b["y"]), (b["x"] + 60, b["y"])])
    _fingers(cdp, "touchMove", [(b["x"] - 20, b["y"]), (b["x"] + 80, b["y"])])
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    idle(page)
    assert page.locator("#board svg .page-overlay > *").count() == 0
    assert state(page)["version"] == st["version"]

    # the drag itself: far beyond the roll the mark is red and the hint names the clause
    _fingers(cdp, "touchStart", [(at(0)["x"], at(0)["y"])])
    _finger_path(cdp, at(0), at(rolled + 3))
    assert page.locator("#board svg .page-overlay rect").count() == 1  # the ghost, under the finger
    assert page.locator("#board.dragging").count() == 1
    page.wait_for_selector("#board svg .drop-mark.bad")
    # each move writes the hover line at once and the server's verdict when its answer comes: wait
    # for the verdict on the last point (the drop mark may be an earlier point's)
    page.wait_for_function(
        "(() => { const t = document.querySelector('#hint').textContent;"
        " return t.includes('Not allowed here') && t.includes('§movement'); })()"
    )
    # a little too far: the mark shows the nearest place allowed; lifted there, it snaps
    _finger_path(cdp, at(rolled + 3), at(rolled + 0.2))
    page.wait_for_selector("#board svg .drop-mark.ok line", state="attached")
    assert state(page)["version"] == st["version"]  # nothing played while dragging
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    assert wait_version(page, st["version"])
    page.wait_for_selector("#message.good .snapped")
    moved = unit_of(state(page), uid)
    assert rolled - 0.2 <= math.dist((moved["x"], moved["y"]), (u["x"], u["y"])) <= rolled + 1e-6
    assert page.locator("#board.dragging").count() == 0
    assert page.errors == []  # type: ignore[attr-defined]


def test_one_finger_measures_with_the_ruler_and_a_pinch_leaves_the_measure(
    server: str, touch: tuple[Any, Any]
) -> None:
    """With the ruler out a finger measures as the mouse does (test_web_table.py): down at one point,
    drawn while it moves, the length at the lift; over a unit it gives no order and selects nothing.
    Two fingers still pinch the zoom, and the measure before the pinch stays as it was."""
    page, cdp = touch
    _start(page, server, opponent="hotseat")
    st = state(page)
    page.tap("#ruler")
    assert "mode-ruler" in (page.get_attribute("#board", "class") or "")

    def screen(x: float, y: float) -> tuple[float, float]:
        p = page.evaluate(f"window.shieldwall.board.toScreen({x}, {y})")
        return (p["x"], p["y"])

    _gesture(cdp, [screen(10, 10)], [screen(13, 14)])  # a 3-4-5 triangle
    assert float(page.inner_text("#ruler-readout").rstrip('"')) == pytest.approx(5, abs=0.05)
    assert page.locator("#board svg .page-ruler").count() == 1
    # while the finger moves the line follows it
    red = next(u for u in st["view"]["units"] if u["side"] == "red")
    a, b = screen(red["x"], red["y"]), screen(red["x"] + 6, red["y"])
    _fingers(cdp, "touchStart", [a])
    _finger_path(cdp, {"x": a[0], "y": a[1]}, {"x": (a[0] + b[0]) / 2, "y": a[1]})
    # (a finger's moves reach the page at the next frame)
    page.wait_for_function(
        "Math.abs(parseFloat(document.querySelector('#ruler-readout').textContent) - 3) < 0.05"
    )
    _finger_path(cdp, {"x": (a[0] + b[0]) / 2, "y": a[1]}, {"x": b[0], "y": b[1]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    measured = page.inner_text("#ruler-readout")
    assert float(measured.rstrip('"')) == pytest.approx(6, abs=0.05)
    # over a unit: no order, no selection
    assert page.locator("#unit").is_hidden() and state(page)["version"] == st["version"]
    # two fingers pinch the zoom with the ruler out; the last measure stays
    x, y = screen(24, 18)
    _gesture(cdp, [(x - 40, y), (x + 40, y)], [(x - 100, y), (x + 100, y)])
    assert _view(page)["k"] == pytest.approx(2.5, rel=0.02)
    assert page.inner_text("#ruler-readout") == measured
    assert page.locator("#board svg .page-ruler").count() == 1
    assert "mode-ruler" in (page.get_attribute("#board", "class") or "")
    assert state(page)["version"] == st["version"] and page.errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("ruleset", "to"), [("one-hour-dark-ages", (30.0, 7.0)), ("knight-hack", (36.0, 6.0))]
)
def test_one_finger_drags_the_unit_to_deploy_within_its_zone(
    server: str, touch: tuple[Any, Any], ruleset: str, to: tuple[float, float]
) -> None:
    """Deployment by hand (One Hour's ruling R50, Knight Hack's R51) with a finger, as with the mouse
    (test_web_deploy.py, test_kh_deploy_browser.py): the unit to place follows the finger, the hint
    says where a lift would put it or why not (deployment.zone outside the zone), a lift in the zone
    places it there, a lift outside changes nothing and says why, a cancelled touch gives nothing."""
    page, cdp = touch
    st = _start_hand(page, server, ruleset)
    uid = st["decision"]["unit"]
    u = unit_of(st, uid)

    def screen(x: float, y: float) -> dict[str, float]:
        p: dict[str, float] = page.evaluate(f"window.shieldwall.board.toScreen({x}, {y})")
        return p

    def hint(words: str) -> None:
        page.wait_for_function(f"document.querySelector('#hint').textContent.includes({words!r})")

    # cancelled by the browser: no order
    _fingers(cdp, "touchStart", [(screen(u["x"], u["y"])["x"], screen(u["x"], u["y"])["y"])])
    _finger_path(cdp, screen(u["x"], u["y"]), screen(*to))
    cdp.send("Input.dispatchTouchEvent", {"type": "touchCancel", "touchPoints": []})
    hint("cancelled")
    assert state(page)["version"] == st["version"]
    # outside the zone: refused with its clause, nothing changes
    _fingers(cdp, "touchStart", [(screen(u["x"], u["y"])["x"], screen(u["x"], u["y"])["y"])])
    _finger_path(cdp, screen(u["x"], u["y"]), screen(24.0, 20.0))
    hint("Not allowed here")
    hint("§deployment.zone")  # the verdict names its clause (a later move may rewrite the line first)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.wait_for_selector("#message.bad a.rule-link")
    assert "deployment.zone" in page.inner_text("#message")
    assert state(page)["version"] == st["version"]
    # within it: placed where the finger lifts
    _fingers(cdp, "touchStart", [(screen(u["x"], u["y"])["x"], screen(u["x"], u["y"])["y"])])
    _finger_path(cdp, screen(u["x"], u["y"]), screen(*to))
    hint("Drop here")
    assert state(page)["version"] == st["version"]  # nothing played while dragging
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    assert wait_version(page, st["version"])
    placed = unit_of(state(page), uid)
    assert abs(placed["x"] - to[0]) < 0.2 and abs(placed["y"] - to[1]) < 0.2, placed
    assert page.locator("#board.dragging").count() == 0
    assert page.errors == []  # type: ignore[attr-defined]


def _start_hand(page: Any, server: str, ruleset: str) -> dict[str, Any]:
    """A battle with hand deployment against the scripted bot, until red places a unit."""
    start = _start_one_hour if ruleset == "one-hour-dark-ages" else _start_knight_hack
    st: dict[str, Any] = start(page, server)
    return st
