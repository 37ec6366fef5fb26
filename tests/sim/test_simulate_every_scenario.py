"""``simulate`` works on every built-in scenario of every rule system (it once crashed on every
into-the-dark scenario: its results named tallies, not unit types, which the losses table counts)."""

from __future__ import annotations

import pytest

from shieldwall.io.scenarios import builtin_scenarios, load_game
from shieldwall.sim.simulate import SimConfig, run

SCENARIOS = list(builtin_scenarios())


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_simulate_a_few_battles_of_every_builtin_scenario(scenario: str) -> None:
    res = run(SimConfig(scenario, battles=2, workers=1, red="random", blue="random"))
    assert res.ruleset == scenario.split("/")[0]
    (base,) = res.summaries
    s = base.to_dict()
    assert s["battles"] == 2
    assert sum(s["wins"].values()) + s["draws"] == 2
    # the losses table has a row per side and unit type the game may book a loss under (the
    # armies' types, and any its units may become: ``Game.unit_types``), and nothing else
    game = load_game(scenario)
    types = {(side, t) for side, ts in game.unit_types().items() for t in ts}
    assert {(str(u["side"]), str(u["type"])) for u in game.new_state(0).view()["units"]} <= types
    rows = {(side, t) for side, per in s["mean_losses"].items() for t in per}
    assert rows == types
    for side, per in s["mean_losses"].items():
        assert all(v >= 0 for v in per.values())
        assert sum(per.values()) == pytest.approx(s["mean_units_lost"][side])
