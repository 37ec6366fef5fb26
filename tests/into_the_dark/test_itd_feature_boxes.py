"""A terrain feature's bounding box kept per feature (``spatial._box``, issue 16): the box the
plain test makes from the feature's points at every call, and the same verdicts."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from shieldwall.core.geometry import Footprint
from shieldwall.io.scenarios import load_game
from shieldwall.rulesets.into_the_dark import spatial

FEATURES = [
    f
    for scenario in ("into-the-dark/senlac", "into-the-dark/wye-fords")
    for f in load_game(scenario).new_state(1).terrain.features  # type: ignore[attr-defined]
]


def test_the_kept_box_is_the_box_of_the_points_and_each_feature_has_its_own() -> None:
    assert len(FEATURES) >= 5
    for f in FEATURES:
        kept = spatial._box(f)
        assert kept[0] is f and spatial._box(f) == kept
        assert spatial._BOXES[id(f)][0] is f  # kept by the feature's identity (compiled: a tuple is a value)
        xs, ys = [p[0] for p in f.points], [p[1] for p in f.points]
        assert kept[1:] == (min(xs), max(xs), min(ys), max(ys))


@settings(max_examples=300, deadline=None)
@given(
    st.integers(0, len(FEATURES) - 1),
    st.floats(-20, 90),
    st.floats(-20, 70),
    st.floats(0, 360),
    st.floats(0.5, 12),
    st.floats(0.5, 6),
    st.floats(0, 4),
)
def test_the_kept_box_answers_as_the_plain_test(
    i: int, x: float, y: float, heading: float, frontage: float, depth: float, pad: float
) -> None:
    f = FEATURES[i]
    fp = Footprint(x, y, heading, frontage, depth)
    assert spatial._box_far(fp, f, pad) == spatial._bbox_far(fp, f, pad)
