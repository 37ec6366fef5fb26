"""The battle log for the page: each event in plain words, with its dice and rule clauses.

The words come from ``render.narrate.describe``; dice rolls it leaves out of the narration
(movement dice, rally dice, initiative) get a line here, since the page shows every roll.
Each clause id links to the rule system's clause table served at ``/rules/<ruleset>#<clause>``.
"""

from __future__ import annotations

import importlib
from functools import cache
from pathlib import Path
from typing import Any

from shieldwall import registry
from shieldwall.core.events import Event
from shieldwall.render.narrate import describe

#: events that are bookkeeping: shown small (phase changes) or folded into the next line
MINOR_KINDS = frozenset({"phase", "roll"})
#: attacks: the "why" view explains the last one (one-hour shot and melee; into-the-dark missile
#: fire, melee and the pursuit's bonus round)
ATTACK_KINDS = frozenset({"melee", "shot", "fire", "bonus-round", "melee-general", "melee-champion"})
#: events a "why?" link explains: attacks, and into-the-dark's morale and control tests
COMBAT_KINDS = ATTACK_KINDS | frozenset({"morale-test", "control-test"})


def rule_url(rule_id: str) -> str:
    """``ruleset:clause`` -> the page's link to the clause table row."""
    rs, _, clause = rule_id.partition(":")
    return f"/rules/{rs}#{clause}" if clause else f"/rules/{rs}"


def ruleset_module(ruleset: str, name: str) -> Any:
    """The module ``name`` (``clauses``, ``reach``) of a rule system's package, or None. The registry
    names the package (``rulesets.one_hour``) or a module in it (``rulesets.into_the_dark.game``)."""
    rs = registry.find(ruleset)
    if rs is None:
        return None
    package = rs.package
    try:
        return importlib.import_module(f"{package}.{name}")
    except ModuleNotFoundError:
        return None


@cache
def clauses(ruleset: str) -> dict[str, tuple[str, str]]:
    """The clause table of a rule system: clause id -> (section, what it says); empty if none."""
    m = ruleset_module(ruleset, "clauses")
    if m is None:
        return {}
    table = getattr(m, "CLAUSES", {})
    out: dict[str, tuple[str, str]] = {}
    summaries: dict[str, str] | None = None
    for k, v in table.items():
        if isinstance(v, str):  # a heading only (into-the-dark): the summary is in docs/rules/
            if summaries is None:
                summaries = _doc_summaries(ruleset)
            out[str(k)] = (v, summaries.get(str(k), v))
        else:
            out[str(k)] = (str(v[0]), str(v[1]))
    return out


DOCS_RULES = Path(__file__).resolve().parents[3] / "docs" / "rules"


def _doc_summaries(ruleset: str) -> dict[str, str]:
    """clause -> the summary column of the generated clause table ``docs/rules/<ruleset>.md``
    (``| `ruleset:clause` | section | summary | ...``), when the checkout has it."""
    path = DOCS_RULES / f"{ruleset}.md"
    out: dict[str, str] = {}
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return out
    for line in lines:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and cells[0].startswith(f"`{ruleset}:") and cells[0].endswith("`"):
            out[cells[0][len(ruleset) + 2 : -1]] = cells[2]
    return out


def clause_info(rule_id: str) -> dict[str, str]:
    rs, _, clause = rule_id.partition(":")
    section, text = clauses(rs).get(clause, ("", ""))
    return {"rule": rule_id, "url": rule_url(rule_id), "section": section, "text": text}


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


def entry(index: int, ev: Event, names: dict[str, str]) -> dict[str, Any]:
    """One log line: words, dice, the clause applied and the clauses checked, with links."""
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
        "why": ev.kind in COMBAT_KINDS,
    }


def _mod_info(m: Any) -> dict[str, Any]:
    if not isinstance(m, dict):
        return {"name": str(m), "value": None, "rule": "", "url": "", "section": "", "clause": ""}
    rule = str(m.get("rule", ""))
    info = clause_info(rule) if rule else {"section": "", "text": ""}
    return {
        "name": str(m.get("name", "")),
        "value": m.get("value"),
        "rule": rule,
        "url": rule_url(rule) if rule else "",
        "section": info["section"],
        "clause": info["text"],
    }


def _faces(v: Any) -> list[int]:
    return [int(f) for f in v] if isinstance(v, list) else []


def _groups(d: dict[str, Any]) -> list[dict[str, Any]]:
    """An into-the-dark combat roll: per group of figures, the dice, what each needs and the hits."""
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
                "modifiers": [_mod_info(m) for m in g.get("modifiers") or []],
                "rule": clause_info(rule) if rule else None,
                "natural": clause_info(str(g["natural"])) if g.get("natural") else None,
            }
        )
    return out


def _test(ev: Event) -> dict[str, Any] | None:
    """An into-the-dark morale or control test: the level, its modifiers, the number to roll."""
    if ev.kind not in ("morale-test", "control-test"):
        return None
    d = ev.data
    return {
        "reason": str(d.get("reason", "")),
        "tests": [str(x) for x in d.get("test") or []],
        "morale_level": d.get("morale_level"),
        "level_rule": clause_info(str(d["level_rule"])) if d.get("level_rule") else None,
        "target": d.get("target"),
        "result": d.get("result") if ev.kind == "morale-test" else d.get("control"),
        "result_rule": clause_info(str(d["result_rule"])) if d.get("result_rule") else None,
    }


def combat_why(index: int, ev: Event, names: dict[str, str]) -> dict[str, Any]:
    """The "why" of one attack (or into-the-dark test): who, which facing, the die, every modifier
    with its clause, the hits (per group of figures in into-the-dark), the test's level and result."""
    d = ev.data
    dice = _dice(ev) or {}
    figures = d.get("figures")
    facing = d.get("facing")
    if facing is None and isinstance(figures, dict):
        facing = ", ".join(f"{n} figures on the {e}" for e, n in figures.items() if n) or None
    return {
        "index": index,
        "kind": ev.kind,
        "turn": ev.turn,
        "side": ev.side,
        "text": describe(ev, names) or ev.kind,
        "attacker": str(d.get("unit", "")),
        "attacker_name": names.get(str(d.get("unit")), str(d.get("unit", ""))),
        "target": str(d.get("target", "")),
        "target_name": names.get(str(d.get("target")), str(d.get("target", ""))),
        "facing": facing,
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
        "groups": _groups(d),
        "test": _test(ev),
        "notes": [str(n) for n in d.get("notes") or []],
    }
