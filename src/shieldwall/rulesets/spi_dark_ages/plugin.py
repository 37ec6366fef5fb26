"""The spi-dark-ages plugin: what the host layers (CLI, odds, bots, web) know of it.

Registered in ``pyproject.toml`` under the entry-point group ``shieldwall.rulesets``. Light to
import: every part is a ``module:attribute`` reference loaded when asked for.
"""

from __future__ import annotations

from shieldwall.core.game import RulesetInfo
from shieldwall.plugin import RuleSystem

RS = "spi-dark-ages"
_PKG = "shieldwall.rulesets.spi_dark_ages"

INFO = RulesetInfo(
    id=RS,
    title="SPI Dark Ages (1971, MOVES 12 errata; illustrative sample charts and map, not SPI's)",
    board="hex",
    sides=("green", "tan"),
    source="shared/rules/spi-dark-ages-errata-moves12.txt",
    summary="Hex-and-counter battles from Tours to Dorylaeum: facing, missile front control, contact, "
    "CRT odds, demoralization, panic and rally; plays on user charts (an illustrative sample ships, "
    "not SPI's tables).",
    # every clause of the errata is played (docs/rules/spi-dark-ages.md); the charts are user data
    complete=True,
)

PLUGIN = RuleSystem(
    info=INFO,
    package=_PKG,
    order=40,
    length_unit="hex",
    default_scenario="tours",
    game=f"{_PKG}.game:DarkAgesGame",
    parameters=f"{_PKG}.game:PARAMETERS",
    odds=f"{_PKG}.odds:PLUGIN",
    bots={"scripted": f"{_PKG}.bots:ScriptedBot"},
    drawing=f"{_PKG}.drawing:DRAWING",
    narrate=f"{_PKG}.narrate:describe",
    reach=f"{_PKG}.reach:reach",
    ranges=f"{_PKG}.ranges:ranges",
    clauses=f"{_PKG}.clauses:CLAUSES",
    score=f"{_PKG}.score:score",
    progress=f"{_PKG}.progress:progress",
    # the search bot's defaults: 32 playouts to the battle's end by sequential halving, about 0.3-0.5
    # CPU seconds a decision with the engine compiled (docs/agents.md, "SPI at playouts to the end")
    search_options="32:hend:sh",
    # the search's other plan for its own side (mcts:...:pf): stand and let the enemy come
    search_plans=f"{_PKG}.plans:PLANS",
    scenarios="scenarios",
    web_module="web/spi-dark-ages.js",
    clause_table="docs/rules/spi-dark-ages.md",
)
