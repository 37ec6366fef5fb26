"""The battle log for the page: each event in plain words, with its dice and rule clauses.

The words come from ``render.narrate.describe``; dice rolls it leaves out of the narration
(movement dice, rally dice, initiative) get a line here, since the page shows every roll.
Each clause id links to the rule system's clause table served at ``/rules/<ruleset>#<clause>``;
the table is the plugin's ``clauses`` (clause id -> (section, summary)).

The "why" of a combat event (``combat_why``) is generic: who, the die, every modifier with its
clause, the hits, the clause applied and those checked. A rule system's plugin ``explain`` says
which events have one (its module's ``ATTACK_KINDS`` and ``COMBAT_KINDS``) and adds what only it
knows (per-group dice, a test): ``explain(events, index, names, clause) -> dict | None``, merged
over the generic why; ``clause`` is :func:`clause_info`. A rule system without ``explain`` has no
why links.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from shieldwall import registry
from shieldwall.core.events import Event
from shieldwall.plugin import RuleSystem
from shieldwall.render.narrate import describe

#: events that are bookkeeping: shown small (phase changes) or folded into the next line
MINOR_KINDS = frozenset({"phase", "roll"})


def rule_url(rule_id: str) -> str:
    """``ruleset:clause`` -> the page's link to the clause table row."""
    rs, _, clause = rule_id.partition(":")
    return f"/rules/{rs}#{clause}" if clause else f"/rules/{rs}"


@cache
def _table(rs: RuleSystem) -> dict[str, tuple[str, str]]:
    table: Mapping[str, Any] = rs.optional("clauses") or {}
    out: dict[str, tuple[str, str]] = {}
    for k, v in table.items():
        if isinstance(v, str):  # a section heading without a summary
            out[str(k)] = (v, v)
        else:
            out[str(k)] = (str(v[0]), str(v[1]))
    return out


def clauses(ruleset: str) -> dict[str, tuple[str, str]]:
    """The clause table of a rule system: clause id -> (section, what it says); empty if none."""
    rs = registry.find(ruleset)
    return {} if rs is None else _table(rs)


def clause_info(rule_id: str) -> dict[str, str]:
    """A clause as the page shows it: its id, link, section and what it says."""
    rs, _, clause = rule_id.partition(":")
    section, text = clauses(rs).get(clause, ("", ""))
    return {"rule": rule_id, "url": rule_url(rule_id), "section": section, "text": text}


Explain = Callable[[Sequence[Event], int, Mapping[str, str], Callable[[str], dict[str, str]]], Any]


@dataclass(frozen=True)
class Explainer:
    """Which events of a rule system have a why, and what its plugin adds to one."""

    #: attacks: the why view explains the last one when asked for none
    attack_kinds: frozenset[str] = frozenset()
    #: every event a "why?" link explains (the attacks and, say, morale tests)
    kinds: frozenset[str] = frozenset()
    extra: Explain | None = None


@cache
def _explainer(rs: RuleSystem) -> Explainer:
    fn = rs.optional("explain")
    if fn is None:
        return Explainer()
    module = importlib.import_module(fn.__module__)
    attacks = frozenset(str(k) for k in getattr(module, "ATTACK_KINDS", ()))
    kinds = frozenset(str(k) for k in getattr(module, "COMBAT_KINDS", ())) | attacks
    return Explainer(attacks, kinds, fn)


def explainer(ruleset: str) -> Explainer:
    """The why of a rule system's events (no why at all when its plugin has no ``explain``)."""
    rs = registry.find(ruleset)
    return Explainer() if rs is None else _explainer(rs)


def unit_names(view: dict[str, Any]) -> dict[str, str]:
    return {str(u["id"]): f"{u.get('name', u['id'])} [{u['id']}]" for u in view.get("units", [])}


