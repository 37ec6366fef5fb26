"""Plain words for events: the narration, the web log and battle reports are views of the log.

``describe`` finds the rule system that produced an event by the prefix of its clause id
(``<rule system id>:<clause>``) and asks that rule system's plugin for the words (its ``narrate``:
``describe(event, names) -> str | None``). An event of a rule system that is not installed, or
that has no narration, gets the generic line (:func:`generic`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from shieldwall import registry
from shieldwall.core.events import Event


def generic(ev: Event) -> str:
    """The line of an event nothing knows better words for: its kind and its data."""
    return f"{ev.kind}: {ev.data}"


def namer(names: Mapping[str, str] | None) -> Callable[[Any], str]:
    """The name to show for a unit id: its entry in ``names``, else the id itself."""
    n = names or {}

    def nm(uid: Any) -> str:
        return n.get(str(uid), str(uid))

    return nm


def describe(ev: Event, names: dict[str, str] | None = None) -> str | None:
    """One line for an event, or None for bookkeeping events not worth a line. ``names`` maps unit
    ids to the names to show."""
    rs = registry.find(ev.rule.partition(":")[0])
    narrate = rs.optional("narrate") if rs is not None else None
    if narrate is None:
        return generic(ev)
    line: str | None = narrate(ev, names or {})
    return line
