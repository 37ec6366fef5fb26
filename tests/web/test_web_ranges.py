"""Range bands, arcs of fire and lines of sight from a selected unit (the plugin's ``ranges``): the
API for One Hour and Into the Dark from their rules data, and the page in Debian's Chromium (the
Ranges button and the key L). Screenshot: docs/images/web-ranges.png with SHIELDWALL_SCREENSHOTS=1."""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import pytest
from tests.browser_fixtures import IMAGES, NEEDS_CHROMIUM, start_battle, state
from tests.web.test_web_browser import _click_unit

from shieldwall import registry


def _ranges(
    client: Any, start: Any, ruleset: str, scenario: str
) -> tuple[str, dict[str, str], dict[str, Any]]:
    gid, h, g = start(ruleset=ruleset, scenario=scenario, side="red")
    return gid, h, client.get(f"/api/games/{gid}", headers=h).json()


def test_one_hour_ranges_from_its_rules(client: Any, start: Any) -> None:
    gid, h, st = _ranges(client, start, "one-hour-dark-ages", "one-hour-dark-ages/bryn-glas")
    units = {u["id"]: u for u in st["view"]["units"]}
    rs = registry.find("one-hour-dark-ages")
    assert rs is not None
    bow = float(rs.parameter_specs["bow_range"].default)  # the rule's 12"
    r = client.get(f"/api/games/{gid}/ranges/r5", headers=h)  # skirmishers with bows
    assert r.status_code == 200, r.text
    body = r.json()
    kinds = [s["kind"] for s in body["shapes"]]
    assert kinds == ["range", "arc"]
    band = body["shapes"][0]
    assert band["label"] == f'bow range {bow:g}"' and band["rule"] == "one-hour-dark-ages:shooting.range"
    u = units["r5"]
    half_diag = math.hypot(u["frontage"], u["depth"]) / 2
    far = [math.hypot(x - u["x"], y - u["y"]) for x, y in band["points"]]
    assert min(far) >= bow - 1e-6 and max(far) <= bow + half_diag + 1e-3
    assert body["shapes"][1]["rule"] == "one-hour-dark-ages:shooting.arc"
    enemies = {x["id"] for x in st["view"]["units"] if x["side"] == "blue" and not x["removed"]}
    assert {s["unit"] for s in body["sight"]} == enemies
    assert all(s["rule"] == "one-hour-dark-ages:line-of-sight" for s in body["sight"])
    for s in body["sight"]:
        assert s["visible"] == (s["why"] is None or "in view" in s["why"])
    # a unit without a missile weapon: its charging arc only
    melee = client.get(f"/api/games/{gid}/ranges/r1", headers=h).json()
    assert [s["kind"] for s in melee["shapes"]] == ["arc"]
    assert client.get(f"/api/games/{gid}/ranges/zz", headers=h).status_code == 404
    assert client.get(f"/api/games/{gid}/ranges/r5").status_code in (401, 403)


def test_into_the_dark_missile_ranges(client: Any, start: Any) -> None:
    gid, h, st = _ranges(client, start, "into-the-dark", "into-the-dark/senlac")
    body = client.get(f"/api/games/{gid}/ranges/r8", headers=h).json()  # foot bowmen
    labels = [s["label"] for s in body["shapes"]]
    assert labels == [
        'Foot Bow: long range 18" (straight ahead)',
        'Foot Bow: close range 6" (straight ahead)',
    ]
    assert all(s["rule"] == "into-the-dark:combat.missile-ranges" for s in body["shapes"])
    assert body["sight"] and all(
        s["rule"] == "into-the-dark:combat.target-eligibilities" for s in body["sight"]
    )
    mounted = next(u["id"] for u in st["view"]["units"] if u["side"] == "blue" and u["type"].endswith("M"))
    assert client.get(f"/api/games/{gid}/ranges/{mounted}", headers=h).status_code == 200


def test_rule_system_without_ranges(client: Any, start: Any) -> None:
    listed = {r["id"]: r for r in client.get("/api/rulesets").json()}
    assert all(listed[rid]["ranges"] is bool(rs.ranges) for rid, rs in registry.systems().items())
    # every installed rule system draws ranges: one whose plugin names none (One Hour's game) is
    # listed without them, and the page's question is refused
    rs = registry.find("one-hour-dark-ages")
    assert rs is not None and rs.ranges
    with registry.registered(dataclasses.replace(rs, ranges=None)):
        assert not {r["id"]: r for r in client.get("/api/rulesets").json()}["one-hour-dark-ages"]["ranges"]
        gid, h, _ = start(ruleset="one-hour-dark-ages", scenario="one-hour-dark-ages/bryn-glas", side="red")
        r = client.get(f"/api/games/{gid}/ranges/r5", headers=h)
        assert r.status_code == 404 and "draws no ranges" in r.text


