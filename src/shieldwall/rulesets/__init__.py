"""Rule systems, registered by id. The core never imports these; adapters look them up here."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from shieldwall.core.errors import UnknownName

if TYPE_CHECKING:
    from shieldwall.core.game import Game

#: id -> module that defines ``GAME_CLASS`` (imported only when asked for).
REGISTRY: dict[str, str] = {
    "one-hour-dark-ages": "shieldwall.rulesets.one_hour",
    "into-the-dark": "shieldwall.rulesets.into_the_dark.game",
}


def ruleset_ids() -> list[str]:
    return list(REGISTRY)


def get_game_class(ruleset_id: str) -> type[Game]:
    if ruleset_id not in REGISTRY:
        raise UnknownName("ruleset", ruleset_id, ruleset_ids())
    mod = importlib.import_module(REGISTRY[ruleset_id])
    cls: type[Game] = mod.GAME_CLASS
    return cls
