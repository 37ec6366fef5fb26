"""``OneHourGame``: the one-hour-dark-ages rules bound to a scenario and parameter values."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from shieldwall.core.errors import DataError
from shieldwall.core.game import Parameter, RulesetInfo, ScenarioGame
from shieldwall.core.geometry import Footprint
from shieldwall.rulesets.one_hour.model import SIDES, Personality, Unit
from shieldwall.rulesets.one_hour.params import DEFAULTS, PARAMETERS, range_problem
from shieldwall.rulesets.one_hour.plugin import INFO
from shieldwall.rulesets.one_hour.profiles import unit_profiles
from shieldwall.rulesets.one_hour.scenario import ScenarioSpec, build_scenario, terrain_map
from shieldwall.rulesets.one_hour.spatial import placement_problem
from shieldwall.rulesets.one_hour.state import OneHourState
from shieldwall.rulesets.one_hour.zones import Zone, derived_zone


class OneHourGame(ScenarioGame[ScenarioSpec]):
    info: ClassVar[RulesetInfo] = INFO
    parameters: ClassVar[Mapping[str, Parameter]] = PARAMETERS

    @classmethod
    def check_params(cls, overrides: Mapping[str, Any]) -> dict[str, Any]:
        """The core's check (names, types, choices) and each numeric parameter's range; a bad value
        is a ``DataError`` naming the parameter (``rule parameters: shots: ...``), never a bare
        ``ValueError``."""
        out = super().check_params(overrides)
        for k, v in out.items():
            problem = range_problem(k, v)
            if problem:
                raise DataError("rule parameters", k, problem)
        return out

    def __init__(
        self, spec: ScenarioSpec, overrides: Mapping[str, Any] | None = None, file: str = "<scenario>"
    ) -> None:
        self.bind(spec, DEFAULTS, overrides)
        params = self._params
        self.terrain = terrain_map(spec)
        self.initial_units: list[Unit] = []
        self.initial_personalities: list[Personality] = []
        self.home_edge = {s: getattr(spec, s).home_edge for s in SIDES}
        self.army_size = {s: len(getattr(spec, s).units) for s in SIDES}
        self.force_morale_bonus = {s: getattr(spec, s).force_morale_bonus for s in SIDES}
        self.side_names = {s: getattr(spec, s).name for s in SIDES}
        profiles = unit_profiles()
        for side in SIDES:
            sd = getattr(spec, side)
            for us in sd.units:
                p = profiles[us.type]
                limit = p.hits if p.hits is not None else int(params["hit_limit"])
                # Variations: Determined 18 / Reluctant 12; Variable Quality: Elite 18 / Levy 12
                if us.upgrade == "determined" or us.quality == "elite":
                    limit = limit + 3
                if us.upgrade == "reluctant" or us.quality == "levy":
                    limit = limit - 3
                self.initial_units.append(
                    Unit(
                        id=us.id,
                        side=side,
                        name=us.name or p.name,
                        type=us.type,
                        profile=p,
                        fp=Footprint(us.x, us.y, us.heading, us.frontage, us.depth),
                        max_hits=limit,
                        attack_mod={"household": 1, "levy": -1}.get(us.upgrade, 0),
                        upgrade=us.upgrade,
                        quality=us.quality,
                        allied=us.allied,
                    )
                )
            for ps in sd.personalities:
                self.initial_personalities.append(
                    Personality(ps.id, side, ps.kind, ps.banner, ps.unit, ps.allied)
                )
        self._check_deployment(file)
        #: where each unit stands as the scenario places it (hand deployment's suggestion, R50)
        self.initial_fp = {u.id: u.fp for u in self.initial_units}
        #: each side's deployment zone (ruling R50): the scenario's, else derived from its units
        self.deploy_zones: dict[str, Zone] = {}
        for side in SIDES:
            z = getattr(spec, side).deploy_zone
            self.deploy_zones[side] = (
                (z.x0, z.y0, z.x1, z.y1)
                if z is not None
                else derived_zone(
                    self.home_edge[side],
                    self.terrain.width,
                    self.terrain.depth,
                    [u.fp for u in self.initial_units if u.side == side],
                )
            )

    def _check_deployment(self, file: str) -> None:
        """Every unit must start on the table, overlapping nobody, out of terrain it may not enter
        and out of rivers (units may start in contact with an enemy: a battle may open in melee)."""
        index = {u.id: i for s in SIDES for i, u in enumerate(getattr(self.spec, s).units)}
        for u in self.initial_units:
            enemies = [x.id for x in self.initial_units if x.side != u.side]
            prob = placement_problem(u, u.fp, self.initial_units, self.terrain, allow_contact=enemies)
            if prob:
                raise DataError(
                    file, f"{u.side}.units[{index[u.id]}]", f"{u.id} cannot be deployed there: {prob}"
                )

    @classmethod
    def from_data(cls, data: Any, file: str, overrides: Mapping[str, Any] | None = None) -> OneHourGame:
        return cls(build_scenario(data, file), overrides, file)

    def new_state(self, seed: int | None = None) -> OneHourState:
        return OneHourState(self, seed)
