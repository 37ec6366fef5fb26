"""one-hour-dark-ages' own bots (the plugin's ``bots``): ``scripted``, a sensible general.

``ScriptedBot`` is a :class:`shieldwall.ai.base.Bot`: its seeded generator (made by ``Bot``) is the
one its general gets, so a battle between bots is the same battle for the same seeds.
"""

from __future__ import annotations

from typing import Any

from shieldwall.ai.base import Bot
from shieldwall.core.errors import UnknownName
from shieldwall.core.game import State

from ..plugin import RS
from .general import OneHourGeneral

__all__ = ["OneHourGeneral", "ScriptedBot"]


class ScriptedBot(Bot):
    """``scripted``: plays every decision with :class:`OneHourGeneral`."""

    name = "scripted"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.general = OneHourGeneral(self.rng)

    def choose(self, state: State) -> Any:
        rid = state.game.info.id
        if rid != RS:
            raise UnknownName(f"rule system for the {RS} scripted bot", rid, [RS])
        return self.general.choose(state)
