"""shieldwall: a rules engine, opponent and analyst for Dark Age and early medieval wargames.

The rules core (``shieldwall.core`` and ``shieldwall.rulesets``) is free of I/O; adapters
(``io``, ``render``, ``cli``, ``web``, ``sim``, ``odds``, ``ai``) are built around it.
"""

from shieldwall import compiled as _compiled

__version__ = "0.1.0"

# the compiled build's modules, or their Python sources (``SHIELDWALL_PURE=1``, a stale build):
# decided before any other shieldwall module is imported (shieldwall/compiled.py)
_compiled.install()
