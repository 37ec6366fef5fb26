"""The Dark Ages game: a scenario bound to its charts and map, and the rule parameters."""

from __future__ import annotations

from shieldwall.core.dice import seeded_rng
from shieldwall.core.game import BuiltGame, Parameter
from shieldwall.rulesets.spi_dark_ages.board import Army, Board, Unit
from shieldwall.rulesets.spi_dark_ages.clauses import rule
from shieldwall.rulesets.spi_dark_ages.plugin import INFO
from shieldwall.rulesets.spi_dark_ages.scenario import SIDES, Scenario, build_scenario
from shieldwall.rulesets.spi_dark_ages.state import DarkAgesState

PARAMETERS: dict[str, Parameter] = {
    "turns": Parameter(
        "turns",
        12,
        "Game-Turns before the battle ends (the scenario's)",
        rule=rule("setup.turn"),
        low=1,
        high=50,  # (as a scenario's ``turns``)
    ),
}


class DarkAgesGame(BuiltGame):
    info = INFO
    parameters = PARAMETERS
    scenario: Scenario
    build = staticmethod(build_scenario)

    @property
    def label(self) -> str | None:
        """The illustrative-data banner, or None on user or SPI charts."""
        return self.scenario.charts.label

    @property
    def scenario_name(self) -> str:
        """The scenario's name, with the illustrative-data banner when the sample charts are used
        (``inventory``): every host output that names the battle (simulate, reports, the web
        table's title) then carries it."""
        name: str = self.scenario.spec.name
        return f"{name} — {self.label}" if self.label else name

    def unit_types(self) -> dict[str, tuple[str, ...]]:
        """The armies' types, and after each cavalry type that dismounts the types it becomes
        (``dismount.phase``: the dismounted unit and its riderless mounts, which the charts name;
        each can be eliminated and is booked under its own type)."""
        # spi-dark-ages:dismount.phase
        charts = self.scenario.charts.units
        out: dict[str, tuple[str, ...]] = {}
        for side, listed in super().unit_types().items():
            types = list(listed)
            for t in types:  # (grows as it goes: a type a dismount gives is looked at in turn)
                got = charts.get(t)
                for more in (got.dismounts_to, got.mount) if got is not None else ():
                    if more is not None and more not in types:
                        types.append(more)
            out[side] = tuple(types)
        return out

    def new_board(self, seed: int | None) -> Board:
        sc = self.scenario
        armies = {}
        for colour, key in sc.armies.items():
            a = sc.spec.army[key]
            armies[colour] = Army(colour, a.name, a.pv, a.pl, a.pv_source, a.ferocity, a.vitality)
        units = {
            p.id: Unit(
                p.id,
                p.side,
                p.type,
                None if p.enter_turn or p.aboard else p.hex,
                p.facing,
                enter_turn=p.enter_turn,
                enter_at=p.hex,
                aboard=p.aboard,
            )
            for p in sc.units
        }
        return Board(
            sc.charts,
            sc.map,
            dict(self._params),
            SIDES,
            sc.order,
            armies,
            units,
            seeded_rng(seed),
            int(self._params["turns"]),
        )

    def new_state(self, seed: int | None = None) -> DarkAgesState:
        return DarkAgesState(self, self.new_board(seed))
