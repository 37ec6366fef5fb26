"""The DBM 3.2 game state: pre-battle phases (terrain, deployment, baggage), then bounds of PIP
dice, moves, shooting and close combat, until an army breaks or the bound limit.

Every change is an event citing its clause (``dbm-3.2:<id>``); all dice come from the state's one
seeded generator. The data is the illustrative sample (its label is in the first event and the view).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from shieldwall.core.dice import copy_rng
from shieldwall.core.errors import IllegalOrder
from shieldwall.core.events import Event
from shieldwall.core.game import Decision, Result, State
from shieldwall.core.geometry import Footprint
from shieldwall.core.reference import REFERENCE
from shieldwall.rulesets.dbm import hand
from shieldwall.rulesets.dbm.advance import adjustment
from shieldwall.rulesets.dbm.board import Board
from shieldwall.rulesets.dbm.clauses import rule
from shieldwall.rulesets.dbm.command import (
    CommandState,
    ally_flips,
    baggage_loss,
    check_demoralised,
    data_fraction,
    ee,
    quarter_transfer,
)
from shieldwall.rulesets.dbm.nearest import unit_entry
from shieldwall.rulesets.dbm.orders import Order, parse
from shieldwall.rulesets.dbm.riderless import drawn_features, mounts_contacted, positions
from shieldwall.rulesets.dbm.setup import deploy_side, place_baggage, put_command
from shieldwall.rulesets.dbm.terrain_steps import (
    TerrainSteps,
    compulsory_features,
    terrain_options,
    terrain_step,
)
from shieldwall.rulesets.dbm.turn import Bound

if TYPE_CHECKING:
    from shieldwall.rulesets.dbm.game import DbmGame

SIDES = ("red", "blue")


def other(side: str) -> str:
    return "blue" if side == "red" else "red"


class DbmState(State):
    def __init__(self, game: DbmGame, seed: int | None) -> None:
        from shieldwall.core.dice import seeded_rng

        self._game = game
        self.rng: np.random.Generator = seeded_rng(seed)
        sc = game.scenario
        self.tables = sc.tables
        self.board = Board(sc.tables)
        self.terrain: list[dict[str, Any]] = [t.model_dump() for t in sc.spec.terrain]
        #: fortifications (ruling R40): read-only, shared by copies
        self.forts: list[dict[str, Any]] = [f.model_dump(exclude_none=True) for f in sc.spec.fortifications]
        self.board.forts = self.forts
        self.commands: dict[str, CommandState] = {}
        self.element_command: dict[str, str] = {}
        self.baggage_of: dict[str, str] = {}
        self._elements_meta: dict[str, tuple[str, str, bool]] = {}
        #: the army each element of the orders of battle belongs to: the result's losses by type
        #: book it there even after its command changed sides (ruling R22)
        self._army_of: dict[str, str] = {
            el.id: side for side, oob in sc.armies.items() for c in oob.commands for el in c.elements
        }
        #: elements the orders of battle let dismount: id -> (foot code, grade) (ruling R39)
        self.dismount_of: dict[str, tuple[str, str]] = {
            el.id: (el.dismount.code, el.dismount.grade)
            for oob in sc.armies.values()
            for c in oob.commands
            for el in c.elements
            if el.dismount is not None
        }
        #: dismounting elements that leave riderless mounts (base rule: ruling R42)
        self.leaves_mounts: frozenset[str] = frozenset(
            el.id
            for oob in sc.armies.values()
            for c in oob.commands
            for el in c.elements
            if el.dismount is not None and el.dismount.mounts
        )
        #: riderless mounts on the table: id -> (side, footprint); markers, not elements (R42)
        self.mounts: dict[str, tuple[str, Footprint]] = {}
        self.baggage_losses: dict[str, int] = {s: 0 for s in SIDES}
        self.lost_types: dict[str, dict[str, int]] = {s: {} for s in SIDES}
        #: a dismounted element's order-of-battle type: the result's losses by type count it as
        #: that (the types of the armies at the start; its element equivalents are the foot's: R39)
        self.listed_type: dict[str, str] = {}
        self.phase = "terrain" if sc.spec.terrain_procedure == "dbm" else "deploy"
        self.side: str = sc.spec.invader if self.phase == "terrain" else "red"
        #: the terrain procedure's steps so far (terrain phase only)
        self.terrain_steps = TerrainSteps()
        self.bound_no = 0
        self.bound: Bound | None = None
        self._events: list[Event] = []
        #: line-up shifts, conforms and make-rooms of this bound and of the bound before it, for
        #: the table (``view()["recent_adjustments"]``); kept beside the log, never in its events
        self.adjustments: list[dict[str, Any]] = []
        self.last_adjustments: list[dict[str, Any]] = []
        self._result: Result | None = None
        self._log("battle", rule("size.baggage"), {"scenario": sc.name, "data": self.tables.label})

    # --- State API ------------------------------------------------------------------------------
    @property
    def game(self) -> DbmGame:
        return self._game

    @property
    def events(self) -> list[Event]:
        return self._events

    def decision(self) -> Decision | None:
        if self._result is not None:
            return None
        steps = {
            "invader": "invader: provide a road, a river or nothing",
            "defender": "defender: place a feature (2-3 feature equivalents, compulsory ones counting half)",
            "invader-area": "invader: place area features (up to 1.5 feature equivalents) or done",
        }
        prompts = {
            "terrain": steps[self.terrain_steps.step],
            "deploy": "deploy your commands (largest first)",
            "baggage": "assign your baggage to an on-table general's command",
            "bound": "spend PIPs: advance, march or move; or end the bound",
            "press": "press forward with a group whose opponents all fled, or end the bound",
        }
        if self.phase == "deploy" and hand.on(self):
            name = hand.waiting(self, self.side)[0]
            gen = next(el.id for el in hand.command_of(self, name).elements if el.general)
            return Decision(
                self.side,
                "deploy",
                f"{self.side}: place {name} by hand, line or deep, wholly within your deployment zone "
                "(its general carries the command)",
                unit=gen,
                data={"command": name},
            )
        return Decision(self.side, self.phase, f"{self.side}: {prompts[self.phase]}")

    def legal_orders(self) -> list[Order]:
        if self._result is not None:
            return []
        if self.phase == "terrain":
            return [Order("terrain", k) for k in terrain_options(self, self.terrain_steps)]
        if self.phase == "deploy":
            if hand.on(self):
                return hand.menu(self)
            return [Order("deploy", "line"), Order("deploy", "deep")]
        if self.phase == "baggage":
            return [
                Order("baggage", c)
                for c in self._own_commands()
                if not self.commands[c].demoralised and not self.commands[c].off_table
            ]
        assert self.bound is not None
        if self.phase == "press":
            return [*self.bound.press_menu(), Order("end")]
        return [*self.bound.menu(self), Order("end")]

    def _is_legal(self, o: Order) -> bool:
        """``o in self.legal_orders()``; in a bound, computed for that order only."""
        if self.phase == "deploy" and hand.on(self) and o.kind == "place" and o.arg is not None:
            return True  # hand.place rules on any place, not only the menu's, naming its clause
        if self.phase != "bound" or self.bound is None or self._result is not None or REFERENCE.on:
            return o in self.legal_orders()
        if o == Order("end"):
            return True
        return o == Order(*str(o).split(" ", 1)) and self.bound.option(self, str(o)) is not None

    def parse_order(self, spec: str | Mapping[str, Any]) -> Order:
        return parse(spec)

    def apply(self, order: Any) -> list[Event]:
        o = parse(order)
        if self._result is not None:
            raise IllegalOrder(rule("victory.quarter"), "the battle is over")
        start = len(self._events)
        if not self._is_legal(o):
            legal = self.legal_orders()
            clause = {
                "terrain": {"defender": "terrain.def-total", "invader-area": "terrain.inv-area"}.get(
                    self.terrain_steps.step, "terrain.invader"
                ),
                "deploy": "deploy.first",
                "baggage": "deploy.baggage",
                "press": "press.forward",
            }.get(self.phase, "pip.march-extra")
            raise IllegalOrder(
                rule(clause), f"{o} is not possible now ({self.phase}); the menu has {len(legal)} orders"
            )
        if self.phase == "terrain":
            events, over = terrain_step(self, self.terrain_steps, o.arg or "none")
            for e in events:
                self._emit(e)
            if over:
                self.phase, self.side = "deploy", "red"
            else:
                invader = self._game.scenario.spec.invader
                defender = "blue" if invader == "red" else "red"
                was, self.side = self.side, defender if self.terrain_steps.step == "defender" else invader
                if was == invader and self.side == defender:  # the defender's compulsory features first
                    for e in compulsory_features(self, self.terrain_steps):
                        self._emit(e)
        elif self.phase == "deploy":
            by_hand = hand.on(self)
            for e in (
                hand.place(self, o.arg or "") if by_hand else deploy_side(self, self.side, o.arg or "line")
            ):
                self._emit(e)
            if by_hand and hand.waiting(self, self.side):
                pass  # the side's next command is placed next
            elif self.side == "red":
                self.side = "blue"
            else:
                self.phase, self.side = "baggage", "red"
        elif self.phase == "baggage":
            for e in place_baggage(self, self.side, o.arg or ""):
                self._emit(e)
            if self.side == "red":
                self.side = "blue"
            else:
                self._start_bound("red")
        else:
            assert self.bound is not None
            before = positions(self)  # for riderless mounts (exchange.riderless), if any
            if self.phase == "press":
                if o.kind == "press":
                    for e in self.bound.do_press(self, o):
                        self._emit(e)
                    self._mounts_contacted(before)
                if o.kind == "end" or not self.bound.press:
                    self._end_of_bound()
            elif o.kind == "end":
                for e in self.bound.finish(self):
                    self._emit(e)
                self._mounts_contacted(before)
                if self.bound.press:
                    self.phase = "press"  # dbm-3.2:press.forward: after all combats of the bound
                else:
                    self._end_of_bound()
            else:
                for e in self.bound.do(self, o):
                    self._emit(e)
                self._mounts_contacted(before)
        return self._events[start:]

    def _mounts_contacted(self, before: Mapping[str, Footprint]) -> None:
        for e in mounts_contacted(self, before):
            self._emit(e)

    def is_terminal(self) -> bool:
        return self._result is not None

    def result(self) -> Result | None:
        return self._result

    def copy(self) -> DbmState:
        new = copy.copy(self)
        new.board = self.board.copy()
        new.rng = copy_rng(self.rng)
        new.terrain = [dict(t) for t in self.terrain]
        new.terrain_steps = copy.deepcopy(self.terrain_steps)
        new.commands = {k: copy.copy(v) for k, v in self.commands.items()}
        for c in new.commands.values():
            c.elements = list(c.elements)
        new.element_command = dict(self.element_command)
        new.baggage_of = dict(self.baggage_of)
        new._elements_meta = dict(self._elements_meta)
        new.baggage_losses = dict(self.baggage_losses)
        new.lost_types = {k: dict(v) for k, v in self.lost_types.items()}
        new.listed_type = dict(self.listed_type)
        new.bound = None if self.bound is None else self.bound.copy()
        new._events = list(self._events)
        new.adjustments = list(self.adjustments)
        new.last_adjustments = list(self.last_adjustments)
        new.mounts = dict(self.mounts)
        return new

    def _preview(self) -> Board:
        """Before deployment: where the armies would stand in the default line (the view shows
        them, marked ``preview``, so a host knows the armies before they deploy)."""
        trial = copy.copy(self)
        trial.board = self.board.copy()
        trial.commands = {}
        trial.element_command, trial.baggage_of, trial._elements_meta = {}, {}, {}
        trial._events = []
        by_hand = hand.on(self)
        if by_hand:
            trial.commands = dict(self.commands)
        for side in SIDES:
            if by_hand:  # the commands still to place where the seeded procedure's line puts them
                at = hand.suggested(self, side, "line")
                for name in hand.waiting(self, side):
                    spots = hand.spots(self, side, name, "line", *at[name])
                    put_command(trial, side, name, hand.command_of(self, name), spots)
                place_baggage(trial, side, f"{side}1")
            elif not any(e.side == side for e in self.board.el.values()):
                deploy_side(trial, side, "line")
                place_baggage(trial, side, f"{side}1")
        return trial.board

    def view(self) -> dict[str, Any]:
        recent = [*self.last_adjustments, *self.adjustments]
        marks: dict[str, list[dict[str, Any]]] = {}
        for a in recent:
            marks.setdefault(a["id"], []).append({k: v for k, v in a.items() if k != "id"})
        units = []
        board = self.board if self.phase not in ("terrain", "deploy") else self._preview()
        for e in sorted(board.el.values(), key=lambda x: x.id):
            units.append(
                {
                    **unit_entry(e),
                    **({"preview": True} if e.id not in self.board.el else {}),
                    # drawn by the plugin's drawing: a ghost of the base before, an arrow to after
                    **({"adjustments": marks[e.id]} if e.id in marks else {}),
                }
            )
        return {
            "ruleset": self._game.info.id,
            "turn": self.bound_no,
            "phase": self.phase,
            "side": self.side,
            "label": self.tables.label,
            "table": {"width": self.board.width, "depth": self.board.depth, "unit": "pace"},
            # the scenario's terrain, then what the picture draws like terrain: fortification
            # sections (ruling R40) and riderless mounts (R42), each also listed on its own below
            "terrain": self.terrain + drawn_features(self.forts, self.mounts),
            "fortifications": self.forts,
            "riderless": [
                {
                    "id": k,
                    "side": sd,
                    "x": fp.x,
                    "y": fp.y,
                    "heading": fp.heading,
                    "frontage": fp.frontage,
                    "depth": fp.depth,
                }  # fmt: skip
                for k, (sd, fp) in sorted(self.mounts.items())
            ],
            "units": units,
            **hand.deployment_view(self),
            "recent_adjustments": recent,
            "pips": dict(self.bound.pips) if self.bound else {},
            "commands": {
                k: {
                    "side": c.side,
                    "lost_ee": str(c.lost_ee),
                    "original_ee": str(c.original_ee),
                    "demoralised": c.demoralised,
                }
                for k, c in sorted(self.commands.items())
            },
        }

    # --- helpers ----------------------------------------------------------------------------------
    def _own_commands(self) -> list[str]:
        return sorted(k for k, c in self.commands.items() if c.side == self.side)

    def _log(self, kind: str, clause: str, data: dict[str, Any]) -> None:
        self._events.append(Event(self.bound_no, self.phase, self.side, kind, clause, data))

    def _emit(self, e: dict[str, Any]) -> None:
        d = dict(e)
        kind, clause = str(d.pop("kind")), str(d.pop("rule"))
        d.pop("booked", None)  # the bound's own bookkeeping of losses already counted
        for a in d.pop("adjust", None) or ():  # where a shift or conform took an element: for the table
            self.adjustments.append(adjustment(kind, d, a, clause, self.bound_no, self.side))
        self._events.append(Event(self.bound_no, self.phase, self.side, kind, clause, d))

    def add_command(self, name: str, c: CommandState) -> None:
        self.commands[name] = c

    def lose(self, eid: str, cc: bool) -> None:
        """Book an element's loss to its command (element equivalents) or as baggage."""
        cmd = self.element_command.get(eid)
        if eid in self.baggage_of:
            side = self.baggage_of[eid]
            self.baggage_losses[side] += baggage_loss("cc" if cc else "other")
            self.lost_types[side]["Bge"] = self.lost_types[side].get("Bge", 0) + 1
            return
        if cmd is None:
            return
        c = self.commands[cmd]
        el = self._elements_meta[eid]
        c.lost_ee += ee(el[0], el[1], el[2])
        lost = self.lost_types[self._army_of.get(eid, c.side)]
        t = self.listed_type.get(eid, el[0])
        lost[t] = lost.get(t, 0) + 1

    def _start_bound(self, side: str) -> None:
        self.phase, self.side = "bound", side
        if side == "red":
            self.bound_no += 1
        self.bound = Bound(side)
        self.last_adjustments, self.adjustments = self.adjustments, []
        before = positions(self)
        for e in self.bound.begin(self):
            self._emit(e)
        self._mounts_contacted(before)

    def _end_of_bound(self) -> None:
        # demoralisation, unreliable allies, army defeat
        for name, c in sorted(self.commands.items()):
            if not c.demoralised and check_demoralised(self.tables, c):
                c.demoralised = True
                self._emit(
                    {
                        "kind": "demoralised",
                        "command": name,
                        "lost_ee": str(c.lost_ee),
                        "rule": rule("demor.flee"),
                    }
                )
        sc = self._game.scenario
        main = {s: sc.tables.lists[sc.armies[s].army_list].nation for s in SIDES}  # the main armies' nations
        for e in ally_flips(self.commands.values(), main):
            self._emit(e)
        for s in SIDES:
            orig = sum((c.original_ee for c in self.commands.values() if c.side == s), Fraction(0))
            lost = (
                sum((c.lost_ee for c in self.commands.values() if c.side == s), Fraction(0))
                + self.baggage_losses[s]
            )
            if orig and lost >= data_fraction(self.tables.game.army_defeat_fraction) * orig:
                self._finish(
                    other(s), f"{s} lost {lost} of {orig} element equivalents (baggage counted: loss.baggage)"
                )
                return
        if self.side == "blue" and self.bound_no >= self._game.params["bounds"]:
            vp, ev = quarter_transfer({"red": 5, "blue": 5}, self.commands.values())
            if ev:
                self._emit(ev)
            winner = None if vp["red"] == vp["blue"] else max(vp, key=lambda k: vp[k])
            self._finish(winner, f"bound limit: VP red {vp['red']}, blue {vp['blue']} (ruling R32)")
            return
        self._start_bound(other(self.side))

    def _finish(self, winner: str | None, reason: str) -> None:
        losses = {s: dict(sorted(self.lost_types[s].items())) for s in SIDES}
        self._result = Result(winner, reason, self.bound_no, losses)
        self._emit({"kind": "result", "winner": winner, "reason": reason, "rule": rule("victory.quarter")})
