"""The browser tests' set-up, in one place: Debian's Chromium driven by Playwright (no browser
download), the web app served by uvicorn on a free loopback port, and the pages the tests drive.

A ``shieldwall serve`` process for the tests that need a real one: :func:`serve_cli`,
:func:`wait_up`.

Fixtures (registered for the whole suite by ``tests/conftest.py``): ``server`` (the app's URL),
``page`` (a Chromium page), ``touch`` (a page on a touch screen and its DevTools session, to put
fingers on it), ``two_pages`` (two pages of two browser contexts: two players). Each page is in a
browser context of its own (nothing shared: cookies, storage, cache), of one Chromium that
consecutive browser tests share (``chromium``: launching one took about 0.9 s of CPU and 1-3 s of
wall clock, a context 0.25 s). It is closed, and its Playwright stopped, as soon as the next test to
run uses no browser (``pytest_runtest_teardown`` in ``tests/conftest.py``), not kept for the
session: a live Playwright keeps its event loop marked running in this thread, so ``asyncio.run``
(or another Playwright) in a test that follows would fail. On pytest-xdist's workers each share
runs its browser tests one after the other (``tests/xdist_order.py``). A browser test module marks
itself with ``pytestmark = BROWSER`` (skipped without /usr/bin/chromium), a browser test in
another module with ``pytest.mark.browser`` and ``NEEDS_CHROMIUM``.

The tests take the screenshots of the README and docs/web.md. They write them into docs/images/
(:data:`IMAGES`) only when asked (``SHIELDWALL_SCREENSHOTS=1``, after a change to the page), so that
a test run leaves the checkout as it found it; otherwise into a temporary folder.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import warnings
from collections.abc import Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ROOT = Path(__file__).resolve().parents[1]
IMAGES = (
    ROOT / "docs" / "images"
    if os.environ.get("SHIELDWALL_SCREENSHOTS") == "1"
    else Path(tempfile.mkdtemp(prefix="shieldwall-screenshots-"))
)
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
VIEWPORT = {"width": 1500, "height": 950}
NEEDS_CHROMIUM = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"
)
#: the marks of a browser test module (``pytestmark = BROWSER``; one test: both marks on it)
BROWSER = [pytest.mark.browser, NEEDS_CHROMIUM]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve_cli(db: Path, port: int | str, *extra: str, path: Sequence[Path] = ()) -> subprocess.Popen[bytes]:
    """``shieldwall serve`` in its own process on ``port`` with its games in ``db`` (``extra``: more
    options; ``path``: folders put first on its PYTHONPATH); its errors are kept for
    :func:`wait_up`."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (*map(str, path), env.get("PYTHONPATH", "")) if p)
    return subprocess.Popen(
        [sys.executable, "-m", "shieldwall.cli", "serve", "--port", str(port), "--db", str(db), *extra],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def wait_up(proc: subprocess.Popen[bytes], url: str) -> None:
    """Wait (30 s at most) until the server at ``url`` answers its health check."""
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(url + "/api/health", timeout=1):
                return
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(
                    f"the server did not start: {proc.stderr.read().decode() if proc.stderr else ''}"
                ) from None
            time.sleep(0.1)


@pytest.fixture(scope="module")
def stopping_servers() -> Iterator[list[threading.Thread]]:
    """The threads of a module's ``server`` fixtures told to stop: joined at the end of the module.
    A uvicorn server takes 0.2 s to stop (its main loop looks at ``should_exit`` every 0.1 s, and
    its shutdown sleeps 0.1 s more): a test no longer waits for its own; the next test's server is
    a new one on another port with its own database."""
    stopping: list[threading.Thread] = []
    yield stopping
    for t in stopping:
        t.join(10)


@pytest.fixture
def server(tmp_path: Path, stopping_servers: list[threading.Thread]) -> Iterator[str]:
    """The web app served by uvicorn on a free loopback port, in a thread (stopped at the end of
    the test, and joined by :func:`stopping_servers`)."""
    import uvicorn

    from shieldwall.web.app import create_app

    port = free_port()
    srv = uvicorn.Server(
        uvicorn.Config(
            create_app(tmp_path / "games.sqlite3"), host="127.0.0.1", port=port, log_level="warning"
        )
    )
    t = threading.Thread(target=srv.run, daemon=True)
    t.start()
    deadline = time.monotonic() + 20
    while not srv.started:  # it starts in 2-25 ms
        if time.monotonic() > deadline:
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.002)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    stopping_servers.append(t)


