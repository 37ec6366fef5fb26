"""The into-the-dark plugin: what the host layers (CLI, odds, bots, drawing, web) know of it.

Registered in ``pyproject.toml`` under the entry-point group ``shieldwall.rulesets``. Light to
import: every part is a ``module:attribute`` reference loaded when asked for.
"""

from __future__ import annotations

from shieldwall.core.game import RulesetInfo
from shieldwall.plugin import RuleSystem

RS = "into-the-dark"
_PKG = "shieldwall.rulesets.into_the_dark"

INFO = RulesetInfo(
    id=RS,
    title="Into the Dark (Dark Age / Medieval mass combat)",
    board="tabletop",
    sides=("red", "blue"),
    source="shared/rules/into-the-dark.txt",
    summary="Figures in ranks, d6 per four figures, morale by quality; every rule the text defines "
    "(docs/rules/into-the-dark.md).",
)

PLUGIN = RuleSystem(
    info=INFO,
    package=_PKG,
    order=20,
    length_unit="inch",
    default_scenario="senlac",
    game=f"{_PKG}.game:IntoTheDarkGame",
    parameters=f"{_PKG}.params:PARAMETERS",
    odds=f"{_PKG}.odds:PLUGIN",
    bots={"scripted": f"{_PKG}.bots:ScriptedBot"},
    drawing=f"{_PKG}.drawing:DRAWING",
    narrate=f"{_PKG}.narrate:describe",
    explain=f"{_PKG}.explain:explain",
    reach=f"{_PKG}.reach:reach",
    ranges=f"{_PKG}.ranges:ranges",
    clauses=f"{_PKG}.clauses:CLAUSES",
    army_cost=f"{_PKG}.cli:army_cost",
    army_builder=f"{_PKG}.army_builder:army_builder",
    score=f"{_PKG}.score:score",
    progress=f"{_PKG}.progress:progress",
    # the search bot's defaults: 64 playouts (0.26-0.32 CPU seconds a decision on the machine of
    # 28 November; 36 of 48 decisive against scripted where 32 won 26: docs/agents.md, "Into the
    # Dark at 64 playouts on twelve seeds"), and a gain over the scripted order of at least 0.02 to
    # overrule it (docs/agents.md, "Why the search loses as blue")
    search_options="64:g0.02",
    determinize=f"{_PKG}.hidden:determinize",
    scenarios="scenarios",
    web_module="web/into-the-dark.js",
    clause_table="docs/rules/into-the-dark.md",
)
