"""Knight Hack in Debian's Chromium (Playwright): a battle against the scripted bot played from the
engine's menu, the reach shading of the unit asked about, and the "why" panel of a percentile roll
showing its d100, T, T/2, T/4 and every term of T with its clause (knight-hack:casualties.target,
knight-hack:casualties.multiple); the opponent's hidden ambushers stay off the page
(knight-hack:ambush.execute)."""

from __future__ import annotations

from typing import Any

import pytest
from tests.browser_fixtures import BROWSER, IMAGES, click_order, start_battle, state

pytestmark = BROWSER


def _pick(st: dict[str, Any]) -> dict[str, Any]:
    """Charge, spring, shoot and fight when the menu offers it; else the first order."""
    menu = st["menu"]
    for kinds in (("charge", "ambush", "fire", "fight", "keep"), ("move",)):
        m = [x for x in menu if x["kind"] in kinds]
        if m:
            return m[-1] if kinds == ("move",) else m[0]
    return menu[0]


def test_casualties_multiple_why_panel_shows_t_halves_quarters_and_every_term(server: str, page: Any) -> None:
    start_battle(page, server, "knight-hack", "knight-hack/bourgtheroulde-1124", seed=3)
    assert page.evaluate("typeof window.shieldwall.game.hooks.renderWhy") == "function"
    body = page.inner_text("body")
    assert "not the published Knight Hack charts" in body
    shaded = False
    log = page.locator("#tab-log")
    for _ in range(300):
        if log.locator(".entry.combat a.why-link").count():
            break
        st = state(page)
        assert st["result"] is None, "the battle ended before a roll"
        assert st["your_turn"]
        if st["reach"] is not None and page.locator("#board svg .hl-move-band").count():
            shaded = True
        click_order(page, st, _pick(st))
    else:
        pytest.fail("no roll after 300 orders")
    assert shaded, "the reach of a unit was never shaded on the table"
    log.locator(".entry.combat a.why-link").first.click()
    page.wait_for_selector("#tab-why .kh-roll")
    why = page.locator("#tab-why")
    heads = why.locator(".kh-thresholds th").all_inner_texts()
    assert heads[:3] == ["T", "T/2", "T/4"]
    assert why.locator(".die.big").count() >= 1
    first = why.locator(".kh-roll").first
    text = first.inner_text()
    assert "d100 rolled" in text and "against T = " in text and "casualt" in text
    t_value = int(text.split("against T = ")[1].split()[0])
    # every term of T is a row, with its clause; their sum is T
    rows = first.locator(".kh-terms tbody tr")
    values = [
        int(v) for v in first.locator(".kh-terms tbody tr:not(.kh-total) td:nth-child(2)").all_inner_texts()
    ]
    assert rows.count() == len(values) + 1 and values and sum(values) == t_value
    assert first.locator(".kh-terms a.rule-link").count() == len(values)
    assert "§casualties.multiple" in text
    assert page.errors == []  # type: ignore[attr-defined]


def test_ambush_execute_hidden_ambushers_are_not_on_the_rebels_page(server: str, page: Any) -> None:
    start_battle(page, server, "knight-hack", "knight-hack/bourgtheroulde-1124-ambush", side="blue", seed=2)
    st = state(page)
    assert "javelinmen" not in {u["id"] for u in st["view"]["units"]}
    assert "javelinmen" not in page.inner_html("#board")
    assert "javelinmen" not in page.inner_text("#tab-log")
    assert page.errors == []  # type: ignore[attr-defined]


def test_missile_window_ranges_drawn_from_the_selected_archers(server: str, page: Any) -> None:
    """knight-hack:missile.window: the archers' bow range band and front arc, and a line to each
    rebel unit (red: none in range and arc yet, each saying why)."""
    start_battle(page, server, "knight-hack", "knight-hack/bourgtheroulde-1124", seed=3)
    page.wait_for_selector("#ranges:not([hidden])")
    st = state(page)
    page.locator("#board svg .unit[data-unit='archers']").first.click(force=True)
    page.wait_for_function("window.shieldwall.game.selected === 'archers'")
    page.keyboard.press("l")
    page.wait_for_selector("#board svg .page-ranges .range-range")
    assert page.locator("#board svg .page-ranges .range-arc").count() == 1
    enemies = [u for u in st["view"]["units"] if u["side"] == "blue" and not u.get("removed")]
    assert page.locator("#board svg .page-ranges line.sight").count() == len(enemies) == 3
    info = page.inner_text("#ranges-info")
    assert "bow range 12 in." in info and "front arc (missile window)" in info
    assert "may shoot at" in info and "is beyond 12 in." in info
    assert page.locator("#ranges-info a.rule-link").count() >= 2
    page.screenshot(path=str(IMAGES / "web-ranges-knight-hack.png"))
    assert page.errors == []  # type: ignore[attr-defined]
