"""The ``into-the-dark`` rule system ("Into the Dark", Dark Age / Medieval mass combat).

This package holds the foundation only: validated data tables (``profiles``), the army file format
(``army``), point costs (``points``), exact combat (``combat``) and morale / control tests
(``morale``). The turn-by-turn game state comes later, so the rule system is not yet in
``shieldwall.rulesets.REGISTRY``. Clause ids (``into-the-dark:<section>.<clause>``) are listed in
``clauses`` and in ``docs/rules/into-the-dark.md``.
"""

from __future__ import annotations

RULESET_ID = "into-the-dark"
