"""The renderer keeps the SVG of terrain features and units it has drawn (``render.svg._Drawn``):
a kept piece must be exactly the piece drawn anew, and a changed piece must be drawn anew."""

from __future__ import annotations

import copy
import random
import threading
from typing import Any

from tests.render.test_svg import demo_view

from shieldwall.render import svg as svg_mod
from shieldwall.render.svg import render_svg
from shieldwall.render.svg_base import _n


def _fresh(view: dict[str, Any]) -> str:
    """The view drawn with nothing kept."""
    saved = svg_mod._TERRAIN, svg_mod._UNITS, svg_mod._FIXED
    svg_mod._TERRAIN, svg_mod._UNITS, svg_mod._FIXED = (
        svg_mod._Drawn(256),
        svg_mod._Drawn(8192),
        svg_mod._Drawn(64),
    )
    try:
        return render_svg(view)
    finally:
        svg_mod._TERRAIN, svg_mod._UNITS, svg_mod._FIXED = saved


def test_a_kept_drawing_is_the_drawing_anew() -> None:
    view = demo_view()
    first = render_svg(view)
    assert render_svg(view) == first == _fresh(view)


def test_a_moved_or_hit_unit_is_drawn_anew() -> None:
    view = demo_view()
    before = render_svg(view)
    moved = copy.deepcopy(view)
    u = moved["units"][0]
    u["hits"] = int(u.get("hits") or 0) + 1
    u["x"] = float(u["x"]) + 1.5
    after = render_svg(moved)
    assert after != before
    assert after == _fresh(moved)
    assert render_svg(view) == before


def test_a_changed_terrain_feature_is_drawn_anew() -> None:
    view = demo_view()
    before = render_svg(view)
    changed = copy.deepcopy(view)
    f = changed["terrain"][0]
    f["points"] = [[float(x) + 0.5, float(y)] for x, y in f["points"]]
    after = render_svg(changed)
    assert after != before and after == _fresh(changed)


def test_another_table_size_or_scale_draws_the_fixed_parts_anew() -> None:
    """The head of the picture and the furniture are kept per table size, scale and drawing."""
    view = demo_view()
    before = render_svg(view)
    wider = copy.deepcopy(view)
    wider["table"] = {**wider.get("table", {}), "width": 60.0, "depth": 40.0}
    after = render_svg(wider)
    assert after != before and after == _fresh(wider)
    assert render_svg(view, scale=10.0) == _fresh_scaled(view, 10.0) != before
    assert render_svg(view) == before


def _fresh_scaled(view: dict[str, Any], scale: float) -> str:
    saved = svg_mod._FIXED
    svg_mod._FIXED = svg_mod._Drawn(64)
    try:
        return render_svg(view, scale=scale)
    finally:
        svg_mod._FIXED = saved


def test_the_kept_pieces_are_bounded() -> None:
    kept = svg_mod._Drawn(3)
    for i in range(10):
        assert kept.get((i,), lambda i=i: f"piece {i}") == f"piece {i}"
    assert len(kept._kept) == 3
    assert kept.get((9,), lambda: "drawn again") == "piece 9"
    assert kept.get((0,), lambda: "drawn again") == "drawn again"


def test_drawing_from_several_threads_gives_the_same_bytes() -> None:
    view = demo_view()
    want = _fresh(view)
    got: list[str] = []

    def draw() -> None:
        for _ in range(5):
            got.append(render_svg(view))

    threads = [threading.Thread(target=draw) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == [want] * 20


def _n_reference(v: float) -> str:
    """The number format as it was first written: ``round`` then format."""
    r = round(float(v), 2)
    if r == 0.0:
        return "0"
    return f"{r:.2f}".rstrip("0").rstrip(".")


def test_numbers_are_formatted_as_round_then_format() -> None:
    rng = random.Random(7)
    edge = [0.0, -0.0, 0.005, -0.005, 0.015, 2.675, -2.675, 1e300, float("inf"), float("-inf"), -0.0049999]
    values = edge + [rng.uniform(-2000, 2000) for _ in range(20_000)]
    nudges = [0.0, 5e-3, -5e-3, 1e-12]
    values += [rng.randint(-(10**6), 10**6) / 1000 + rng.choice(nudges) for _ in range(20_000)]
    for v in values:
        assert _n(v) == _n_reference(v), v
