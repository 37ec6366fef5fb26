"""The one-hour-dark-ages plugin: what the host layers (CLI, odds, bots, drawing, web) know of it.

Registered in ``pyproject.toml`` under the entry-point group ``shieldwall.rulesets``. Light to
import: every part is a ``module:attribute`` reference loaded when asked for.
"""

from __future__ import annotations

from shieldwall.core.game import RulesetInfo
from shieldwall.plugin import RuleSystem

RS = "one-hour-dark-ages"
_PKG = "shieldwall.rulesets.one_hour"

INFO = RulesetInfo(
    id=RS,
    title="Dark Age Wargame Rules (One-Hour Wargames style, d5 average dice)",
    board="tabletop",
    sides=("red", "blue"),
    source="shared/rules/dark-age-one-hour-d5.txt",
    summary="Four unit types, one-sided melee, removal at 15 hits; every optional rule switchable.",
)

PLUGIN = RuleSystem(
    info=INFO,
    package=_PKG,
    order=10,
    length_unit="inch",
    default_scenario="bryn-glas",
    game=f"{_PKG}.game:OneHourGame",
    parameters=f"{_PKG}.params:PARAMETERS",
    odds=f"{_PKG}.odds:PLUGIN",
    bots={"scripted": f"{_PKG}.bots:ScriptedBot"},
    drawing=f"{_PKG}.drawing:DRAWING",
    narrate=f"{_PKG}.narrate:describe",
    explain=f"{_PKG}.explain:explain",
    reach=f"{_PKG}.reach:reach",
    ranges=f"{_PKG}.ranges:ranges",
    clauses=f"{_PKG}.clauses:CLAUSES",
    score=f"{_PKG}.score:score",
    progress=f"{_PKG}.progress:progress",
    # the search bot's defaults: 48 playouts, rollouts of 24 decisions (a full turn of both sides),
    # sequential halving; 0.29 to 1.11 CPU seconds a decision (mean); measured against 96:sh (the
    # 10-decision horizon) on the same seeds in docs/agents.md, "One-Hour against scripted"
    search_options="48:h24:sh",
    scenarios="scenarios",
    web_module="web/one-hour.js",
    clause_table="docs/rules/one-hour-dark-ages.md",
)
