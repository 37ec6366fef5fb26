"""The "why" of a Knight Hack roll for the web log: each percentile roll with its target number T,
T/2 and T/4 and every term that made T (the chart, the weapon, each modifier), and a morale test's
level with its terms.

"To inflict melee casualties find melee factor by type of combatants add to this all applicable
modifiers. The number you need to roll with percentage dice to inflict casualties is that number or
less. If your roll was half the number you required then you inflict an additional casualty …"
(Clarification 3). The events carry it all (``faces``, ``targets``/``target``, ``thresholds``,
``terms``, ``automatic``, ``casualties``); :func:`explain` lays it out as ``groups`` (one per d100
rolled) and a ``test``, which the web piece (``web/knight-hack.js``, its ``renderWhy``) draws. The
web app learns from :data:`ATTACK_KINDS` and :data:`COMBAT_KINDS` which events have a why.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from shieldwall.core.events import Event
from shieldwall.rulesets.knight_hack.clauses import rule

#: the rolls: a melee round (two d100 at once) and a missile shot (one)
ATTACK_KINDS = frozenset({"melee-round", "missile"})
#: the tests a why also explains
TEST_KINDS = frozenset({"morale-test"})
#: every event a "why?" link explains
COMBAT_KINDS = ATTACK_KINDS | TEST_KINDS

Clause = Callable[[str], dict[str, str]]


def _term(t: Any, clause: Clause, what: str = "casualties.target") -> dict[str, Any]:
    """One addend of T (``casualties.target``) or of a morale level (``morale.level``), with the
    clause that counts it."""
    d = t if isinstance(t, dict) else {}
    source = str(d.get("source", ""))
    info = clause(rule(what))
    return {
        "name": f"{source} ({d.get('note', '')})" if d.get("note") else source,
        "value": d.get("value"),
        "rule": info["rule"],
        "url": info["url"],
        "section": info["section"],
        "clause": info["text"],
    }


def _roll(
    label: str, face: int, target: int, thresholds: Any, automatic: int, hits: int, terms: Any, clause: Clause
) -> dict[str, Any]:
    th = [float(x) for x in thresholds] if isinstance(thresholds, list) else [target, target / 2, target / 4]
    return {
        "label": label,
        "dice": 1,
        "die": "d100",
        "faces": [int(face)],
        "need": target,
        "thresholds": {"one": th[0], "two": th[1], "three": th[2]},
        "automatic": automatic,
        "hits": hits,
        "modifiers": [_term(t, clause) for t in terms or []],
        "rule": clause(rule("casualties.multiple")),
        "natural": clause(rule("casualties.automatic")) if automatic else None,
    }


def _name(names: Mapping[str, str], uid: Any) -> str:
    return names.get(str(uid), str(uid))


def explain(
    events: Sequence[Event], index: int, names: Mapping[str, str], clause: Clause
) -> dict[str, Any] | None:
    """What Knight Hack adds to the why of event ``index``: a ``groups`` entry per d100 (face, T,
    T/2, T/4, automatic casualties, casualties, the terms of T with their clauses), or the morale
    ``test``; None for any other event."""
    ev = events[index]
    d = ev.data
    if ev.kind == "melee-round":
        a, b = (str(x) for x in d["units"])
        groups = [
            _roll(
                f"{_name(names, x)} on {_name(names, y)}",
                d["faces"][i],
                int(d["targets"][i]),
                d["thresholds"][i],
                int(d["automatic"][i]),
                int(d["casualties"][i]),
                d["terms"][i],
                clause,
            )
            for i, (x, y) in enumerate(((a, b), (b, a)))
        ]
        return {
            "attacker": a,
            "attacker_name": _name(names, a),
            "target": b,
            "target_name": _name(names, b),
            "die": "d100",
            "hits": None,
            "modifiers": [],
            "groups": groups,
            "notes": [
                f"Round {d['round']}: both roll at once; more casualties inflicted wins, "
                "equal is a draw (R15).",
                *(
                    ["Rear of open order: its first casualty destroys it (R23)."]
                    if any(d["rear_open"])
                    else []
                ),
            ],
        }
    if ev.kind == "missile":
        u, t = str(d["unit"]), str(d["target_unit"])
        g = _roll(
            f"{_name(names, u)} shoots {_name(names, t)}",
            d["faces"][0],
            int(d["target"]),
            d["thresholds"],
            0,
            int(d["casualties"]),
            d["terms"],
            clause,
        )
        return {
            "attacker": u,
            "attacker_name": _name(names, u),
            "target": t,
            "target_name": _name(names, t),
            "die": "d100",
            "hits": int(d["casualties"]),
            "modifiers": [],
            "groups": [g],
        }
    if ev.kind == "morale-test":
        u = str(d["unit"])
        return {
            "attacker": u,
            "attacker_name": _name(names, u),
            "target": "",
            "target_name": "",
            "die": "d100",
            "faces": [int(f) for f in d.get("faces") or []],
            "modifiers": [_term(t, clause, "morale.level") for t in d.get("terms") or []],
            "groups": [],
            "test": {
                "reason": str(d.get("test", "")),
                "tests": [str(d.get("test", ""))],
                "morale_level": d.get("level"),
                "level_rule": clause(rule("morale.level")),
                "target": d.get("target"),
                "automatic": bool(d.get("automatic")),
                "result": "passed" if d.get("passed") else "failed",
                "result_rule": clause(ev.rule),
            },
        }
    return None
