"""What one unit can reach right now, computed with the engine's own rules (the plugin's ``reach``,
for the web page's overlay and its JSON).

``reach(state, unit_id)``:

* ``move``: the Movement Points left (this phase) or the allowance (another phase: what it could do
  in its next Movement Phase), and when it may not move, why, with the clause;
* ``hexes``: every hex it can end in, with the cheapest MP cost (steps into front hexes and paid
  hexside turns, ``movement.step_cost``'s rules: terrain, roads, streams, the stop rule in front of
  enemy missile units and, when the TEC plays it, in enemy cross-river fronts, enemy hexes,
  stacking), ``stop`` marking the hexes where such a stop ends the move (``movement.K.stop``,
  ``tec.cross-river``);
* ``charges`` / ``shooting``: the enemies it may melee or fire at in the Attack Allocation Phase;
* ``odds``: in the Attack Allocation Phase, the exact CRT preview of each attack it may join (the
  units already allocated against that hex with it): odds, column, die modifier, every result with
  its probability (``combat.outcomes``, the distribution play samples);
* ``fire_lines``: for a missile unit, the line of fire to every enemy hex within its range (+1 from
  a hilltop): clear, or the first hex that blocks it and why (``fire.line_of_fire``: units not on
  lower ground, blocking terrain, a wooded slope under a hilltop firer); ``fire_tool``: the same to
  every map hex in range (the page's fire-line tool);
* ``highlight``: the unit and its targets in the form ``render_svg(..., highlight=...)`` takes.

Nothing here changes the state: the search runs on a ``copy()`` of the board. A Dijkstra over (hex,
facing) with hex look-ups only.
"""

from __future__ import annotations

import heapq
from typing import TYPE_CHECKING, Any

from shieldwall.core.hexgrid import Hex, ccrr, facing_zone, spiral

from .alloc import fire_targets, melee_targets
from .combat import lookup, outcomes
from .fire import fire_range, line_of_fire
from .movement import (
    Refused,
    allowance,
    check_fleet_pass,
    check_mover,
    check_stacking,
    entry_cost,
    step_cost,
)
from .picture import centre
from .resolve import fire_situation, melee_situation

if TYPE_CHECKING:
    from .board import Board, Unit
    from .state import DarkAgesState


def _hexes(b: Board, u: Unit, budget: float) -> list[dict[str, Any]]:
    assert u.hex is not None
    turn_mp = b.charts.tec.facing_mp
    start = (u.hex, u.facing)
    best: dict[tuple[Hex, int], float] = {start: 0.0}
    heap: list[tuple[float, Hex, int]] = [(0.0, u.hex, u.facing)]
    stops: set[Hex] = set()
    out: dict[Hex, float] = {u.hex: 0.0}
    while heap:
        c, h, f = heapq.heappop(heap)
        if c > best.get((h, f), 1e9) or (h in stops and h != u.hex):
            continue
        nexts: list[tuple[Hex, int, float]] = []
        if not b.is_fleet(u):
            nexts += [(h, (f + w) % 6, turn_mp) for w in (1, -1)]
        for d in range(6):
            if not b.is_fleet(u) and facing_zone(f, d) != "front":
                continue
            n = h.neighbour(d)
            if not b.map.on_map(n) or b.occupant_side(n) not in (None, u.side):
                continue
            try:
                step = entry_cost(b, u, h, n)
                check_stacking(b, u, n)
            except Refused:
                continue
            nexts.append((n, f, step))
        for n, nf, step in nexts:
            nc = c + step
            if nc > budget + 1e-9 or nc >= best.get((n, nf), 1e9):
                continue
            if n != h and b.is_fleet(u):
                try:
                    check_fleet_pass(b, u, n, budget - nc)
                except Refused:
                    continue
            best[(n, nf)] = nc
            out[n] = min(out.get(n, 1e9), nc)
            if n != h and b.controller(n, u.side) is not None:
                stops.add(n)
            heapq.heappush(heap, (nc, n, nf))
    steps: dict[Hex, str] = {}
    if b.phase == "movement" and u.side == b.phasing:
        for d in range(6):
            try:
                step_cost(b, u, d)
            except Refused:
                continue
            steps[u.hex.neighbour(d)] = f"step {u.id} {d}"
    rows = []
    for h in sorted(out):
        x, y = centre(b.map, h)
        row: dict[str, Any] = {"hex": ccrr(h), "mp": out[h], "stop": h in stops, "x": x, "y": y}
        if h in steps:
            row["order"] = steps[h]
        rows.append(row)
    return rows


