"""one-hour-dark-ages: the rules of shared/rules/dark-age-one-hour-d5.txt, every clause.

``GAME_CLASS`` is imported lazily so that the rules modules (``combat``, ``morale``, ``profiles``,
used by the odds) stay light to import without the game engine.
"""

from __future__ import annotations

from typing import Any

__all__ = ["GAME_CLASS", "OneHourGame"]


def __getattr__(name: str) -> Any:
    if name in ("GAME_CLASS", "OneHourGame"):
        from .game import OneHourGame

        return OneHourGame
    raise AttributeError(name)
