"""Two players in two browsers (separate browser contexts: no shared cookies or storage) play a whole
game through the invitation link, and each sees the same table: whenever the turn passes and at the
end, once the other page has caught up (it polls), both show the same version, units, decision,
result and log. Marked slow (a whole battle in two browsers); it still runs in CI."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from tests.browser_fixtures import BROWSER, idle
from tests.web.test_web_browser import _menu_pick

pytestmark = [*BROWSER, pytest.mark.slow]


def _st(page: Any) -> dict[str, Any]:
    st: dict[str, Any] = page.evaluate("window.shieldwall.game.st")
    return st


#: the page's state once it is at version ``v`` and idle (a state, neither waiting for the server
#: nor stepping through the other side's orders: ``idle``'s test), else null: the wait and the
#: read in one round trip to the page instead of three (186 orders a game)
_AT_VERSION_AND_IDLE = """v => {
  const g = window.shieldwall.game;
  return g && g.st && g.st.version === v && !g.busy && !g.stepping ? g.st : null;
}"""


def _caught_up(page: Any, version: int) -> dict[str, Any]:
    """The page's state once its poll has brought it to ``version`` and it is idle."""
    st: dict[str, Any] = page.wait_for_function(
        _AT_VERSION_AND_IDLE, arg=version, timeout=20_000
    ).json_value()
    return st


def _answered(page: Any, before: int) -> dict[str, Any]:
    """The page's state once it is idle after an order; the order was accepted: its version moved on."""
    idle(page)
    st = _st(page)
    assert st["version"] != before, page.inner_text("#message")
    return st


def _log_texts(page: Any) -> list[str]:
    texts: list[str] = page.eval_on_selector_all("#tab-log .entry", "els => els.map(e => e.textContent)")
    return texts


def test_a_game_between_two_browsers_shows_both_the_same_table(
    server: str, two_pages: tuple[Any, Any]
) -> None:
    red, blue = two_pages

    def engine_menu(route: Any) -> None:  # both pages play by the engine's menu (buttons)
        resp = route.fetch()
        route.fulfill(response=resp, json=[{**r, "web_module": None, "reach": False} for r in resp.json()])

    for pg in (red, blue):
        pg.route("**/api/rulesets", engine_menu)
    red.goto(server + "/")
    red.wait_for_selector("#f-scenario option", state="attached")
    red.select_option("#f-opponent", "remote")
    red.select_option("#f-side", "red")
    red.fill("#f-seed", "11")
    red.click("#f-start")
    red.wait_for_selector("#board svg .unit")
    invite = red.input_value("#invite-url")
    assert "#invite=" in invite
    blue.goto(invite)
    blue.wait_for_selector("#board svg .unit")
    idle(blue)
    assert _st(blue)["id"] == _st(red)["id"]

    pages = {"red": red, "blue": blue}
    seen_sides: set[str] = set()
    handovers = 0
    st = _st(red)
    side = st["decision"]["side"]
    for _ in range(800):  # a whole battle
        me, other = pages[side], pages["blue" if side == "red" else "red"]
        mine = _caught_up(me, st["version"])
        assert mine["your_turn"], (side, mine["waiting_for"])
        seen_sides.add(side)
        m = _menu_pick(mine)
        me.locator(f"#actions button[title={json.dumps(m['text'])}]").first.click()
        st = _answered(me, mine["version"])
        over = st["result"] is not None
        if over or st["decision"]["side"] != side:
            # the other player's page catches up (it polls): the same table, decision and log
            theirs = _caught_up(other, st["version"])
            assert theirs["view"]["units"] == st["view"]["units"]
            assert theirs["decision"] == st["decision"] and theirs["result"] == st["result"]
            deadline = time.monotonic() + 10
            while _log_texts(other) != _log_texts(me) and time.monotonic() < deadline:
                time.sleep(0.1)
            assert _log_texts(other) == _log_texts(me)
            handovers += 1
        if over:
            break
        side = st["decision"]["side"]
    else:
        pytest.fail("the battle did not end within 800 orders")
    assert st["result"]["winner"] in ("red", "blue", None) and handovers >= 2
    assert seen_sides == {"red", "blue"}, "both players gave orders"
    assert red.errors == [] and blue.errors == []
