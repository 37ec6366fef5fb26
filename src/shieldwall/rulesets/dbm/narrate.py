"""Plain words for dbm-3.2 events: one line each (the plugin's ``narrate``).

The battle line carries the illustrative-data label; combats show both totals, the dice and the
outcome with its clause.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shieldwall.core.events import Event

Nm = Callable[[Any], str]


def describe(ev: Event, names: dict[str, str] | None = None) -> str | None:
    """One line for a dbm-3.2 event, or None for bookkeeping not worth a line."""
    n = names or {}

    def nm(uid: Any) -> str:
        return n.get(str(uid), str(uid))

    fn = _LINES.get(ev.kind)
    return None if fn is None else fn(ev, ev.data, nm)


def _ids(ids: list[Any], nm: Nm) -> str:
    return ", ".join(nm(i) for i in ids[:6]) + (f" (+{len(ids) - 6})" if len(ids) > 6 else "")


def _combat(ev: Event, d: dict[str, Any], nm: Nm) -> str:
    a, b = d["a"], d["b"]
    t = d["totals"]
    res = d.get("result")
    what = "close combat" if ev.kind == "close-combat" else "shoots at"
    out = f"{nm(a)} {what} {nm(b)}: {t[a]} (die {d['dice'][0]}) v {t[b]} (die {d['dice'][1]})"
    if res is None:
        return out + ": no result"
    loser = a if res["loser"] == "a" else b
    return out + f": {nm(loser)} {res['band']}, {res['result']} ({res['rule']})"


_LINES: dict[str, Callable[[Event, dict[str, Any], Nm], str | None]] = {
    "battle": lambda ev, d, nm: f"battle: {d['scenario']}" + (f" — {d['data']}" if d.get("data") else ""),
    "terrain-placed": lambda ev, d, nm: f"{d.get('by', 'defender')} places {d.get('what')}",
    "terrain-refused": lambda ev, d, nm: f"no {d.get('what')}: {d.get('why') or 'the dice refused it'}",
    "terrain-redice": lambda ev, d, nm: f"no clear place for {d.get('what')} at that distance: dice again",
    "terrain-done": lambda ev, d, nm: (
        f"terrain done: invader {d['invader']}, defender {d['defender_fe']:g} FE"
    ),
    "die": lambda ev, d, nm: f"die {d['face']}: {d['why']}",
    "deploy-order": lambda ev, d, nm: f"{d['side']} deploys {', '.join(d['order'])} (largest first)",
    "deployed": lambda ev, d, nm: (
        f"{d['command']} deploys {len(d['elements'])} elements in its rectangle"
        + (
            f", placed by hand in {d['layout']}, its front's middle at ({d['at'][0]:g}, {d['at'][1]:g}) p"
            if "layout" in d
            else ""
        )
    ),
    "baggage-assigned": lambda ev, d, nm: f"{d['side']} assigns its baggage to {d['command']}",
    "pip-dice": lambda ev, d, nm: (
        "PIPs: " + ", ".join(f"{c} {f}" for c, f in zip(d["commands"], d["faces"], strict=True))
    ),
    "march": lambda ev, d, nm: (
        f"{d['command']} marches {d['paces']:g} p ({d['pips']} PIP, march {d['march_no']})"
    ),
    "advance": lambda ev, d, nm: f"{_ids(d['ids'], nm)} advance {d['paces']:g} p",
    "lineup-shift": lambda ev, d, nm: f"{_ids(d['ids'], nm)} shift {d['paces']:g} p sideways to line up",
    "contact": lambda ev, d, nm: f"{nm(d['id'])} contacts {nm(d['enemy'])} ({d['position']})",
    "conform": lambda ev, d, nm: f"{nm(d['id'])} conforms to {nm(d['to'])} ({d['how']})",
    "close-combat": _combat,
    "shooting": _combat,
    "recoil": lambda ev, d, nm: f"{nm(d['id'])} recoils {d['paces']:g} p",
    "pushed-back": lambda ev, d, nm: f"{nm(d['id'])} is pushed back {d['paces']:g} p",
    "flee": lambda ev, d, nm: f"{nm(d['id'])} flees",
    "destroyed": lambda ev, d, nm: f"{nm(d['id'])} is destroyed ({d.get('why', '')})",
    "lost": lambda ev, d, nm: f"{nm(d['id'])} is lost ({d.get('why', '')})",
    "demoralised": lambda ev, d, nm: (
        f"{d['command']} is demoralised ({d['lost_ee']} element equivalents lost)"
    ),
    "ally-changes-sides": lambda ev, d, nm: f"{d['command']} changes sides to {d['to']}",
    "vp-transfer": lambda ev, d, nm: f"1 VP passes from {d['from']} to {d['to']}",
    "make-room": lambda ev, d, nm: (
        f"{_ids(d['ids'], nm)} go back {d['paces']:g} p to make room for {nm(d['for'])} to conform"
    ),
    "pursue": lambda ev, d, nm: f"{nm(d['id'])} pursues {d['paces']:g} p",
    "press-forward": lambda ev, d, nm: f"{_ids(d['ids'], nm)} press forward {d['paces']:g} p",
    "dismount": lambda ev, d, nm: f"{nm(d['id'])} dismounts: {d['from']} becomes {d['to']}",
    "riderless-mounts": lambda ev, d, nm: f"{nm(d['of'])} leaves riderless mounts ({d['id']})",
    "mounts-removed": lambda ev, d, nm: f"riderless mounts {d['id']} removed by {nm(d['by'])}",
    "fort-assault": lambda ev, d, nm: (
        f"{nm(d['id'])} assaults an undefended fortification section: "
        f"{d['totals'][d['id']]} v {d['totals']['fort']} ({d['result']})"
        + (f", {nm(d['flanker'])} on the corner" if d.get("flanker") else "")
    ),
    "fort-corner-defend": lambda ev, d, nm: (
        f"{nm(d['id'])} moves round the corner to defend against {nm(d['assaulter'])}"
    ),
    "storm-pursue": lambda ev, d, nm: f"{nm(d['id'])} storms over the fortification {d['paces']:g} p",
    "flank-march": lambda ev, d, nm: f"{d['command']} is away on a flank march ({d['flank']} flank)",
    "flank-march-arrives": lambda ev, d, nm: (
        f"{d['command']} arrives on the {d['flank']} flank (die {d['die']}): {len(d['ids'])} elements"
    ),
    "flank-march-compare": lambda ev, d, nm: (
        f"flank marches {' and '.join(d['commands'])} on one edge: larger {d['larger']}"
    ),
    "result": lambda ev, d, nm: f"result: {d['winner'] or 'a draw'} ({d['reason']})",
}
