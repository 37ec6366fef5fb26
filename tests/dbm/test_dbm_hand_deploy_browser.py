"""DBM 3.2's deployment by hand (``hand_deployment``, ruling R45) in Debian's Chromium: the zone is
shaded, the command to place (the largest first, dbm-3.2:deploy.first) follows its general dragged
within the zone; a drop outside the zone is refused with its clause (dbm-3.2:deploy.rectangle) and
changes nothing; the placed rectangle is shaded red; the next command takes the seeded procedure's
place, the bot deploys blue, red assigns its baggage (dbm-3.2:deploy.baggage) and the battle starts.
Screenshot: docs/images/web-dbm-hand-deploy.png with SHIELDWALL_SCREENSHOTS=1. Illustrative sample
data (NOT the published DBM tables)."""

from __future__ import annotations

from typing import Any

from tests.browser_fixtures import BROWSER, IMAGES, click_order, drag_until, start_battle, state, unit_of

pytestmark = BROWSER


def _start(page: Any, server: str) -> dict[str, Any]:
    """Ford of Ash with hand deployment against the scripted bot, as red."""
    start_battle(
        page, server, "dbm-3.2", "dbm-3.2/ford-of-ash", seed=4, wait_for=None, options=["hand_deployment"]
    )
    page.wait_for_selector("#board svg .dbm-zone", state="attached")
    st: dict[str, Any] = state(page)
    assert st["decision"]["kind"] == "deploy" and st["your_turn"], st["decision"]
    return st


def test_deploy_rectangle_a_command_dragged_by_hand_then_the_battle_starts(server: str, page: Any) -> None:
    st = _start(page, server)
    dep = st["view"]["deployment"]
    assert dep["next"]["command"] == "red2" and dep["zones"]["red"] == [0.0, 120.0, 2400.0, 420.0]
    gen = st["decision"]["unit"]
    g0 = unit_of(st, gen)
    assert g0.get("preview") is True
    assert page.locator("#board svg .dbm-zone").count() == 1
    assert page.locator("#board svg .dbm-taken").count() == 0

    # out of the zone (past its front): the hint names the clause, the drop is refused
    drag_until(page, g0, (g0["x"], 600.0), "Not allowed here")
    hint = page.inner_text("#hint")
    assert "deployment zone" in hint and "§deploy.rectangle" in hint, hint
    page.mouse.up()
    page.wait_for_selector("#message.bad a.rule-link")
    assert "deploy.rectangle" in page.inner_text("#message")
    after = state(page)
    assert after["version"] == st["version"] and after["view"]["deployment"]["waiting"] == ["red2", "red1"]

    # 400 p left and 100 p back: within the zone
    to = (g0["x"] - 400.0, g0["y"] - 100.0)
    drag_until(page, g0, to, "Drop here")
    assert page.locator("#board svg .page-overlay rect").count() >= 7  # the whole command's ghost
    page.screenshot(path=str(IMAGES / "web-dbm-hand-deploy.png"))
    page.mouse.up()
    page.wait_for_function(f"window.shieldwall.game.st.version !== {st['version']}")
    st = state(page)
    placed = unit_of(st, gen)
    assert abs(placed["x"] - to[0]) < 0.2 and abs(placed["y"] - to[1]) < 0.2, placed
    assert "preview" not in placed
    dep = st["view"]["deployment"]
    assert dep["waiting"] == ["red1"] and dep["placed"]["red2"] == [320.0, 260.0, 880.0, 320.0]
    assert page.locator("#board svg .dbm-taken").count() == 1
    assert "placed by hand in line" in page.text_content("#tab-log")

    # red1 at the seeded procedure's place; the bot deploys blue; red assigns its baggage
    page.click('#actions button:has-text("The seeded procedure\'s place")')
    for _ in range(6):
        st = state(page)
        if st["decision"]["kind"] != "deploy" or st["decision"]["side"] != "red":
            break
        page.wait_for_timeout(200)
    assert st["decision"]["kind"] == "baggage" and st["your_turn"], st["decision"]
    click_order(page, st, st["menu"][0])
    st = state(page)
    assert st["view"]["phase"] == "bound", st["view"]["phase"]
    assert page.locator("#board svg .dbm-deploy").count() == 0
    assert page.errors == []  # type: ignore[attr-defined]
