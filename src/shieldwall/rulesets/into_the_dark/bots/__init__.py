"""into-the-dark's own bots (the plugin's ``bots``): ``scripted``, a general who plays by the text's
Command & Control section (``general``), with its reckoning (``reckoning``), its reading of the
ground (``ground``) and its use of the generals' figures and command actions (``generals``).

``ScriptedBot`` is a :class:`shieldwall.ai.base.Bot`: its seeded generator (made by ``Bot``) is the
one its general gets, so a battle between bots is the same battle for the same seeds.
"""

from __future__ import annotations

from typing import Any

from shieldwall.ai.base import Bot
from shieldwall.core.errors import UnknownName
from shieldwall.core.game import State

from ..plugin import RS
from .general import IntoTheDarkGeneral

__all__ = ["IntoTheDarkGeneral", "ScriptedBot"]


class ScriptedBot(Bot):
    """``scripted``: plays every decision with :class:`IntoTheDarkGeneral`."""

    name = "scripted"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.general = IntoTheDarkGeneral(self.rng)

    def choose(self, state: State) -> Any:
        rid = state.game.info.id
        if rid != RS:
            raise UnknownName(f"rule system for the {RS} scripted bot", rid, [RS])
        return self.general.choose(state)
