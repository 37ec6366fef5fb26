"""The dbm-3.2 plugin: what the host layers (CLI, odds, bots, drawing, web) know of it.

Registered in ``pyproject.toml`` under the entry-point group ``shieldwall.rulesets``. Light to
import: every part is a ``module:attribute`` reference loaded when asked for.
"""

from __future__ import annotations

from shieldwall.core.game import RulesetInfo
from shieldwall.plugin import RuleSystem

RS = "dbm-3.2"
_PKG = "shieldwall.rulesets.dbm"

INFO = RulesetInfo(
    id=RS,
    title="DBM 3.2 (De Bellis Multitudinis, 2011 amendments; illustrative data, not the published tables)",
    board="tabletop",
    sides=("red", "blue"),
    source="shared/rules/dbm-3.2-amendments.txt",
    summary="Big-battle DBA family: elements in paces, PIP dice per command, the terrain and deployment "
    "phases, combat in the order of Fig 11; plays on user tables (an illustrative sample ships).",
    # base rules the amendments do not restate are not played (ruling R34)
    complete=False,
)

PLUGIN = RuleSystem(
    info=INFO,
    package=_PKG,
    order=40,
    length_unit="pace",
    default_scenario="ford-of-ash",
    game=f"{_PKG}.game:DbmGame",
    parameters=f"{_PKG}.game:PARAMETERS",
    odds=f"{_PKG}.odds:PLUGIN",
    bots={"scripted": f"{_PKG}.bots:ScriptedBot"},
    clauses=f"{_PKG}.clauses:CLAUSES",
    commands=f"{_PKG}.cli:register",
    army_cost=f"{_PKG}.cli:army_cost",
    army_builder=f"{_PKG}.army_builder:army_builder",
    score=f"{_PKG}.score:score",
    progress=f"{_PKG}.progress:progress",
    # the search bot's defaults: 80 playouts, sequential halving at the 10-decision horizon, the plan
    # portfolio (under a CPU second a decision); paired with 80:sh on seeds 0 to 5: 25 of 34
    # decisive against scripted (80:sh 18 of 34), 6 of 36 lost to random (80:sh 9): docs/agents.md
    search_options="80:sh:pf",
    # the plans the search may play its own side by in its rollouts (mcts:...:pf): hold, attack
    search_plans=f"{_PKG}.plans:PLANS",
    narrate=f"{_PKG}.narrate:describe",
    drawing=f"{_PKG}.drawing:DRAWING",
    ranges=f"{_PKG}.ranges:ranges",
    web_module="web/dbm.js",
    scenarios="scenarios",
    clause_table="docs/rules/dbm-3.2.md",
)
