"""The toy-duel plugin object."""

from shieldwall.core.game import RulesetInfo
from shieldwall.plugin import RuleSystem

INFO = RulesetInfo(
    id="toy-duel",
    title="Toy duel (two units, one die, one rule)",
    board="tabletop",
    sides=("red", "blue"),
    source="tests/toy/toy_duel/game.py",
    summary="Each turn one side strikes (a d6 at or above hit_on takes a strength point) or waits.",
)

PLUGIN = RuleSystem(
    info=INFO,
    package="toy_duel",
    order=900,
    default_scenario="skirmish",
    game="toy_duel.game:ToyGame",
    parameters="toy_duel.game:PARAMETERS",
    odds="toy_duel.odds:PLUGIN",
    clauses="toy_duel.game:CLAUSES",
)
