"""The illustrated battle report: one standalone HTML page made from a save file.

:func:`battle_report` replays the save (verifying every event, as ``shieldwall replay`` does),
then replays it once more to keep the table at the end of each turn, and writes: a title block
(scenario, rule system, seed, result and its reason), a map per turn drawn through the rule
system's drawing with movement arrows, losses and combats marked (``render.report_svg``), the
turn's narrative (the plugin's ``narrate``), the turn's key dice (every event that carries dice,
with its clause and, where the event carries what it takes, the chance of the roll) and a chart of
the units lost per turn per side. Everything is inline (SVG and CSS): the page makes no request.

Only the plugin API is used: the views (``State.view()``), the events, the plugin's narration,
its clause table and its ``explain`` module's ``COMBAT_KINDS`` (the combats and tests it explains).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any

from shieldwall import registry
from shieldwall.core.errors import DataError, ReplayMismatch, ShieldwallError
from shieldwall.core.events import Event
from shieldwall.io.saves import replay
from shieldwall.io.scenarios import game_from_data
from shieldwall.render.narrate import describe
from shieldwall.render.report_odds import chance
from shieldwall.render.report_svg import Combat, is_lost, losses_chart, share_terrain, turn_map
from shieldwall.render.report_svg import side_colour as side_colour

__all__ = ["Turn", "battle_report", "turns_of"]

#: dice events not worth a row among a turn's key dice (the movement dice of every move)
MINOR_KINDS = frozenset({"roll", "phase"})
#: the most key-dice rows shown for one turn (the rest are counted)
MAX_DICE_ROWS = 80


@dataclass
class Turn:
    """One turn of the battle: its events (with their index in the log) and the table at its start
    and at its end."""

    turn: int
    start: dict[str, Any]
    end: dict[str, Any]
    events: list[tuple[int, Event]] = field(default_factory=list)


def _replay(save: Mapping[str, Any], file: str) -> Any:
    """``io.saves.replay`` with every failure as one line naming the file."""
    try:
        return replay(save, file)
    except ReplayMismatch as exc:
        saved = exc.expected.get("kind") if isinstance(exc.expected, dict) else exc.expected
        got = exc.got.get("kind") if isinstance(exc.got, dict) else exc.got
        raise DataError(
            file,
            f"events[{exc.index}]",
            f"differs on replay (saved {saved!r}, replayed {got!r}): the save was changed or made by "
            "another version of the rules",
        ) from None
    except DataError:
        raise
    except ShieldwallError as exc:
        raise DataError(file, "", str(exc).splitlines()[0]) from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise DataError(file, "", f"the save cannot be replayed: {type(exc).__name__}: {exc}") from None


def turns_of(save: Mapping[str, Any], file: str = "<save>") -> tuple[Any, list[Turn]]:
    """Replay ``save`` (verified), then split it into turns: the final state and the turns, the
    first being the set-up before the first turn's orders when it has events of its own."""
    final = _replay(save, file)
    game = game_from_data(save["scenario"], file, save.get("overrides") or {})
    state = game.new_state(save.get("seed"))
    initial = state.view()
    cur = state.events[-1].turn if state.events else 0
    views: dict[int, dict[str, Any]] = {}
    for od in save["orders"]:
        state.apply(state.parse_order(od))
        t = state.events[-1].turn if state.events else cur
        if t != cur:
            views[cur] = state.view()
            cur = t
    views[cur] = state.view()
    by_turn: dict[int, list[tuple[int, Event]]] = {}
    for i, ev in enumerate(state.events):
        by_turn.setdefault(ev.turn, []).append((i, ev))
    out: list[Turn] = []
    start = initial
    for t in sorted(set(by_turn) | set(views)):
        end = views.get(t, start)
        out.append(Turn(t, start, end, by_turn.get(t, [])))
        start = end
    return final, out


def _unit_names(turns: Sequence[Turn]) -> dict[str, str]:
    names: dict[str, str] = {}
    for tr in turns:
        for v in (tr.start, tr.end):
            for u in v.get("units", []):
                names.setdefault(str(u["id"]), f"{u.get('name', u['id'])} [{u['id']}]")
    return names


def _combat_kinds(ruleset: str) -> frozenset[str]:
    """The combats and tests the rule system explains (its ``explain`` module's kinds)."""
    rs = registry.find(ruleset)
    fn = rs.optional("explain") if rs is not None else None
    if fn is None:
        return frozenset()
    module = importlib.import_module(fn.__module__)
    kinds = set(getattr(module, "COMBAT_KINDS", ())) | set(getattr(module, "ATTACK_KINDS", ()))
    return frozenset(str(k) for k in kinds)


def _clauses(ruleset: str) -> Mapping[str, Any]:
    rs = registry.find(ruleset)
    table: Mapping[str, Any] = (rs.optional("clauses") if rs is not None else None) or {}
    return table


