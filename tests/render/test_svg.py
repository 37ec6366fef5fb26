"""The SVG tabletop renderer: well-formed, complete, deterministic, and geometrically exact."""

from __future__ import annotations

import copy
import math
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from shieldwall.core.geometry import Footprint
from shieldwall.render.layers import drawing_for
from shieldwall.render.svg import render_svg

NS = "{http://www.w3.org/2000/svg}"
TERRAIN_KINDS = ("hill", "woods", "marsh", "village", "lake", "river", "wall", "gully", "road")


def _unit(uid: str, side: str, utype: str, x: float, y: float, heading: float, **kw: Any) -> dict[str, Any]:
    u: dict[str, Any] = {
        "id": uid,
        "side": side,
        "name": utype.replace("-", " ").capitalize(),
        "type": utype,
        "category": "infantry",
        "x": x,
        "y": y,
        "heading": heading,
        "frontage": 5.0,
        "depth": 2.0,
        "hits": 0,
        "max_hits": 15,
        "missile": None,
        "shots_left": None,
        "removed": False,
        "upgrade": "",
        "quality": "",
        "allied": False,
        "personalities": [],
        "moved": False,
        "shot": False,
        "charged": False,
        "in_melee": False,
    }
    u.update(kw)
    return u


def _feature(
    fid: str,
    kind: str,
    points: list[list[float]],
    *,
    linear: bool = False,
    width: float = 2.0,
    crest: list[list[float]] | None = None,
    crossings: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    return {
        "id": fid,
        "kind": kind,
        "name": fid.replace("-", " ").title(),
        "points": points,
        "linear": linear,
        "width": width,
        "crest": crest or [],
        "crossings": crossings or [],
    }


def demo_view() -> dict[str, Any]:
    """A battle view with every kind of terrain and units in every state the renderer knows."""
    return {
        "ruleset": "one-hour-dark-ages",
        "scenario": "Test Field",
        "turn": 3,
        "max_turns": 15,
        "phase": "melee",
        "step": "melee",
        "side": "red",
        "initiative": "red",
        "active": "r1",
        "rolled": None,
        "table": {"width": 48.0, "depth": 36.0},
        "terrain": [
            _feature(
                "high-hill", "hill", [[30, 20], [40, 18], [46, 24], [42, 32], [32, 30]], crest=[[38, 25]]
            ),
            _feature(
                "long-ridge", "hill", [[2, 26], [14, 25], [16, 31], [4, 33]], crest=[[4, 29], [13, 28.5]]
            ),
            _feature("dark-wood", "woods", [[2, 4], [10, 3], [12, 10], [6, 13], [2, 11]]),
            _feature("fen", "marsh", [[36, 2], [46, 3], [46, 9], [38, 10]]),
            _feature("steading", "village", [[18, 26], [25, 26], [25, 31], [18, 31]]),
            _feature("mere", "lake", [[20, 2], [27, 3], [28, 7], [22, 8]]),
            _feature(
                "afon",
                "river",
                [[0, 15], [12, 17], [26, 14], [40, 15], [48, 13]],
                linear=True,
                width=2.0,
                crossings=[
                    {"kind": "bridge", "at": [12, 17], "width": 4.0},
                    {"kind": "ford", "at": [33, 14.5], "width": 4.0},
                    {"kind": "shallows", "at": [45, 13.75], "width": 3.0},
                ],
            ),
            _feature("dyke", "wall", [[14, 22], [26, 22]], linear=True, width=0.5),
            _feature("hollow", "gully", [[28, 24], [30, 34]], linear=True, width=1.5),
            _feature("old-way", "road", [[16, 0], [17, 12], [20, 36]], linear=True, width=1.5),
        ],
        "units": [
            _unit("r1", "red", "infantry", 16, 20, 0, hits=7, personalities=["hero"]),
            _unit("r2", "red", "warriors", 24, 10.5, 30, category="warband", hits=12, in_melee=True),
            _unit(
                "r3",
                "red",
                "skirmishers-bows",
                6,
                19,
                90,
                category="skirmishers",
                missile="bow",
                shots_left=2,
                personalities=["leader+banner"],
            ),
            _unit("r4", "red", "cavalry", 44, 11, -135, category="cavalry", removed=True, hits=15),
            _unit("b1", "blue", "infantry", 16, 24, 180, hits=3, personalities=["priest"]),
            _unit("b2", "blue", "raiders", 26.5, 13.5, 210, category="warband", hits=9, in_melee=True),
            _unit(
                "b3",
                "blue",
                "cavalry-javelins",
                36,
                27,
                250,
                category="cavalry",
                missile="javelin",
                shots_left=0,
            ),
            _unit(
                "b4",
                "blue",
                "skirmishers-javelins",
                8,
                30,
                180,
                category="skirmishers",
                missile="javelin",
                shots_left=None,
            ),
        ],
        "personalities": [],
        "lost": {"red": 1, "blue": 0},
        "result": None,
    }


def _parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def _with_attr(root: ET.Element, attr: str, value: str | None = None) -> list[ET.Element]:
    return [e for e in root.iter() if attr in e.attrib and (value is None or e.attrib[attr] == value)]


def _classes(e: ET.Element) -> set[str]:
    return set(e.attrib.get("class", "").split())


def _to_svg(pt: tuple[float, float], depth: float, scale: float) -> tuple[float, float]:
    return (pt[0] * scale, (depth - pt[1]) * scale)


def _points(attr: str) -> list[tuple[float, float]]:
    out = []
    for pair in attr.split():
        x, y = pair.split(",")
        out.append((float(x), float(y)))
    return out


@pytest.fixture
def view() -> dict[str, Any]:
    return demo_view()


def test_well_formed_svg(view: dict[str, Any]) -> None:
    svg = render_svg(view)
    root = _parse(svg)
    assert root.tag == f"{NS}svg"
    w, d, s = 48.0, 36.0, 16.0
    vb = [float(v) for v in root.attrib["viewBox"].split()]
    # the table fits inside the view box
    assert vb[0] <= 0 and vb[1] <= 0 and vb[0] + vb[2] >= w * s and vb[1] + vb[3] >= d * s
    table = [e for e in root.iter(f"{NS}rect") if "table" in _classes(e)]
    assert len(table) == 1
    assert float(table[0].attrib["width"]) == w * s and float(table[0].attrib["height"]) == d * s


def test_every_live_unit_has_its_group_and_removed_do_not(view: dict[str, Any]) -> None:
    root = _parse(
        render_svg(view, highlight={"active": "r4", "charge_targets": ["r4"], "shoot_targets": ["r4"]})
    )
    groups = {e.attrib["data-unit"]: e for e in root.iter(f"{NS}g") if "unit" in _classes(e)}
    live = {u["id"] for u in view["units"] if not u["removed"]}
    assert set(groups) == live
    assert not _with_attr(root, "data-unit", "r4")
    for uid, g in groups.items():
        u = next(u for u in view["units"] if u["id"] == uid)
        title = g.find(f"{NS}title")
        assert title is not None and title.text is not None
        assert u["name"] in title.text and u["type"] in title.text
        assert f"{u['hits']}/{u['max_hits']}" in title.text
        texts = "".join(t.text or "" for t in g.iter(f"{NS}text"))
        assert f"{uid} {drawing_for(view).type_label(u['type'])}" in texts
        assert f"{u['hits']}/{u['max_hits']}" in texts
        assert any("unit-front" in _classes(e) for e in g.iter())


def test_unit_markers(view: dict[str, Any]) -> None:
    root = _parse(render_svg(view))
    groups = {e.attrib["data-unit"]: e for e in root.iter(f"{NS}g") if "unit" in _classes(e)}

    def has(uid: str, cls: str) -> bool:
        return any(cls in _classes(e) for e in groups[uid].iter())

    assert has("r2", "melee-marker") and has("b2", "melee-marker") and not has("r1", "melee-marker")
    assert "in-melee" in _classes(groups["r2"])
    assert (
        has("r1", "personality-hero") and has("b1", "personality-priest") and has("r3", "personality-leader")
    )
    shots = {
        uid: [e.attrib["data-shots"] for e in g.iter() if "shots-left" in _classes(e)]
        for uid, g in groups.items()
    }
    assert shots["r3"] == ["2"] and shots["b3"] == ["0"] and shots["b4"] == ["\u221e"] and shots["r1"] == []
    bars = [e for e in groups["r1"].iter() if "hit-bar" in _classes(e)]
    bg = [e for e in groups["r1"].iter() if "hit-bar-bg" in _classes(e)]
    assert len(bars) == 1 and len(bg) == 1
    assert float(bars[0].attrib["width"]) == pytest.approx(float(bg[0].attrib["width"]) * 7 / 15, abs=0.02)


@pytest.mark.parametrize("scale", [16.0, 10.0])
def test_rectangle_and_front_edge_match_footprint(view: dict[str, Any], scale: float) -> None:
    root = _parse(render_svg(view, scale=scale))
    depth = view["table"]["depth"]
    for u in view["units"]:
        if u["removed"]:
            continue
        fp = Footprint(u["x"], u["y"], u["heading"], u["frontage"], u["depth"])
        want = [_to_svg(c, depth, scale) for c in fp.corners()]
        body = [e for e in _with_attr(root, "data-unit", u["id"]) if "unit-body" in _classes(e)]
        assert len(body) == 1
        got = _points(body[0].attrib["points"])
        assert len(got) == 4
        for g, w in zip(got, want, strict=True):
            assert g == pytest.approx(w, abs=0.006)
        front = [e for e in _with_attr(root, "data-unit", u["id"]) if "unit-front" in _classes(e)]
        assert len(front) == 1
        a = (float(front[0].attrib["x1"]), float(front[0].attrib["y1"]))
        b = (float(front[0].attrib["x2"]), float(front[0].attrib["y2"]))
        assert a == pytest.approx(want[0], abs=0.006) and b == pytest.approx(want[1], abs=0.006)


def test_front_is_the_heading_side() -> None:
    """A unit facing east has its bright front edge on its east side, on screen to the right."""
    v = demo_view()
    v["units"] = [_unit("e1", "red", "infantry", 20, 18, 90)]
    root = _parse(render_svg(v))
    front = next(e for e in root.iter() if "unit-front-edge" in _classes(e))
    body = next(e for e in root.iter() if "unit-body" in _classes(e))
    xs = [p[0] for p in _points(body.attrib["points"])]
    assert float(front.attrib["x1"]) > sum(xs) / 4 and float(front.attrib["x2"]) > sum(xs) / 4
    # north up: a unit further north is drawn higher
    v["units"] = [_unit("n1", "red", "infantry", 20, 30, 0), _unit("s1", "blue", "infantry", 20, 5, 0)]
    root = _parse(render_svg(v))
    ys = {
        e.attrib["data-unit"]: _points(e.attrib["points"])[0][1]
        for e in root.iter()
        if "unit-body" in _classes(e)
    }
    assert ys["n1"] < ys["s1"]


def test_deterministic(view: dict[str, Any]) -> None:
    hl = {
        "active": "r1",
        "move_band": {"unit": "r1", "radius": 6},
        "charge_targets": ["b1"],
        "shoot_targets": ["b2"],
        "arc": {"unit": "r1", "half_angle": 45, "range": 12},
    }
    a = render_svg(view, highlight=hl)
    b = render_svg(copy.deepcopy(view), highlight=copy.deepcopy(hl))
    assert a == b
    assert render_svg(view) == render_svg(view)
    # two decimals at most
    assert not re.search(r"\d\.\d{3,}", a)
    # the view is not changed
    assert view == demo_view()


def test_highlights(view: dict[str, Any]) -> None:
    plain = _parse(render_svg(view))
    assert not [e for e in plain.iter() if any(c.startswith("hl-") for c in _classes(e))]
    hl = {
        "active": "r1",
        "move_band": {"unit": "r1", "radius": 6},
        "charge_targets": ["b1"],
        "shoot_targets": ["b2", "b3"],
        "arc": {"unit": "r3", "half_angle": 45, "range": 12},
    }
    root = _parse(render_svg(view, highlight=hl))

    def find(cls: str) -> list[ET.Element]:
        return [e for e in root.iter() if cls in _classes(e)]

    assert [e.attrib["data-unit"] for e in find("hl-active")] == ["r1"]
    band = find("hl-move-band")
    assert [e.attrib["data-unit"] for e in band] == ["r1"]
    # the band reaches 6" beyond the 5" x 2" unit: a rounded rectangle with corner radius 6"
    assert float(band[0].attrib["width"]) == pytest.approx((5 + 12) * 16)
    assert float(band[0].attrib["height"]) == pytest.approx((2 + 12) * 16)
    assert float(band[0].attrib["rx"]) == pytest.approx(6 * 16)
    assert [e.attrib["data-unit"] for e in find("hl-charge-target")] == ["b1"]
    assert sorted(e.attrib["data-unit"] for e in find("hl-shoot-target")) == ["b2", "b3"]
    arcs = find("hl-arc")
    assert [e.attrib["data-unit"] for e in arcs] == ["r3"]
    # the wedge starts at the front-left corner of r3
    u = next(u for u in view["units"] if u["id"] == "r3")
    fl = Footprint(u["x"], u["y"], u["heading"], u["frontage"], u["depth"]).corners()[0]
    m = re.match(r"M([-\d.]+),([-\d.]+)", arcs[0].attrib["d"])
    assert m is not None
    assert (float(m.group(1)), float(m.group(2))) == pytest.approx(_to_svg(fl, 36.0, 16.0), abs=0.006)
    # highlights for units that are not on the table are skipped quietly
    root2 = _parse(
        render_svg(
            view,
            highlight={"active": "zz", "move_band": {"unit": "r4", "radius": 3}, "charge_targets": ["nope"]},
        )
    )
    assert not [e for e in root2.iter() if any(c.startswith("hl-") for c in _classes(e))]


def test_each_terrain_kind_drawn_and_labelled(view: dict[str, Any]) -> None:
    root = _parse(render_svg(view))
    groups = [e for e in root.iter(f"{NS}g") if "terrain" in _classes(e)]
    kinds = {e.attrib["data-kind"] for e in groups}
    assert kinds == set(TERRAIN_KINDS)
    by_id = {e.attrib["data-terrain"]: e for e in groups}
    assert set(by_id) == {f["id"] for f in view["terrain"]}
    labels = {
        e.attrib["data-terrain"]: "".join(t.text or "" for t in e.iter(f"{NS}text"))
        for e in root.iter(f"{NS}g")
        if "terrain-label" in _classes(e)
    }
    for f in view["terrain"]:
        assert labels[f["id"]] == f["name"]
        g = by_id[f["id"]]
        assert f"terrain-{f['kind']}" in _classes(g)
        assert any(f["kind"] in _classes(e) or any(c.startswith(f["kind"]) for c in _classes(e)) for e in g)

    def count(fid: str, cls: str) -> int:
        return sum(1 for e in by_id[fid].iter() if cls in _classes(e))

    assert count("high-hill", "hill-contour") == 2 and count("high-hill", "hill-crest") == 1
    assert count("long-ridge", "hill-crest") == 1
    assert len(list(by_id["dark-wood"].iter(f"{NS}circle"))) >= 6
    assert count("steading", "building") >= 2
    assert count("fen", "marsh-hatch") == 1
    assert count("afon", "crossing-bridge") == 1 and count("afon", "crossing-ford") == 1
    assert count("afon", "crossing-shallows") == 1
    # the river band is the river's width
    water = next(e for e in by_id["afon"].iter() if "river-water" in _classes(e))
    assert float(water.attrib["stroke-width"]) == pytest.approx(2.0 * 16)
    gully = next(e for e in by_id["hollow"].iter() if "gully-line" in _classes(e))
    assert "stroke-dasharray" in gully.attrib


def test_names_are_escaped() -> None:
    v = demo_view()
    v["terrain"][0]["name"] = 'Tre\'r <Ddôl> & "Co"'
    v["units"][0]["name"] = "A & B <C>"
    root = _parse(render_svg(v))
    labels = [
        "".join(t.text or "" for t in e.iter(f"{NS}text"))
        for e in root.iter(f"{NS}g")
        if "terrain-label" in _classes(e)
    ]
    assert 'Tre\'r <Ddôl> & "Co"' in labels


def test_title_option(view: dict[str, Any]) -> None:
    root = _parse(render_svg(view, title="Hello"))
    assert [t.text for t in root.iter(f"{NS}text") if "title" in _classes(t)] == ["Hello"]
    root = _parse(render_svg(view, title=""))
    assert not [t for t in root.iter(f"{NS}text") if "title" in _classes(t)]
    root = _parse(render_svg(view))
    caption = [t.text or "" for t in root.iter(f"{NS}text") if "title" in _classes(t)]
    assert caption and "Test Field" in caption[0] and "turn 3/15" in caption[0]


def test_scale_changes_size(view: dict[str, Any]) -> None:
    a = _parse(render_svg(view, scale=10.0))
    b = _parse(render_svg(view, scale=20.0))
    assert math.isclose(float(b.attrib["width"]), 2 * float(a.attrib["width"]))


def test_built_in_scenario_renders() -> None:
    from shieldwall.io.scenarios import load_game

    game = load_game("bryn-glas")
    st = game.new_state(1)
    view = st.view()
    root = _parse(render_svg(view))
    units = {e.attrib["data-unit"] for e in root.iter(f"{NS}g") if "unit" in _classes(e)}
    assert units == {u["id"] for u in view["units"]}
    assert {e.attrib["data-terrain"] for e in root.iter(f"{NS}g") if "terrain" in _classes(e)} == {
        f["id"] for f in view["terrain"]
    }


def test_absurd_sizes_draw_sparser_marks_not_millions() -> None:
    # a table, a wood, a village and crossings of absurd size (a scenario sent to the web app may say
    # anything finite) draw at most MAX_MARKS grid lines, trees, houses, planks or stones each, at once
    import time

    from shieldwall.render.svg_base import MAX_MARKS

    big = 1e7
    view = demo_view()
    view["table"] = {"width": big, "depth": big}
    view["terrain"] = [
        _feature("huge-wood", "woods", [[0, 0], [big, 0], [big, big]]),
        _feature("huge-village", "village", [[0, 0], [big, 0], [0, big]]),
        _feature(
            "long-river",
            "river",
            [[0, 40], [big, 40]],
            linear=True,
            crossings=[
                {"kind": "bridge", "at": [10, 40], "width": big / 2},
                {"kind": "ford", "at": [20, 40], "width": big / 2},
            ],
        ),
    ]
    t0 = time.perf_counter()
    root = _parse(render_svg(view))
    assert time.perf_counter() - t0 < 10.0
    grid = next(e for e in root.iter(f"{NS}path") if "grid" in _classes(e))
    assert 0 < grid.attrib["d"].count("M") <= 2 * MAX_MARKS
    for cls in ("trees", "building"):
        groups = [e for e in root.iter(f"{NS}g") if cls in _classes(e)]
        assert groups, cls
    trees = next(e for e in root.iter(f"{NS}g") if "trees" in _classes(e))
    assert 0 < len(trees) <= 2 * 2 * MAX_MARKS  # two circles a tree
    houses = [e for e in root.iter(f"{NS}g") if "building" in _classes(e)]
    assert 0 < len(houses) <= 2 * MAX_MARKS
    assert len(list(root.iter(f"{NS}circle"))) + len(list(root.iter(f"{NS}line"))) < 20 * MAX_MARKS


def test_the_six_inch_grid_of_an_ordinary_table() -> None:
    # 48" x 36": lines every 6" (7 across, 5 down), the same as before the sparse-mark cap
    root = _parse(render_svg(demo_view()))
    grid = next(e for e in root.iter(f"{NS}path") if "grid" in _classes(e))
    assert grid.attrib["d"].count("M") == 7 + 5
