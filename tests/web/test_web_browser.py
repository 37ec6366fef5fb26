"""End to end in Debian's Chromium: start a one-hour battle against the random bot, move units and
charge by clicking the table, see the dice in the log, and take screenshots (docs/images/ with
SHIELDWALL_SCREENSHOTS=1).

The play is adaptive (it reads the engine's reach from the page), so a change of rulings that
moves the dice around does not break it: it keeps moving units at the enemy until a charge is on,
clicks the target, and plays on until the melee's dice are in the log. The same for into-the-dark,
with its own gestures; and a battle with the rule system's web piece withheld (the generic page:
the engine's menu as buttons), as any rule system without one is played.
"""

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import Any

import pytest
from tests.browser_fixtures import BROWSER, IMAGES, click_order, idle, state, unit_of, wait_version

pytestmark = BROWSER


def _click_table(page: Any, x: float, y: float) -> None:
    pt = page.evaluate(f"window.shieldwall.board.toScreen({x}, {y})")
    page.mouse.click(pt["x"], pt["y"])


def _click_unit(page: Any, st: dict[str, Any], uid: str) -> None:
    u = unit_of(st, uid)
    _click_table(page, u["x"], u["y"])


def _move_toward_the_enemy(page: Any, st: dict[str, Any]) -> None:
    d = st["decision"]
    u = unit_of(st, d["unit"])
    foes = [e for e in st["view"]["units"] if e["side"] != u["side"] and not e["removed"]]
    e = min(foes, key=lambda e: math.hypot(e["x"] - u["x"], e["y"] - u["y"]))
    dx, dy = e["x"] - u["x"], e["y"] - u["y"]
    gap = math.hypot(dx, dy)
    go = min(float(d["data"]["rolled"]) - 0.3, max(0.0, gap - 4.0))
    before = st["version"]
    _click_table(page, u["x"] + dx / gap * go, u["y"] + dy / gap * go)  # a click on the table moves
    if not wait_version(page, before):
        # the rules refused it (the reason is on the page); try the engine's own advance, or hold
        assert page.locator("#message.bad").is_visible()
        advance = page.get_by_role("button", name="advance", exact=True)
        if advance.count():
            advance.click()
            if wait_version(page, before):
                return
        page.get_by_role("button", name="Hold", exact=True).click()
        assert wait_version(page, before)


