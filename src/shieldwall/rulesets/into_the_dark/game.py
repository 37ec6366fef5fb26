"""``IntoTheDarkGame``: the into-the-dark rules bound to a scenario and parameter values."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from shieldwall.core.errors import DataError
from shieldwall.core.game import Parameter, RulesetInfo, ScenarioGame

from .army import Army
from .clauses import cite
from .model import SIDES, Unit, base_width_in
from .movement import terrain_effect
from .params import DEFAULTS, PARAMETERS, UNIT_RULES
from .plugin import INFO
from .profiles import basing
from .scenario import (
    ScenarioSpec,
    build_scenario,
    overlap_problem,
    terrain_map,
    with_armies_inline,
    zone_problem,
)
from .state import IntoTheDarkState


class IntoTheDarkGame(ScenarioGame[ScenarioSpec]):
    info: ClassVar[RulesetInfo] = INFO
    parameters: ClassVar[Mapping[str, Parameter]] = PARAMETERS

    @classmethod
    def check_params(cls, overrides: Mapping[str, Any]) -> dict[str, Any]:
        """The core's check (names, types, choices) and the turn limit's range (as in a scenario's
        ``turns``); a bad value is a ``DataError`` naming the parameter, never a bare ``ValueError``."""
        out = super().check_params(overrides)
        turns = out.get("turns")
        if turns is not None and (
            isinstance(turns, bool) or not isinstance(turns, int) or not 1 <= turns <= 100
        ):
            raise DataError(
                "rule parameters", "turns", f"must be a whole number from 1 to 100, not {turns!r}"
            )
        return out

    def __init__(
        self,
        spec: ScenarioSpec,
        armies: Mapping[str, Army],
        overrides: Mapping[str, Any] | None = None,
        file: str = "<scenario>",
    ) -> None:
        self.bind(spec, DEFAULTS, overrides)
        self.armies = dict(armies)
        self.terrain = terrain_map(spec)
        self.home_edge = {s: getattr(spec, s).home_edge for s in SIDES}
        self.side_names = {s: getattr(spec, s).name for s in SIDES}
        b = spec.basing
        self.initial_units: list[Unit] = []
        for side in SIDES:
            sd = getattr(spec, side)
            for d in sd.deploy:
                au = self.armies[side].unit(d.unit)
                custom = {str(k): v for k, v in b.width_mm.items()} if b.width_mm else None
                w = base_width_in(b.system, au.density, custom)
                depth = (b.mounted_depth_mm if au.mounted else b.foot_depth_mm) / 25.4
                front = d.frontage if d.frontage is not None else au.front
                # "To move along a road a unit must be in column, and (depending on basing) 1
                # multi-base or 2 figures wide" (terrain.roads)
                column = basing().wrg.figures_per_base[au.density] if b.system.startswith("wrg") else 2
                self.initial_units.append(
                    Unit(
                        id=d.id,
                        side=side,
                        spec=au,
                        fig_w=w,
                        rank_d=depth,
                        figures=au.figures,
                        original=au.figures,
                        front=front,
                        x=d.x,
                        y=d.y,
                        heading=d.heading,
                        shieldwall=d.shieldwall,
                        column=column,
                    )
                )
        self._check_optional_rules(file)
        self._check_positions(file)
        if self._params["concealed_deployment"] and self._params["deployment"] != "alternate":
            raise DataError(
                file,
                "options.concealed_deployment",
                "cards are deployed 'using the sequence in the basic deployment rules': set "
                f'deployment = "alternate" [rule {cite("concealed-deployment.playing-cards")}]',
            )
        if self._params["deployment"] == "alternate":
            for u in self.initial_units:
                u.deployed = False  # placed in the deployment sequence (setup.deployment)

    def _check_optional_rules(self, file: str) -> None:
        """Optional rules (Part III) are switched per scenario: a unit may not use one that is off."""
        for u in self.initial_units:
            for name, (opts, clause, what) in UNIT_RULES.items():
                if self._params[name]:
                    continue
                uses = any(u.spec.has(o) for o in opts)  # type: ignore[arg-type]
                if name == "peasants":
                    uses = uses or u.spec.peasant
                if uses:
                    raise DataError(
                        file,
                        f"{u.side}.deploy {u.id}",
                        f"{u.name} uses the optional rule {what}, which options.{name} switches off "
                        f"[rule {cite(clause)}]",
                    )

    def _check_positions(self, file: str) -> None:
        t = self.terrain
        for u in self.initial_units:
            fp = u.fp
            where = f"{u.side}.deploy {u.id}"
            if not all(0 <= x <= t.width and 0 <= y <= t.depth for x, y in fp.corners()):
                raise DataError(
                    file, where, f"{u.name} does not stand on the table [rule {cite('setup.deployment')}]"
                )
            factor, dis, _ = terrain_effect(u, fp, t, swim=False)
            if factor is None:
                raise DataError(
                    file, where, f"{u.name} stands in terrain it may not enter [rule {cite(dis[0])}]"
                )
            if self.spec.meeting_engagement and self._params["deployment"] == "scenario":
                self._check_zone(u, file, where)
        prob = overlap_problem([(u.id, u.fp) for u in self.initial_units])
        if prob:
            raise DataError(file, "deploy", f"{prob} [rule {cite('setup.deployment')}]")

    def _check_zone(self, u: Unit, file: str, where: str) -> None:
        """ "You may deploy no further in than 1/4 of the table width ... and no closer than 12" from
        the side edges" (setup.deployment)."""
        prob = zone_problem(self.terrain, self.home_edge[u.side], u.fp.corners(), self._params["scale"])
        if prob:
            raise DataError(file, where, f"{u.name} {prob} [rule {cite('setup.deployment')}]")

    def portable_source(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """The scenario data as a save records it: army files inline (``with_armies_inline``), so
        that the save replays wherever it is read from."""
        return with_armies_inline(data, self.source_file or "<scenario>")

    @classmethod
    def from_data(cls, data: Any, file: str, overrides: Mapping[str, Any] | None = None) -> IntoTheDarkGame:
        spec, armies = build_scenario(data, file)
        return cls(spec, armies, overrides, file)

    def new_state(self, seed: int | None = None) -> IntoTheDarkState:
        return IntoTheDarkState(self, seed)


GAME_CLASS = IntoTheDarkGame
