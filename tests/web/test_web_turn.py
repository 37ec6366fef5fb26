"""Into the Dark's rotate handle, in Debian's Chromium: the acting unit's knob dragged round wheels
it forward; while dragged the ghost shows the wheel and the page asks the server (POST .../check)
whether the rules allow it; a wheel they refuse is not sent and says why with its clause, one they
allow is given on release as `move <unit> wheel <degrees>`. Screenshot: docs/images/web-itd-turn.png
with SHIELDWALL_SCREENSHOTS=1."""

from __future__ import annotations

import math
from typing import Any

from tests.browser_fixtures import BROWSER, IMAGES, start_battle, state, unit_of
from tests.web.test_web_browser import _itd_order_by_pointing

pytestmark = BROWSER


def _to_unit_decision(page: Any, server: str) -> dict[str, Any]:
    """Senlac against the scripted bot, as red, played by pointing until a red unit acts."""
    start_battle(page, server, "into-the-dark", "into-the-dark/senlac", seed=3)
    for _ in range(60):
        st: dict[str, Any] = state(page)
        if st["decision"] and st["decision"]["kind"] == "unit" and st["your_turn"]:
            return st
        _itd_order_by_pointing(page, st)
    raise AssertionError("no red unit acted in 60 decisions")


def _drag_knob_to(page: Any, u: dict[str, Any], wheel: float) -> None:
    knob = page.locator(f'.itd-turn-handle[data-turn="{u["id"]}"] .itd-turn-knob')
    box = knob.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    h = math.radians(u["heading"] + wheel)
    for f in (0.3, 0.6, 1.0):
        a = math.radians(u["heading"]) + (h - math.radians(u["heading"])) * f
        to = page.evaluate(
            f"window.shieldwall.board.toScreen({u['x'] + 5 * math.sin(a)}, {u['y'] + 5 * math.cos(a)})"
        )
        page.mouse.move(to["x"], to["y"], steps=3)


def test_the_rotate_handle_wheels_the_acting_unit(server: str, page: Any) -> None:
    st = _to_unit_decision(page, server)
    uid = st["decision"]["unit"]
    u = unit_of(st, uid)
    left = float(st["reach"]["move"]["left"])
    page.wait_for_selector(f'.itd-turn-handle[data-turn="{uid}"]')
    # too far a wheel: the outer corner would travel more than the move left (the engine says so)
    bad = next((w for w in (90, 75, 60) if u["frontage"] * math.radians(w) > left + 0.5), None)
    assert bad is not None, (u["frontage"], left)
    _drag_knob_to(page, u, bad)
    page.wait_for_function("document.querySelector('#hint').textContent.includes('Not allowed')")
    assert "rotate" not in page.inner_text("#hint")
    page.mouse.up()
    page.wait_for_selector("#message.bad a.rule-link")
    assert f"wheel {bad}" in page.inner_text("#message")
    assert state(page)["version"] == st["version"]
    # a small wheel the rules allow: the ghost, the hint, and on release the order
    ok = max(5, min(30, int(math.degrees(left * 0.4 / u["frontage"]))))
    _drag_knob_to(page, u, -ok)
    # the answer for the last angle (an earlier one's answer may show first while the drag runs)
    page.wait_for_function(
        f"(t => t.includes('left {ok}°') && t.includes('the rules allow it'))"
        "(document.querySelector('#hint').textContent)"
    )
    assert f"wheel {-ok}" in (page.text_content("#board svg .page-overlay") or "")
    page.screenshot(path=str(IMAGES / "web-itd-turn.png"))
    page.mouse.up()  # the page asks once more for this angle, then sends the order
    page.wait_for_function(f"window.shieldwall.game.st.version !== {st['version']}")
    after = state(page)
    moved = unit_of(after, uid)
    turned = (moved["heading"] - u["heading"] + 180) % 360 - 180
    assert abs(turned + ok) < 0.01, (u["heading"], moved["heading"])
    assert page.errors == []  # type: ignore[attr-defined]
