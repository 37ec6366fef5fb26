"""Reference data: the rule systems, their clause tables, the built-in scenarios, the bots."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Query
from fastapi import Path as PathParam

from shieldwall import registry
from shieldwall.ai.base import bot_names
from shieldwall.core.datafiles import read_toml
from shieldwall.core.errors import ShieldwallError
from shieldwall.io.scenarios import builtin_scenarios, default_scenario
from shieldwall.web import log as L
from shieldwall.web.context import BAD_INPUT, Ctx
from shieldwall.web.models import NAME, ClauseOut, ErrorOut, RulesetOut, ScenarioOut
from shieldwall.web.session import ApiError

router = APIRouter(tags=["reference"])


def web_module_url(ruleset: str) -> str | None:
    """Where the page imports a rule system's web piece from (``/rulesets/<id>/<file>``), or None."""
    rs = registry.find(ruleset)
    if rs is None or not rs.web_module:
        return None
    name = rs.web_module.rpartition("/")[2]
    return f"/rulesets/{rs.id}/{name}" if rs.web_file(name) is not None else None


@router.get("/api/health")
def health() -> dict[str, str]:
    """Liveness check."""
    return {"status": "ok"}


@router.get("/api/rulesets")
def rulesets() -> list[RulesetOut]:
    """The rule systems a game can be played with, and their parameters."""
    out = []
    for rid, rs in registry.systems().items():
        cls = rs.game_class()
        info = cls.info
        out.append(
            RulesetOut(
                id=rid,
                title=info.title,
                board=info.board,
                sides=list(info.sides),
                summary=info.summary,
                complete=info.complete,
                parameters=[
                    {
                        "name": p.name,
                        "default": p.default,
                        "doc": p.doc,
                        "choices": list(p.choices),
                        "rule": p.rule,
                    }  # type: ignore[misc]
                    for p in cls.parameters.values()
                ],
                web_module=web_module_url(rid),
                reach=rs.reach is not None,
                length_unit=rs.length_unit,
                army=rs.army_cost is not None,
                ranges=rs.ranges is not None,
                search_options=rs.search_options,
            )
        )
    return out


@router.get("/api/rulesets/{ruleset}/clauses", responses={404: {"model": ErrorOut}, **BAD_INPUT})
def ruleset_clauses(ruleset: Annotated[str, PathParam(pattern=NAME)]) -> list[ClauseOut]:
    """The clause table of a rule system: every clause id an event or a refusal can name."""
    table = L.clauses(ruleset)
    if not table:
        raise ApiError(
            404, f"no clause table for rule system {ruleset!r}; known: {', '.join(registry.ids())}"
        )
    return [
        ClauseOut(id=k, rule=f"{ruleset}:{k}", section=v[0], text=v[1], url=L.rule_url(f"{ruleset}:{k}"))
        for k, v in table.items()
    ]


@router.get("/api/scenarios", responses=BAD_INPUT)
def scenarios(
    ctx: Ctx,
    ruleset: Annotated[str | None, Query(max_length=64, description="Only this rule system's.")] = None,
) -> list[ScenarioOut]:
    """The built-in scenarios."""
    if ruleset and ruleset not in registry.ids():
        known = ", ".join(registry.ids())
        raise ApiError(422, f"ruleset: unknown rule system {ruleset!r}; known: {known}")
    found = builtin_scenarios()
    key = tuple((str(p), p.stat().st_mtime) for p in found.values())
    cache = ctx.scenario_cache
    if key not in cache:
        cache.clear()
        cache[key] = read_scenarios(found)
    return [s for s in cache[key] if not ruleset or s.ruleset == ruleset]


def read_scenarios(found: dict[str, Path]) -> list[ScenarioOut]:
    out = []
    default_name = default_scenario()
    for name, path in found.items():
        try:
            d = read_toml(path)
        except ShieldwallError:
            continue
        rs = registry.find(d.get("ruleset"))
        if rs is None:
            continue
        sides = {s: str((d.get(s) or {}).get("name", s)) for s in rs.game_class().info.sides}
        out.append(
            ScenarioOut(
                name=name,
                ruleset=rs.id,
                title=str(d.get("name", name)),
                description=" ".join(str(d.get("description", "")).split()),
                sides=sides,
                default=name == default_name,
            )
        )
    return out


@router.get("/api/bots")
def bots() -> list[str]:
    """The bots one can play against."""
    return bot_names()
