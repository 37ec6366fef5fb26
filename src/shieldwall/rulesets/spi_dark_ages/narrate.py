"""One line of plain words per spi-dark-ages event (the plugin's ``narrate``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shieldwall.core.events import Event

Names = Callable[[str], str]


def _combat(ev: Event, d: dict[str, Any], nm: Names) -> str:
    who = ", ".join(nm(u) for u in d["units"])
    what = "fire at" if ev.kind == "fire" else "attack"
    return (
        f"{who} {what} {d['target']}: {d['attack']} against {d['defence']}, column {d['column']}, "
        f"die {d['faces'][0]}{d['modifiers']:+d} -> row {d['row']}: {d['result']}"
    )


LINES: dict[str, Callable[[Event, dict[str, Any], Names], str]] = {
    "battle": lambda ev, d, nm: f"{d['scenario']}" + (f" — {d['label']}" if d.get("label") else ""),
    "game-turn": lambda ev, d, nm: f"Game-Turn {d['turn']}",
    "phase": lambda ev, d, nm: f"{ev.side}: {d['phase']} phase",
    "deploys": lambda ev, d, nm: f"{nm(d['unit'])} ({d['type']}) deploys at {d['at']} facing {d['facing']}",
    "moves": lambda ev, d, nm: (
        f"{nm(d['unit'])} moves to {d['to']} ({d['cost']:g} MP, {d['mp_left']:g} left)"
    ),
    "turns": lambda ev, d, nm: f"{nm(d['unit'])} turns to face {d['facing']}",
    "stopped": lambda ev, d, nm: f"{nm(d['unit'])} stops in front of {nm(d['by'])}'s missiles",
    "allocates": lambda ev, d, nm: f"{nm(d['unit'])} is allocated to {d['attack']} {d['target']}",
    "fire": _combat,
    "melee": _combat,
    "demoralized": lambda ev, d, nm: f"{nm(d['unit'])} is demoralized",
    "recovers": lambda ev, d, nm: f"{nm(d['unit'])} recovers its morale",
    "eliminated": lambda ev, d, nm: f"{nm(d['unit'])} is eliminated ({d['vp']} VP; losses {d['losses']})",
    "eliminated-dd": lambda ev, d, nm: f"{nm(d['unit'])}, already demoralized, is destroyed by a DD",
    "contact": lambda ev, d, nm: "The melee is undecided: the units stay in contact",
    "army-panics": lambda ev, d, nm: f"{ev.side} losses reach {d['losses']} (panic level {d['pl']}): PANIC",
    "panics": lambda ev, d, nm: f"{nm(d['unit'])} panics and flees toward the {d['edge']} edge",
    "flees": lambda ev, d, nm: f"{nm(d['unit'])} flees to {d['to']}",
    "flees-off": lambda ev, d, nm: f"{nm(d['unit'])} flees off the map",
    "rally": lambda ev, d, nm: (
        f"{nm(d['by'])} tries to rally {nm(d['unit'])}: {d['faces'][0]} "
        f"(needs {d['target']} or less): {'rallied' if d['rallied'] else 'fails'}"
    ),
    "dismounts": lambda ev, d, nm: f"{nm(d['unit'])} dismounts",
    "remounts": lambda ev, d, nm: f"{nm(d['unit'])} remounts",
    "battle-ends": lambda ev, d, nm: f"{ev.side or 'Nobody'} wins: {d['reason']}",
    "move-ends": lambda ev, d, nm: f"{nm(d['unit'])} has moved",
    "holds-fire": lambda ev, d, nm: f"{nm(d['unit'])} holds its defensive fire",
    "fire-result": lambda ev, d, nm: f"Fire result on {d['target']}: {d['result']}",
    "no-contact": lambda ev, d, nm: f"The melee at {d['target']} is undecided; cavalry is not held by foot",
    "loss": lambda ev, d, nm: f"{nm(d['unit'])} is lost to the {d['result']}",
    "panic-exempt": lambda ev, d, nm: f"{nm(d['unit'])} does not panic ({d['why']})",
    "due": lambda ev, d, nm: (
        f"{nm(d['unit'])} ({d['type']}) will enter at {d['at']} on Game-Turn {d['turn']}"
    ),
    "enters": lambda ev, d, nm: f"{nm(d['unit'])} enters at {d['at']}",
    "entry-delayed": lambda ev, d, nm: (
        f"{nm(d['unit'])} cannot enter at {d['at']}: delayed to Game-Turn {d['turn']}"
    ),
    "embarks": lambda ev, d, nm: f"{nm(d['unit'])} embarks on {nm(d['fleet'])}",
    "disembarks": lambda ev, d, nm: f"{nm(d['unit'])} lands from {nm(d['fleet'])} at {d['at']}",
    "lost-aboard": lambda ev, d, nm: f"{nm(d['unit'])} is lost with {nm(d['fleet'])}",
    "fleet-stack": lambda ev, d, nm: (
        f"{nm(d['unit'])} ends its move with another fleet (it could go no further)"
    ),
}


def describe(ev: Event, names: dict[str, str]) -> str | None:
    """A line for ``ev``, or None for bookkeeping."""
    f = LINES.get(ev.kind)
    if f is None:
        return None
    return f(ev, ev.data, lambda u: names.get(u, u))
