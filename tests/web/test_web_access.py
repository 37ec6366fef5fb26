"""Accessibility, in Debian's Chromium: a battle played from the keyboard alone (select a unit, choose
an order from the actions panel, move the unit with the keyboard pointer and confirm, end the phase,
zoom, pan, the ruler) with a visible focus, and axe-core (axe-playwright-python) finding no serious
or critical violation on the start page and on the table. Screenshot: docs/images/web-keyboard.png
with SHIELDWALL_SCREENSHOTS=1 (see tests/browser_fixtures.py)."""

from __future__ import annotations

import math
from typing import Any

import pytest
from tests.browser_fixtures import BROWSER, IMAGES, idle, state, unit_of

pytestmark = BROWSER


def serious_violations(page: Any) -> list[str]:
    """axe-core's serious and critical violations of the page as it is, one line each."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [
        f"{v['impact']} {v['id']}: {v['help']} {[n['target'] for n in v['nodes']][:4]}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


def _key(page: Any, key: str, times: int = 1) -> None:
    for _ in range(times):
        page.keyboard.press(key)


def _pointer_unit(page: Any) -> str | None:
    uid: str | None = page.evaluate("window.shieldwall.game.keys.unitAt()")
    return uid


def _focused(page: Any) -> dict[str, Any]:
    info: dict[str, Any] = page.evaluate(
        """() => { const a = document.activeElement; const cs = getComputedStyle(a);
        return {id: a.id, tag: a.tagName, cls: a.className, text: a.textContent.trim(),
                outline: cs.outlineStyle, width: parseFloat(cs.outlineWidth)}; }"""
    )
    return info


def test_keyboard_play_and_axe(server: str, page: Any) -> None:
    IMAGES.mkdir(parents=True, exist_ok=True)
    page.goto(server + "/")
    page.wait_for_selector("#f-scenario option", state="attached")
    assert serious_violations(page) == []
    # the start form by keys: the seed, then Enter submits it (the defaults: Bryn Glas, the scripted bot)
    page.focus("#f-seed")
    page.keyboard.type("7")
    page.keyboard.press("Enter")
    page.wait_for_selector("#board svg .unit")
    st = state(page)
    assert st["decision"]["kind"] == "activate" and st["your_turn"]

    # select a unit that may act: n walks the pointer over the units, Enter clicks the one under it
    can_act = {m["unit"] for m in st["menu"] if m["kind"] == "activate"}
    for _ in range(2 * len(st["view"]["units"])):
        _key(page, "n")
        if _pointer_unit(page) in can_act:
            break
    uid = _pointer_unit(page)
    assert uid in can_act
    assert "on " in page.inner_text("#key-pointer")
    focus = _focused(page)
    assert focus["id"] == "board" and focus["outline"] != "none" and focus["width"] >= 2, focus
    _key(page, "Enter")
    page.wait_for_selector("#unit h3")
    assert uid in page.inner_text("#unit h3")

    # choose from the actions panel: a focuses its first order, Tab walks them, Enter gives one
    _key(page, "a")
    for _ in range(12):
        f = _focused(page)
        assert f["tag"] == "BUTTON" and f["outline"] != "none", f
        if "primary" in f["cls"]:
            break
        _key(page, "Tab")
    assert "Roll to move" in _focused(page)["text"]
    before = st["version"]
    _key(page, "Enter")
    idle(page)
    st = state(page)
    assert st["version"] > before and st["decision"]["kind"] == "move" and st["decision"]["unit"] == uid

    # move by keys: back to the table, the pointer toward the nearest enemy, the server's ring
    # before the confirm, Enter to give the move
    _key(page, "t")
    u = unit_of(st, uid)
    foes = [e for e in st["view"]["units"] if e["side"] != u["side"] and not e["removed"]]
    e = min(foes, key=lambda e: math.hypot(e["x"] - u["x"], e["y"] - u["y"]))
    go = int(
        min(
            float(st["decision"]["data"]["rolled"]) - 0.3,
            max(0.0, math.dist((u["x"], u["y"]), (e["x"], e["y"])) - 4),
        )
    )
    page.evaluate(f"window.shieldwall.game.keys.moveTo({{x: {u['x']}, y: {u['y']}}})")
    dx, dy = e["x"] - u["x"], e["y"] - u["y"]
    horizontal = round(go * abs(dx) / math.hypot(dx, dy))
    vertical = go - horizontal
    _key(page, "Shift+ArrowRight" if dx > 0 else "Shift+ArrowLeft", horizontal)
    _key(page, "Shift+ArrowUp" if dy > 0 else "Shift+ArrowDown", vertical)
    if go:
        page.wait_for_selector("#board svg .drop-mark")  # the server's answer before the confirm
    before = st["version"]
    for _ in range(6):
        _key(page, "Enter")
        idle(page)
        if page.evaluate("window.shieldwall.game.st.version") != before:
            break
        # refused (the reason is shown): one step back toward the unit and again
        assert page.locator("#message.bad").is_visible()
        _key(page, "Shift+ArrowDown" if dy > 0 else "Shift+ArrowUp")
    st = state(page)
    assert st["version"] > before
    moved = unit_of(st, uid)
    assert (moved["x"], moved["y"]) != (u["x"], u["y"]) or go == 0

    # zoom and pan by keys, the ruler by keys
    _key(page, "+", 2)
    assert page.evaluate("window.shieldwall.board.k") > 1.2
    v0 = page.evaluate("window.shieldwall.board.view().x")
    _key(page, "ArrowLeft")
    assert page.evaluate("window.shieldwall.board.view().x") < v0
    _key(page, "0")
    assert page.evaluate("window.shieldwall.board.k") == 1
    _key(page, "r")
    _key(page, "t")
    _key(page, "Enter")
    _key(page, "Shift+ArrowRight", 3)
    _key(page, "Enter")
    assert page.inner_text("#ruler-readout") == '3"'
    _key(page, "Escape")
    assert page.inner_text("#ruler-readout") == ""

    # the list of keys, axe on the table with a unit selected and the log filled
    _key(page, "?")
    assert page.locator("#keys-help[open]").count() == 1
    page.screenshot(path=str(IMAGES / "web-keyboard.png"))
    assert serious_violations(page) == []
    _key(page, "?")

    # end the phase by its key
    st = state(page)
    assert st["decision"]["kind"] == "activate", st["decision"]
    where = (st["view"]["turn"], st["view"]["side"], st["view"]["phase"])
    before = st["version"]
    _key(page, "e")
    idle(page)
    st = state(page)
    assert st["version"] > before
    assert (st["view"]["turn"], st["view"]["side"], st["view"]["phase"]) != where
    assert serious_violations(page) == []
    assert page.errors == []  # type: ignore[attr-defined]


def _systems() -> list[str]:
    from shieldwall import registry

    return [rid for rid, rs in registry.systems().items() if rs.scenario_files()]


@pytest.mark.parametrize("ruleset", _systems())
def test_every_rule_systems_table_by_keyboard_and_axe(server: str, page: Any, ruleset: str) -> None:
    """Each rule system's page (its web piece or the generic one): a unit selected by the keyboard
    pointer, no serious or critical axe-core violation."""
    page.goto(server + "/")
    page.wait_for_selector("#f-scenario option", state="attached")
    page.select_option("#f-ruleset", ruleset)
    page.select_option("#f-opponent", "random")
    page.fill("#f-seed", "7")
    page.click("#f-start")
    page.wait_for_selector("#board svg")
    idle(page)
    _key(page, "n")
    uid = _pointer_unit(page)
    assert uid is not None, "n puts the pointer on a unit"
    _key(page, "Enter")
    page.wait_for_function(
        "window.shieldwall.game.selected !== null || document.querySelector('[role=dialog] button:focus')"
    )
    if page.evaluate("window.shieldwall.game.selected === null"):
        # a hex of several counters (a hex game's stack) opens a list, its first counter focused
        assert serious_violations(page) == []
        _key(page, "Enter")
        page.wait_for_function("window.shieldwall.game.selected !== null")
    assert serious_violations(page) == []
    assert page.errors == []  # type: ignore[attr-defined]
