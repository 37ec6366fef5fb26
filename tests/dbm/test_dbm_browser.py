"""DBM 3.2 in Debian's Chromium (Playwright): the burh scenario played from the engine's menu through
its terrain phase (the invader's choice, terrain.invader; and, played as the defender, his
features), deployment (deploy.first), baggage (size.assign) and bounds against the scripted bot; the
table draws the bases in paces and the fortification sections as walls named for their holder and
front (rulings R40, R41), and the log shows the line-up shifts, assaults on undefended sections
(dbm-3.2:cc.fort-corner) and storming (dbm-3.2:storm.pursue); the table shows the line-up shifts too
(dbm-3.2:move.lineup-shift): a dashed ghost of each base before, an arrow to after, a label and a
tooltip citing the clause. The screenshots go to docs/images/ only with SHIELDWALL_SCREENSHOTS=1.
Illustrative sample data (NOT the published DBM tables)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.browser_fixtures import BROWSER, IMAGES, click_order, start_battle, state

pytestmark = BROWSER

SCEN = "dbm-3.2/ash-burh"


def _pick(menu: list[dict[str, Any]]) -> dict[str, Any]:
    """The invader asks for a road, deploys in line, then advances every command before ending."""
    texts = [m["text"] for m in menu]
    for want in ("terrain road", "deploy line"):
        if want in texts:
            return menu[texts.index(want)]
    adv = [m for m in menu if m["text"].startswith("advance ")]
    return adv[0] if adv else menu[-1]


def test_storm_pursue_and_cc_fort_corner_burh_played_in_the_browser(server: str, page: Any) -> None:
    start_battle(page, server, "dbm-3.2", SCEN, wait_for=None)
    page.wait_for_selector("#board svg .terrain-wall", state="attached")
    st = state(page)
    assert st["view"]["phase"] == "terrain" and st["your_turn"]
    assert st["view"]["label"] == "illustrative data: not the published DBM tables"
    # the two sections: walls, named for their holder and the way they face
    walls = page.locator("#board svg g.terrain-wall")
    assert walls.count() == 2
    titles = sorted(str(t) for t in walls.locator("title").all_text_contents())
    assert titles == ["fortification (blue, faces east) (wall)", "fortification (blue, faces south) (wall)"]
    phases = []
    log = page.locator("#tab-log")
    shown = False
    for _ in range(120):
        st = state(page)
        if st["result"] is not None:
            break
        phases.append(st["view"]["phase"])
        if not shown and any(a["kind"] == "lineup-shift" for a in st["view"].get("recent_adjustments", [])):
            _shift_on_the_table(page, st["view"])
            shown = True
        text = log.inner_text()
        if (
            shown
            and "assaults an undefended fortification section" in text
            and "storms over the fortification" in text
        ):
            break
        assert st["your_turn"], st["view"]["phase"]
        click_order(page, st, _pick(st["menu"]))
    else:
        pytest.fail("no assault on the fortification after 120 orders")
    assert {"terrain", "deploy", "baggage", "bound"} <= set(phases)
    assert shown, "no line-up shift on the table"
    text = log.inner_text()
    assert "assaults an undefended fortification section" in text
    assert "storms over the fortification" in text
    assert "sideways to line up" in text
    # the bases are drawn in paces: an 80-pace frontage on the 2400 x 1600 pace table
    view = state(page)["view"]
    assert view["table"]["unit"] == "pace" and {u["frontage"] for u in view["units"]} == {80.0}
    assert page.locator("#board svg .unit").count() > 0
    IMAGES.mkdir(parents=True, exist_ok=True)
    page.locator("#board").screenshot(path=str(IMAGES / "web-dbm-burh.png"))
    assert page.errors == []  # type: ignore[attr-defined]


def test_terrain_and_deployment_played_by_the_defender_in_the_browser(server: str, page: Any) -> None:
    """The player is blue, the burh's defender: after the bot invader's option, the page offers the
    defender's features (the compulsory wood already placed for him, counting half; terrain.def-total,
    terrain.def-phases); he places brush and a gentle hill, ends his terrain at 2.5 FE, deploys deep
    (deploy.first) and assigns his baggage (size.assign); the features are on the table."""
    start_battle(page, server, "dbm-3.2", SCEN, side="blue", wait_for=None)
    page.wait_for_selector("#board svg .terrain-wall", state="attached")
    st = state(page)
    assert st["view"]["phase"] == "terrain" and st["your_turn"], st["view"]["phase"]
    texts = [m["text"] for m in st["menu"]]
    assert "terrain brush" in texts and "terrain done" not in texts  # fewer than 2 FE so far
    assert st["decision"]["side"] == "blue" and "defender" in st["decision"]["prompt"]
    for want in ("terrain brush", "terrain hill-gentle", "terrain done", "deploy deep"):
        st = state(page)
        texts = [m["text"] for m in st["menu"]]
        assert want in texts, (want, texts)
        click_order(page, st, st["menu"][texts.index(want)])
    st = state(page)
    assert st["view"]["phase"] == "baggage" and st["your_turn"]
    click_order(page, st, st["menu"][0])
    st = state(page)
    assert st["view"]["phase"] == "bound"
    kinds = [t["kind"] for t in st["view"]["terrain"]]
    assert {"wood", "brush", "hill-gentle"} <= set(kinds)
    log = page.locator("#tab-log").inner_text()
    assert "defender places brush" in log and "defender places hill-gentle" in log
    assert "terrain done: invader" in log and "defender 2.5 FE" in log
    assert page.errors == []  # type: ignore[attr-defined]


def _shift_on_the_table(pg: Any, view: dict[str, Any]) -> None:
    """The view's line-up shifts are on the table: for each shifted element a ghost, an arrow and a
    tooltip citing dbm-3.2:move.lineup-shift; the group's label once. Screenshot of the marks."""
    shifts = [a for a in view["recent_adjustments"] if a["kind"] == "lineup-shift"]
    marks = pg.locator("#board svg g.dbm-adjust-lineup-shift")
    assert marks.count() == len(shifts)
    for a in shifts:
        g = pg.locator(f"#board svg g.dbm-adjust-lineup-shift[data-unit={json.dumps(a['id'])}]")
        assert g.count() == 1
        assert g.get_attribute("data-clause") == "dbm-3.2:move.lineup-shift"
        assert "dbm-3.2:move.lineup-shift" in g.locator("title").text_content()
        assert g.locator("polygon.dbm-ghost").count() == 1 and g.locator("line.dbm-arrow").count() == 1
    labels = pg.locator("#board svg g.dbm-adjust-lineup-shift text.dbm-adjust-label").all_text_contents()
    assert shifts[0]["label"] in labels and shifts[0]["label"].startswith("line-up shift ")
    boxes = [marks.nth(i).bounding_box() for i in range(marks.count())]
    boxes += [
        pg.locator(f"#board svg g.unit[data-unit={json.dumps(a['id'])}]").bounding_box() for a in shifts
    ]
    x0 = min(b["x"] for b in boxes if b) - 60
    y0 = min(b["y"] for b in boxes if b) - 60
    x1 = max(b["x"] + b["width"] for b in boxes if b) + 60
    y1 = max(b["y"] + b["height"] for b in boxes if b) + 60
    IMAGES.mkdir(parents=True, exist_ok=True)
    pg.screenshot(
        path=str(IMAGES / "web-dbm-lineup-shift.png"),
        clip={"x": max(0.0, x0), "y": max(0.0, y0), "width": x1 - max(0.0, x0), "height": y1 - max(0.0, y0)},
    )