def test_play_against_the_bot_move_charge_and_see_the_dice(server: str, page: Any) -> None:
    IMAGES.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    page.goto(server + "/")
    page.wait_for_selector("#f-scenario option", state="attached")
    load = time.perf_counter() - t0
    assert load < 5.0, f"the start page took {load:.2f}s"
    assert page.input_value("#f-ruleset") == "one-hour-dark-ages"
    assert "Bryn Glas" in page.inner_text("#f-scenario")
    page.select_option("#f-opponent", "random")
    page.select_option("#f-side", "red")
    page.fill("#f-seed", "7")
    page.screenshot(path=str(IMAGES / "web-lobby.png"))
    page.click("#f-start")
    page.wait_for_selector("#board svg .unit")
    assert page.url.endswith("/play/" + state(page)["id"])

    moved = charged = refused = False
    activated_this_turn = 0
    for _ in range(150):
        st = state(page)
        assert st["result"] is None, "the battle ended before a charge"
        if charged and page.locator("#tab-log .entry.melee").count():
            break
        d = st["decision"]
        assert st["your_turn"] and d["side"] == "red"
        if d["kind"] == "activate":
            acts = [m for m in st["menu"] if m["kind"] == "activate"]
            if not acts or activated_this_turn >= 3:
                activated_this_turn = 0
                before = st["version"]
                page.click("#actions button.end")
                assert wait_version(page, before)
                continue
            # the cavalry and the warband first: they reach the enemy soonest
            uid = min(acts, key=lambda m: {"r6": 0, "r4": 1}.get(m["unit"], 2))["unit"]
            _click_unit(page, st, uid)
            page.wait_for_selector("#unit h3")
            assert uid in page.inner_text("#unit h3")
            before = st["version"]
            page.click("#actions button.primary")  # "Roll to move": the engine rolls the dice
            assert wait_version(page, before)
            activated_this_turn += 1
        elif d["kind"] == "move":
            reach = st["reach"]
            assert reach["unit"] == d["unit"] and reach["move"]["rolled"] == d["data"]["rolled"]
            if not refused:
                # too far: the server refuses, says why and which clause, and nothing changes
                u = unit_of(st, d["unit"])
                _click_table(page, u["x"], min(35.0, u["y"] + float(d["data"]["rolled"]) + 4.0))
                idle(page)
                assert page.locator("#message.bad a.rule-link").is_visible()
                assert page.evaluate("window.shieldwall.game.st.version") == st["version"]
                refused = True
            # the page draws what the engine computed: the band, the arc, the charge targets
            assert page.locator("#board svg .hl-move-band").count() == 1
            if reach["charges"]:
                target = reach["charges"][0]["target"]
                assert page.locator(f'#board svg .hl-charge-target[data-unit="{target}"]').count() == 1
                page.screenshot(path=str(IMAGES / "web-reach.png"))
                before = st["version"]
                _click_unit(page, st, target)  # a click on a highlighted enemy charges it
                idle(page)
                if page.evaluate("window.shieldwall.game.pendingCharge !== null"):
                    page.locator("#actions button.charge").first.click()  # which facing
                assert wait_version(page, before)
                assert page.locator("#tab-log .entry.charge").count() >= 1
                charged = True
            else:
                _move_toward_the_enemy(page, st)
                moved = True
        else:
            before = st["version"]
            end = page.locator("#actions button.end")
            (end if end.count() else page.locator("#actions button").first).click()
            assert wait_version(page, before)
    else:
        pytest.fail("no charge and melee after 150 decisions")

    assert moved and charged and refused
    # the dice are in the log: movement dice and the melee's die, each with its clause link
    log = page.locator("#tab-log")
    assert log.locator(".entry.roll .die").count() >= 1
    melee = log.locator(".entry.melee").first
    assert melee.locator(".die").count() == 1
    assert "/rules/one-hour-dark-ages#melee" in (melee.locator("a.rule-link").get_attribute("href") or "")
    page.screenshot(path=str(IMAGES / "web-battle.png"))
    # the why of a melee (one with a doubling or a halving if there is one): die, modifiers, clauses
    fancy = log.locator(".entry.melee", has_text="double").or_(log.locator(".entry.melee", has_text="halve"))
    (fancy.first if fancy.count() else melee).locator("a.why-link").click()
    page.wait_for_selector("#tab-why table")
    assert page.locator("#tab-why .die.big").count() == 1
    assert page.locator("#tab-why a.rule-link").count() >= 2
    page.screenshot(path=str(IMAGES / "web-why.png"))
    assert page.errors == []  # type: ignore[attr-defined]


def _itd_order_by_pointing(page: Any, st: dict[str, Any]) -> str:
    """One into-the-dark decision of red's, given with the pointer where there is a gesture.

    Returns what was done: "charge", "move", "shoot", "hold" or "button"."""
    d = st["decision"]
    before = st["version"]
    if d["kind"] == "movement":
        acts = [m["unit"] for m in st["menu"] if m["kind"] == "activate"]
        if not acts:
            page.click("#actions button.end")
            assert wait_version(page, before)
            return "button"
        uid = acts[0]
        _click_unit(page, st, uid)  # a click on the unit selects it and shows its reach
        page.wait_for_selector("#unit h3")
        assert uid in page.inner_text("#unit h3")
        page.click("#actions button.primary")  # "Order r1 to act"
        assert wait_version(page, before)
        return "activate"
    if d["kind"] == "unit":
        reach = st["reach"]
        assert reach["unit"] == d["unit"] and reach["move"]["now"]
        assert page.locator("#board svg .hl-move-band").count() == 1
        if reach["charges"]:
            target = reach["charges"][0]["target"]
            assert page.locator(f'#board svg .hl-charge-target[data-unit="{target}"]').count() == 1
            _click_unit(page, st, target)  # a click on a highlighted enemy charges it
            idle(page)
            if page.evaluate("window.shieldwall.game.pendingCharge !== null"):
                page.locator("#actions button.charge").first.click()  # which edge
            assert wait_version(page, before)
            return "charge"
        u = unit_of(st, d["unit"])
        foes = [e for e in st["view"]["units"] if e["side"] != u["side"] and not e["removed"]]
        e = min(foes, key=lambda e: math.hypot(e["x"] - u["x"], e["y"] - u["y"]))
        dx, dy = e["x"] - u["x"], e["y"] - u["y"]
        gap = math.hypot(dx, dy)
        go = min(float(reach["move"]["left"]) * 0.6, max(0.5, gap - 6.0))
        _click_table(page, u["x"] + dx / gap * go, u["y"] + dy / gap * go)  # wheel toward, then on
        if wait_version(page, before):
            return "move"
        assert page.locator("#message.bad a.rule-link").is_visible()  # refused, with the clause
        page.get_by_role("button", name="Hold", exact=True).click()
        assert wait_version(page, before)
        return "hold"
    if d["kind"] == "fire" and any(m["kind"] == "shoot" for m in st["menu"]):
        shot = next(m for m in st["menu"] if m["kind"] == "shoot")
        _click_unit(page, st, shot["unit"])  # the shooter, then a ringed target
        page.wait_for_selector(f'#board svg .hl-shoot-target[data-unit="{shot["target"]}"]')
        _click_unit(page, state(page), shot["target"])
        assert wait_version(page, before)
        return "shoot"
    if d["kind"] == "initiative":
        page.get_by_role("button", name="Keep the initiative (move first)").click()
    else:
        end = page.locator("#actions button.end")
        (end if end.count() else page.locator("#actions button").first).click()
    assert wait_version(page, before)
    return "button"


