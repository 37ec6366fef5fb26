"""The "why" of an Into the Dark combat event for the web log: the dice of each group of figures,
and a morale or control test's level, number to roll and result.

The web app builds the generic part of the why (who, the die, the modifiers, the hits, the clause
applied and those checked) and merges in what :func:`explain` returns. It learns which events have
a why from :data:`ATTACK_KINDS` and :data:`COMBAT_KINDS`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from shieldwall.core.events import Event

#: attacks: the why view explains the last one (missile fire, melee, the pursuit's bonus round,
#: and the rounds fought at a general or a champion)
ATTACK_KINDS = frozenset({"fire", "melee", "bonus-round", "melee-general", "melee-champion"})
#: the tests a why also explains
TEST_KINDS = frozenset({"morale-test", "control-test"})
#: every event a "why?" link explains
COMBAT_KINDS = ATTACK_KINDS | TEST_KINDS

#: clause id -> the page's record of it (rule, url, section, text), given by the web app
Clause = Callable[[str], dict[str, str]]


def _faces(v: Any) -> list[int]:
    return [int(f) for f in v] if isinstance(v, list) else []


def _modifier(m: Any, clause: Clause) -> dict[str, Any]:
    if not isinstance(m, dict):
        return {"name": str(m), "value": None, "rule": "", "url": "", "section": "", "clause": ""}
    rule = str(m.get("rule", ""))
    info = clause(rule) if rule else {"url": "", "section": "", "text": ""}
    return {
        "name": str(m.get("name", "")),
        "value": m.get("value"),
        "rule": rule,
        "url": info["url"],
        "section": info["section"],
        "clause": info["text"],
    }


def _groups(d: Mapping[str, Any], clause: Clause) -> list[dict[str, Any]]:
    """A combat roll, per group of figures: the dice, what each needs, the faces and the hits."""
    out = []
    for g in d.get("groups") or []:
        if not isinstance(g, dict):
            continue
        rule = str(g.get("rule", ""))
        out.append(
            {
                "label": str(g.get("label", "")),
                "dice": g.get("dice"),
                "rate": str(g.get("rate", "")),
                "armour": g.get("armour"),
                "need": g.get("need"),
                "faces": _faces(g.get("faces")),
                "hits": g.get("hits"),
                "modifiers": [_modifier(m, clause) for m in g.get("modifiers") or []],
                "rule": clause(rule) if rule else None,
                "natural": clause(str(g["natural"])) if g.get("natural") else None,
            }
        )
    return out


def _test(ev: Event, clause: Clause) -> dict[str, Any] | None:
    """A morale or control test: the level, the number to roll, the result."""
    if ev.kind not in TEST_KINDS:
        return None
    d = ev.data
    return {
        "reason": str(d.get("reason", "")),
        "tests": [str(x) for x in d.get("test") or []],
        "morale_level": d.get("morale_level"),
        "level_rule": clause(str(d["level_rule"])) if d.get("level_rule") else None,
        "target": d.get("target"),
        "result": d.get("result") if ev.kind == "morale-test" else d.get("control"),
        "result_rule": clause(str(d["result_rule"])) if d.get("result_rule") else None,
    }


def explain(
    events: Sequence[Event], index: int, names: Mapping[str, str], clause: Clause
) -> dict[str, Any] | None:
    """What Into the Dark adds to the why of event ``index``: the groups of figures with their dice
    (``groups``), the test (``test``), and the facing in words when the event counts figures per
    edge. None for an event that is not a combat or a test."""
    ev = events[index]
    if ev.kind not in COMBAT_KINDS:
        return None
    d = ev.data
    out: dict[str, Any] = {"groups": _groups(d, clause), "test": _test(ev, clause)}
    figures = d.get("figures")
    if d.get("facing") is None and isinstance(figures, dict):
        out["facing"] = ", ".join(f"{n} figures on the {e}" for e, n in figures.items() if n) or None
    return out
