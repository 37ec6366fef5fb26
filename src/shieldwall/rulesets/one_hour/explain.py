"""The "why" of a One Hour attack for the web log: which events have one.

A shot or a melee is one die, its modifiers (each with its clause), the hits and the facing: the
event's data says all of it in the fields the web app's generic explanation reads (``die``,
``faces``, ``modifiers``, ``hits``, ``facing``, ``terrain``, ``target_hits``), so :func:`explain`
adds nothing. The web app learns from :data:`ATTACK_KINDS` and :data:`COMBAT_KINDS` which events
have a why.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from shieldwall.core.events import Event

#: attacks: the why view explains the last one
ATTACK_KINDS = frozenset({"melee", "shot"})
#: every event a "why?" link explains (One Hour has no tests: only its attacks)
COMBAT_KINDS = ATTACK_KINDS


def explain(
    events: Sequence[Event],
    index: int,
    names: Mapping[str, str],
    clause: Callable[[str], dict[str, str]],
) -> dict[str, Any] | None:
    """Nothing beyond the generic explanation: a One Hour attack has no groups of dice nor a test."""
    return None