@contextmanager
def playwright() -> Iterator[Any]:
    """Playwright's synchronous API (its import warnings silenced)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p


def ready(ctx: Any) -> Any:
    """A new page of browser context ``ctx``: the other side's orders stepped through without a
    pause between them (the table's own test, test_web_table.py, steps through them by hand), a
    remote player's or spectator's page polling the server every 250 ms instead of 1.5 s (what it
    does on news is the same; the tests wait for the news, not for the clock), a 20 s timeout, and
    the page's script errors kept in ``page.errors``."""
    ctx.add_init_script(
        "localStorage.setItem('shieldwall.stepDelay', '0'); localStorage.setItem('shieldwall.pollMs', '250')"
    )
    pg = ctx.new_page()
    pg.set_default_timeout(20_000)
    pg.errors = []
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    return pg


#: the Chromium of the browser tests running now, and what closes it and its Playwright
_SHARED: dict[str, Any] = {}


def shared_chromium() -> Any:
    """Debian's Chromium, launched by the first of a run of browser tests and kept for the next
    ones (:func:`close_shared_chromium`)."""
    if "browser" not in _SHARED:
        with ExitStack() as stack:
            p = stack.enter_context(playwright())
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
            stack.callback(browser.close)
            _SHARED["close"] = stack.pop_all().close
        _SHARED["browser"] = browser
    return _SHARED["browser"]


def close_shared_chromium() -> None:
    """Close the shared Chromium and stop its Playwright, if they run (``tests/conftest.py``: once
    the next test to run uses no browser, and at the end)."""
    if "browser" in _SHARED:
        del _SHARED["browser"]
        _SHARED.pop("close")()


@pytest.fixture
def chromium() -> Any:
    """Debian's Chromium, shared by a run of consecutive browser tests, even of several modules
    (module docstring): ``tests/conftest.py`` closes it once the next test uses none."""
    return shared_chromium()


@contextmanager
def chromium_page(browser: Any, **options: Any) -> Iterator[tuple[Any, Any]]:
    """A page in a new browser context of ``browser`` (nothing shared with other contexts), and
    the context (``options``: more of Playwright's context options, e.g. ``has_touch``)."""
    ctx = browser.new_context(viewport=VIEWPORT, **options)
    try:
        yield ready(ctx), ctx
    finally:
        ctx.close()


@pytest.fixture
def page(chromium: Any) -> Iterator[Any]:
    with chromium_page(chromium) as (pg, _):
        yield pg


@pytest.fixture
def touch(chromium: Any) -> Iterator[tuple[Any, Any]]:
    """A page on a touch screen, and its DevTools session (to put fingers on it)."""
    with chromium_page(chromium, has_touch=True) as (pg, ctx):
        yield pg, ctx.new_cdp_session(pg)


@pytest.fixture
def two_pages(chromium: Any) -> Iterator[tuple[Any, Any]]:
    """Two pages in two browser contexts of one Chromium: two players who share nothing."""
    contexts = [chromium.new_context(viewport={"width": 1400, "height": 900}) for _ in range(2)]
    try:
        yield ready(contexts[0]), ready(contexts[1])
    finally:
        for ctx in contexts:
            ctx.close()


def idle(page: Any) -> None:
    """Wait until the page has a state and is neither waiting for the server nor stepping through
    the other side's orders."""
    page.wait_for_function(
        "window.shieldwall.game && window.shieldwall.game.st && !window.shieldwall.game.busy"
        " && !window.shieldwall.game.stepping"
    )


def state(page: Any) -> dict[str, Any]:
    """The page's game state (the server's answer) once it is idle."""
    idle(page)
    st: dict[str, Any] = page.evaluate("window.shieldwall.game.st")
    return st


def unit_of(st: dict[str, Any], uid: str) -> dict[str, Any]:
    """Unit ``uid`` in a state's view."""
    return next(u for u in st["view"]["units"] if u["id"] == uid)


def wait_version(page: Any, before: int) -> bool:
    """Wait for the answer to an order; True if it was accepted (the state's version moved on)."""
    idle(page)
    return bool(page.evaluate("window.shieldwall.game.st.version") != before)


def click_order(page: Any, st: dict[str, Any], order: dict[str, Any]) -> None:
    """Click the button of the menu's ``order`` (found by its title, the order's text) and wait
    for the state it makes."""
    button = page.locator(f"#actions button[title={json.dumps(order['text'])}]")
    assert button.count() >= 1, (order, page.inner_text("#actions"))
    button.first.click()
    assert wait_version(page, st["version"]), page.inner_text("#message")


def start_battle(
    page: Any,
    server: str,
    ruleset: str,
    scenario: str,
    *,
    opponent: str = "scripted",
    side: str = "red",
    seed: int = 1,
    wait_for: str | None = "#board svg .unit",
    options: Sequence[str] = (),
) -> None:
    """Start a battle from the start page's form, with the rule options (checkboxes) named in
    ``options`` ticked, and wait until ``wait_for`` shows (None: no wait)."""
    page.goto(server + "/")
    page.wait_for_selector("#f-scenario option", state="attached")
    page.select_option("#f-ruleset", ruleset)
    page.wait_for_selector(f"#f-scenario option[value={json.dumps(scenario)}]", state="attached")
    page.select_option("#f-scenario", scenario)
    page.select_option("#f-opponent", opponent)
    page.select_option("#f-side", side)
    page.fill("#f-seed", str(seed))
    if options:
        page.click("#f-options summary")
        for name in options:
            page.check(f"#f-params [name={json.dumps(name)}]")
    page.click("#f-start")
    if wait_for is not None:
        page.wait_for_selector(wait_for)


def drag_until(page: Any, a: Mapping[str, float], b: tuple[float, float], wait: str) -> None:
    """Press on the table point ``a`` (a unit's ``x`` and ``y``), move to the table point ``b`` and
    wait for the hint to contain ``wait`` (the server's answer about the point) before the caller
    releases (``page.mouse.up()``)."""
    start = page.evaluate(f"window.shieldwall.board.toScreen({a['x']}, {a['y']})")
    page.mouse.move(start["x"], start["y"])
    page.mouse.down()
    for f in (0.25, 0.5, 0.75, 1.0):
        x, y = a["x"] + (b[0] - a["x"]) * f, a["y"] + (b[1] - a["y"]) * f
        to = page.evaluate(f"window.shieldwall.board.toScreen({x}, {y})")
        page.mouse.move(to["x"], to["y"], steps=3)
    page.wait_for_function(f"document.querySelector('#hint').textContent.includes({wait!r})")