def _section(table: Mapping[str, Any], rule: str) -> str:
    v = table.get(rule.partition(":")[2])
    if v is None:
        return ""
    return str(v) if isinstance(v, str) else str(v[0])


def _mentioned(data: Any, ids: Mapping[str, str], depth: int = 0) -> list[str]:
    """The unit ids an event's data names (values, lists, and the keys of per-unit tables)."""
    found: list[str] = []
    if depth > 3:
        return found
    if isinstance(data, str):
        return [data] if data in ids else []
    if isinstance(data, Mapping):
        for k, v in data.items():
            if k == "checked":
                continue
            if str(k) in ids:
                found.append(str(k))
            found += _mentioned(v, ids, depth + 1)
    elif isinstance(data, list | tuple):
        for v in data:
            found += _mentioned(v, ids, depth + 1)
    return list(dict.fromkeys(found))


def _has_dice(ev: Event) -> bool:
    return ev.kind not in MINOR_KINDS and ("faces" in ev.data or isinstance(ev.data.get("dice"), list))


def _faces(ev: Event) -> str:
    f = ev.data.get("faces", ev.data.get("dice"))
    if isinstance(f, Mapping):
        return ", ".join(f"{k} {v}" for k, v in f.items())
    if isinstance(f, list):
        return " ".join(str(x) for x in f)
    return str(f)


@dataclass
class _Page:
    ruleset: str
    sides: tuple[str, ...]
    names: dict[str, str]
    side_of: dict[str, str]
    combat_kinds: frozenset[str]
    clauses: Mapping[str, Any]


def _combats(page: _Page, tr: Turn) -> list[Combat]:
    seen: dict[tuple[str, ...], int] = {}
    for _, ev in tr.events:
        if not _has_dice(ev):
            continue
        ids = _mentioned(ev.data, page.side_of)
        if len({page.side_of[i] for i in ids}) >= 2:
            key = tuple(sorted(ids))
            seen[key] = seen.get(key, 0) + 1
    return list(seen.items())


def _dice_rows(page: _Page, tr: Turn) -> str:
    rows: list[str] = []
    n = 0
    for _, ev in tr.events:
        if not _has_dice(ev):
            continue
        n += 1
        if n > MAX_DICE_ROWS:
            continue
        ids = _mentioned(ev.data, page.side_of)
        two_sides = len({page.side_of[i] for i in ids}) >= 2
        decides = "combat" if two_sides else ("test" if ev.kind in page.combat_kinds else "")
        words = describe(ev, page.names) or ev.kind
        section = _section(page.clauses, ev.rule)
        odds = chance(ev.data)
        small = f"<br><small>{escape(section)}</small>" if section else ""
        rows.append(
            f'<tr class="{"key" if decides else ""}"><td>{escape(ev.side or "")}</td>'
            f'<td>{escape(decides)}</td><td>{escape(words)}</td><td class="faces">{escape(_faces(ev))}</td>'
            f"<td><code>{escape(ev.rule)}</code>{small}</td>"
            f"<td>{escape(odds or '')}</td></tr>"
        )
    if not rows:
        return '<p class="no-dice">No dice this turn.</p>'
    more = f'<p class="more">... and {n - MAX_DICE_ROWS} more rolls.</p>' if n > MAX_DICE_ROWS else ""
    return (
        '<table class="dice"><thead><tr><th>side</th><th>decides</th><th>roll</th><th>faces</th>'
        "<th>clause</th><th>chance</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>" + more
    )


def _narrative(page: _Page, tr: Turn) -> str:
    lines = []
    for _, ev in tr.events:
        line = describe(ev, page.names)
        if line is None or ev.kind == "phase":
            continue
        cls = ' class="headline"' if ev.kind in ("turn", "result") else ""
        lines.append(f"<li{cls}>{escape(line)}</li>")
    if not lines:
        return '<p class="narrative">Nothing happened.</p>'
    return '<ol class="narrative">' + "".join(lines) + "</ol>"


def _lost_per_turn(turns: Sequence[Turn], side_of: Mapping[str, str]) -> dict[int, dict[str, int]]:
    out: dict[int, dict[str, int]] = {}
    for tr in turns:
        after = {str(u["id"]): u for u in tr.end.get("units", [])}
        row: dict[str, int] = {}
        for u in tr.start.get("units", []):
            uid = str(u["id"])
            if not is_lost(u) and is_lost(after.get(uid)):
                side = side_of.get(uid, str(u.get("side")))
                row[side] = row.get(side, 0) + 1
        out[tr.turn] = row
    return out