def test_play_into_the_dark_against_the_bot_by_pointing(server: str, page: Any) -> None:
    IMAGES.mkdir(parents=True, exist_ok=True)
    page.goto(server + "/")
    page.wait_for_selector("#f-scenario option", state="attached")
    page.select_option("#f-ruleset", "into-the-dark")
    page.select_option("#f-scenario", "into-the-dark/senlac")
    assert "Senlac" in page.inner_text("#f-scenario") and "Harold" in page.inner_text("#f-scenario-desc")
    page.select_option("#f-opponent", "scripted")
    page.select_option("#f-side", "red")
    page.fill("#f-seed", "3")
    page.click("#f-start")
    page.wait_for_selector("#board svg .unit")
    assert state(page)["ruleset"] == "into-the-dark"

    done: list[str] = []
    log = page.locator("#tab-log")
    for _ in range(200):
        st = state(page)
        assert st["result"] is None, "the battle ended before an attack"
        if "move" in done and log.locator(".entry.combat .die").count():
            break
        assert st["your_turn"] and st["decision"]["side"] == "red"
        done.append(_itd_order_by_pointing(page, st))
    else:
        pytest.fail(f"no attack in the log after 200 decisions: {done}")
    assert "move" in done  # a move given by a click on the table
    # the dice are in the log, each line with its clause link into the into-the-dark clause table
    attack = log.locator(".entry.combat").filter(has=page.locator(".die")).first
    assert attack.locator(".die").count() >= 1
    assert "/rules/into-the-dark#" in (attack.locator("a.rule-link").first.get_attribute("href") or "")
    assert log.locator(".entry.initiative-roll .die").count() >= 2  # the initiative dice, by side
    # why: each group of figures' dice, what they needed, the clauses
    attack.locator("a.why-link").click()
    page.wait_for_selector("#tab-why .group-why")
    assert page.locator("#tab-why .die.big").count() >= 1
    assert page.locator("#tab-why a.rule-link").count() >= 2
    page.screenshot(path=str(IMAGES / "web-into-the-dark-why.png"))
    # the reach of one of red's units, drawn on the table beside the log
    page.locator('.tab-buttons button[data-tab="log"]').click()
    st = state(page)
    mine = [u for u in st["view"]["units"] if u["side"] == "red" and not u["removed"] and not u["in_melee"]]
    _click_unit(page, st, mine[0]["id"])
    page.wait_for_selector("#unit ul.reach li")
    page.screenshot(path=str(IMAGES / "web-into-the-dark.png"))
    assert page.errors == []  # type: ignore[attr-defined]


