"""The SVG renderer draws into-the-dark units: figures and ranks, morale state, mapped terrain."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from shieldwall.io.scenarios import load_game
from shieldwall.render.layers import Canvas
from shieldwall.render.svg import render_svg
from shieldwall.rulesets.into_the_dark.drawing import DRAW_AS, unit_marks

NS = "{http://www.w3.org/2000/svg}"


def _view() -> dict[str, object]:
    return load_game("into-the-dark/senlac").new_state(1).view()


def test_every_into_the_dark_unit_is_drawn_with_its_files_and_ranks() -> None:
    view = _view()
    root = ET.fromstring(render_svg(view))
    marks = {g.get("data-unit"): g for g in root.iter(f"{NS}g") if g.get("class") == "itd-unit"}
    units = [u for u in view["units"] if not u["removed"]]  # type: ignore[union-attr]
    assert set(marks) == {u["id"] for u in units}
    for u in units:
        g = marks[u["id"]]
        assert g.get("data-figures") == str(u["figures"])
        files = [p for p in g.iter(f"{NS}path") if p.get("class") == "itd-files"]
        # one tick per file boundary and one line per rank boundary
        assert files and files[0].get("d", "").count("M") == (u["front"] - 1) + (u["ranks"] - 1)
        title = next(g.iter(f"{NS}title")).text or ""
        assert f"figures {u['figures']} of {u['original']}" in title


def test_morale_states_and_shieldwall_get_their_marks() -> None:
    view = _view()
    units = [dict(u) for u in view["units"]]  # type: ignore[union-attr]
    wall = next(u for u in units if u["shieldwall"])
    plain = next(u for u in units if not u["shieldwall"])
    plain.update(morale="shaken", disordered=True)
    c = Canvas(72.0, 48.0, 16.0)
    assert 'class="itd-badge itd-shaken"' in unit_marks(c, plain)
    assert 'class="itd-badge itd-disordered"' in unit_marks(c, plain)
    assert "itd-shieldwall" in unit_marks(c, wall) and "itd-badge" not in unit_marks(c, wall)
    plain.update(morale="routed")
    routed = unit_marks(c, plain)
    assert "itd-routed" in routed and 'class="itd-badge itd-routed"' in routed
    view = {**view, "units": units}
    svg = render_svg(view)
    assert 'id="sw-itd-rout"' in svg and ET.fromstring(svg) is not None


def test_into_the_dark_terrain_is_drawn_with_the_nearest_drawing_and_one_hour_units_get_no_marks() -> None:
    view = _view()
    root = ET.fromstring(render_svg(view))
    kinds = {g.get("data-kind") for g in root.iter(f"{NS}g") if (g.get("class") or "").startswith("terrain ")}
    assert kinds == {"hill", DRAW_AS["swamp"], DRAW_AS["open-woods"]}
    one_hour = load_game(None).new_state(1).view()
    assert "itd-unit" not in render_svg(one_hour)
