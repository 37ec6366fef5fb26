"""SPI Dark Ages's hex board in Debian's Chromium (Playwright), a hotseat battle on the sample map:
CCRR labels on every hex (toggled), a stack that opens into its counters (choose one), legal-move
shading with the MP of each hex (the engine's reach), the fire-line tool marking the blocking hex
with its clause (combat.D.over-units), and the odds preview before an attack, whose button
allocates it (crt.result, combat.allocation). A screenshot goes to docs/images/ when
SHIELDWALL_SCREENSHOTS is set."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from tests.browser_fixtures import BROWSER, IMAGES, state

from shieldwall.core.hexgrid import ccrr

from .fixtures import H, scenario

pytestmark = BROWSER

A = H(8, 8)  # 0909: the tan spear and its leader (a stack)
B = A.neighbour(1)  # 1009: the green spear, in front of the stack
ARCHER = A.neighbour(3)  # 0809: the tan archer behind the stack


def _start(server: str) -> tuple[str, str]:
    d = A.direction_to(B)
    assert d == 1
    data = scenario(
        [
            ("ts", "tan", "spear", A, 1),
            ("tl", "tan", "leader", A, 1),
            ("ta", "tan", "archer", ARCHER, 1),
            ("gs", "green", "spear", B, 4),
            ("gl", "green", "leader", B.neighbour(1), 4),
        ]
    )
    body = json.dumps({"ruleset": "spi-dark-ages", "scenario_data": data, "opponent": "hotseat", "seed": 3})
    req = urllib.request.Request(
        server + "/api/games", data=body.encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req) as r:
        got = json.loads(r.read())
    return got["game"]["id"], got["token"]


def _click_table(page: Any, x: float, y: float) -> None:
    """Click the board at table point (x, y) (hex radius 1, y north)."""
    at = page.evaluate(
        """([x, y]) => {
            const b = window.shieldwall.board;
            const m = b.svg.getScreenCTM();
            const p = new DOMPoint(x * b.scale, (b.depth - y) * b.scale).matrixTransform(m);
            return [p.x, p.y];
        }""",
        [x, y],
    )
    page.mouse.click(at[0], at[1])


def _reach(page: Any, uid: str) -> dict[str, Any]:
    page.wait_for_function(f"(window.shieldwall.game.reach || {{}}).unit === {json.dumps(uid)}")
    r: dict[str, Any] = page.evaluate("window.shieldwall.game.reach")
    return r


def _click_unit(page: Any, uid: str) -> None:
    page.locator(f"#board svg .unit[data-unit={json.dumps(uid)}]").first.click(force=True)


def test_spi_hex_board_labels_stacks_shading_fire_line_and_odds_preview(server: str, page: Any) -> None:
    gid, token = _start(server)
    page.goto(f"{server}/play/{gid}#token={token}")
    page.wait_for_selector("#board svg .unit")
    st = state(page)
    assert st["view"]["phase"] == "movement" and st["your_turn"]
    cols, rows = st["view"]["map"]["cols"], st["view"]["map"]["rows"]

    # CCRR labels: one per hex, legible at the normal zoom, toggled off and on again
    page.wait_for_function(
        f"document.querySelectorAll('#board svg g.spi-ccrr text.spi-hexlabel').length === {cols * rows}"
    )
    label = page.locator("#board svg text.spi-hexlabel[data-hex='0712']")
    assert label.inner_html() == "0712"
    box = label.bounding_box()
    assert box is not None and box["height"] >= 8, box
    page.click("#spi-labels")
    assert page.locator("#board svg text.spi-hexlabel").count() == 0
    page.click("#spi-labels")
    assert page.locator("#board svg text.spi-hexlabel").count() == cols * rows

    # a stack opens: its two counters listed; choosing one selects it
    _click_unit(page, "tl")
    page.wait_for_selector("#spi-popup .spi-stack-item")
    items = page.locator("#spi-popup .spi-stack-item")
    assert sorted(items.evaluate_all("bs => bs.map(b => b.dataset.unit)")) == ["tl", "ts"]
    assert f"Hex {ccrr(A)}: 2 counters" in page.inner_text("#spi-popup")
    page.click("#spi-popup .spi-stack-item[data-unit='ts']")
    assert page.locator("#spi-popup").count() == 0

    # legal-move shading: every hex of the engine's reach, with its MP
    r = _reach(page, "ts")
    page.wait_for_selector("#board svg .spi-reach-hex")
    shaded = page.locator("#board svg .spi-reach-hex").evaluate_all(
        "ps => ps.map(p => [p.dataset.hex, Number(p.dataset.mp)])"
    )
    assert sorted(shaded) == sorted([h["hex"], h["mp"]] for h in r["hexes"])
    assert len(shaded) > 5 and [ccrr(A), 0] in shaded
    assert all(mp <= r["move"]["allowance"] for _, mp in shaded)

    # the fire-line tool: from the archer to an empty hex behind the stack, blocked at the stack
    _click_unit(page, "ta")
    ra = _reach(page, "ta")
    occupied = {u["hex"] for u in st["view"]["units"]}
    blocked = next(
        f
        for f in ra["fire_tool"]
        if not f["clear"] and f["blocked_at"] == ccrr(A) and f["target"] not in occupied
    )
    clear = next(f for f in ra["fire_tool"] if f["clear"] and f["target"] not in occupied)
    page.click("#spi-fire-tool")
    assert page.get_attribute("#spi-fire-tool", "aria-pressed") == "true"
    _click_table(page, blocked["x"], blocked["y"])
    page.wait_for_selector("#board svg .spi-block")
    assert page.get_attribute("#board svg .spi-block", "data-hex") == ccrr(A)
    assert page.get_attribute("#board svg .spi-fire-line", "data-hex") == blocked["target"]
    hint = page.inner_text("#hint")
    assert f"blocked at {ccrr(A)}" in hint and "spi-dark-ages:combat.D.over-units" in hint
    _click_table(page, clear["x"], clear["y"])
    page.wait_for_function("document.querySelectorAll('#board svg .spi-block').length === 0")
    assert page.get_attribute("#board svg .spi-fire-line", "data-hex") == clear["target"]
    assert "clear" in page.inner_text("#hint")
    page.click("#spi-fire-tool")

    # to the Attack Allocation Phase; the odds preview of the spear's melee on the green spear
    page.locator("#actions button.end").first.click()
    page.wait_for_function("window.shieldwall.game.st.view.phase === 'allocation'")
    state(page)
    _click_unit(page, "tl")
    page.click("#spi-popup .spi-stack-item[data-unit='ts']")
    r = _reach(page, "ts")
    odds = next(o for o in r["odds"] if o["target"] == ccrr(B))
    page.wait_for_selector(f"#board svg .spi-odds-tag[data-hex='{ccrr(B)}']")
    _click_unit(page, "gs")
    page.wait_for_selector("#spi-popup .spi-odds-results")
    text = page.inner_text("#spi-popup")
    assert f"Melee on {ccrr(B)}" in text
    assert f"{odds['attack']} against {odds['defence']}" in text and f"column {odds['column']}" in text
    rows_ = page.locator("#spi-popup .spi-odds-results tr").all_inner_texts()
    assert len(rows_) == len(odds["results"])
    shown = sum(float(t.split()[1].rstrip("%")) for t in rows_)
    assert abs(shown - 100) < 0.5
    assert "ILLUSTRATIVE DATA" in text
    page.screenshot(path=str(IMAGES / "spi-hex-board.png"))
    before = state(page)["version"]
    page.click("#spi-odds-go")
    page.wait_for_function(f"window.shieldwall.game.st.version !== {before}")
    st = state(page)
    assert st["view"]["phase"] == "allocation"
    assert f"melee ts {ccrr(B)}" in page.inner_text("#message")
    assert page.errors == []  # type: ignore[attr-defined]


def test_spi_ranges_from_the_selected_archer_in_hexes(server: str, page: Any) -> None:
    """The archer's fire range outlined in hexes (combat.D.hilltop-range), its front hexes where an
    enemy stops (movement.K.stop) and its lines of fire: clear to the green spear, blocked by it
    towards the green leader behind it (combat.D.over-units)."""
    gid, token = _start(server)
    page.goto(f"{server}/play/{gid}#token={token}")
    page.wait_for_selector("#board svg .unit")
    page.wait_for_selector("#ranges:not([hidden])")
    _click_unit(page, "ta")
    page.wait_for_function("window.shieldwall.game.selected === 'ta'")
    page.click("#ranges")
    page.wait_for_selector("#board svg .page-ranges .range-range")
    assert page.locator("#board svg .page-ranges .range-arc").count() == 1
    assert page.locator("#board svg .page-ranges line.sight").count() == 2  # gs and gl
    assert page.locator("#board svg .page-ranges line.sight.unseen[data-unit='gl']").count() == 1
    assert page.locator("#board svg .page-ranges line.sight.seen[data-unit='gs']").count() == 1
    info = page.inner_text("#ranges-info")
    assert "fire range 4 hexes" in info and "front hexes: an enemy entering stops" in info
    assert "has a clear line of fire to gs" in info
    assert f"the line of fire is blocked at {ccrr(B)}" in info
    page.screenshot(path=str(IMAGES / "web-ranges-spi-dark-ages.png"))
    assert page.errors == []  # type: ignore[attr-defined]


def test_spi_tours_on_the_hex_map_terrain_hexsides_counters_with_facing_and_the_banner(
    server: str, page: Any
) -> None:
    """Tours as a new user starts it (tan, the Arabs, against the scripted bot): the sample banner in
    the page title, terrain hexes, road / water hexsides, the bridges and the ford, every counter
    with its front edge on its facing, and a step given by clicking a shaded hex."""
    body = json.dumps(
        {"ruleset": "spi-dark-ages", "scenario": "spi-dark-ages/tours", "side": "tan", "seed": 1}
    )
    req = urllib.request.Request(
        server + "/api/games", data=body.encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req) as r:
        got = json.loads(r.read())
    page.goto(f"{server}/play/{got['game']['id']}#token={got['token']}")
    page.wait_for_selector("#board svg .unit")
    st = state(page)
    assert st["your_turn"] and st["view"]["phase"] == "movement"
    assert "ILLUSTRATIVE DATA" in page.inner_text("#game-title")

    kinds = page.locator("#board svg g.terrain").evaluate_all("gs => gs.map(g => g.dataset.terrain)")
    for prefix, n in (
        ("woods-", 10),
        ("slope-", 5),
        ("road-", 10),
        ("bridge-", 2),
        ("ford-", 1),
        ("water-", 1),
    ):
        assert sum(k.startswith(prefix) for k in kinds) >= n, (prefix, kinds)
    assert page.locator("#board svg g.terrain[data-terrain^='bridge-'] rect").count() >= 2

    # every counter on the map drawn with its front edge toward its facing (0 NE .. 5 NW)
    units = [u for u in st["view"]["units"] if u.get("hex")]
    assert len(units) >= 20
    for u in units[:: max(1, len(units) // 8)]:
        body_box = page.locator(f"#board svg .unit-body[data-unit='{u['id']}']").bounding_box()
        edge_box = page.locator(f"#board svg .unit-front-edge[data-unit='{u['id']}']").bounding_box()
        assert body_box is not None and edge_box is not None
        dx = edge_box["x"] + edge_box["width"] / 2 - (body_box["x"] + body_box["width"] / 2)
        dy = edge_box["y"] + edge_box["height"] / 2 - (body_box["y"] + body_box["height"] / 2)
        east, south = {0: (1, -1), 1: (1, 0), 2: (1, 1), 3: (-1, 1), 4: (-1, 0), 5: (-1, -1)}[u["facing"]]
        assert dx * east > 0, (u, dx, dy)
        if south:
            assert dy * south > 0, (u, dx, dy)

    # play: select a tan counter, click a green (legal) hex of its shading; the engine takes the step
    hexes = [u["hex"] for u in units]
    target: dict[str, Any] | None = None
    for uid in [u["id"] for u in units if u["side"] == "tan" and hexes.count(u["hex"]) == 1]:
        _click_unit(page, uid)
        r = _reach(page, uid)
        target = next((h for h in r["hexes"] if h.get("order") and h["hex"] not in hexes), None)
        if target is not None:
            break
    assert target is not None
    before = st["version"]
    _click_table(page, target["x"], target["y"])
    page.wait_for_function(f"window.shieldwall.game.st.version !== {before}")
    moved = next(u for u in state(page)["view"]["units"] if u["id"] == uid)
    assert moved["hex"] == target["hex"]
    assert page.errors == []  # type: ignore[attr-defined]
