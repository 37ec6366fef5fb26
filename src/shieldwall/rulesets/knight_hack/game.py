"""The Knight Hack game: a scenario bound to its tables and the rule parameters (the variants the
clause inventory proposes for its rulings, ``docs/rulings/knight-hack.md``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from shieldwall.core.game import BuiltGame, Parameter
from shieldwall.rulesets.knight_hack.board import Board, Unit
from shieldwall.rulesets.knight_hack.clauses import rule
from shieldwall.rulesets.knight_hack.plugin import INFO
from shieldwall.rulesets.knight_hack.scenario import SIDES, Scenario, build_scenario
from shieldwall.rulesets.knight_hack.state import KnightHackState

PARAMETERS: dict[str, Parameter] = {
    "auto_casualties": Parameter(
        "auto_casualties",
        "floor",
        "the chart's automatic casualties: a floor under the roll (R4) or added to it",
        ("floor", "add"),
        rule("casualties.automatic"),
    ),
    "bml_figures": Parameter(
        "bml_figures",
        "muster",
        "the basic morale level counts the muster figures (R6) or the figures left",
        ("muster", "current"),
        rule("morale.level"),
    ),
    "initiative_die": Parameter(
        "initiative_die", "d6", "the initiative roll-off's die (R12)", ("d6", "d100"), rule("move.initiative")
    ),
    "rout_test": Parameter(
        "rout_test",
        "once",
        "one test per router, a fail removes it (R14); or a test each movement phase, a fail runs on",
        ("once", "each_turn"),
        rule("rout.stop"),
    ),
    "missile_multi_casualty": Parameter(
        "missile_multi_casualty",
        True,
        "missile hits use the 1/2/3 casualty procedure (R10); no: one casualty at most",
        (True, False),
        rule("casualties.multiple"),
    ),
    "hand_deployment": Parameter(
        "hand_deployment",
        False,
        "the sides place their units by hand, in turn, within their deployment zones (ruling R51); "
        "off: the scenario places every unit",
        (False, True),
        rule("deployment"),
    ),
    "turns": Parameter(
        "turns",
        8,
        "turns before the battle ends (the scenario's turn limit)",
        rule=rule("turn.sequence"),
        low=1,
        high=50,  # (as a scenario's ``turns``)
    ),
}


class KnightHackGame(BuiltGame):
    info = INFO
    parameters = PARAMETERS
    scenario: Scenario
    build = staticmethod(build_scenario)

    def portable_source(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """The scenario data as a save records it (``BuiltGame.portable_source``), with the SHA-256
        of every table file used (``tables_sha256``), so a replay on other tables is refused
        (``scenario.check_tables``)."""
        d = super().portable_source(data)  # (a data folder made absolute)
        d.setdefault("tables_sha256", dict(self.scenario.tables.digests))
        return d

    @property
    def label(self) -> str | None:
        """The sample-tables banner, or None on user or published tables."""
        return self.scenario.tables.label

    def new_board(self, seed: int | None) -> Board:
        sc = self.scenario
        units = {
            d.unit.id: Unit(
                d.unit.id,
                d.side,
                d.unit.label,
                d.unit.type,
                d.unit.unit_class,
                d.unit.figures,
                d.unit.figures,
                d.unit.frontage,
                tuple(d.unit.weapons),
                d.unit.fanatic,
                d.unit.leader,
                d.x,
                d.y,
                d.heading,
                hidden=d.ambush,
            )
            for d in sc.units
        }
        return Board(
            sc.tables,
            dict(self._params),
            SIDES,
            sc.spec.table.width,
            sc.spec.table.depth,
            dict(sc.edges),
            np.random.default_rng(seed),
            units,
        )

    def new_state(self, seed: int | None = None) -> KnightHackState:
        return KnightHackState(self, self.new_board(seed))
