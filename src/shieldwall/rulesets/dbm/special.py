"""Rules of particular situations: simultaneous moves, riderless mounts, contacts on supporting
elements, flank attackers after removals, pressing forward, storming, fortification corners.

Clauses: dbm-3.2:move.simultaneous, dbm-3.2:exchange.riderless, dbm-3.2:cc.support-hit,
dbm-3.2:destroy.flank-shift, dbm-3.2:press.forward, dbm-3.2:storm.pursue, dbm-3.2:cc.fort-corner,
dbm-3.2:fig.12 (a recoil-destroyed element takes the one behind and the flanker shifts).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from shieldwall.core.errors import IllegalOrder
from shieldwall.core.geometry import Footprint
from shieldwall.rulesets.dbm.board import Board
from shieldwall.rulesets.dbm.clauses import rule
from shieldwall.rulesets.dbm.elements import Element
from shieldwall.rulesets.dbm.geom import TOL, ahead, corner, edge_overlap, local, shifted


def check_simultaneous(could_contact_alone: Mapping[str, bool], interpenetrates: bool) -> None:
    """dbm-3.2:move.simultaneous: moves made together to contact only if none of the movers could
    contact enemy without the others moving first, and none interpenetrates another."""
    alone = [k for k, v in could_contact_alone.items() if v]
    if alone:
        raise IllegalOrder(
            rule("move.simultaneous"), f"{', '.join(sorted(alone))} could contact without the others"
        )
    if interpenetrates:
        raise IllegalOrder(rule("move.simultaneous"), "the simultaneous moves would interpenetrate")


def contact_must_be_legal(target_riderless: bool) -> bool:
    """dbm-3.2:exchange.riderless: contacting riderless mounts needs no permitted contact position,
    and the move may continue after the mounts are removed."""
    return not target_riderless


def contact_redirect(board: Board, contacted: Element) -> Element:
    """dbm-3.2:cc.support-hit: a flank or rear contact on an element double based with, or rear
    supporting, friends in frontal combat counts as on the front element."""
    cur = contacted
    for _ in range(4):
        ahead_of = [
            f
            for f in board.touching(cur, side=cur.side)
            if edge_overlap(cur.fp, "front", f.fp, "rear") >= cur.fp.frontage - TOL
        ]
        if not ahead_of:
            return cur
        cur = ahead_of[0]
    return cur


def flank_shift(flanker: Footprint, enemy: Footprint, side: str) -> Footprint:
    """dbm-3.2:destroy.flank-shift: shift a flank attacker still front-edge on the enemy's side
    edge so its front corner meets the enemy's front corner (front-most element)."""
    target = corner(enemy, "fl" if side == "left" else "fr")
    u, _ = local(flanker, target)
    # the flanker's front corner at the enemy's front end: its right one on the enemy's right flank
    want = flanker.frontage / 2.0 if side == "right" else -flanker.frontage / 2.0
    return shifted(flanker, u - want)


@dataclass(frozen=True)
class PressGroup:
    all_foot: bool
    mounted_general_only: bool
    demoralised: bool
    opponents_all_fled: bool
    pursued: bool
    earlier_move_straight: bool
    skirmishers_in_front_rank: bool
    all_ranks: bool
    across_fortifications: bool


def check_press_forward(g: PressGroup) -> None:
    """dbm-3.2:press.forward: who may press forward after all combats of the bound."""
    why = None
    if g.demoralised:
        why = "the group is demoralised"
    elif not (g.all_foot or g.mounted_general_only):
        why = "only foot (plus a mounted general and his double base) press forward"
    elif not g.opponents_all_fled or g.pursued:
        why = "all its frontal opponents must have fled, without pursuit"
    elif not g.earlier_move_straight:
        why = "its tactical move this bound was not entirely straight ahead"
    elif g.skirmishers_in_front_rank:
        why = "skirmishers press forward only in a rear rank"
    elif not g.all_ranks:
        why = "all ranks must press forward if any do"
    elif g.across_fortifications:
        why = "no troops press forward across fortifications"
    if why:
        raise IllegalOrder(rule("press.forward"), why)


def press_forward_distance(board: Board, group: Sequence[Element]) -> float:
    """Straight ahead, up to the full tactical move of the slowest element (good going)."""
    return min(board.tables.movement.type[e.code].good for e in group)


def storm_pursuit(
    e: Element, inner_edge_distance: float, friends_in_way: bool, corner_flanker: bool
) -> Footprint | None:
    """dbm-3.2:storm.pursue: the winner pursues 1 base depth measured from the fortification's
    inner edge (``inner_edge_distance``: from its front edge), unless a corner flanker or friends
    are in the way."""
    if corner_flanker or friends_in_way:
        return None
    return ahead(e.fp, inner_edge_distance + e.fp.depth)


def fort_corner_roles(defended: Sequence[bool], chooser_pick: int = 0) -> dict[str, int]:
    """dbm-3.2:cc.fort-corner: two assaulters either side of a corner: with one section defended,
    the one not faced by the defender fights as a flanker; with neither defended the assaulting
    player chooses the main attacker (index ``chooser_pick``)."""
    if len(defended) != 2:
        raise ValueError("two fortification sections either side of a corner")
    if defended[0] != defended[1]:
        main = 0 if defended[0] else 1
        return {"main": main, "flanker": 1 - main, "defender_destroyed_on_recoil": 0}
    if not any(defended):
        return {"main": chooser_pick, "flanker": 1 - chooser_pick, "defender_destroyed_on_recoil": 1}
    return {"main": 0, "flanker": 1, "defender_destroyed_on_recoil": 1}
