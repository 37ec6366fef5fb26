"""The knight-hack plugin: what the host layers (CLI, odds, bots, drawing, web) know of it.

Registered in ``pyproject.toml`` under the entry-point group ``shieldwall.rulesets``. Light to
import: every part is a ``module:attribute`` reference loaded when asked for.
"""

from __future__ import annotations

from shieldwall.core.game import RulesetInfo
from shieldwall.plugin import RuleSystem

RS = "knight-hack"
_PKG = "shieldwall.rulesets.knight_hack"

INFO = RulesetInfo(
    id=RS,
    title="Knight Hack (2nd ed. 1995, 1997 errata; illustrative sample tables)",
    board="tabletop",
    sides=("red", "blue"),
    source="shared/rules/percentile-rules-errata-1997.txt",
    summary="Medieval 1000-1230: sealed charges, percentile casualties from one d100, points-based "
    "morale levels; plays on user tables (an illustrative sample ships, not the published charts).",
)

PLUGIN = RuleSystem(
    info=INFO,
    package=_PKG,
    order=30,
    length_unit="inch",
    default_scenario="bourgtheroulde-1124",
    game=f"{_PKG}.game:KnightHackGame",
    parameters=f"{_PKG}.game:PARAMETERS",
    odds=f"{_PKG}.odds:PLUGIN",
    bots={"scripted": f"{_PKG}.bots:ScriptedBot"},
    drawing=f"{_PKG}.drawing:DRAWING",
    narrate=f"{_PKG}.narrate:describe",
    explain=f"{_PKG}.explain:explain",
    reach=f"{_PKG}.reach:reach",
    ranges=f"{_PKG}.ranges:ranges",
    clauses=f"{_PKG}.clauses:CLAUSES",
    commands=f"{_PKG}.cli:register",
    army_cost=f"{_PKG}.cli:army_cost",
    army_builder=f"{_PKG}.army_builder:army_builder",
    score=f"{_PKG}.score:score",
    progress=f"{_PKG}.progress:progress",
    determinize=f"{_PKG}.hidden:determinize",
    # the search bot's defaults: 20 playouts (about a CPU second a decision), rollouts to the
    # battle's end, sequential halving: 16 of 16 won against scripted and random (docs/agents.md)
    search_options="20:hend:sh",
    scenarios="scenarios",
    web_module="web/knight-hack.js",
    clause_table="docs/rules/knight-hack.md",
)
