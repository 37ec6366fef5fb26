"""The start page sets the search bot's budget and opponent model (issue 22: ``mcts:N:mixP`` on the
web table), in Debian's Chromium."""

from __future__ import annotations

from typing import Any

from tests.browser_fixtures import BROWSER, state

pytestmark = BROWSER


def blue_bot_when_playing_red(page: Any) -> str:
    """Start the lobby's game as red (seed 3) and return the bot the table gave blue."""
    page.select_option("#f-side", "red")
    page.fill("#f-seed", "3")
    page.click("#f-start")
    page.wait_for_selector("#board svg .unit")
    return str(state(page)["players"]["blue"])


def test_the_lobby_composes_the_search_bots_budget_and_opponent_model(server: str, page: Any) -> None:
    page.goto(server + "/")
    page.wait_for_selector("#f-scenario option", state="attached")
    assert page.locator("#f-search").is_hidden()  # only for the search bot
    page.select_option("#f-opponent", "mcts")
    assert page.locator("#f-search").is_visible()
    page.fill("#f-playouts", "8")
    page.fill("#f-mix", "0.5")
    assert blue_bot_when_playing_red(page) == "bot:mcts:8:mix0.5"


def test_a_mix_of_one_is_the_plain_search(server: str, page: Any) -> None:
    page.goto(server + "/")
    page.wait_for_selector("#f-scenario option", state="attached")
    page.select_option("#f-opponent", "mcts")
    page.fill("#f-playouts", "4")
    assert blue_bot_when_playing_red(page) == "bot:mcts:4"


def test_no_playouts_asks_for_the_rule_system_s_default_search(server: str, page: Any) -> None:
    page.goto(server + "/")
    page.wait_for_selector("#f-scenario option", state="attached")
    page.select_option("#f-opponent", "mcts")
    assert page.input_value("#f-playouts") == ""
    shown = page.get_attribute("#f-playouts", "placeholder") or ""
    assert shown.startswith("default (") and shown != "default (built-in)"  # the plugin's options
    page.fill("#f-mix", "0.5")
    assert blue_bot_when_playing_red(page) == "bot:mcts:mix0.5"
