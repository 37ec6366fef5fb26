"""One Hour's rotate handle, in Debian's Chromium: the unit being moved (after its roll) carries a
knob on the middle of its front edge, at the end of the path built so far; dragged round it turns
the unit on its centre ("Units Turn by rotating on their center ... up to 180°"). While dragged
the ghost shows the turn and the page asks the server (POST .../check) whether the rules allow the
move with that turn at its end; a turn they refuse (infantry after a leg that began with a turn:
one turn only, `turning.limits`) is not sent and says why with its clause, one they allow is given
on release. Screenshot: docs/images/web-oh-turn.png with SHIELDWALL_SCREENSHOTS=1."""

from __future__ import annotations

import math
from typing import Any

from tests.browser_fixtures import BROWSER, IMAGES, idle, start_battle, state, unit_of

pytestmark = BROWSER


def _screen(page: Any, x: float, y: float) -> dict[str, float]:
    pt: dict[str, float] = page.evaluate(f"window.shieldwall.board.toScreen({x}, {y})")
    return pt


def _rolled(page: Any, server: str, uid: str) -> dict[str, Any]:
    """Bryn Glas against the scripted bot, as red: select ``uid`` and roll its move."""
    start_battle(page, server, "one-hour-dark-ages", "one-hour-dark-ages/bryn-glas", seed=4)
    st: dict[str, Any] = state(page)
    assert st["your_turn"] and st["decision"]["kind"] == "activate", st["decision"]
    u = unit_of(st, uid)
    at = _screen(page, u["x"], u["y"])
    page.mouse.click(at["x"], at["y"])
    page.wait_for_selector("#actions button.primary")
    page.click("#actions button.primary")  # Roll to move
    page.wait_for_function(f"window.shieldwall.game.st.version !== {st['version']}")
    st = state(page)
    assert st["decision"]["kind"] == "move" and st["decision"]["unit"] == uid, st["decision"]
    return st


def _drag_knob(page: Any, uid: str, centre: tuple[float, float], heading: float) -> None:
    """Press on unit ``uid``'s knob and drag it round ``centre`` to face ``heading`` (degrees)."""
    knob = page.locator(f'.oh-turn-handle[data-turn="{uid}"] .oh-turn-knob')
    box = knob.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    for f in (0.3, 0.6, 1.0):
        a = math.radians(heading * f)
        pt = _screen(page, centre[0] + 5 * math.sin(a), centre[1] + 5 * math.cos(a))
        page.mouse.move(pt["x"], pt["y"], steps=3)


def test_the_rotate_handle_turns_the_unit_being_moved(server: str, page: Any) -> None:
    st = _rolled(page, server, "r1")
    u = unit_of(st, "r1")
    assert u["type"] == "infantry" and u["heading"] == 0
    page.wait_for_selector('.oh-turn-handle[data-turn="r1"]')
    # a leg that turns to face the way it goes (shift+click), then the handle: a second turn,
    # which infantry may not make
    page.check("#actions label:has-text('turn to face the way you move') input")
    to = _screen(page, 12.0, 8.0)
    page.keyboard.down("Shift")
    page.mouse.click(to["x"], to["y"])
    page.keyboard.up("Shift")
    page.wait_for_function("window.shieldwall.game.path.length === 2")
    leg = math.degrees(math.atan2(12.0 - u["x"], 8.0 - u["y"]))  # the heading after the leg
    _drag_knob(page, "r1", (12.0, 8.0), leg + 30)
    page.wait_for_function("document.querySelector('#hint').textContent.includes('Not allowed')")
    hint = page.inner_text("#hint")
    assert "§turning.limits" in hint and "turn once" in hint, hint
    page.mouse.up()
    page.wait_for_selector("#message.bad a.rule-link")
    assert "turning.limits" in page.inner_text("#message")
    assert state(page)["version"] == st["version"]
    # without the path: a turn of 30° on its centre, allowed and given on release
    page.click("#actions button:has-text('Clear the path')")
    idle(page)
    _drag_knob(page, "r1", (u["x"], u["y"]), 30)
    # the answer for the last angle (an earlier one's answer may show first while the drag runs)
    page.wait_for_function(
        "(t => t.includes('turn 30° clockwise') && t.includes('the rules allow it'))"
        "(document.querySelector('#hint').textContent)"
    )
    page.screenshot(path=str(IMAGES / "web-oh-turn.png"))
    page.mouse.up()
    page.wait_for_function(f"window.shieldwall.game.st.version !== {st['version']}")
    turned = unit_of(state(page), "r1")
    assert turned["heading"] == 30 and (turned["x"], turned["y"]) == (u["x"], u["y"]), turned
    assert page.errors == []  # type: ignore[attr-defined]
