"""The table as a player uses it, in Debian's Chromium: the save (the engine's own format, replayed
by ``shieldwall replay``), loading a save to continue or to watch, zoom and pan, snapping a click
to a legal position, the ruler and the step-through of the other side's turn. Screenshots into
docs/images/ with SHIELDWALL_SCREENSHOTS=1 (see tests/browser_fixtures.py)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from tests.browser_fixtures import BROWSER, IMAGES, idle, state, unit_of, wait_version
from tests.web.test_web_browser import _click_table, _click_unit, _move_toward_the_enemy

pytestmark = BROWSER


def _start(
    page: Any, server: str, opponent: str = "random", seed: str = "7", scenario: str | None = None
) -> None:
    page.goto(server + "/")
    page.wait_for_selector("#f-scenario option", state="attached")
    if scenario:
        page.select_option("#f-ruleset", scenario.split("/")[0])
        page.select_option("#f-scenario", scenario)
    page.select_option("#f-opponent", opponent)
    page.select_option("#f-side", "red")
    page.fill("#f-seed", seed)
    page.click("#f-start")
    page.wait_for_selector("#board svg .unit")


def _play_one_hour(page: Any, moves: int) -> None:
    """Red's decisions by pointing: roll for a unit, click a point toward the enemy (a move whose
    numbers are floats, 7.0 among them), end the phase otherwise; until `moves` moves are made."""
    made = 0
    for _ in range(120):
        if made >= moves:
            return
        st = state(page)
        assert st["result"] is None
        d = st["decision"]
        before = st["version"]
        if d["kind"] == "activate" and made < moves:
            acts = [m for m in st["menu"] if m["kind"] == "activate"]
            if not acts:
                page.click("#actions button.end")
                assert wait_version(page, before)
                continue
            _click_unit(page, st, acts[0]["unit"])
            page.wait_for_selector("#unit h3")
            page.click("#actions button.primary")
            assert wait_version(page, before)
        elif d["kind"] == "move":
            _move_toward_the_enemy(page, st)
            made += 1
        else:
            end = page.locator("#actions button.end")
            (end if end.count() else page.locator("#actions button").first).click()
            assert wait_version(page, before)
    pytest.fail(f"only {made} moves in 120 decisions")


def test_save_in_the_browser_replays_in_the_cli_and_loads_to_continue_or_watch(
    server: str, page: Any, tmp_path: Path, capsys: Any
) -> None:
    import httpx

    from shieldwall.cli import run

    _start(page, server, seed="7")
    _play_one_hour(page, 3)
    st = state(page)
    with page.expect_download() as dl:
        page.click("#btn-save")
    path = tmp_path / "battle.json"
    dl.value.save_as(str(path))
    text = path.read_text(encoding="utf-8")
    # the file is the server's save, byte for byte (no re-serialising: 7.0 stays 7.0)
    token = page.evaluate("window.shieldwall.game.token")
    served = httpx.get(f"{server}/api/games/{st['id']}/save", headers={"X-Shieldwall-Token": token})
    assert text == served.text
    save = json.loads(text)
    assert save["format"] == "shieldwall-save/1" and len(save["orders"]) == st["version"]
    moves = [o for o in save["orders"] if o.get("kind") == "move"]
    assert moves, "the save holds the moves made by pointing"
    # the CLI replays it: every event identical
    capsys.readouterr()
    assert run(["replay", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["verified"] is True and out["events"] == len(save["events"])
    assert run(["replay", str(path)]) == 0
    assert "all identical to the save" in capsys.readouterr().out

    # load it to continue: a new game at the same point, red to play
    page.goto(server + "/")
    page.wait_for_selector("#f-scenario option", state="attached")
    page.set_input_files("#f-save", str(path))
    page.select_option("#f-import-opponent", "random")
    page.click("#f-resume")
    page.wait_for_selector("#board svg .unit")
    resumed = state(page)
    assert resumed["id"] != st["id"] and resumed["version"] == st["version"]
    assert resumed["decision"] == st["decision"] and resumed["your_turn"]
    # load it to watch: the replay from the deployment, turn by turn
    page.goto(server + "/")
    page.wait_for_selector("#f-scenario option", state="attached")
    page.set_input_files("#f-save", str(path))
    page.click("#f-watch")
    page.wait_for_selector("#replay-bar:not([hidden])")
    assert "deployment" in page.inner_text("#replay-label")
    watched = state(page)
    assert watched["spectator"] and watched["version"] == st["version"] and not watched["your_turn"]
    assert page.locator("#tab-replay .turn-row").count() >= 2
    page.click("#replay-next")
    page.wait_for_function("document.querySelector('#replay-label').textContent.includes('turn 1')")
    assert page.locator("#replay-events .entry").count() >= 1
    assert page.errors == []  # type: ignore[attr-defined]


def _dist(a: dict[str, float], b: dict[str, float]) -> float:
    return math.hypot(a["x"] - b["x"], a["y"] - b["y"])


def _view(page: Any) -> dict[str, float]:
    v: dict[str, float] = page.evaluate("({...window.shieldwall.board.view(), k: window.shieldwall.board.k})")
    return v


def test_zoom_and_pan_with_the_wheel_a_drag_the_keys_and_the_buttons(server: str, page: Any) -> None:
    _start(page, server, opponent="hotseat")
    full = _view(page)
    assert full["k"] == 1 and page.locator("#minimap").is_hidden()
    # the wheel zooms about the pointer: the table point under it stays under it
    at = page.evaluate("window.shieldwall.board.toScreen(30, 12)")
    page.mouse.move(at["x"], at["y"])
    for _ in range(3):
        page.mouse.wheel(0, -300)
    page.wait_for_function("window.shieldwall.board.k > 2")
    z = _view(page)
    assert z["w"] < full["w"] / 2 and abs(z["w"] / z["h"] - full["w"] / full["h"]) < 1e-6
    p = page.evaluate(f"window.shieldwall.board.toTable({at['x']}, {at['y']})")
    assert _dist(p, {"x": 30, "y": 12}) < 0.05
    assert page.inner_text("#zoom-level") == f"{round(z['k'] * 100)}%"
    # the minimap shows the whole table with the view outlined
    assert page.locator("#minimap").is_visible()
    assert page.locator("#minimap .view-rect").count() == 1
    # a drag of the background pans, and is not a click (no order, the selection stays)
    st = state(page)
    page.mouse.move(at["x"], at["y"])
    page.mouse.down()
    page.mouse.move(at["x"] - 60, at["y"] - 30, steps=5)
    page.mouse.up()
    panned = _view(page)
    ppu = page.evaluate("window.shieldwall.board.svg.getScreenCTM().a")
    assert abs((panned["x"] - z["x"]) * ppu - 60) < 2 and abs((panned["y"] - z["y"]) * ppu - 30) < 2
    assert state(page)["version"] == st["version"]
    # a click still lands where it is drawn: a unit clicked at this zoom is selected
    red = next(u for u in st["view"]["units"] if u["side"] == "red")
    page.evaluate(f"window.shieldwall.board.centreOn({red['x']}, {red['y']})")
    _click_unit(page, st, red["id"])
    page.wait_for_selector("#unit h3")
    assert red["id"] in page.inner_text("#unit h3")
    page.screenshot(path=str(IMAGES / "web-zoom.png"))
    # the zoom stays when the table is drawn again (a new state)
    k = _view(page)["k"]
    page.click("#actions button.end")
    assert wait_version(page, st["version"])
    assert _view(page)["k"] == k
    # the keys: + and - zoom, the arrows pan, 0 fits
    page.focus("#board")
    page.keyboard.press("+")
    assert _view(page)["k"] > k
    before = _view(page)
    page.keyboard.press("ArrowLeft")
    after = _view(page)
    assert after["x"] < before["x"] and after["y"] == before["y"]
    page.keyboard.press("-")
    assert _view(page)["k"] < before["k"]
    page.keyboard.press("0")
    assert _view(page)["k"] == 1 and page.locator("#minimap").is_hidden()
    # the buttons; a click on the minimap looks there
    page.click("#zoom-in")
    page.click("#zoom-in")
    assert _view(page)["k"] > 1.5
    box = page.locator("#minimap svg").bounding_box()
    page.mouse.click(box["x"] + 3, box["y"] + box["height"] - 3)  # the south-west corner
    v = _view(page)
    assert v["x"] == pytest.approx(full["x"]) and v["y"] + v["h"] == pytest.approx(full["y"] + full["h"])
    page.click("#zoom-fit")
    assert _view(page) == {**full, "k": 1}
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_click_a_little_too_far_snaps_and_a_far_one_shows_its_clause(server: str, page: Any) -> None:
    _start(page, server, opponent="hotseat")
    st = state(page)
    uid = next(m["unit"] for m in st["menu"] if m["kind"] == "activate")
    _click_unit(page, st, uid)
    page.wait_for_selector("#unit h3")
    page.click("#actions button.primary")  # roll to move
    assert wait_version(page, st["version"])
    st = state(page)
    rolled = float(st["decision"]["data"]["rolled"])
    u = unit_of(st, uid)
    heading = math.radians(u["heading"])
    ahead = (math.sin(heading), math.cos(heading))
    # 3" too far: refused, with the clause, nothing moves
    _click_table(page, u["x"] + ahead[0] * (rolled + 3), u["y"] + ahead[1] * (rolled + 3))
    idle(page)
    assert page.locator("#message.bad a.rule-link").is_visible()
    assert "rolled" in page.inner_text("#message")
    assert state(page)["version"] == st["version"]
    # 0.25" too far (four screen pixels here): snapped to the nearest point the rules allow
    tol = page.evaluate("window.shieldwall.board.tolerance()")
    assert 0.4 < tol < 1.5
    over = rolled + 0.25
    _click_table(page, u["x"] + ahead[0] * over, u["y"] + ahead[1] * over)
    assert wait_version(page, st["version"])
    page.wait_for_selector("#message.good .snapped a.rule-link")
    assert "Snapped to the nearest legal position" in page.inner_text("#message")
    moved = unit_of(state(page), uid)
    gone = _dist(moved, u)
    assert rolled - tol / 8 - 0.01 <= gone <= rolled + 1e-6
    page.screenshot(path=str(IMAGES / "web-snap.png"))
    assert page.errors == []  # type: ignore[attr-defined]


def _drag(page: Any, a: tuple[float, float], b: tuple[float, float]) -> None:
    pa = page.evaluate(f"window.shieldwall.board.toScreen({a[0]}, {a[1]})")
    pb = page.evaluate(f"window.shieldwall.board.toScreen({b[0]}, {b[1]})")
    page.mouse.move(pa["x"], pa["y"])
    page.mouse.down()
    page.mouse.move(pb["x"], pb["y"], steps=6)
    page.mouse.up()


def test_the_ruler_measures_two_points_in_the_systems_unit(server: str, page: Any) -> None:
    _start(page, server, opponent="hotseat")
    st = state(page)
    rulesets = page.evaluate("fetch('/api/rulesets').then((r) => r.json())")
    assert {r["id"]: r["length_unit"] for r in rulesets}["one-hour-dark-ages"] == "inch"
    page.click("#ruler")
    assert "mode-ruler" in (page.get_attribute("#board", "class") or "")
    _drag(page, (10, 10), (13, 14))  # a 3-4-5 triangle
    assert page.inner_text("#ruler-readout") == '5"'
    assert page.locator("#board svg .page-ruler text").text_content() == '5"'
    # the ruler takes the table's presses: no order, no selection, even over a unit
    red = next(u for u in st["view"]["units"] if u["side"] == "red")
    _drag(page, (red["x"], red["y"]), (red["x"] + 6, red["y"]))
    got = float(page.inner_text("#ruler-readout").rstrip('"'))
    assert abs(got - 6) <= 0.02
    assert page.locator("#unit").is_hidden() and state(page)["version"] == st["version"]
    # zoomed in, the same distance measures the same
    page.click("#zoom-in")
    page.click("#zoom-in")
    page.evaluate("window.shieldwall.board.centreOn(12, 12)")
    _drag(page, (11, 11), (11, 13.5))
    assert page.inner_text("#ruler-readout") == '2.5"'
    assert page.locator("#board svg .page-ruler").count() == 1
    page.click("#zoom-fit")
    _drag(page, (red["x"], red["y"]), (red["x"] + 7.25, red["y"] + 9))
    page.screenshot(path=str(IMAGES / "web-ruler.png"))
    # Escape puts it away; then a click on a unit selects it again
    page.keyboard.press("Escape")
    assert page.locator("#board svg .page-ruler").count() == 0 and page.inner_text("#ruler-readout") == ""
    _click_unit(page, st, red["id"])
    page.wait_for_selector("#unit h3")
    # R takes it out again
    page.keyboard.press("r")
    assert "mode-ruler" in (page.get_attribute("#board", "class") or "")
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_bots_turn_steps_through_one_order_at_a_time(server: str, page: Any) -> None:
    _start(page, server, opponent="random")
    page.evaluate("window.shieldwall.game.stepper.delay = 600000")  # the test steps by hand
    log = page.locator("#tab-log .entry")
    # red ends its phases until the bot has orders to give
    for _ in range(10):
        st = state(page)
        before = log.count()
        page.click("#actions button.end")
        page.wait_for_function(
            f"window.shieldwall.game.stepping || window.shieldwall.game.st.version > {st['version']}"
        )
        if page.evaluate("window.shieldwall.game.stepping"):
            break
    else:
        pytest.fail("the bot gave no order")
    page.wait_for_selector("#steps .step-title")
    title = page.inner_text("#steps .step-title")
    n = int(title.rsplit(" of ", 1)[1])
    assert "blue" in title and "order 1 of" in title and n >= 2
    # one order at a time: its lines in the log (highlighted), the table after it, its words
    first = page.inner_text("#steps .step-order")
    assert page.locator("#tab-log .entry.current").count() >= 1
    shown = log.count()
    assert shown > before
    assert page.locator("#actions button").count() == 0  # no orders while the bot's turn is shown
    page.screenshot(path=str(IMAGES / "web-step-through.png"))
    page.click("#step-next")
    assert "order 2 of" in page.inner_text("#steps .step-title")
    assert log.count() >= shown
    texts = [first, page.inner_text("#steps .step-order")]
    # play: the rest go by themselves (fast now); then the table as it is, red to play
    page.evaluate("window.shieldwall.game.stepper.delay = 30")
    page.click("#step-play")
    page.wait_for_function("!window.shieldwall.game.stepping")
    st = state(page)
    assert st["your_turn"] and page.locator("#actions button").count() >= 1
    entries = log.count()
    # replay the bot's last turn: the same orders again, the log unchanged
    page.evaluate("window.shieldwall.game.stepper.delay = 600000")
    page.click("#step-replay")
    page.wait_for_selector("#steps .step-title")
    assert "(replay)" in page.inner_text("#steps .step-title")
    assert page.inner_text("#steps .step-order") == texts[0]
    page.click("#step-next")
    assert page.inner_text("#steps .step-order") == texts[1]
    page.click("#step-skip")
    page.wait_for_function("!window.shieldwall.game.stepping")
    assert log.count() == entries and state(page)["version"] == st["version"]
    assert page.locator("#actions button").count() >= 1
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_spectator_link_watches_the_battle_read_only(server: str, two_pages: tuple[Any, Any]) -> None:
    player, eye = two_pages
    _start(player, server, opponent="random")
    player.click("#btn-watch")
    link = player.input_value("#watch-url")
    gid = state(player)["id"]
    assert f"/play/{gid}#token=" in link
    eye.goto(link)
    eye.wait_for_selector("#board svg .unit")
    st = state(eye)
    assert st["spectator"] and st["you"] == [] and not st["your_turn"]
    assert "spectator (read only)" in eye.inner_text("#status")
    assert "Watching (read only)" in eye.inner_text("#decision")
    assert eye.locator("#actions button").count() == 0
    for b in ("#btn-undo", "#btn-save", "#btn-watch"):
        assert eye.locator(b).is_hidden(), b
    # the player plays on; the spectator's page follows (it polls, and steps through the orders)
    for _ in range(3):
        before = state(player)["version"]
        player.click("#actions button.end")
        assert wait_version(player, before)
    version = state(player)["version"]
    eye.wait_for_function(f"window.shieldwall.game.st.version === {version}", timeout=20_000)
    idle(eye)
    assert state(eye)["view"]["units"] == state(player)["view"]["units"]
    assert eye.locator("#tab-log .entry").count() >= player.locator("#tab-log .entry").count() - 1
    # a click on a unit shows its reach, but gives no order
    u = next(x for x in state(eye)["view"]["units"] if x["side"] == "red")
    _click_unit(eye, state(eye), u["id"])
    eye.wait_for_selector("#unit h3")
    assert state(eye)["version"] == version
    eye.screenshot(path=str(IMAGES / "web-spectator.png"))
    assert player.errors == [] and eye.errors == []


def test_drag_the_unit_being_moved_and_drop_it_a_little_too_far(server: str, page: Any) -> None:
    _start(page, server, opponent="hotseat")
    st = state(page)
    uid = next(m["unit"] for m in st["menu"] if m["kind"] == "activate")
    # before its move is rolled the unit is not dragged: a drag from it moves nothing
    u = unit_of(st, uid)
    _drag(page, (u["x"], u["y"]), (u["x"], u["y"] + 3))
    idle(page)
    assert state(page)["version"] == st["version"]
    _click_unit(page, st, uid)
    page.wait_for_selector("#unit h3")
    page.click("#actions button.primary")  # roll to move
    assert wait_version(page, st["version"])
    st = state(page)
    rolled = float(st["decision"]["data"]["rolled"])
    heading = math.radians(u["heading"])
    over = rolled + 0.2
    target = (u["x"] + math.sin(heading) * over, u["y"] + math.cos(heading) * over)
    # while dragged, its ghost follows the pointer; dropped 0.2" beyond the roll, it snaps
    pa = page.evaluate(f"window.shieldwall.board.toScreen({u['x']}, {u['y']})")
    pb = page.evaluate(f"window.shieldwall.board.toScreen({target[0]}, {target[1]})")
    page.mouse.move(pa["x"], pa["y"])
    page.mouse.down()
    page.mouse.move((pa["x"] + pb["x"]) / 2, (pa["y"] + pb["y"]) / 2, steps=4)
    assert page.locator("#board svg .page-overlay rect").count() == 1  # the ghost
    page.mouse.move(pb["x"], pb["y"], steps=4)
    page.mouse.up()
    assert wait_version(page, st["version"])
    page.wait_for_selector("#message.good .snapped")
    moved = unit_of(state(page), uid)
    assert rolled - 0.2 <= _dist(moved, u) <= rolled + 1e-6
    assert page.errors == []  # type: ignore[attr-defined]


def test_while_dragged_the_page_says_where_the_drop_would_go_and_why_not(server: str, page: Any) -> None:
    _start(page, server, opponent="hotseat")
    st = state(page)
    uid = next(m["unit"] for m in st["menu"] if m["kind"] == "activate")
    _click_unit(page, st, uid)
    page.wait_for_selector("#unit h3")
    page.click("#actions button.primary")  # roll to move
    assert wait_version(page, st["version"])
    st = state(page)
    rolled = float(st["decision"]["data"]["rolled"])
    u = unit_of(st, uid)
    ahead = (math.sin(math.radians(u["heading"])), math.cos(math.radians(u["heading"])))

    def at(d: float) -> dict[str, float]:
        p: dict[str, float] = page.evaluate(
            f"window.shieldwall.board.toScreen({u['x'] + ahead[0] * d}, {u['y'] + ahead[1] * d})"
        )
        return p

    start = at(0)
    page.mouse.move(start["x"], start["y"])
    page.mouse.down()
    p = at(rolled + 3)  # far beyond the roll: refused, and the clause says why, before the drop
    page.mouse.move(p["x"], p["y"], steps=5)
    page.wait_for_selector("#board svg .drop-mark.bad")
    # each move writes the hover line at once and the server's verdict when its answer comes: wait
    # for the verdict on the last point (the drop mark may be an earlier point's)
    page.wait_for_function(
        "(() => { const t = document.querySelector('#hint').textContent;"
        " return t.includes('Not allowed here') && t.includes('§movement'); })()"
    )
    p = at(rolled + 0.2)  # a little too far: the mark shows the nearest place allowed
    page.mouse.move(p["x"], p["y"], steps=3)
    page.wait_for_selector("#board svg .drop-mark.ok line", state="attached")
    page.wait_for_function(
        "document.querySelector('#hint').textContent.includes('nearest place the rules allow')"
    )
    page.screenshot(path=str(IMAGES / "web-drag.png"))
    p = at(rolled - 1)  # well inside: allowed as it is
    page.mouse.move(p["x"], p["y"], steps=3)
    page.wait_for_function("document.querySelector('#hint').textContent.includes('the rules allow it')")
    assert state(page)["version"] == st["version"]  # nothing played while dragging
    page.mouse.up()
    assert wait_version(page, st["version"])
    assert math.isclose(_dist(unit_of(state(page), uid), u), rolled - 1, abs_tol=0.05)
    assert page.errors == []  # type: ignore[attr-defined]