def _dice(ev: Event) -> dict[str, Any] | None:
    d = ev.data
    faces = d.get("faces")
    if faces is None:
        return None
    by_side: dict[str, int] | None = None
    if isinstance(faces, dict):
        by_side = {str(k): int(v) for k, v in faces.items()}
        face_list = list(by_side.values())
    else:
        face_list = [int(f) for f in faces]
    mods = []
    for m in d.get("modifiers", []) or []:
        if isinstance(m, dict):
            mods.append(
                {
                    "name": str(m.get("name", "")),
                    "value": m.get("value"),
                    "rule": str(m.get("rule", "")),
                    "url": rule_url(str(m.get("rule", ""))),
                }
            )
    return {
        "die": d.get("die"),
        "faces": face_list,
        "by_side": by_side,
        "modifiers": mods,
        "hits": d.get("hits"),
        "what": d.get("what"),
    }


def _fallback_text(ev: Event, names: dict[str, str]) -> str:
    d = ev.data
    if ev.kind == "roll":
        who = names.get(str(d.get("unit")), str(d.get("unit"))) if d.get("unit") else (ev.side or "")
        return f"{who} rolls {d.get('what', 'dice')} on the {d.get('die', 'die')}:".strip()
    if ev.kind == "phase":
        player = d.get("player", ev.side)
        return f"{str(player) + ': ' if player else ''}{d.get('phase_name', ev.phase)} phase"
    if ev.kind == "hidden":
        return "(hidden from you)"
    return ev.kind


def entry(index: int, ev: Event, names: dict[str, str], why_kinds: frozenset[str]) -> dict[str, Any]:
    """One log line: words, dice, the clause applied and the clauses checked, with links;
    ``why`` when ``/combat?index=`` explains it (its kind is one of ``why_kinds``)."""
    text = describe(ev, names) if ev.kind != "hidden" else None
    if ev.kind == "battle" and ev.data.get("seed") is None:
        text = f"Battle of {ev.data.get('scenario')} (the seed stays secret until the end)"
    if text is None:
        text = _fallback_text(ev, names)
    checked = [str(c) for c in ev.data.get("checked", []) or [] if isinstance(c, str)]
    return {
        "index": index,
        "turn": ev.turn,
        "phase": ev.phase,
        "side": ev.side,
        "kind": ev.kind,
        "rule": ev.rule,
        "rule_url": rule_url(ev.rule),
        "text": text,
        "minor": ev.kind in MINOR_KINDS,
        "dice": _dice(ev),
        "checked": [{"rule": c, "url": rule_url(c)} for c in checked],
        "why": ev.kind in why_kinds,
    }


def combat_why(events: Sequence[Event], index: int, names: dict[str, str], ex: Explainer) -> dict[str, Any]:
    """The "why" of event ``index`` (an attack, or a test the rule system explains): who, which
    facing, the die, every modifier with its clause, the hits, the clause applied and those checked,
    and what the rule system's ``explain`` adds (``groups`` of dice, a ``test``...)."""
    ev = events[index]
    d = ev.data
    dice = _dice(ev) or {}
    out: dict[str, Any] = {
        "index": index,
        "kind": ev.kind,
        "turn": ev.turn,
        "side": ev.side,
        "text": describe(ev, names) or ev.kind,
        "attacker": str(d.get("unit", "")),
        "attacker_name": names.get(str(d.get("unit")), str(d.get("unit", ""))),
        "target": str(d.get("target", "")),
        "target_name": names.get(str(d.get("target")), str(d.get("target", ""))),
        "facing": d.get("facing"),
        "terrain": d.get("terrain"),
        "die": dice.get("die"),
        "faces": dice.get("faces", []),
        "modifiers": [
            {**m, "section": clause_info(m["rule"])["section"], "clause": clause_info(m["rule"])["text"]}
            for m in dice.get("modifiers", [])
        ],
        "hits": d.get("hits"),
        "target_hits": d.get("target_hits"),
        "rule": clause_info(ev.rule),
        "checked": [clause_info(c) for c in d.get("checked", []) or [] if isinstance(c, str)],
        "groups": [],
        "test": None,
        "notes": [str(n) for n in d.get("notes") or []],
    }
    if ex.extra is not None:
        more = ex.extra(events, index, names, clause_info)
        if more:
            out.update(more)
    return out
