"""``scripted``: a sensible general. It dispatches to a per-rule-system general."""

from __future__ import annotations

from typing import Any

from shieldwall.ai.base import Bot
from shieldwall.core.errors import UnknownName
from shieldwall.core.game import State


class ScriptedBot(Bot):
    name = "scripted"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self._generals: dict[str, Any] = {}

    def choose(self, state: State) -> Any:
        rid = state.game.info.id
        if rid not in self._generals:
            if rid == "one-hour-dark-ages":
                from shieldwall.ai.one_hour_general import OneHourGeneral

                self._generals[rid] = OneHourGeneral(self.rng)
            elif rid == "into-the-dark":
                from shieldwall.ai.itd_general import IntoTheDarkGeneral

                self._generals[rid] = IntoTheDarkGeneral(self.rng)
            else:
                raise UnknownName(
                    "rule system for the scripted bot", rid, ["one-hour-dark-ages", "into-the-dark"]
                )
        return self._generals[rid].choose(state)
