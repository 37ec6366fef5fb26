"""Knight Hack in Debian's Chromium (Playwright): a battle against the scripted bot played from the
engine's menu, the reach shading of the unit asked about, and the "why" panel of a percentile roll
showing its d100, T, T/2, T/4 and every term of T with its clause (knight-hack:casualties.target,
knight-hack:casualties.multiple); the opponent's hidden ambushers stay off the page
(knight-hack:ambush.execute)."""

from __future__ import annotations

import json
import os
import socket
import tempfile
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ROOT = Path(__file__).resolve().parents[2]
IMAGES = (
    ROOT / "docs" / "images"
    if os.environ.get("SHIELDWALL_SCREENSHOTS") == "1"
    else Path(tempfile.mkdtemp(prefix="shieldwall-screenshots-"))
)
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"),
]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    import uvicorn

    from shieldwall.web.app import create_app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    srv = uvicorn.Server(
        uvicorn.Config(
            create_app(tmp_path / "games.sqlite3"), host="127.0.0.1", port=port, log_level="warning"
        )
    )
    t = threading.Thread(target=srv.run, daemon=True)
    t.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    t.join(10)


@pytest.fixture
def page(tmp_path: Path) -> Iterator[Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        ctx = p.chromium.launch_persistent_context(
            str(tmp_path / "profile"),
            executable_path=str(CHROMIUM),
            args=ARGS,
            headless=True,
            viewport={"width": 1500, "height": 950},
        )
        ctx.add_init_script("localStorage.setItem('shieldwall.stepDelay', '0')")  # the bot's orders at once
        pg = ctx.new_page()
        pg.set_default_timeout(20_000)
        pg.errors = []  # type: ignore[attr-defined]
        pg.on("pageerror", lambda e: pg.errors.append(str(e)))  # type: ignore[attr-defined]
        try:
            yield pg
        finally:
            ctx.close()


def _state(page: Any) -> dict[str, Any]:
    page.wait_for_function(
        "window.shieldwall.game && window.shieldwall.game.st && !window.shieldwall.game.busy"
        " && !window.shieldwall.game.stepping"
    )
    st: dict[str, Any] = page.evaluate("window.shieldwall.game.st")
    return st


def _pick(st: dict[str, Any]) -> dict[str, Any]:
    """Charge, spring, shoot and fight when the menu offers it; else the first order."""
    menu = st["menu"]
    for kinds in (("charge", "ambush", "fire", "fight", "keep"), ("move",)):
        m = [x for x in menu if x["kind"] in kinds]
        if m:
            return m[-1] if kinds == ("move",) else m[0]
    return menu[0]


def _start(page: Any, server: str, scenario: str, seed: int) -> None:
    page.goto(server + "/")
    page.wait_for_selector("#f-scenario option", state="attached")
    page.select_option("#f-ruleset", "knight-hack")
    page.wait_for_selector(f"#f-scenario option[value='{scenario}']", state="attached")
    page.select_option("#f-scenario", scenario)
    page.select_option("#f-opponent", "scripted")
    page.select_option("#f-side", "red")
    page.fill("#f-seed", str(seed))
    page.click("#f-start")
    page.wait_for_selector("#board svg .unit")


def test_casualties_multiple_why_panel_shows_t_halves_quarters_and_every_term(server: str, page: Any) -> None:
    _start(page, server, "knight-hack/bourgtheroulde-1124", 3)
    assert page.evaluate("typeof window.shieldwall.game.hooks.renderWhy") == "function"
    body = page.inner_text("body")
    assert "not the published Knight Hack charts" in body
    shaded = False
    log = page.locator("#tab-log")
    for _ in range(300):
        if log.locator(".entry.combat a.why-link").count():
            break
        st = _state(page)
        assert st["result"] is None, "the battle ended before a roll"
        assert st["your_turn"]
        if st["reach"] is not None and page.locator("#board svg .hl-move-band").count():
            shaded = True
        m = _pick(st)
        button = page.locator(f"#actions button[title={json.dumps(m['text'])}]")
        assert button.count() >= 1, (m, page.inner_text("#actions"))
        before = st["version"]
        button.first.click()
        _state(page)
        assert page.evaluate("window.shieldwall.game.st.version") != before, page.inner_text("#message")
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
    page.goto(server + "/")
    page.wait_for_selector("#f-scenario option", state="attached")
    page.select_option("#f-ruleset", "knight-hack")
    sc = "knight-hack/bourgtheroulde-1124-ambush"
    page.wait_for_selector(f"#f-scenario option[value='{sc}']", state="attached")
    page.select_option("#f-scenario", sc)
    page.select_option("#f-opponent", "scripted")
    page.select_option("#f-side", "blue")
    page.fill("#f-seed", "2")
    page.click("#f-start")
    page.wait_for_selector("#board svg .unit")
    st = _state(page)
    assert "javelinmen" not in {u["id"] for u in st["view"]["units"]}
    assert "javelinmen" not in page.inner_html("#board")
    assert "javelinmen" not in page.inner_text("#tab-log")
    assert page.errors == []  # type: ignore[attr-defined]


def test_missile_window_ranges_drawn_from_the_selected_archers(server: str, page: Any) -> None:
    """knight-hack:missile.window: the archers' bow range band and front arc, and a line to each
    rebel unit (red: none in range and arc yet, each saying why)."""
    _start(page, server, "knight-hack/bourgtheroulde-1124", 3)
    page.wait_for_selector("#ranges:not([hidden])")
    st = _state(page)
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
