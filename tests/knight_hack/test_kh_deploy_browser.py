"""Knight Hack's deployment by hand (``hand_deployment``, ruling R51) in Debian's Chromium: the unit to
place is dragged within its side's zone (outlined on the table); while it is dragged the page asks
the server (POST .../check) about the point, and the drop places it there (knight-hack:deployment.zone,
knight-hack:deployment.clear). A drop outside the zone is refused with its clause and changes
nothing. As the rebels in the ambush variant, red's hidden javelinmen never reach the page.
Screenshot: docs/images/web-kh-deploy.png with SHIELDWALL_SCREENSHOTS=1."""

from __future__ import annotations

from typing import Any

from tests.browser_fixtures import BROWSER, IMAGES, drag_until, start_battle, state, unit_of

pytestmark = BROWSER


def _start(
    page: Any, server: str, scenario: str = "bourgtheroulde-1124", side: str = "red"
) -> dict[str, Any]:
    """A battle with hand deployment against the scripted bot, until ``side`` places a unit."""
    start_battle(
        page, server, "knight-hack", f"knight-hack/{scenario}", side=side, seed=3, options=["hand_deployment"]
    )
    st: dict[str, Any] = state(page)
    assert st["decision"]["kind"] == "deploy" and st["your_turn"], st["decision"]
    return st


def test_deployment_zone_a_knight_hack_unit_dragged_within_its_zone_is_placed_there(
    server: str, page: Any
) -> None:
    st = _start(page, server)
    uid = st["decision"]["unit"]
    u = unit_of(st, uid)
    assert st["view"]["deployment"]["zones"]["red"] == [0, 0, 48, 12]
    assert page.locator("#board svg .hl-zone").count() == 1  # the zone is drawn
    actions = page.inner_text("#actions").lower()
    assert "within your zone" in actions and "the scenario's place" in actions
    drag_until(page, u, (36.0, 6.0), "Drop here")
    page.screenshot(path=str(IMAGES / "web-kh-deploy.png"))
    page.mouse.up()
    page.wait_for_function(f"window.shieldwall.game.st.version !== {st['version']}")
    after = state(page)
    placed = unit_of(after, uid)
    assert abs(placed["x"] - 36.0) < 0.2 and abs(placed["y"] - 6.0) < 0.2, placed
    assert placed["heading"] == u["heading"] and placed["deployed"] is True
    assert "is deployed at" in page.text_content("#tab-log")
    assert page.errors == []  # type: ignore[attr-defined]


def test_deployment_zone_a_drop_outside_the_zone_is_refused_with_its_clause(server: str, page: Any) -> None:
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


def test_deployment_the_rebels_page_never_shows_red_ambushers(server: str, page: Any) -> None:
    # ambush.execute: red's javelinmen are placed hidden (R51); blue's page sees neither them nor
    # red's units still to place, and the decision it waits on names no unit
    st = _start(page, server, "bourgtheroulde-1124-ambush", side="blue")
    while st["decision"] is not None and st["decision"]["kind"] == "deploy":
        ids = {u["id"] for u in st["view"]["units"]}
        assert "javelinmen" not in ids
        assert all(u["side"] == "blue" or u["deployed"] for u in st["view"]["units"])
        if not st["your_turn"]:
            break
        page.locator('#actions button[title^="deploy "]').first.click()
        page.wait_for_function(f"window.shieldwall.game.st.version !== {st['version']}")
        st = state(page)
    assert "javelinmen" not in page.inner_text("body") and "Javelinmen" not in page.inner_text("body")
    assert page.errors == []  # type: ignore[attr-defined]


def test_deployment_red_drags_its_hidden_javelinmen_though_the_decision_names_no_unit(
    server: str, page: Any
) -> None:
    st = _start(page, server, "bourgtheroulde-1124-ambush")
    while st["decision"]["unit"] is not None:  # red's visible units first, in the scenario's order
        page.locator('#actions button[title^="deploy "]').first.click()
        page.wait_for_function(f"window.shieldwall.game.st.version !== {st['version']}")
        st = state(page)
    assert st["decision"]["kind"] == "deploy" and "hidden in ambush" in st["decision"]["prompt"]
    jav = unit_of(st, "javelinmen")
    page.wait_for_selector("#board svg .hl-zone")  # its zone, from its reach
    assert "javelinmen" in page.inner_text("#hint").lower() or "Javelinmen" in page.inner_text("#hint")
    drag_until(page, jav, (10.0, 16.0), "Drop here")
    page.mouse.up()
    page.wait_for_function(f"window.shieldwall.game.st.version !== {st['version']}")
    placed = unit_of(state(page), "javelinmen")
    assert abs(placed["x"] - 10.0) < 0.2 and abs(placed["y"] - 16.0) < 0.2 and placed["hidden"], placed
    assert page.errors == []  # type: ignore[attr-defined]
