"""One Hour's deployment by hand (``hand_deployment``, ruling R50) in Debian's Chromium: the unit to
place is dragged within its side's zone (drawn on the table); while dragged the page asks the server
(POST .../check) about the point, and the drop places the unit there. A drag outside the zone is
refused with its clause (`deployment.zone`) and changes nothing. Screenshot: docs/images/web-deploy.png
with SHIELDWALL_SCREENSHOTS=1."""

from __future__ import annotations

from typing import Any

from tests.browser_fixtures import BROWSER, IMAGES, drag_until, start_battle, state, unit_of

pytestmark = BROWSER


def _start(page: Any, server: str) -> dict[str, Any]:
    """Bryn Glas with hand deployment against the scripted bot, as red, until red places a unit."""
    start_battle(
        page,
        server,
        "one-hour-dark-ages",
        "one-hour-dark-ages/bryn-glas",
        seed=4,
        options=["hand_deployment"],
    )
    st: dict[str, Any] = state(page)
    assert st["decision"]["kind"] == "deploy" and st["your_turn"], st["decision"]
    return st


def test_deployment_a_one_hour_unit_dragged_within_its_zone_is_placed_there(server: str, page: Any) -> None:
    st = _start(page, server)
    uid = st["decision"]["unit"]
    u = unit_of(st, uid)
    zone = st["view"]["deployment"]["zones"]["red"]
    assert zone == [0, 0, 48, 10]
    assert page.locator("#board svg .hl-zone").count() == 1  # the zone is drawn
    drag_until(page, u, (30.0, 7.0), "Drop here")
    page.screenshot(path=str(IMAGES / "web-deploy.png"))
    page.mouse.up()
    page.wait_for_function(f"window.shieldwall.game.st.version !== {st['version']}")
    after = state(page)
    placed = unit_of(after, uid)
    assert abs(placed["x"] - 30.0) < 0.2 and abs(placed["y"] - 7.0) < 0.2, placed
    assert placed["heading"] == u["heading"]
    assert uid not in after["view"]["deployment"]["waiting"]
    assert "is deployed at" in page.text_content("#tab-log")
    assert page.errors == []  # type: ignore[attr-defined]


def test_deployment_a_drag_outside_the_zone_is_refused_with_its_clause(server: str, page: Any) -> None:
    st = _start(page, server)
    uid = st["decision"]["unit"]
    u = unit_of(st, uid)
    drag_until(page, u, (24.0, 20.0), "Not allowed here")
    hint = page.inner_text("#hint")
    assert "deployment zone" in hint and "§deployment.zone" in hint, hint
    page.mouse.up()
    page.wait_for_selector("#message.bad a.rule-link")
    assert "deployment.zone" in page.inner_text("#message")
    after = state(page)
    assert after["version"] == st["version"] and unit_of(after, uid)["y"] == u["y"]
    assert page.errors == []  # type: ignore[attr-defined]
