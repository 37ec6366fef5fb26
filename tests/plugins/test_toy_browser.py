"""The toy rule system plays in the browser: a real ``shieldwall serve`` process with the toy
installed (its dist-info on the path), driven by Playwright in Debian's Chromium. The toy has no
web piece, no drawing and no narration of its own: the generic page draws it and offers its legal
orders as buttons, and a whole battle is played by clicking them."""

from __future__ import annotations

import importlib.util
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOY = ROOT / "tests" / "toy"

_spec = importlib.util.spec_from_file_location("web_browser", ROOT / "tests/web/test_web_browser.py")
assert _spec and _spec.loader
_browser = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_browser)

page = _browser.page  # the Playwright page fixture (Debian's chromium, no download)
pytestmark = _browser.pytestmark


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def toy_server(tmp_path: Path) -> Iterator[str]:
    """``shieldwall serve`` in its own process, with the toy rule system installed."""
    port = _free_port()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(TOY), env.get("PYTHONPATH", "")) if p)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "shieldwall.cli",
            "serve",
            "--port",
            str(port),
            "--db",
            str(tmp_path / "g.db"),
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(url + "/api/health", timeout=1):
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(
                        f"the server did not start: {proc.stderr.read() if proc.stderr else ''}"
                    ) from None
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        proc.wait(10)


def test_the_toy_is_played_in_the_browser_by_its_legal_orders(toy_server: str, page: Any) -> None:
    with urllib.request.urlopen(toy_server + "/api/rulesets") as r:
        listed = {x["id"]: x for x in json.load(r)}
    assert "toy-duel" in listed and not listed["toy-duel"].get("web_module")

    page.goto(toy_server + "/")
    page.wait_for_selector("#f-ruleset option", state="attached")
    page.select_option("#f-ruleset", "toy-duel")
    page.wait_for_function("document.querySelector('#f-scenario').value === 'toy-duel/skirmish'")
    page.select_option("#f-opponent", "random")
    page.select_option("#f-side", "red")
    page.fill("#f-seed", "3")
    page.click("#f-start")
    page.wait_for_selector("#board svg [data-unit='red']")
    for _ in range(100):
        st = _browser._state(page)
        if st["result"] is not None:
            break
        assert st["your_turn"] and st["decision"]["side"] == "red"
        before = st["version"]
        page.locator('#actions button[title="strike"]').first.click()
        assert _browser._wait_version(page, before), page.inner_text("#message")
    else:
        pytest.fail("the toy battle did not end after 100 strikes")
    assert st["result"]["winner"] in ("red", "blue", None)
    assert page.locator("#tab-log .entry").count() > 3
    assert "toy-duel:strike" in page.inner_html("#tab-log")
    assert page.errors == []  # type: ignore[attr-defined]
