"""Plain words for one-hour-dark-ages events: one line each (the plugin's ``narrate``).

``describe`` is reached through ``shieldwall.render.narrate.describe`` for every event whose clause
id starts with ``one-hour-dark-ages:``. An event kind not known here gets the generic line.
"""

from __future__ import annotations

from typing import Any

from shieldwall.core.events import Event
from shieldwall.render.narrate import generic, namer


def _mods(data: dict[str, Any]) -> str:
    parts = []
    for m in data.get("modifiers", []):
        if "value" in m:
            if m["value"]:
                parts.append(f"{m['value']:+d}")
        else:
            parts.append(m["name"])
    return ", ".join(parts)


def describe(ev: Event, names: dict[str, str] | None = None) -> str | None:
    """One line for a one-hour-dark-ages event, or None for bookkeeping events not worth a line."""
    d = ev.data
    nm = namer(names)
    k = ev.kind
    if k == "battle":
        return f"Battle of {d.get('scenario')} (seed {d.get('seed')})"
    if k == "turn":
        return f"Turn {d['number']}: {d['first']} moves first"
    if k == "phase":
        return None
    if k == "initiative":
        if "totals" in d:
            what = f"initiative passes to {ev.side}" if d["changed"] else f"{ev.side} keeps it"
            return f"Initiative roll-off {d['totals']}: {what}"
        return f"{d['holder']} has the initiative ({d.get('reason', '')})"
    if k == "deploy-order":
        return f"{d['first']} places the first unit; the sides then place one unit at a time"
    if k == "deploy":
        x, y, h = d["at"]
        return f"{nm(d['unit'])} is deployed at ({x:g}, {y:g}) facing {h:g}°"
    if k == "held-back":
        return f"{nm(d['unit'])} finds no room in its deployment zone and is held back"
    if k == "deployment":
        return "Both armies are deployed"
    if k == "move-roll":
        return f'{nm(d["unit"])} rolls {d["distance"]:g}" of movement'
    if k == "move":
        lab = f" ({d['label']})" if d.get("label") else ""
        road = ' along the road (+3")' if d.get("road_bonus") else ""
        return f'{nm(d["unit"])} moves {d["distance"]:g}"{road}{lab}'
    if k == "hold":
        return f"{nm(d['unit'])} holds"
    if k == "charge":
        dist = f'{d["distance"]:g}" of {d["rolled"]:g}"'
        return f"{nm(d['unit'])} charges {nm(d['target'])}'s {d['facing']} ({dist})"
    if k == "charge-short":
        return f"{nm(d['unit'])}'s charge on {nm(d['target'])} falls short"
    if k in ("shot", "melee"):
        verb = "shoots at" if k == "shot" else "attacks"
        mods = _mods(d)
        terr = f", {d['terrain']}" if d.get("terrain") else ""
        return (
            f"{nm(d['unit'])} {verb} {nm(d['target'])} ({d['facing']}{terr}): {d['die']} rolled "
            f"{d['faces'][0]}{' [' + mods + ']' if mods else ''} -> {d['hits']} hits "
            f"(now {d['target_hits']})"
        )
    if k == "removed":
        return f"{nm(d['unit'])} is removed with {d['hits']} hits"
    if k == "rally":
        return f"{nm(d['unit'])} rallies off {d['rallied']} hits (now {d['hits']})"
    if k == "face":
        return f"{nm(d['unit'])} turns {d['angle']:g} degrees to face {nm(d['target'])}"
    if k == "fall-back":
        return f'{nm(d["unit"])} falls back {d["moved"]:g}"'
    if k == "free-attack":
        return f"{nm(d['unit'])} wins the dice-off and strikes {nm(d['target'])} as it falls back"
    if k == "fight-as":
        return f"{nm(d['unit'])} ({d['was']}) will fight as {d['choice'].capitalize()}"
    if k == "transfer":
        return f"{d['kind']} {d['personality']} joins {nm(d['to'])}"
    if k == "force-morale":
        verdict = "holds" if d["passed"] else "ROUTS"
        return f"{ev.side} force morale: rolled {d['total']} against {d['target']} units lost: {verdict}"
    if k == "roll-off" and str(d.get("what", "")).startswith("who places"):
        return f"Roll-off for {d['what']}: {d['faces']}, {d['winner']} wins"
    if k == "roll-off":
        return f"Too close to call ({d['what']}): roll-off {d['faces']}, {d['winner']} wins"
    if k == "allies-debate":
        return f"{nm(d['unit'])} rolls a natural 2: the allied leaders debate and it does not move"
    if k == "out-of-missiles":
        return f"{nm(d['unit'])} has used the last of its missiles"
    if k == "result":
        return f"Result: {d['winner'] or 'draw'} - {d['reason']}"
    if k == "declare":
        if d.get("charge"):
            return f"{nm(d['unit'])} declares a charge on {nm(d['charge'])}"
        if d.get("toward"):
            x, y = d["toward"]
            return f"{nm(d['unit'])} declares a move toward ({x:g}, {y:g})"
        return f"{nm(d['unit'])} declares its move"
    if k == "declared-contact":
        return f"{nm(d['unit'])}'s declared move runs into {nm(d['target'])}: it charges"
    if k == "declared-no-turn":
        return f"{nm(d['unit'])} may not turn toward its goal ({d['reason']})"
    if k == "warband-must-charge":
        return f"{nm(d['unit'])} is a warband with an enemy in reach: it must charge {nm(d['target'])}"
    if k == "personality-lost":
        who = ", ".join(str(p) for p in d.get("personalities", [])) or "its personalities"
        return f"{who} {'is' if len(d.get('personalities', [])) == 1 else 'are'} lost with {nm(d['unit'])}"
    if k == "last-attack":
        return f"{nm(d['unit'])} makes a last attack on {nm(d['target'])} as the enemy army routs"
    if k == "roll":
        return None
    return generic(ev)
