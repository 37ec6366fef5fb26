"""Exact odds for ``into-the-dark``: the rule system's plug-in to ``shieldwall odds`` (:data:`PLUGIN`).

Every distribution is the one the game samples: ``melee_situation.MeleeSituation`` /
``fire_situation.MissileSituation`` and ``morale.MoraleSituation`` / ``ControlSituation``. The modules:

* :mod:`.spec`: the unit SPEC ``FIGURES CODE QUALITY [OPTION ...]`` and its parser;
* :mod:`.settings`: the ``--set`` keys;
* :mod:`.sides`: a SPEC as the rules see it (the army-file unit in two ranks), the rules modules;
* :mod:`.model`: the round-by-round rules of a duel, for ``shieldwall.odds.markov``;
* :mod:`.matrix`: the matchup table and its representative troop types
  (``data/into-the-dark-types.toml``);
* :mod:`.queries`: the plug-in (attack, morale, duel, matrix).

Import stays light: the rules modules (and numpy) are imported when a query is answered.

>>> PLUGIN.attack("12 CAF average", "12 CPF average", {"charging": "yes"}).mean
Fraction(2, 1)
"""

from __future__ import annotations

from .matrix import TYPES_FILE, TroopType, load_troop_types, matrix_odds, troop_types
from .model import DuelModel
from .queries import PLUGIN, IntoTheDarkOdds
from .settings import FACINGS, SET_KEYS
from .sides import Side, side, side_of, situation_dist
from .spec import OPTIONS, QUALITIES, RS, SPEC_HELP, WEAPONS, ITDSpec, parse_spec

__all__ = [
    "FACINGS",
    "OPTIONS",
    "PLUGIN",
    "QUALITIES",
    "RS",
    "SET_KEYS",
    "SPEC_HELP",
    "TYPES_FILE",
    "WEAPONS",
    "DuelModel",
    "ITDSpec",
    "IntoTheDarkOdds",
    "Side",
    "TroopType",
    "load_troop_types",
    "matrix_odds",
    "parse_spec",
    "side",
    "side_of",
    "situation_dist",
    "troop_types",
]