@pytest.mark.browser
@NEEDS_CHROMIUM
def test_ranges_on_the_table(server: str, page: Any) -> None:
    IMAGES.mkdir(parents=True, exist_ok=True)
    start_battle(
        page, server, "one-hour-dark-ages", "one-hour-dark-ages/bryn-glas", opponent="random", seed=7
    )
    page.wait_for_selector("#ranges:not([hidden])")
    st = state(page)
    _click_unit(page, st, "r5")
    page.wait_for_selector("#unit h3")
    page.keyboard.press("l")
    page.wait_for_selector("#board svg .page-ranges .range-range")
    assert page.get_attribute("#ranges", "aria-pressed") == "true"
    assert page.locator("#board svg .page-ranges .range-arc").count() == 1
    enemies = [u for u in st["view"]["units"] if u["side"] == "blue" and not u["removed"]]
    assert page.locator("#board svg .page-ranges line.sight").count() == len(enemies)
    info = page.inner_text("#ranges-info")
    assert 'bow range 12"' in info and "front arc 45°" in info
    assert page.locator("#ranges-info a.rule-link").count() >= 2
    page.screenshot(path=str(IMAGES / "web-ranges.png"))
    # they follow the selection: a unit that sees no enemy says why
    _click_unit(page, st, "r2")
    page.wait_for_function("document.querySelector('#ranges-info').textContent.includes('[r2]')")
    assert page.locator("#board svg .page-ranges .range-range").count() == 0
    unseen = page.locator("#board svg .page-ranges line.sight.unseen").count()
    assert unseen == page.locator("#ranges-info .unseen").count()
    # the button puts them away
    page.click("#ranges")
    page.wait_for_function("!document.querySelector('#board svg .page-ranges')")
    assert page.locator("#ranges-info").is_hidden()
    assert page.errors == []  # type: ignore[attr-defined]


def _rules(client: Any, rid: str) -> set[str]:
    r = client.get(f"/api/rulesets/{rid}/clauses")
    assert r.status_code == 200, r.text
    return {c["rule"] for c in r.json()}


@pytest.mark.parametrize("rid", [rid for rid, rs in registry.systems().items() if rs.ranges])
def test_every_rule_systems_ranges_keep_the_format_through_a_battle(
    client: Any, start: Any, rid: str
) -> None:
    """Each rule system's ranges, asked for every unit of its default scenario as the battle goes
    on (orders from the menu, the scripted bot answering): the documented format (polygons of table
    points, a known kind, a clause of its own table; a line per enemy in view), enemies only, and
    nothing changed by asking."""
    rs = registry.find(rid)
    assert rs is not None and rs.default_scenario
    side = rs.sides[0]
    gid, h, _ = start(ruleset=rid, scenario=f"{rid}/{rs.default_scenario}", side=side)
    clauses = _rules(client, rid)
    drawn = 0
    for _ in range(12):
        st = client.get(f"/api/games/{gid}", headers=h).json()
        units = {u["id"]: u for u in st["view"]["units"]}
        for uid, u in units.items():
            r = client.get(f"/api/games/{gid}/ranges/{uid}", headers=h)
            assert r.status_code in (200, 404), r.text
            if r.status_code == 404:
                continue
            body = r.json()
            assert body["unit"] == uid and isinstance(body["sight_label"], str) and body["sight_label"]
            for s in body["shapes"]:
                assert s["kind"] in ("range", "arc", "corridor") and isinstance(s["label"], str)
                assert len(s["points"]) >= 3 and all(len(p) == 2 for p in s["points"])
                assert s["rule"] in clauses, s["rule"]
                drawn += 1
            for line in body["sight"]:
                assert units[line["unit"]]["side"] != u["side"]
                assert isinstance(line["visible"], bool) and (line["why"] is None or line["why"])
                assert line["rule"] in clauses, line["rule"]
                assert len(line["from"]) == 2 and len(line["to"]) == 2
        after = client.get(f"/api/games/{gid}", headers=h).json()
        assert after["version"] == st["version"] and after["view"] == st["view"]
        if st["result"] is not None or not st["menu"]:
            break
        order = st["menu"][-1]["text"]
        r = client.post(f"/api/games/{gid}/orders", json={"order": order}, headers=h)
        assert r.status_code == 200, r.text
    assert drawn, f"{rid}: no shape drawn for any unit"
