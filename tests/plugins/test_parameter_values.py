"""Every rule system's parameters refuse values that are not of their type or out of their range,
whatever the path a value comes by: ``--variant KEY=VALUE`` text, or JSON data from a save or the
web (null, a list, an object, 2.5 for a whole number, ``true`` for a number). The web once stored
a Knight Hack game with ``turns = 2.5`` whose bot then failed on every reply, answered an import
with ``turns: null`` with a 500, and the command line printed a traceback for ``turns=abc``."""

from __future__ import annotations

from typing import Any

import pytest

from shieldwall.core.errors import ShieldwallError
from shieldwall.io.scenarios import builtin_scenarios, load_game

#: one built-in scenario of each rule system
SCENARIOS = sorted({name.split("/")[0]: name for name in sorted(builtin_scenarios())}.values())


def _bad_values(default: Any) -> list[Any]:
    bad: list[Any] = [None, [1], {"a": 1}]
    if isinstance(default, bool):
        return [*bad, 1, 0, "maybe", 2.5]
    if isinstance(default, int):
        return [*bad, 2.5, True, "abc", "1.5", float("nan")]
    if isinstance(default, float):
        return [*bad, True, "abc", float("inf")]
    return [*bad, 7, True]


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_parameter_refuses_values_of_another_type(scenario: str) -> None:
    game = load_game(scenario)
    for key, p in type(game).parameters.items():
        for v in _bad_values(p.default):
            with pytest.raises(ShieldwallError) as e:
                type(game).check_params({key: v})
            assert key in str(e.value), (key, v, str(e.value))


@pytest.mark.parametrize(
    ("scenario", "key", "low", "high"),
    [
        ("knight-hack/bourgtheroulde-1124", "turns", 1, 50),
        ("dbm-3.2/ford-of-ash", "bounds", 1, 200),
        ("spi-dark-ages/tours", "turns", 1, 50),
    ],
)
def test_turn_limits_keep_the_scenarios_range(scenario: str, key: str, low: int, high: int) -> None:
    """As a scenario file's own ``turns`` / ``bounds``: a limit of -5 ended a battle at once, and
    100,000,000 ran past ``match.play``'s decision limit (a traceback)."""
    cls = type(load_game(scenario))
    for v in (low - 1, high + 1, -5, 100_000_000, str(low - 1), str(high + 1)):
        with pytest.raises(ShieldwallError, match=f"{key}: must be from {low} to {high}"):
            cls.check_params({key: v})
    assert cls.check_params({key: low}) == {key: low}
    assert cls.check_params({key: str(high)}) == {key: high}
