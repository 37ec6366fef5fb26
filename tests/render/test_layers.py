"""The picture's rule-system layers come from the view's rule system's plugin (``render.layers``);
a view of none, or of one not installed, is drawn with the generic drawing."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from shieldwall import registry
from shieldwall.core.game import RulesetInfo
from shieldwall.plugin import PluginError, RuleSystem
from shieldwall.render.layers import DEFAULT, BaseDrawing, Drawing, drawing_for
from shieldwall.render.svg import render_svg

sys.path.insert(0, str(Path(__file__).parent))
from test_svg import demo_view  # noqa: E402

NS = "{http://www.w3.org/2000/svg}"


def _plugin(rid: str, drawing: str | None) -> RuleSystem:
    return RuleSystem(
        info=RulesetInfo(rid, "Test", "tabletop", ("red", "blue"), "none", "test"),
        package="shieldwall",
        game="shieldwall.core.game:Game",
        parameters="shieldwall.plugin:BOARDS",
        drawing=drawing,
    )


def _labels(svg: str) -> dict[str, str]:
    root = ET.fromstring(svg)
    return {
        str(g.get("data-unit")): "".join(
            t.text or "" for t in g.iter(f"{NS}text") if t.get("class") == "unit-label"
        )
        for g in root.iter(f"{NS}g")
        if "unit" in (g.get("class") or "").split()
    }


def test_each_built_in_rule_system_has_its_drawing() -> None:
    for rid in registry.ids():
        d = drawing_for({"ruleset": rid})
        assert isinstance(d, Drawing) and d is not DEFAULT
    assert drawing_for({}) is DEFAULT and drawing_for({"ruleset": "no-such-rules"}) is DEFAULT
    assert drawing_for({"ruleset": 7}) is DEFAULT


def test_a_view_of_no_installed_rule_system_gets_generic_labels_and_icons() -> None:
    view = demo_view()
    own = render_svg(view)
    generic = render_svg({**view, "ruleset": "no-such-rules"})
    assert _labels(own)["b4"] == "b4 Sk Jav" and _labels(generic)["b4"] == "b4 Ski Jav"
    assert _labels(own)["r1"] == _labels(generic)["r1"] == "r1 Inf"
    # the hero keeps its marker (the class and label are generic) but is drawn as the generic crown
    for svg, linejoin in ((own, None), (generic, "round")):  # a star, a crown
        hero = next(g for g in ET.fromstring(svg).iter(f"{NS}g") if g.get("data-personality") == "hero")
        assert "personality-hero" in (hero.get("class") or "")
        icon = hero.find(f"{NS}polygon")
        assert icon is not None and icon.get("stroke-linejoin") == linejoin
    assert generic != own and render_svg({**view, "ruleset": None}) == generic


def test_a_plugin_s_drawing_is_found_by_its_id_and_a_broken_one_is_named() -> None:
    view = {**demo_view(), "ruleset": "t-draw"}
    view["terrain"] = [{**view["terrain"][0], "kind": "steep-hill", "id": "crag", "name": ""}]
    with registry.registered(_plugin("t-draw", "shieldwall.rulesets.into_the_dark.drawing:DRAWING")):
        svg = render_svg(view)
    assert 'id="sw-itd-rout"' in svg  # its defs
    root = ET.fromstring(svg)
    crag = next(g for g in root.iter(f"{NS}g") if g.get("data-terrain") == "crag")
    assert crag.get("data-kind") == "hill"  # its terrain kinds
    with registry.registered(_plugin("t-draw", None)):
        assert drawing_for(view) is DEFAULT
    with (
        registry.registered(_plugin("t-draw", "shieldwall.rulesets.one_hour.drawing:SHORT_TYPES")),
        pytest.raises(PluginError, match="not a Drawing"),
    ):
        render_svg(view)


def test_the_generic_drawing_leaves_everything_as_it_is() -> None:
    d = BaseDrawing()
    f = {"kind": "steep-hill"}
    assert d.terrain({}, f) is f and d.unit(None, {}) == "" and d.defs(None) == ""  # type: ignore[arg-type]
    assert d.type_label("heavy-infantry") == "Hea Inf" and d.personality_width("leader+banner", 1.0) == 2.4