CSS = """
body{font-family:DejaVu Sans,Verdana,Arial,sans-serif;margin:0 auto;max-width:1100px;padding:1em;
background:#f6f1e4;color:#1d1d1d;line-height:1.35}
h1{margin:.2em 0}h2{border-bottom:2px solid #4a3a22;padding-bottom:.1em;margin-top:1.6em}
dl.title{display:grid;grid-template-columns:max-content 1fr;gap:.2em 1em}dt{font-weight:bold}dd{margin:0}
figure.map{margin:.5em 0}figure.map svg{width:100%;height:auto;display:block}
figcaption{font-size:.85em;color:#4a3a22}
.turn-body{display:grid;grid-template-columns:1fr;gap:.6em}
ol.narrative{font-size:.9em;margin:.3em 0;padding-left:3em}ol.narrative li.headline{font-weight:bold}
table{border-collapse:collapse;font-size:.8em;width:100%}
td,th{border:1px solid #cfc6b0;padding:.15em .4em;vertical-align:top;text-align:left}
th{background:#e9dfc6}tr.key td{background:#fff6d6}td.faces{white-space:nowrap}
nav.turns a{margin-right:.5em}.legend span{margin-right:1em}
.swatch{display:inline-block;width:.8em;height:.8em}
@media print{section.turn{break-before:page}nav.turns{display:none}}
"""


def battle_report(save: Mapping[str, Any], file: str = "<save>") -> str:
    """The report of a saved battle as one standalone HTML page (a string)."""
    final, turns = turns_of(save, file)
    view = final.view()
    ruleset = str(save.get("ruleset") or view.get("ruleset") or "")
    rs = registry.find(ruleset)
    sides: tuple[str, ...] = tuple(rs.sides) if rs is not None else ()
    names = _unit_names(turns)
    side_of: dict[str, str] = {}
    for tr in turns:
        for v in (tr.start, tr.end):
            for u in v.get("units", []):
                side_of.setdefault(str(u["id"]), str(u.get("side")))
    sides = sides + tuple(sorted(set(side_of.values()) - set(sides)))
    page = _Page(ruleset, sides, names, side_of, _combat_kinds(ruleset), _clauses(ruleset))

    res = final.result()
    scenario = str(view.get("scenario") or save["scenario"].get("name") or "Battle")
    title = f"Battle of {scenario}" if not scenario.lower().startswith("battle") else scenario
    facts = [
        ("Scenario", scenario),
        ("Rule system", f"{rs.title} ({ruleset})" if rs is not None else ruleset),
        ("Seed", str(save.get("seed"))),
        ("Result", (f"{res.winner} wins" if res.winner else "a draw") if res else "not over"),
        ("Why", res.reason if res else "the save stops before the end of the battle"),
        ("Turns", str(max((t.turn for t in turns), default=0))),
        (
            "Orders / events",
            f"{len(save['orders'])} / {len(final.events)} (every event verified on replay)"
            if "events" in save
            else f"{len(save['orders'])} / {len(final.events)} (the save holds no events)",
        ),
    ]
    if res is not None and res.losses:
        for sd, by_type in res.losses.items():
            facts.append((f"Losses of {sd}", ", ".join(f"{k} x{v}" for k, v in by_type.items()) or "none"))

    maps = [turn_map(tr.start, tr.end, _combats(page, tr), sides, names) for tr in turns]
    shared, maps = share_terrain(maps)
    lost = _lost_per_turn(turns, side_of)
    legend = "".join(
        f'<span><i class="swatch" style="background:{side_colour(sd, sides)}"></i> {escape(sd)}</span>'
        for sd in sides
    )
    body = [
        "<header><h1>"
        + escape(title)
        + '</h1><dl class="title">'
        + "".join(f"<dt>{escape(k)}</dt><dd>{escape(v)}</dd>" for k, v in facts)
        + "</dl></header>",
        '<section class="losses"><h2>Units lost per turn</h2>'
        + losses_chart([t.turn for t in turns], lost, sides)
        + "</section>",
        '<nav class="turns">Turns: '
        + "".join(f'<a href="#turn-{t.turn}">{t.turn}</a>' for t in turns)
        + "</nav>",
    ]
    for tr, svg in zip(turns, maps, strict=True):
        body.append(
            f'<section class="turn" id="turn-{tr.turn}" data-turn="{tr.turn}"><h2>Turn {tr.turn}</h2>'
            f'<figure class="map">{svg}<figcaption class="legend">The table at the end of turn {tr.turn}: '
            "arrows from each unit's place at the start of the turn, a cross where a unit was lost, "
            f"a yellow mark between the sides of each combat. {legend}</figcaption></figure>"
            f'<div class="turn-body"><div><h3>What happened</h3>{_narrative(page, tr)}</div>'
            f"<div><h3>Key dice</h3>{_dice_rows(page, tr)}</div></div></section>"
        )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)} - shieldwall battle report</title><style>{CSS}</style></head>"
        f"<body>{shared}{''.join(body)}<footer><small>Made by shieldwall report-battle from a "
        f"verified replay of {escape(file)}.</small></footer></body></html>\n"
    )
