"""The parts of a battle report: the chance of a roll the event settles, the shared terrain layer,
the losses chart."""

from __future__ import annotations

from shieldwall.render.report_odds import chance
from shieldwall.render.report_svg import losses_chart, share_terrain, side_colour


def test_an_explicit_probability_is_shown() -> None:
    assert chance({"p": 0.25}) == "25%"
    assert chance({"probability": 2.0}) is None  # not a probability


def test_groups_of_dice_read_over_or_under_from_their_own_faces_and_hits() -> None:
    over = {"die": "d6", "groups": [{"label": "long", "dice": 3, "need": 5, "faces": [6, 6, 2], "hits": 2}]}
    assert chance(over) == "long: 5+ about 33% a die (3 dice, 1.0 hits expected)"
    under = {"die": "d6", "groups": [{"dice": 2, "need": 2, "faces": [1, 2], "hits": 2}]}
    assert chance(under) == "2 or less about 33% a die (2 dice, 0.7 hits expected)"
    # the faces do not tell which way (2 and 5 against 3: one over, one under, one hit): no chance
    assert chance({"die": "d6", "groups": [{"dice": 2, "need": 3, "faces": [2, 5], "hits": 1}]}) is None


def test_a_test_of_one_die_reads_its_way_from_the_outcome() -> None:
    assert (
        chance({"die": "d100", "faces": [18], "target": 86, "passed": True})
        == "pass on 86 or less: about 86%"
    )
    assert chance({"die": "d6", "faces": [5], "need": 4, "result": "passed"}) == "pass on 4+: about 50%"
    assert chance({"die": "d6", "faces": [4], "need": 4, "passed": True}) is None  # a tie tells nothing
    assert chance({"faces": [18], "target": 86, "passed": True}) is None  # which die?
    assert chance({"die": "d6", "faces": [2, 3], "target": 4, "passed": True}) is None  # two dice


def test_identical_terrain_is_drawn_once_and_used_by_reference() -> None:
    terrain = "<polygon/>" * 50
    svg = f'<svg><g class="terrain-layer" clip-path="x"><g>{terrain}</g></g><g class="units"/></svg>'
    other = svg.replace("<polygon/>", "<circle/>", 1)
    shared, maps = share_terrain([svg, svg, other])
    assert shared.count('<g id="report-terrain-') == 2
    assert (
        maps[0]
        == maps[1]
        == '<svg><g class="terrain-layer" clip-path="x"><use href="#report-terrain-0"/></g>'
        + ('<g class="units"/></svg>')
    )
    assert "#report-terrain-1" in maps[2]


def test_the_losses_chart_has_a_bar_per_side_and_turn_with_losses() -> None:
    svg = losses_chart([1, 2, 3], {1: {"red": 2}, 3: {"red": 1, "tan": 4}}, ("red", "tan"))
    assert svg.count('class="bar"') == 3
    assert 'data-turn="3" data-side="tan" data-lost="4"' in svg
    assert side_colour("tan", ("red", "tan")) in svg
