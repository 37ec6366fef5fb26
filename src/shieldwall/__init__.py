"""shieldwall: a rules engine, opponent and analyst for Dark Age and early medieval wargames.

The rules core (``shieldwall.core`` and ``shieldwall.rulesets``) is free of I/O; adapters
(``io``, ``render``, ``cli``, ``web``, ``sim``, ``odds``, ``ai``) are built around it.
"""

__version__ = "0.1.0"
