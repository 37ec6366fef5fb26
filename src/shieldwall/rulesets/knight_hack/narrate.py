"""Plain words for knight-hack events: one line each (the plugin's ``narrate``).

Percentile rolls are told with their target number T and its halves (T/2: two casualties, T/4:
three); the battle line carries the sample-tables label when the battle plays on the sample.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shieldwall.core.events import Event


def _t(th: list[float]) -> str:
    return f"T {th[0]:g}, T/2 {th[1]:g}, T/4 {th[2]:g}"


def _terms(terms: list[dict[str, Any]]) -> str:
    return ", ".join(f"{t['source'].split(':')[-1]} {t['value']:+d}" for t in terms[1:] if t["value"])


def describe(ev: Event, names: dict[str, str] | None = None) -> str | None:
    """One line for a knight-hack event, or None for bookkeeping not worth a line."""
    n = names or {}
    d = ev.data

    def nm(uid: Any) -> str:
        return n.get(str(uid), str(uid))

    fn = _LINES.get(ev.kind)
    return None if fn is None else fn(ev, d, nm)


Nm = Callable[[Any], str]


def _battle(ev: Event, d: dict[str, Any], nm: Nm) -> str:
    armies = " against ".join(str(a) for a in d.get("armies", {}).values())
    label = f" — {d['label']}" if d.get("label") else ""
    return f"Battle of {d.get('scenario')}: {armies}{label}"


def _declared(ev: Event, d: dict[str, Any], nm: Nm) -> str:
    parts = [f"{nm(u)} on {nm(t)}" for side in d["charges"].values() for u, t in side]
    return "Charges revealed: " + ("; ".join(parts) if parts else "none")


def _missile(ev: Event, d: dict[str, Any], nm: Nm) -> str:
    extra = _terms(d.get("terms", []))
    return (
        f"{nm(d['unit'])} shoots at {nm(d['target_unit'])}: d100 {d['faces'][0]} against "
        f"{_t(d['thresholds'])}{' [' + extra + ']' if extra else ''} -> {d['casualties']} casualties"
    )


def _test(ev: Event, d: dict[str, Any], nm: Nm) -> str:
    if d["automatic"]:
        return f"{nm(d['unit'])} passes its {d['test']} test automatically (morale {d['level']}, 100 or more)"
    res = "passes" if d["passed"] else "fails"
    return f"{nm(d['unit'])} {res} its {d['test']} test: d100 {d['faces'][0]} against morale {d['level']}"


def _round(ev: Event, d: dict[str, Any], nm: Nm) -> str:
    a, b = d["units"]
    on_b, on_a = d["casualties"]
    return (
        f"Melee round {d['round']}, {nm(a)} against {nm(b)}: {nm(a)} rolls {d['faces'][0]} "
        f"({_t(d['thresholds'][0])}) -> {on_b}; {nm(b)} rolls {d['faces'][1]} "
        f"({_t(d['thresholds'][1])}) -> {on_a}"
    )


def _charge(ev: Event, d: dict[str, Any], nm: Nm) -> str:
    hit = f"contacts {nm(d['contacted'])}" if d["contacted"] else "makes no contact"
    return (
        f'{nm(d["unit"])} charges {nm(d["object"])}: {d["distance"] - d["d6"]:g}" + D6 {d["d6"]} = '
        f'{d["distance"]:g}", moves {d["moved"]:g}" and {hit}'
    )


_LINES: dict[str, Callable[[Event, dict[str, Any], Nm], str | None]] = {
    "battle": _battle,
    "turn": lambda ev, d, nm: f"Turn {ev.turn}: charge, movement, melee, rally",
    "charges-declared": _declared,
    "stands": lambda ev, d, nm: f"{nm(d['unit'])} gives up its charge and stands to receive",
    "countercharge": lambda ev, d, nm: (
        f"{nm(d['unit'])}, rallying, counter-charges {nm(d['target'])}, disordered"
    ),
    "redirects": lambda ev, d, nm: f"{nm(d['unit'])} turns its charge on {nm(d['target'])}",
    "roll-off": lambda ev, d, nm: (
        f"Roll-off for the {'fire' if d['of'] == 'fire' else 'initiative'} {d['rolls']}: {d['winner']} wins"
    ),
    "fire-order": lambda ev, d, nm: f"{d['first']} shoots first",
    "move-order": lambda ev, d, nm: f"{d['first']} moves first",
    "missile": _missile,
    "morale-test": _test,
    "disordered": lambda ev, d, nm: f"{nm(d['unit'])} is disordered ({d['reason']})",
    "routed": lambda ev, d, nm: f"{nm(d['unit'])} routs",
    "removed": lambda ev, d, nm: f"{nm(d['unit'])} is removed ({d['reason']})",
    "falls-back": lambda ev, d, nm: f'{nm(d["unit"])} falls back {d["distance"]:g}"',
    "halts": lambda ev, d, nm: f"{nm(d['unit'])} halts",
    "evade": lambda ev, d, nm: (
        f'{nm(d["unit"])} evades {d["distance"]:g}"'
        + (" and is cornered at the table's edge" if d.get("cornered") else "")
    ),
    "rallying": lambda ev, d, nm: f"{nm(d['unit'])} is rallying ({d['cause']})",
    "rallied": lambda ev, d, nm: f"{nm(d['unit'])} is in good order again",
    "charge-move": _charge,
    "charges-meet": lambda ev, d, nm: (
        f"{nm(d['units'][0])} and {nm(d['units'][1])} charge each other and meet part-way "
        f'({d["shares"][0]:g}" and {d["shares"][1]:g}" of a {d["gap"]:g}" gap)'
    ),
    "deploy-order": lambda ev, d, nm: (
        f"Deployment by hand: {d['winner']} wins the roll-off and places second; {d['first']} places first"
    ),
    "deploy": lambda ev, d, nm: (
        f"{nm(d['unit'])} is deployed at ({d['at'][0]:g}, {d['at'][1]:g}) facing {d['at'][2]:g}°"
    ),
    "held-back": lambda ev, d, nm: f"{nm(d['unit'])} finds no room in its deployment zone and is held back",
    "deployment": lambda ev, d, nm: "Both armies are deployed",
    "ambush": lambda ev, d, nm: f"Ambush! {nm(d['unit'])} springs from hiding on {nm(d['target_unit'])}",
    "ambush-waits": lambda ev, d, nm: f"{nm(d['unit'])} keeps hidden in ambush",
    "ambush-found": lambda ev, d, nm: f"{nm(d['by'])} runs into {nm(d['unit'])}, hidden in ambush",
    "no-contact": lambda ev, d, nm: f"{nm(d['unit'])} must charge the closest enemy next turn",
    "retarget": lambda ev, d, nm: f"{nm(d['object'])} evaded: {nm(d['unit'])} strikes {nm(d['contacted'])}",
    "contact": lambda ev, d, nm: f"{nm(d['unit'])} is in contact with {nm(d['target_unit'])}'s {d['facing']}",
    "move": lambda ev, d, nm: (
        None
        if not d["go"] and not d["evolutions"]
        else f'{nm(d["unit"])} moves {d["go"]:g}"'
        + (f" after {', '.join(d['evolutions'])}" if d["evolutions"] else "")
    ),
    "rally-move": lambda ev, d, nm: (
        None
        if not (d["back"] or d["forward"])
        else f'{nm(d["unit"])} rallies {"back" if d["back"] else "forward"} {d["back"] or d["forward"]:g}"'
    ),
    "faces-threat": lambda ev, d, nm: f"{nm(d['unit'])} turns to face the enemy who can charge it",
    "rout-move": lambda ev, d, nm: f'{nm(d["unit"])} runs {d["distance"]:g}"',
    "melee-chosen": lambda ev, d, nm: f"{ev.side} chooses to fight {nm(d['a'])} against {nm(d['b'])} next",
    "melee-round": _round,
    "round-won": lambda ev, d, nm: f"{nm(d['unit'])} wins round {d['round']}",
    "melee-draw": lambda ev, d, nm: "The round is a draw: the melee stops for this turn",
    "melee-continues": lambda ev, d, nm: "Three rounds fought: the melee goes on next turn",
    "result": lambda ev, d, nm: f"{d['winner'] or 'Nobody'} wins: {d['reason']}",
}
