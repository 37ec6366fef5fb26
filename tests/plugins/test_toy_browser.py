"""The toy rule system plays in the browser: a real ``shieldwall serve`` process with the toy
installed (its dist-info on the path), driven by Playwright in Debian's Chromium. The toy has no
web piece, no drawing and no narration of its own: the generic page draws it and offers its legal
orders as buttons, and a whole battle is played by clicking them."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.browser_fixtures import BROWSER, free_port, serve_cli, start_battle, state, wait_up, wait_version

ROOT = Path(__file__).resolve().parents[2]
TOY = ROOT / "tests" / "toy"


pytestmark = BROWSER


@pytest.fixture
def toy_server(tmp_path: Path) -> Iterator[str]:
    """``shieldwall serve`` in its own process, with the toy rule system installed."""
    port = free_port()
    proc = serve_cli(tmp_path / "g.db", port, path=[TOY])
    url = f"http://127.0.0.1:{port}"
    try:
        wait_up(proc, url)
        yield url
    finally:
        proc.terminate()
        proc.wait(10)


def test_the_toy_is_played_in_the_browser_by_its_legal_orders(toy_server: str, page: Any) -> None:
    with urllib.request.urlopen(toy_server + "/api/rulesets") as r:
        listed = {x["id"]: x for x in json.load(r)}
    assert "toy-duel" in listed and not listed["toy-duel"].get("web_module")

    start_battle(
        page,
        toy_server,
        "toy-duel",
        "toy-duel/skirmish",
        opponent="random",
        seed=3,
        wait_for="#board svg [data-unit='red']",
    )
    for _ in range(100):
        st = state(page)
        if st["result"] is not None:
            break
        assert st["your_turn"] and st["decision"]["side"] == "red"
        before = st["version"]
        page.locator('#actions button[title="strike"]').first.click()
        assert wait_version(page, before), page.inner_text("#message")
    else:
        pytest.fail("the toy battle did not end after 100 strikes")
    assert st["result"]["winner"] in ("red", "blue", None)
    assert page.locator("#tab-log .entry").count() > 3
    assert "toy-duel:strike" in page.inner_html("#tab-log")
    assert page.errors == []  # type: ignore[attr-defined]