def _preview(b: Board, u: Unit, target: Hex, table: str) -> dict[str, Any]:
    alloc = b.melee_alloc if table == "melee" else b.fire_alloc
    group = [b.units[i] for i, t in alloc.items() if t == target and i != u.id] + [u]
    a = melee_situation(b, group, target) if table == "melee" else fire_situation(b, group, target)
    crt = getattr(b.charts.crt, table)
    _, column = lookup(crt, a.attack, a.defence)
    dist = outcomes(b.charts, a)
    return {
        "target": ccrr(target),
        "table": table,
        "order": f"{table} {u.id} {ccrr(target)}",
        "units": [g.id for g in group],
        "attack": str(a.attack),
        "defence": str(a.defence),
        "column": column,
        "modifier": a.modifier,
        "results": {
            k: {"probability": f"{p.numerator}/{p.denominator}", "p": float(p)} for k, p in dist.items()
        },
        "notes": list(a.notes),
        "label": b.charts.label,
    }


def _fire_lines(b: Board, u: Unit, *, every_hex: bool = False) -> list[dict[str, Any]]:
    """Lines of fire to the enemy hexes in range, or (``every_hex``: the page's fire-line tool) to
    every map hex in range, occupied or not."""
    assert u.hex is not None
    t = b.type_of(u)
    if t.missile == 0:
        return []
    out = []
    for h in spiral(u.hex, t.range + 1):
        if h == u.hex or u.hex.distance(h) > fire_range(b, u, h) or not b.map.on_map(h):
            continue
        if not every_hex and b.occupant_side(h) != b.enemy(u.side):
            continue
        blocked = line_of_fire(b, u, h)
        x, y = centre(b.map, h)
        row: dict[str, Any] = {"target": ccrr(h), "x": x, "y": y, "clear": blocked is None}
        if blocked is not None:
            bx, by = centre(b.map, blocked[0])
            row |= {"blocked_at": ccrr(blocked[0]), "bx": bx, "by": by, "rule": f"spi-dark-ages:{blocked[1]}"}
        out.append(row)
    return out


def reach(st: DarkAgesState, unit_id: str) -> dict[str, Any]:
    b = st.board.copy()
    u = b.units.get(unit_id)
    if u is None or not u.on_map:
        return {"unit": unit_id, "move": None, "hexes": [], "charges": [], "shooting": None, "highlight": {}}
    own_phase = b.phase == "movement" and u.side == b.phasing
    budget = u.mp_left if own_phase else allowance(b, u)
    why = None
    if own_phase:
        try:
            check_mover(b, u)
        except Refused as r:
            why = {"rule": f"spi-dark-ages:{r.clause}", "reason": r.reason}
    if b.in_contact(u):
        why = {
            "rule": "spi-dark-ages:combat.K.bound",
            "reason": f"{u.id} is in contact: it may not leave its hex",
        }
    assert u.hex is not None
    hexes = [] if why is not None or u.panicked else _hexes(b, u, budget)
    melee: list[str] = []
    fire: list[str] = []
    odds: list[dict[str, Any]] = []
    if b.phase == "allocation" and u.side == b.phasing:
        mh, fh = melee_targets(b, u), fire_targets(b, u)
        melee = sorted({o.id for h in mh for o in b.units_at(h)})
        fire = sorted({o.id for h in fh for o in b.units_at(h)})
        odds = [_preview(b, u, h, "melee") for h in mh] + [_preview(b, u, h, "fire") for h in fh]
    return {
        "unit": unit_id,
        "move": {"mp_left": budget, "allowance": allowance(b, u), "why_not": why},
        "hexes": hexes,
        "charges": [{"target": t} for t in melee],
        "charge_why_not": {},
        "shooting": {"targets": fire, "orders": {}, "why_not": {}} if b.type_of(u).missile else None,
        "odds": odds,
        "fire_lines": _fire_lines(b, u),
        "fire_tool": _fire_lines(b, u, every_hex=True),
        "at": dict(zip(("x", "y"), centre(b.map, u.hex), strict=True)),
        "highlight": {"active": unit_id, "charge_targets": melee, "shoot_targets": fire},
    }