def test_bow_range_and_arc_of_fire_drawn_from_the_selected_bowmen(server: str, page: Any) -> None:
    """dbm-3.2:fig.10b, dbm-3.2:shoot.who: in the first bound, the Frankish bowmen's 200 p range band,
    the rectangle 1 BW either side of their front and a line to each enemy within range. The top
    bar's banner says the data is illustrative."""
    start_battle(page, server, "dbm-3.2", "dbm-3.2/ford-of-ash")
    # the banner in the top bar: the sample data is labelled on the page, not only in the log
    banner = page.locator("#data-label")
    assert banner.is_visible() and banner.inner_text() == "illustrative data: not the published DBM tables"
    for _ in range(40):
        st = state(page)
        if st["view"]["phase"] == "bound" and st["your_turn"]:
            break
        click_order(page, st, _pick(st["menu"]))
    else:
        pytest.fail("no red bound after 40 orders")
    page.wait_for_selector("#ranges:not([hidden])")
    page.locator("#board svg .unit[data-unit='r-bw1']").first.click(force=True)
    page.wait_for_function("window.shieldwall.game.selected === 'r-bw1'")
    page.keyboard.press("l")
    page.wait_for_selector("#board svg .page-ranges .range-range")
    assert page.locator("#board svg .page-ranges .range-arc").count() == 1
    info = page.inner_text("#ranges-info")
    assert "Bw range 200 p" in info and "arc of fire: 1 BW either side of the front" in info
    assert "may shoot at" in info
    assert page.locator("#ranges-info a.rule-link").count() >= 2
    IMAGES.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(IMAGES / "web-ranges-dbm.png"))
    assert page.errors == []  # type: ignore[attr-defined]
