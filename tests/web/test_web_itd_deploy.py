"""Into the Dark's alternate deployment by dragging, in Debian's Chromium: the unit to place is
pressed on its button in the actions panel (the units waiting to be placed are not drawn) and
dragged onto the table; there its ghost follows the pointer and the page asks the server (POST
.../check) about the point; the drop places it there (a deploy order puts the centre of its
front edge at the point). A drop the rules refuse (in the middle of the table:
`setup.deployment`) shows its clause and changes nothing; the click (choose the unit, then click
the table) still places it. Screenshot: docs/images/web-itd-deploy.png with
SHIELDWALL_SCREENSHOTS=1."""

from __future__ import annotations

import math
from typing import Any

from tests.browser_fixtures import BROWSER, IMAGES, idle, state, unit_of

pytestmark = BROWSER


def _start(page: Any, server: str) -> dict[str, Any]:
    """Senlac with alternate deployment against the scripted bot, as red, until red places a unit."""
    page.goto(server + "/")
    page.wait_for_selector("#f-scenario option", state="attached")
    page.select_option("#f-ruleset", "into-the-dark")
    page.wait_for_selector('#f-scenario option[value="into-the-dark/senlac"]', state="attached")
    page.select_option("#f-scenario", "into-the-dark/senlac")
    page.select_option("#f-opponent", "scripted")
    page.select_option("#f-side", "red")
    page.fill("#f-seed", "4")
    page.click("#f-options summary")
    page.select_option('#f-params [name="deployment"]', "alternate")
    page.click("#f-start")
    page.wait_for_selector("#board svg .table")  # no unit is drawn before it is placed
    st: dict[str, Any] = state(page)
    assert st["decision"]["kind"] == "deploy" and st["your_turn"], st["decision"]
    return st


def _waiting(st: dict[str, Any]) -> str:
    """The first unit the rules offer to place."""
    return str(next(m["unit"] for m in st["menu"] if m["kind"] == "deploy"))


def _button(page: Any, uid: str) -> dict[str, float]:
    """The screen point of the middle of unit ``uid``'s button in the actions panel."""
    box = page.locator(f'#actions button[data-unit="{uid}"]').bounding_box()
    return {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}


def _drag(page: Any, start: dict[str, float], b: tuple[float, float], wait: str) -> None:
    """Press at the screen point ``start``, move to the table point ``b`` and wait for the hint to
    contain ``wait`` (the server's answer about the point) before the caller releases."""
    page.mouse.move(start["x"], start["y"])
    page.mouse.down()
    end = page.evaluate(f"window.shieldwall.board.toScreen({b[0]}, {b[1]})")
    for f in (0.25, 0.5, 0.75, 1.0):
        x, y = start["x"] + (end["x"] - start["x"]) * f, start["y"] + (end["y"] - start["y"]) * f
        page.mouse.move(x, y, steps=3)
    page.wait_for_function(f"document.querySelector('#hint').textContent.includes({wait!r})")


def _front_centre(u: dict[str, Any]) -> tuple[float, float]:
    h = math.radians(u["heading"])
    return u["x"] + math.sin(h) * u["depth"] / 2, u["y"] + math.cos(h) * u["depth"] / 2


def test_an_into_the_dark_unit_dragged_within_its_zone_is_deployed_there(server: str, page: Any) -> None:
    st = _start(page, server)
    uid = _waiting(st)
    assert page.locator(f'#board svg [data-unit="{uid}"]').count() == 0  # not drawn yet
    # press on its button and drag it into red's zone
    _drag(page, _button(page, uid), (20.0, 40.0), "Drop here")
    assert page.evaluate(f"window.shieldwall.board.overlay.textContent.includes({uid!r})")  # its ghost
    page.screenshot(path=str(IMAGES / "web-itd-deploy.png"))
    page.mouse.up()
    page.wait_for_function(f"window.shieldwall.game.st.version !== {st['version']}")
    after = state(page)
    placed = unit_of(after, uid)
    fx, fy = _front_centre(placed)
    assert abs(fx - 20.0) < 0.05 and abs(fy - 40.0) < 0.05, placed
    assert not any(m["kind"] == "deploy" and m["unit"] == uid for m in after["menu"] if after["your_turn"])
    assert page.errors == []  # type: ignore[attr-defined]


def test_an_into_the_dark_drop_the_rules_refuse_shows_its_clause_and_the_click_still_places(
    server: str, page: Any
) -> None:
    st = _start(page, server)
    uid = _waiting(st)
    u = unit_of(st, uid)
    # drag the unit's button from the actions panel to the middle of the table: refused
    _drag(page, _button(page, uid), (36.0, 24.0), "Not allowed here")
    hint = page.inner_text("#hint")
    assert "§setup.deployment" in hint and "1/4 of the table" in hint, hint
    page.mouse.up()
    page.wait_for_selector("#message.bad a.rule-link")
    assert "setup.deployment" in page.inner_text("#message")
    after = state(page)
    assert after["version"] == st["version"] and unit_of(after, uid) == u
    # the click: choose the unit, then click where its front edge should stand
    page.locator(f'#actions button[data-unit="{uid}"]').click()
    idle(page)
    to = page.evaluate("window.shieldwall.board.toScreen(44, 40)")
    page.mouse.click(to["x"], to["y"])
    page.wait_for_function(f"window.shieldwall.game.st.version !== {st['version']}")
    fx, fy = _front_centre(unit_of(state(page), uid))
    assert abs(fx - 44.0) < 0.05 and abs(fy - 40.0) < 0.05
    assert page.errors == []  # type: ignore[attr-defined]
