"""The ``into-the-dark`` rule system ("Into the Dark", Dark Age / Medieval mass combat).

The foundation: validated data tables (``profiles``), the army file format (``army``), point costs
(``points``), exact combat (``combat``) and morale / control tests (``morale``). Play: the scenario
format (``scenario``), units on the table (``model``), geometry (``spatial``, ``movement``), orders
(``orders``), the turn sequence (``state``, the dispatchers ``actions`` and ``turns``, the ``act_*``
handlers and the rules in play they share) and legal-order menus (``menus``);
``game.IntoTheDarkGame`` binds the rules to a scenario. The layers of the package are listed in
``actions``. Clause ids (``into-the-dark:<section>.<clause>``) are listed in ``clauses`` and in
docs/rules/into-the-dark.md.

``GAME_CLASS`` is imported lazily so that the foundation modules stay light to import.
"""

from __future__ import annotations

from typing import Any

RULESET_ID = "into-the-dark"


def __getattr__(name: str) -> Any:
    if name in ("GAME_CLASS", "IntoTheDarkGame"):
        from .game import IntoTheDarkGame

        return IntoTheDarkGame
    raise AttributeError(name)
