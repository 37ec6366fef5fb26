"""Plain words for into-the-dark events: one line each, with the dice and the clause behind it.

``describe`` (the plugin's ``narrate``) is reached through ``shieldwall.render.narrate.describe``
for every event whose clause id starts with ``into-the-dark:``. Dice events show their faces, what
each die needed and the modifiers (``groups`` of a combat roll, ``modifiers`` of a morale or control
test); each line ends with the clause in brackets. An event kind not known here gets a generic
line, never an error.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shieldwall.core.events import Event
from shieldwall.render.narrate import generic, namer

Names = Callable[[Any], str]

_END_WHAT = {
    "turn-sequence.rallys": "rallies",
    "turn-sequence.movement": "movement",
    "combat.missile-fire": "fire",
}
_REACTION = {
    "stand": "stands to receive it",
    "countercharge": "counter-charges",
    "evade": "evades",
    "fire": "stands and fires at the charger",
}


def _in(v: Any) -> str:
    """Inches, rounded for reading."""
    try:
        return f'{round(float(v), 1):g}"'
    except (TypeError, ValueError):
        return f"{v}"


def _faces(faces: Any) -> str:
    return "[" + ", ".join(str(f) for f in faces) + "]" if isinstance(faces, list) else str(faces)


def _mods(mods: Any) -> str:
    out = []
    for m in mods or []:
        v = m.get("value", 0) if isinstance(m, dict) else 0
        name = m.get("name", "?") if isinstance(m, dict) else str(m)
        out.append(f"{v:+d} {name}" if isinstance(v, int) else str(name))
    return "; ".join(out)


_PLURALS = {"die": "dice", "casualty": "casualties"}


def _plural(n: Any, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {_PLURALS.get(word, word + 's')}"


def _groups(d: dict[str, Any]) -> str:
    """A combat roll: per group, the dice, the rate, what hits, the faces and the hits."""
    parts = []
    for g in d.get("groups", []):
        mods = _mods(g.get("modifiers"))
        parts.append(
            f"{g.get('label', '')}: {_plural(g.get('dice', 0), 'die')} ({g.get('rate', '')}), "
            f"hit on {g.get('armour', '?')}+{' with ' + mods if mods else ''} -> need {g.get('need', '?')}+, "
            f"{d.get('die', 'd6')} {_faces(g.get('faces', []))} = {_plural(g.get('hits', 0), 'hit')}"
        )
    if not parts:
        return "too few figures for a die, no dice"
    return "; ".join(parts)


def _test(d: dict[str, Any]) -> str:
    """A morale or control test: the die, the level with its modifiers, the number to roll."""
    mods = _mods(d.get("modifiers"))
    return (
        f"{d.get('die', 'd6')} {_faces(d.get('faces', []))} against {d.get('target', '?')} "
        f"(level {d.get('morale_level', '?')}{'; ' + mods if mods else ''})"
    )


def _clause(ev: Event) -> str:
    return ev.rule.partition(":")[2] or ev.rule


def _line(ev: Event, nm: Names) -> str | None:  # noqa: C901, PLR0911, PLR0912 - one case per kind
    d = ev.data
    k = ev.kind
    u = nm(d.get("unit"))
    if k == "battle":
        opts = ", ".join(f"{a}={b}" for a, b in (d.get("options") or {}).items())
        return f"Battle of {d.get('scenario')} (seed {d.get('seed')}{'; ' + opts if opts else ''})"
    if k == "deployment":
        return f"The armies deploy: {d.get('reason', '')}"
    if k == "turn":
        return f"Turn {d.get('number')}"
    if k in ("phase", "roll"):
        return None
    if k == "initiative-roll":
        faces, mods, tot = d.get("faces", {}), d.get("modifiers", {}), d.get("totals", {})
        sides = ", ".join(
            f"{s} {faces.get(s)}" + (f" {mods[s]:+d} = {tot.get(s)}" if mods.get(s) else "") for s in faces
        )
        win = f"{d['winner']} wins the roll" if d.get("winner") else "a tie: roll again"
        return f"Initiative dice: {sides}; {win}"
    if k == "initiative":
        if d.get("choice") == "keep":
            return f"{ev.side} keeps the initiative and moves first"
        return f"{ev.side} passes the initiative: {d.get('first')} moves first"
    if k == "end":
        return f"{ev.side} ends its {_END_WHAT.get(_clause(ev), 'phase')}"
    if k == "hold":
        return f"{u} holds its ground"
    if k == "move":
        steps = ", ".join(str(s) for s in d.get("steps", [])) or "stays"
        thru = d.get("passed_through") or []
        through = f", passing through {', '.join(nm(x) for x in thru)}" if thru else ""
        return f"{u} moves ({steps}): {_in(d.get('cost'))} of its {_in(d.get('allowance'))}{through}"
    if k == "frontage":
        return (
            f"{u} changes its frontage from {d.get('frm')} to {d.get('to')} figures "
            f"({_plural(d.get('ranks'), 'rank')}; {d.get('turn_used')} turn)"
        )
    if k == "shieldwall":
        return f"{u} {'forms shieldwall' if d.get('formed') else 'leaves its shieldwall'}"
    if k == "shieldwall-broken":
        return f"{u}'s shieldwall breaks: {d.get('reason')}"
    if k == "disordered":
        return f"{u} is disordered: {d.get('reason')}"
    if k == "face":
        extra = " and is disordered" if d.get("disordered") else ""
        front = f", {d['front']} figures wide" if "front" in d else ""
        return f"{u} turns to face its {d.get('facing')} ({d.get('how')}{front}){extra}"
    if k == "reform":
        return f"{u} turns its figures back to the front"
    if k == "charge":
        imp = " impetuously" if d.get("impetuous") else ""
        opp = "opportunity-" if _clause(ev) == "movement.opportunity-charges" else ""
        return (
            f"{u} {opp}charges{imp} at {nm(d.get('target'))}'s {d.get('edge')} "
            f"({_in(d.get('cost'))} of its {_in(d.get('allowance'))})"
        )
    if k == "reaction":
        why = f" ({d['reason']})" if d.get("reason") else ""
        what = _REACTION.get(str(d.get("reaction")), str(d.get("reaction")))
        return f"{u}, charged by {nm(d.get('charger'))}, {what}{why}"
    if k == "forced-evade":
        return f"{u} must evade{' and is disordered' if d.get('disordered') else ''}"
    if k == "evade":
        short = " (cut short)" if d.get("short") else ""
        return (
            f"{u} evades: {d.get('die', 'd6')} {_faces(d.get('faces'))} = {_in(d.get('rolled'))}, "
            f"moves {_in(d.get('distance'))}{short}"
        )
    if k == "caught":
        return f"{u} is caught by {nm(d.get('by'))} after fleeing {_in(d.get('fled'))}"
    if k == "target-runs":
        how = "goes on with the charge" if d.get("choice") == "continue" else "stops where it stood"
        return f"{u}'s target {nm(d.get('target'))} ran away: {u} {how}"
    if k == "charge-missed":
        return (
            f"{u}'s charge finds {nm(d.get('target'))} gone ({d.get('fled')}); "
            f"it moves {_in(d.get('distance'))}"
        )
    if k == "countercharge":
        imp = " impetuously" if d.get("impetuous") else ""
        return f"{u} counter-charges{imp} {nm(d.get('charger'))} ({_in(d.get('distance'))})"
    if k == "contact":
        pin = "; it is pinned" if d.get("pinned") else ""
        return f"{u} crashes into {nm(d.get('target'))}'s {d.get('edge')}{pin}"
    if k == "charge-stopped":
        return f"{u}'s charge stops: {d.get('reason')}"
    if k == "opportunity-fire":
        return f"{u} takes opportunity fire at {nm(d.get('target'))}"
    if k == "decline":
        return f"{u} lets {nm(d.get('mover'))} pass through its zone of control"
    if k == "target":
        return f"{u} takes aim at {nm(d.get('target'))}"
    if k == "fire":
        rng = f"{d.get('close', 0)} figures at close range, {d.get('long', 0)} at long"
        return f"{u} shoots at {nm(d.get('target'))} ({rng}): {_groups(d)}"
    if k == "melee":
        f = d.get("figures") or {}
        figs = ", ".join(f"{n} on the {e}" for e, n in f.items() if n) or "no figures"
        how = " impetuous" if d.get("impetuous") else (" charging" if d.get("charging") else "")
        return f"{u} fights {nm(d.get('target'))} ({figs}{';' + how if how else ''}): {_groups(d)}"
    if k == "declare":
        dice = _plural(d.get("dice"), "die")
        return f"{u} aims {dice} at {nm(d.get('at'))}, in the front rank of {nm(d.get('target'))}"
    if k == "join":
        lead = " and leads it" if d.get("general") else ""
        return f"{u} joins {nm(d.get('host'))}, mixed in with its front rank{lead}"
    if k == "leave":
        alone = ": on his own again, he may use his command actions" if d.get("general") else ""
        return f"{u} leaves {nm(d.get('host'))} and stands out in front of it{alone}"
    if k == "forced-into-deep-water":
        fate = {
            "swim": "swims on at quarter speed",
            "half": f"loses {d.get('lost')} figures to drowning; the rest swim at quarter speed",
            "drown": "drowns",
        }.get(str(d.get("fate")), str(d.get("fate")))
        return f"{u} is forced into deep water and {fate}"
    if k == "melee-champion":
        where = f"{nm(d.get('target'))}'s front rank"
        return f"{u} strikes at the champion {nm(d.get('champion'))} in {where}: {_groups(d)}"
    if k == "melee-general":
        where = f"{nm(d.get('target'))}'s front rank"
        return f"{u} strikes at general {d.get('general')} in {where}: {_groups(d)}"
    if k == "general-falls":
        return f"General {d.get('general')} falls ({d.get('how')})"
    if k == "bonus-round":
        return (
            f"{u} catches {nm(d.get('target'))} in a bonus round ({d.get('figures')} figures): "
            f"{_groups(d)}; {_plural(d.get('casualties'), 'casualty')}"
        )
    if k == "casualties":
        fl = " (flanked)" if d.get("flanked") else ""
        lost = "1 figure" if d.get("casualties") == 1 else f"{d.get('casualties')} figures"
        return f"{u} loses {lost}{fl}: {d.get('figures')} left"
    if k == "destroyed":
        return f"{u} is destroyed{': ' + d['reason'] if d.get('reason') else ''}"
    if k == "melee-results":
        res = d.get("results") or {}
        return "Melee results: " + ", ".join(f"{nm(x)} {r}" for x, r in res.items())
    if k == "morale-test":
        return f"{u} tests morale ({d.get('reason')}): {_test(d)} -> {d.get('result')}"
    if k == "control-test":
        return f"{u} takes a control test ({d.get('reason')}): {_test(d)} -> {d.get('control')}"
    if k == "steady":
        return f"{u} is steady ({d.get('reason')})"
    if k == "shaken":
        return f"{u} is shaken"
    if k == "still-shaken":
        return f"{u} stays shaken ({d.get('reason')})"
    if k == "driven-back":
        pushed = d.get("pushed") or []
        p = f", pushing back {', '.join(nm(x) for x in pushed)}" if pushed else ""
        return f"{u} is driven back {_in(d.get('distance'))}{p}"
    if k == "driven-back-blocked":
        why = d.get("why") or (f"after {_in(d['after'])}" if d.get("after") is not None else "")
        by = nm(d.get("blocked_by"))
        return f"{u} cannot be driven back: blocked by {by}{' (' + why + ')' if why else ''}"
    if k == "pushed-back":
        return f"{u} is pushed back by {nm(d.get('by'))}"
    if k == "rout":
        whence = d.get("away_from") or d.get("towards")
        if isinstance(whence, list):
            whence = "away from " + ", ".join(nm(x) for x in whence)
        elif whence:
            whence = f"towards {whence}"
        return (
            f"{u} ROUTS{' ' + str(whence) if whence else ''}: {d.get('die', 'd6')} "
            f"{_faces(d.get('faces'))} = {_in(d.get('distance'))}"
        )
    if k == "rout-move":
        thru = d.get("passed_through") or []
        t = f", through {', '.join(nm(x) for x in thru)}" if thru else ""
        blk = f", stopped by {nm(d['blocked_by'])}" if d.get("blocked_by") else ""
        return f"{u} flees {_in(d.get('distance'))} of {_in(d.get('rolled'))}{t}{blk}"
    if k in ("rout-off-table", "pursuit-off-table"):
        return f"{u} leaves the table: {d.get('reason')}"
    if k == "surrender":
        return f"{u} surrenders, hemmed in by {nm(d.get('blocked_by'))} ({d.get('reason')})"
    if k in ("pursuit", "follow"):
        verb = "pursues" if k == "pursuit" else "follows up"
        caught = f" and keeps up with {nm(d['caught'])}" if d.get("caught") else ""
        return f"{u} {verb} {_in(d.get('distance'))}{caught}"
    if k == "pursuit-charge":
        imp = " impetuously" if d.get("impetuous") else ""
        edge = f"'s {d['edge']}" if d.get("edge") else ""
        return f"{u} turns its pursuit into a charge{imp} on {nm(d.get('target'))}{edge}"
    if k == "pursuit-ends":
        return f"{u} stops pursuing: {d.get('reason')}"
    if k == "fanatic-pursuit":
        return f"{u} (fanatics) chases {nm(d.get('quarry'))} {_in(d.get('distance'))}"
    if k == "still-pursuing":
        return f"{u} keeps chasing {nm(d.get('quarry'))}"
    if k == "pursuit-stopped":
        return f"{u} gives up the chase of {nm(d.get('quarry'))}"
    if k == "holds":
        return f"{u} holds its place: {d.get('reason')}"
    if k == "not-impetuous":
        return f"{u}'s charge is not impetuous: {d.get('reason')}"
    if k in ("allow", "refuse"):
        verb = "lets" if k == "allow" else "refuses to let"
        return f"{u} {verb} {nm(d.get('mover'))} through"
    if k == "rally-attempt":
        return f"{u} tries to rally"
    if k == "rallied":
        dis = ", still disordered" if d.get("disordered") else ""
        return f"{u} rallies: now {d.get('morale')}{dis}"
    if k == "rally-retreat":
        return f"{u} retreats {_in(d.get('distance'))} more before rallying"
    if k == "cannot-rally":
        return f"{u} cannot rally: {d.get('reason')}"
    if k == "reordering":
        return f"{u} reorders its ranks ({d.get('reason')})"
    if k == "reordered":
        return f"{u} is in good order again"
    if k == "reorder-failed":
        return f"{u} fails to reorder: {d.get('reason')}"
    if k == "evader-rallies":
        return f"{u} stops evading and turns back"
    if k == "result":
        losses = d.get("losses") or {}
        lost = "; ".join(
            f"{s} lost {_count(v.get('units_lost', 0), 'unit')}, {_count(v.get('figures_lost', 0), 'figure')}"
            for s, v in losses.items()
        )
        return f"Result: {d.get('winner') or 'draw'} - {d.get('reason')}{' (' + lost + ')' if lost else ''}"
    return f"{k}: " + ", ".join(f"{a}={nm(b) if a == 'unit' else b}" for a, b in d.items())


def describe(ev: Event, names: dict[str, str] | None = None) -> str | None:
    """One line for an into-the-dark event (None for bookkeeping), ending with its clause."""
    try:
        line = _line(ev, namer(names))
    except (KeyError, TypeError, ValueError, AttributeError):
        line = generic(ev)
    if line is None:
        return None
    if ev.kind in ("turn", "result", "battle"):
        return line
    return f"{line} [{_clause(ev)}]"


def _count(n: object, noun: str) -> str:
    """``1 unit``, ``3 units`` (the result's tallies: "1 units" before)."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
