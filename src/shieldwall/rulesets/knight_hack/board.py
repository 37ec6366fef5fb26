"""The mutable battle board the turn engine works on: units, melees, the queue of decisions, the log.

Plain data and small helpers only; the phases (:mod:`.phase_charge`, :mod:`.phase_move`,
:mod:`.phase_melee`) change it, :mod:`.turn` sequences them and :mod:`.state` wraps it in the
``State`` API. Scale (ruling R34): a figure is 1 inch of frontage and a rank 1 inch of depth.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from shieldwall.core.events import Event
from shieldwall.core.game import Result
from shieldwall.core.geometry import Footprint
from shieldwall.core.reference import REFERENCE
from shieldwall.rulesets.knight_hack.clauses import rule
from shieldwall.rulesets.knight_hack.factors import Fighter
from shieldwall.rulesets.knight_hack.formation import depth_of, ranks_of, width_of
from shieldwall.rulesets.knight_hack.morale import MoraleState, morale_level
from shieldwall.rulesets.knight_hack.tables import Tables

#: a unit's status: in good order, disordered, rallying, routed, or gone from the table
STATUSES = ("good", "disordered", "rallying", "routed", "removed")
_WHEN = {"movement": 0, "end": 1}


class _Kept:
    """A unit's footprint with what it was built from (``Unit.footprint``'s memo, issue 16).

    The floats are the unit's own objects, compared by identity (``is``: the same object is the
    same value, the sign of a zero included); a move assigns new ones. Immutable once made, so a
    copied unit (the search's ``copy.deepcopy`` of the board) shares it rather than rebuilding
    the footprint it holds."""

    __slots__ = ("x", "y", "heading", "frontage", "figures", "fp")

    def __init__(
        self, x: float, y: float, heading: float, frontage: int, figures: int, fp: Footprint
    ) -> None:
        self.x, self.y, self.heading = x, y, heading
        self.frontage, self.figures, self.fp = frontage, figures, fp

    def __deepcopy__(self, memo: dict[int, Any]) -> _Kept:
        return self


@dataclass
class Unit:
    id: str
    side: str
    name: str
    type: str
    cls: str
    muster: int
    figures: int
    frontage: int
    weapons: tuple[str, ...]
    fanatic: bool
    leader: bool
    x: float
    y: float
    heading: float
    status: str = "good"
    #: (turn, "movement" | "end") from which a rallying unit is in good order (R18)
    good_from: tuple[int, str] | None = None
    must_charge: bool = False
    rout_tested: bool = False
    #: lying hidden in ambush (knight-hack:ambush.execute): the other side neither sees it nor
    #: measures to it until it springs or is run into (R26, R49)
    hidden: bool = False
    #: with ``hand_deployment``: no legal place was left for it in its zone; it takes no part in
    #: the battle and is not counted as lost (ruling R51)
    held_back: bool = False

    def unseen_by(self, side: str) -> bool:
        """Whether ``side`` cannot see this unit: it is the other side's hidden ambusher."""
        return self.hidden and self.side != side

    @property
    def ranks(self) -> int:
        return int(ranks_of(self.frontage, self.figures))

    @property
    def width(self) -> float:
        return float(width_of(self.frontage, self.figures))

    @property
    def depth(self) -> float:
        return float(depth_of(self.frontage, self.figures))

    def footprint(self) -> Footprint:
        """The unit's rectangle; kept while its position, heading, frontage and figures stay the
        same objects (``_Kept``; the reference path, ``core.reference``, builds it afresh)."""
        x, y, heading = self.x, self.y, self.heading
        kept: _Kept | None = self.__dict__.get("_kept")
        if (
            kept is not None
            and kept.x is x
            and kept.y is y
            and kept.heading is heading
            and kept.frontage == self.frontage
            and kept.figures == self.figures
            and not REFERENCE.on
        ):
            return kept.fp
        fp = Footprint(x, y, heading, self.width, self.depth)
        if not REFERENCE.on:
            self.__dict__["_kept"] = _Kept(x, y, heading, self.frontage, self.figures, fp)
        return fp

    def fighter(self) -> Fighter:
        return Fighter(self.type, self.cls, self.figures, self.weapons)

    def rallied_by(self, turn: int, when: str) -> bool:
        """Whether a rallying unit is in good order by ``when`` ("movement" or "end") of ``turn``."""
        if self.good_from is None:
            return False
        t, w = self.good_from
        return (t, _WHEN[w]) <= (turn, _WHEN[when])

    @property
    def gone(self) -> bool:
        return self.status == "removed"

    @property
    def lost(self) -> bool:
        """Lost to its side (R37, R55): removed or routing; a unit held back (R51) never was."""
        return self.status in ("removed", "routed") and not self.held_back

    @property
    def label(self) -> str:
        return self.name


@dataclass
class Melee:
    """Two units in contact: ``a_faces`` is the facing of ``b`` that ``a`` fights (and vice versa);
    ``charger`` charged into it this turn (its first round bonus)."""

    a: str
    b: str
    a_faces: str
    b_faces: str
    charger: str | None = None
    fought: bool = False
    #: both units charged into it (their charges met part-way, R50): both have the charge bonus
    both_charged: bool = False

    def other(self, uid: str) -> str:
        return self.b if uid == self.a else self.a

    def faces(self, uid: str) -> str:
        return self.a_faces if uid == self.a else self.b_faces


@dataclass(frozen=True)
class Ask:
    """A pending decision: ``kind`` is deploy, declare, respond, fire-order, fire, move-order, unit,
    melee."""

    side: str
    kind: str
    unit: str | None = None


@dataclass
class Board:
    tables: Tables
    params: dict[str, Any]
    sides: tuple[str, str]
    width: float
    depth: float
    #: side -> its home edge ("south" or "north"): where its routers run
    edges: dict[str, str]
    rng: np.random.Generator
    units: dict[str, Unit]
    turn: int = 1
    phase: str = "charge"
    stage: int = -1
    melees: list[Melee] = field(default_factory=list)
    queue: list[Ask] = field(default_factory=list)
    #: this turn's sealed declarations: charger -> object (None: no charge)
    declared: dict[str, str | None] = field(default_factory=dict)
    #: charger -> the heading of its charge, fixed at declaration
    charge_heading: dict[str, float] = field(default_factory=dict)
    evading: set[str] = field(default_factory=set)
    missile_hits: dict[str, int] = field(default_factory=dict)
    fire_first: str | None = None
    initiative: str | None = None
    events: list[Event] = field(default_factory=list)
    result: Result | None = None
    #: with ``hand_deployment`` (ruling R51): each side's zone, each side's units still to place (in
    #: order) and the side that places next
    deploy_zones: dict[str, tuple[float, float, float, float]] = field(default_factory=dict)
    deploy_left: dict[str, tuple[str, ...]] = field(default_factory=dict)
    deploy_next: str = ""

    def log(self, kind: str, clause: str, side: str | None = None, **data: Any) -> None:
        self.events.append(Event(self.turn, self.phase, side, kind, rule(clause), data))

    def other(self, side: str) -> str:
        return self.sides[1] if side == self.sides[0] else self.sides[0]

    def live(self, side: str | None = None) -> list[Unit]:
        return [u for u in self.units.values() if not u.gone and (side is None or u.side == side)]

    def melees_of(self, uid: str) -> list[Melee]:
        return [m for m in self.melees if uid in (m.a, m.b)]

    def in_melee(self, uid: str) -> bool:
        return any(uid in (m.a, m.b) for m in self.melees)

    def break_contact(self, uid: str) -> None:
        self.melees = [m for m in self.melees if uid not in (m.a, m.b)]

    def morale(self, u: Unit) -> tuple[int, list[dict[str, Any]]]:
        """The unit's morale level now, with its terms (knight-hack:morale.level)."""
        flanked = any(m.faces(m.other(u.id)) in ("left", "right", "rear") for m in self.melees_of(u.id))
        st = MoraleState(
            u.muster,
            u.muster - u.figures,
            disordered=u.status == "disordered",
            flanked=flanked,
            leader_near=u.leader,
            fanatic=u.fanatic,
        )
        level, terms = morale_level(self.tables, u.type, u.cls, st, self.params["bml_figures"])
        return level, [{"source": t.source, "value": t.value, "note": t.note} for t in terms]

    def remove(self, u: Unit, why: str, clause: str) -> None:
        u.status = "removed"
        self.break_contact(u.id)
        self.log("removed", clause, u.side, unit=u.id, reason=why)

    def points(self, u: Unit) -> int:
        return self.tables.types[u.type].cost_per_figure[u.cls] * u.muster

    def points_lost(self, side: str) -> int:
        """Points of units lost (removed or routed: ``Unit.lost``), and of the figures lost by the
        others."""
        lost = 0
        for u in self.units.values():
            if u.side != side or u.held_back:
                continue
            cpf = self.tables.types[u.type].cost_per_figure[u.cls]
            lost += cpf * u.muster if u.lost else cpf * (u.muster - u.figures)
        return lost