def _menu_pick(st: dict[str, Any]) -> dict[str, Any]:
    """The order of the engine's menu the generic page's player clicks: attack, then close in."""
    menu = st["menu"]

    def first(pred: Any) -> dict[str, Any] | None:
        return next((m for m in menu if pred(m)), None)

    for pick in (
        lambda m: m["kind"] in ("charge", "fight", "shoot", "shot"),
        lambda m: m["kind"] == "activate" and m["order"].get("charge"),
        lambda m: m["kind"] == "activate",
        lambda m: m["kind"] == "move" and m["label"].startswith("approach"),
        lambda m: m["kind"] == "move" and m["label"] == "advance",
        lambda m: m["kind"] != "end",
        lambda m: True,
    ):
        m = first(pick)
        if m is not None:
            return m
    raise AssertionError(f"an empty menu on red's turn: {st['decision']}")


def test_a_rule_system_without_a_web_module_is_played_with_the_engines_menu(server: str, page: Any) -> None:
    """The generic page: with no web module (and no reach) announced for the rule system, a battle
    is played by clicking the legal orders of each decision, and the why is the generic one."""

    def no_web_module(route: Any) -> None:
        resp = route.fetch()
        body = [{**r, "web_module": None, "reach": False} for r in resp.json()]
        route.fulfill(response=resp, json=body)

    page.route("**/api/rulesets", no_web_module)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    page.goto(server + "/")
    page.wait_for_selector("#f-scenario option", state="attached")
    assert page.get_attribute("#clause-link", "href") == "/rules/one-hour-dark-ages"
    page.select_option("#f-opponent", "random")
    page.select_option("#f-side", "red")
    page.fill("#f-seed", "7")
    page.click("#f-start")
    page.wait_for_selector("#board svg .unit")
    assert page.evaluate("Object.keys(window.shieldwall.game.hooks).length") == 0
    # a click on a unit selects it (its panel) without asking for a reach the rule system lacks
    st = state(page)
    _click_unit(page, st, "r1")
    page.wait_for_selector("#unit h3")
    assert "r1" in page.inner_text("#unit h3")
    log = page.locator("#tab-log")
    for _ in range(400):
        if log.locator(".entry.combat a.why-link").count():
            break
        st = state(page)
        assert st["result"] is None, "the battle ended before an attack"
        assert st["your_turn"]
        m = _menu_pick(st)
        click_order(page, st, m)
    else:
        pytest.fail("no attack after 400 orders from the menu")
    log.locator(".entry.combat a.why-link").first.click()
    page.wait_for_selector("#tab-why h4")
    assert page.locator("#tab-why .die.big").count() == 1
    assert page.locator("#tab-why a.rule-link").count() >= 2
    assert not [u for u in asked if "/rulesets/" in u or "/reach/" in u]  # no web piece, no reach asked for
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_page_sends_each_order_once_and_for_its_version(server: str, page: Any, tmp_path: Path) -> None:
    """The page gives every order a fresh client id and the version it was made for; when another
    tab has moved the game on, its order is refused (409) and the page shows the game as it is."""
    import re

    import httpx

    from shieldwall.web.store import Store

    page.goto(server + "/")
    page.wait_for_selector("#f-scenario option", state="attached")
    page.select_option("#f-opponent", "hotseat")
    page.fill("#f-seed", "7")
    page.click("#f-start")
    page.wait_for_selector("#board svg .unit")
    st = state(page)
    page.click("#actions button.end")
    assert wait_version(page, st["version"])
    gid = st["id"]
    rows = Store(tmp_path / "games.sqlite3").orders(gid)
    assert len(rows) == 1 and re.fullmatch(r"[0-9a-f]{32}", rows[0].client_id or "")
    # another tab ends the next phase: the page still shows version 1
    token = page.evaluate("window.shieldwall.game.token")
    r = httpx.post(
        f"{server}/api/games/{gid}/orders",
        json={"order": "end", "version": 1, "client_id": "another-tab-1"},
        headers={"X-Shieldwall-Token": token},
    )
    assert r.status_code == 200 and r.json()["state"]["version"] == 2
    assert state(page)["version"] == 1
    page.click("#actions button.end")  # made for version 1: refused, not played
    page.wait_for_function("window.shieldwall.game.st.version === 2")
    assert "version" in page.inner_text("#message")
    assert len(Store(tmp_path / "games.sqlite3").orders(gid)) == 2
    assert page.errors == []  # type: ignore[attr-defined]
