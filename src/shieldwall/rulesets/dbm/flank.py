"""Off-table flank marches arriving in battle.

Clauses: dbm-3.2:flank.who (a flank-marching command, never the C-in-C nor baggage, stays off the
table until it arrives), dbm-3.2:flank.both (both sides flank marching on one table edge: the
commands' element totals are compared). When a flank march arrives and where it enters are base
rules the amendments do not restate: the arrival die scores are user data (``game.toml``
``flank_arrival``) and the entry is the table edge of the command's ``flank`` (ruling R38).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shieldwall.core.geometry import Footprint
from shieldwall.rulesets.dbm.clauses import rule
from shieldwall.rulesets.dbm.command import flank_march_compare
from shieldwall.rulesets.dbm.elements import make
from shieldwall.rulesets.dbm.geom import overlapping

if TYPE_CHECKING:
    from shieldwall.rulesets.dbm.state import DbmState

Event = dict[str, Any]


def edge_is_low_x(side: str, flank: str) -> bool:
    """Red faces +y (its left is the x = 0 edge); blue faces -y (its left is the far edge)."""
    return (flank == "left") == (side == "red")


def both_flanks(st: DbmState, side: str) -> list[Event]:
    """dbm-3.2:flank.both, once both sides have deployed: each of ``side``'s flank marches and an
    enemy flank march on the same table edge compare their commands' element totals (the base
    rule's consequence is not played: ruling R38)."""
    ev: list[Event] = []
    for name, c in sorted(st.commands.items()):
        if c.side != side or not c.off_table:
            continue
        low = edge_is_low_x(side, c.off_table)
        for k, o in sorted(st.commands.items()):
            if o.side == side or not o.off_table or edge_is_low_x(o.side, o.off_table) != low:
                continue
            bigger = flank_march_compare(len(c.elements), len(o.elements))
            ev.append(
                {
                    "kind": "flank-march-compare",
                    "commands": [name, k],
                    "elements": [len(c.elements), len(o.elements)],
                    "larger": {"a": name, "b": k}.get(bigger, "equal"),
                    "rule": rule("flank.both"),
                }
            )
    return ev


def arrivals(st: DbmState, side: str, pips: dict[str, int]) -> list[Event]:
    """At the start of ``side``'s bound, each off-table command whose PIP die shows one of the
    ``flank_arrival`` scores arrives (ruling R38)."""
    ev: list[Event] = []
    faces = st.tables.game.flank_arrival
    for name in sorted(pips):
        c = st.commands[name]
        if c.side == side and c.off_table and pips[name] in faces:
            ev += arrive(st, name, pips[name])
    return ev


def arrive(st: DbmState, name: str, die: int) -> list[Event]:
    """Place the command's elements side by side with their rear edges on its flank's table edge,
    facing into the table, from the centre line towards its own base edge, in the first free
    places (elements already lost stay lost)."""
    c = st.commands[name]
    side, flank = c.side, c.off_table
    oob = st.game.scenario.armies[side]
    cmd = oob.commands[int(name[len(side) :]) - 1]
    low = edge_is_low_x(side, flank)
    heading = 90.0 if low else 270.0
    toward_own = -1.0 if side == "red" else 1.0
    bw = st.tables.bw
    ev: list[Event] = []
    placed: list[str] = []
    half = int(st.board.depth // bw) // 2
    mid = st.board.depth / 2
    ys = [mid + toward_own * (k + 0.5) * bw for k in range(half)]
    ys += [mid - toward_own * (k + 0.5) * bw for k in range(half)]
    free = iter(ys)
    for el in cmd.elements:
        depth = st.tables.depth(el.code)
        x = depth / 2 if low else st.board.width - depth / 2
        for y in free:
            fp = Footprint(x, y, heading, bw, depth)
            if st.board.on_table(fp) and not any(
                overlapping(fp, o.fp) for o in st.board.near(fp.corners(), 0.0)
            ):
                break
        else:
            break  # no room left on that edge: the rest stay off the table (ruling R38)
        e = make(
            st.tables,
            el.id,
            side,
            el.code,
            el.grade,
            x,
            y,
            heading,
            command=name,
            regular=el.regular,
            general=el.general,
            bow=el.bow,
        )
        st.board.put(e)
        placed.append(el.id)
    c.off_table = "" if placed else c.off_table
    ev.append(
        {
            "kind": "flank-march-arrives",
            "command": name,
            "flank": flank,
            "die": die,
            "ids": placed,
            "rule": rule("flank.who"),
        }
    )
    return ev
