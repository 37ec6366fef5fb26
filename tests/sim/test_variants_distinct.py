"""A variant plays rules of its own: one given twice, or whose values are the baseline's, is
refused (``simulate --variant dice=d5`` was accepted and played the baseline again, while the
error for a repeat said "or equals the baseline"); ``battle`` refuses a parameter given twice
(the last one silently won). Found by an exploratory test of the command line."""

from __future__ import annotations

import pytest

from shieldwall.cli import run
from shieldwall.sim.simulate import SimConfig, VariantError
from shieldwall.sim.simulate import run as simulate


@pytest.mark.parametrize(
    ("variants", "words"),
    [
        (["dice=d5"], "plays the same rules as the baseline"),
        (["turns=15"], "plays the same rules as the baseline"),  # (the scenario's own limit)
        (["dice=d6", "dice=d6"], "is given twice"),
        (["dice=d6", "dice=d6,turns=15"], "plays the same rules as variant 'dice=d6'"),
    ],
)
def test_a_variant_that_changes_nothing_is_refused(variants: list[str], words: str) -> None:
    with pytest.raises(VariantError, match=words):
        simulate(SimConfig("one-hour-dark-ages/bryn-glas", battles=1, workers=1, variants=tuple(variants)))


def test_battle_refuses_a_parameter_given_twice(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["battle", "--variant", "turns=3", "--variant", "turns=4"]) != 0
    err = capsys.readouterr().err
    assert "turns is given twice" in err and "Traceback" not in err
