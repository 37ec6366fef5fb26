"""The into-the-dark battle state: the turn sequence as a chain of decisions.

"Sequence of Play" (turn-sequence.sequence-of-play): 1. Rallys, 2. initiative, 3. movement (the side
with the initiative first; counter-charges, evades and opportunity charges out of sequence), 4. combat
(missile fire, then melee; both simultaneous), 5. morale tests. The state keeps a queue of steps the
engine resolves by itself and stops at each decision a player must take (``pending``). Every change
is an ``Event`` naming its clause (``into-the-dark:<clause>``, rows of docs/rules/into-the-dark.md).

The state drives the rules from above: orders go to ``actions.apply_order``, queued steps to
``turns.run_task``, menus come from ``menus.legal_orders``; no rule module imports the state
(they name its type only; the layers are described in ``actions``).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from shieldwall.core.dice import D6, copy_rng, rng_from_saved, save_rng
from shieldwall.core.errors import IllegalOrder
from shieldwall.core.events import Event
from shieldwall.core.game import BattleState, Decision, Result
from shieldwall.core.geometry import round_places
from shieldwall.core.reference import REFERENCE
from shieldwall.core.terrain import feature_view

from . import menus, move_ends, order_text
from . import orders as O
from .act_command import setup as command_setup
from .act_deploy import cards_seen_by, event_seen_by, is_hidden, view_cards
from .actions import PROMPTS, apply_order
from .clauses import cite
from .contacts import Contacts
from .generals import on as command_on
from .model import SIDES, Unit, clone_units, joined_to, live_units, other
from .movement import World
from .params import SCALE_FACTOR
from .plain_copy import plain_deepcopy
from .plan_memo import PlanMemo
from .points import unit_points
from .spatial import Touch
from .turns import AFTER_MOVEMENT, run_task
from .view_memo import ViewMemo

if TYPE_CHECKING:
    from .game import IntoTheDarkGame

RS = "into-the-dark"
#: ``apply``: the orders between two checkpoints (the copies an illegal order is undone from). One
#: copy in this many orders; an order that fails replays at most this many.
CHECKPOINT_EVERY = 32


class IntoTheDarkState(BattleState["IntoTheDarkGame"]):
    """One moment of an into-the-dark battle. Use ``IntoTheDarkGame.new_state(seed)``."""

    #: set while ``probe`` applies its order to its copy: an illegal order's reason is never read
    #: there, so a move may be refused on a bound before it is traced (``moves.plan_move``'s verdict)
    verdict_only = False
    #: the generator (``rng``), or None in a copy until it first rolls (then ``_rng_saved`` holds
    #: what it is built from)
    _rng: Any
    _rng_saved: tuple[Any, Any] | None
    #: the one world of a ``still`` block (None outside one): no unit moves while it is asked
    _still: World | None = None
    #: a sealed state's undo of an order that fails part way (``apply``, ``_restore``): a copy of
    #: the state (the checkpoint) and the orders applied to it since (None: none taken yet)
    _undo: tuple[IntoTheDarkState, list[Any]] | None = None

    def __init__(self, game: IntoTheDarkGame, seed: int | None) -> None:
        self.begin(game, seed)
        self.factor = SCALE_FACTOR[str(self.params["scale"])]
        self.units: dict[str, Unit] = {u.id: u.clone() for u in game.initial_units}
        self.turn = 1
        self.max_turns = int(self.params["turns"])
        self.phase = "setup"
        self.first = "red"
        self.last_first: str | None = None
        self.streak: tuple[str | None, int] = (None, 0)
        self.queue: list[tuple[Any, ...]] = []
        self.pending: dict[str, Any] | None = None
        self.active: str | None = None
        self.charge: dict[str, Any] | None = None
        self.fire_orders: list[tuple[str, str]] = []
        self.declared: dict[str, dict[str, Any]] = {}  # dice declared at generals (act_generals)
        self.fire_received: dict[str, dict[str, Any]] = {}
        self.melee: dict[str, dict[str, Any]] = {}
        self.routed_turn: list[dict[str, Any]] = []
        self.destroyed_turn: list[dict[str, Any]] = []
        self.tested: set[tuple[str, str]] = set()
        self.driven: dict[str, tuple[float, float]] = {}
        self.deploy: dict[str, Any] | None = None  # the alternate deployment under way (act_deploy)
        self.cards: dict[str, dict[str, Any]] = {}  # face-down cards (concealed deployment)
        self.generals: dict[str, dict[str, Any]] = {}  # Command & Control (act_command)
        self._events: list[Event] = []
        self._result: Result | None = None
        self._contacts = Contacts()
        self.plan_memo = PlanMemo()  # shared with the copies (``plan_memo``: the snapshot decides)
        self.view_memo = ViewMemo()  # shared with the copies (``view_memo``: the key decides)
        self.zone_reaches: dict[tuple[Any, ...], tuple[Any, float]] = {}  # (``act_zoc.kept_zone_reach``)
        self._start()

    # ------------------------------------------------------------------ State API

    def decision(self) -> Decision | None:
        if self._result is not None or self.pending is None:
            return None
        p = self.pending
        data = {"phase": self.phase, "turn": self.turn, **p.get("data", {})}
        return Decision(p["side"], p["kind"], PROMPTS[p["kind"]], p.get("unit"), data)

    def legal_orders(self) -> list[O.Order]:
        if self._result is not None:
            return []
        return menus.legal_orders(self)

    def unit_menu(self) -> menus.UnitMenu | None:
        """The menu of the unit to act, in parts worked out when asked for (``menus.UnitMenu``:
        ``orders()`` is ``legal_orders()``); None when the menu is not a unit's, when Command &
        Control filters it (``menus._obeying`` needs the whole of it) or on the reference path."""
        p = self.pending
        if REFERENCE.on or self._result is not None or p is None or p["kind"] != "unit":
            return None
        if command_on(self):
            return None
        return menus.UnitMenu(self, self.units[p["unit"]])

    def parse_order(self, spec: str | Mapping[str, Any]) -> O.Order:
        return order_text.parse(spec)

    def apply(self, order: Any) -> list[Event]:
        if self._result is not None:
            raise IllegalOrder(cite("turn-sequence.end-of-battle"), "the battle is over")
        if isinstance(order, (str, Mapping)):
            order = order_text.parse(order)
        self.__dict__.pop("_still", None)  # (a still block ends where the state moves)
        n = len(self._events)
        sealed = self.sealed
        if REFERENCE.on or not sealed:  # a backup of the whole state before every order
            undo: tuple[IntoTheDarkState, list[Any]] = (self.copy(), [])
        else:  # a checkpoint every CHECKPOINT_EVERY orders, and the orders applied since
            undo = self._undo or (self.copy(), [])
            if len(undo[1]) >= CHECKPOINT_EVERY:
                undo = (self.copy(), [])
            self._undo = undo
        try:
            apply_order(self, order)
            self._advance()
        except IllegalOrder:
            self._restore(undo, sealed)
            raise
        undo[1].append(order)
        return self._events[n:]

    def unseal(self) -> None:
        super().unseal()
        self._undo = None  # (hand edits may follow: no replay from the checkpoint)

    def _restore(self, undo: tuple[IntoTheDarkState, list[Any]], sealed: bool) -> None:
        """Undo an order that failed part way (``IllegalOrder`` after the state changed): ``undo``
        is a copy of the state and the orders applied since, replayed on it, which is the state
        before the order (the engine plays the same orders from the same state to the same state,
        generator included: a copy's generator is its original's saved state). Unsealed (and on
        the reference path) the copy is taken before every order and nothing is replayed. Sealed
        (``State.seal``: changed by orders only), it is a checkpoint taken at most
        ``CHECKPOINT_EVERY`` orders ago: with 200 units a side a copy before every order was about
        a quarter of a decision's time (docs/performance.md, "Into the Dark: no backup of the whole
        state before every order")."""
        ck, since = undo
        for o in since:
            apply_order(ck, o)
            ck._advance()
        self.__dict__.clear()  # (an attribute the order set goes too)
        self.__dict__.update(ck.__dict__)  # (a copy's: no undo, unsealed; the next order takes one)
        if sealed:
            self.sealed = True

    def probe(self, order: Any) -> tuple[IntoTheDarkState, list[Event]] | None:
        """``copy().apply(order)`` for a look ahead (the scripted general's), played no further
        than the end of the Movement phase it is made in: the copy and the events, or None when
        the order is illegal.

        Within the phase the copy plays on as before, to the next decision (what the order sets
        in motion: a charge's moves, a chase, the zone of control's offers), but it stops before
        the other side's Movement phase and before the phases after (shooting, melee, morale) and
        the dice they roll, which are not the look ahead's to see
        (``_advance``'s ``mover``). Until 28 November (fourteenth session) it played on to the next
        decision wherever that was, and the general weighed the last move of a side's phase with
        the coming shooting and melee already rolled (docs/performance.md, "The scripted general
        no longer sees the dice of the turn's later phases"). The copy takes no backup (``apply``
        copies the state once more for that): it is thrown away when the order fails."""
        if self._result is not None:
            return None
        if isinstance(order, (str, Mapping)):
            order = order_text.parse(order)
        c = self.copy()
        n = len(c._events)
        mover = c.__dict__.get("mover") if c.phase == "movement" else None
        try:
            if REFERENCE.on:  # the reference: the order carried out in full (every move traced)
                apply_order(c, order)
            else:
                c.verdict_only = True
                apply_order(c, order)
                del c.verdict_only  # (the class's False again: the copy goes on as a state)
            c._advance(mover)
        except IllegalOrder:
            return None
        return c, c._events[n:]

    def ends_of_moves(self, uid: str, orders: list[Any]) -> list[tuple[Any, ...] | None] | None:
        """Where each ``Move`` of ``uid`` in ``orders`` would leave it, as the view of
        ``probe(order)``'s copy shows it ((x, y, heading, frontage, depth, disordered), None for an
        illegal move), without copying the state; None when that cannot be told without the copy,
        and on the reference path (``move_ends``)."""
        got: list[tuple[Any, ...] | None] | None = move_ends.ends_of_moves(self, uid, orders)
        return got

    def view_of(self, uid: str) -> dict[str, Any] | None:
        """The entry of unit ``uid`` in ``view()["units"]`` (None if there is none)."""
        if REFERENCE.on:
            return next((v for v in self.view()["units"] if v["id"] == uid), None)
        u = self.units.get(uid)
        return None if u is None else self.unit_view(u)

    def copy(self) -> IntoTheDarkState:
        new = object.__new__(IntoTheDarkState)
        new.__dict__.update(self.__dict__)
        new.__dict__.pop("_still", None)  # (the copy moves: it is asked afresh)
        if REFERENCE.on:
            new.rng = copy_rng(self.rng)
        else:  # the generator built when the copy first rolls (``rng``): most look-aheads roll none
            new._rng = None
            new._rng_saved = self._rng_saved if self._rng is None else save_rng(self._rng)
        new.units = clone_units(self.units)
        new.queue = list(self.queue)
        new.pending = plain_deepcopy(self.pending)
        new.charge = plain_deepcopy(self.charge)
        new.fire_orders = list(self.fire_orders)
        new.declared = plain_deepcopy(self.declared)
        new.fire_received = plain_deepcopy(self.fire_received)
        new.melee = plain_deepcopy(self.melee)
        new.routed_turn = plain_deepcopy(self.routed_turn)
        new.destroyed_turn = plain_deepcopy(self.destroyed_turn)
        new.tested = set(self.tested)
        new.driven = dict(self.driven)
        new.deploy = plain_deepcopy(self.deploy)
        new.cards = plain_deepcopy(self.cards)
        new.generals = plain_deepcopy(self.generals)
        new._events = list(self._events)
        new._contacts = self._contacts.copy()
        new._undo = None  # (a copy takes its own when it is played on)
        new.__dict__.pop("sealed", None)  # (a copy starts unsealed: whoever plays it on seals it)
        return new

    @property
    def rng(self) -> Any:
        """The battle's one generator (``BattleState.begin``). A copy saves its original's generator
        (``dice.save_rng``) and builds its own from that the first time it is asked for: the same
        draws as ``copy_rng`` at the copy (the saved state is the copy's own; the original may go
        on drawing). On the reference path the copy builds it at once (``copy_rng``)."""
        r = self._rng
        if r is None:
            assert self._rng_saved is not None
            r = self._rng = rng_from_saved(self._rng_saved)
            self._rng_saved = None
        return r

    @rng.setter
    def rng(self, value: Any) -> None:
        self._rng = value
        self._rng_saved = None

    # ------------------------------------------------------------------ helpers
    def log(self, kind: str, clause: str, /, side: str | None = None, **data: Any) -> Event:
        ev = Event(self.turn, self.phase, side, kind, cite(clause), data)
        self._events.append(ev)
        return ev

    def d(self, inches: float) -> float:
        """A distance of the text (25mm figures) at this battle's scale (intro.scale)."""
        return inches * self.factor

    def live(self, side: str | None = None) -> list[Unit]:
        return live_units(self.units, side)

    def unit(self, uid: str, clause: str = "turn-sequence.sequence-of-play") -> Unit:
        u = self.units.get(uid)
        if u is None or not u.on_table:
            raise IllegalOrder(cite(clause), f"there is no unit {uid!r} on the table")
        return u

    def touching(self, u: Unit) -> list[Touch]:
        """Flush contacts of ``u`` with enemy units (kept while nothing near moves: ``contacts``)."""
        if self._still is None:
            self._contacts.sync(self.units)
        return self._contacts.touching(u, self.units)

    def touching_each(self, us: list[Unit]) -> list[list[Touch]]:
        """``[self.touching(u) for u in us]``, the units' poses compared once (nothing moves
        between the questions)."""
        c = self._contacts
        if self._still is None:
            c.sync(self.units)
        return [c.touching(u, self.units) for u in us]

    def in_melee(self, u: Unit) -> bool:
        return u.on_table and bool(self.touching(u))

    def opponents(self, u: Unit) -> list[Unit]:
        seen: list[Unit] = []
        for t in self.touching(u):
            x = self.units[t.other]
            if x not in seen:
                seen.append(x)
        return seen

    def world(self) -> World:
        w = self._still
        if w is not None:
            return w
        live = self.live()
        c = self._contacts
        c.sync(self.units)
        return World(live, self.terrain, c.touching_ids(live, self.units))

    def __getstate__(self) -> dict[str, Any]:
        """What a pickle or a deep copy keeps: all but the still block's token (``still``). The copy
        is in no block (it may be changed), so its plans compare the units afresh; with the token
        kept, a unit of the copy moved by hand was planned from the original's snapshot."""
        kept = dict(self.__dict__)
        kept.pop("_still", None)
        kept.pop("_undo", None)  # (the undo of a failed order: taken again when played on)
        kept.pop("sealed", None)  # (an unpickled state belongs to no battle loop)
        return kept

    @property
    def still_token(self) -> World | None:
        """The still block this state is in (its one world: each block has its own), None
        outside one (``plan_memo``: the units compared once a block)."""
        return self._still

    @contextmanager
    def still(self) -> Iterator[None]:
        """A block in which no unit of this state moves (the scripted general weighing a decision:
        its look-aheads move copies). ``world()`` answers one world for the whole block (the same
        units, terrain and melees that a fresh one would hold), marked still so that its ``near``
        answers from a grid; ``touching`` compares no poses after the first (none changes).
        ``apply`` ends the block. On the reference path: nothing kept, every world made afresh."""
        if REFERENCE.on or self._still is not None:
            yield
            return
        w = self.world()
        w.still = True
        self._still = w
        try:
            yield
        finally:
            self.__dict__.pop("_still", None)

    def roll_d6(self, n: int) -> list[int]:
        """ "These rules are designed to be played with standard six sided dice (d6)" (setup.equipment);
        every die of the battle comes from its one seeded generator."""
        return D6.roll_n(self.rng, n)

    def ask(self, kind: str, side: str, unit: str | None = None, **data: Any) -> None:
        self.pending = {"kind": kind, "side": side, "unit": unit, "data": data}

    def push(self, *tasks: tuple[Any, ...]) -> None:
        """Put tasks at the front of the queue, in the order given."""
        self.queue[0:0] = list(tasks)

    # ------------------------------------------------------------------ flow
    def _start(self) -> None:
        g = self._game
        self.log(
            "battle",
            "turn-sequence.sequence-of-play",
            scenario=g.scenario_name,
            seed=self.seed,
            options={k: v for k, v in self.params.items() if v != g.parameters[k].default},
            units={
                u.id: {"side": u.side, "name": u.name, "code": u.code, "figures": u.figures}
                for u in self.units.values()
            },
        )
        command_setup(self)
        if self.params["deployment"] == "alternate":
            self.queue = [("deploy-roll", "foot"), ("turn-start",)]
            self._advance()
            return
        self.log(
            "deployment",
            "setup.deployment",
            positions={
                u.id: [round(u.x, 3), round(u.y, 3), round(u.heading, 3)] for u in self.units.values()
            },
            reason="positions given by the scenario",
        )
        self.queue = [("turn-start",)]
        self._advance()

    def _advance(self, mover: str | None = None) -> None:
        """Resolve everything that needs no decision, until a real choice or the end. With
        ``mover`` (a look ahead made in that side's Movement phase: ``probe``), no further than the
        end of that phase: not into the next task when it is the other side's Movement phase or
        one of the phases after it (``turns.AFTER_MOVEMENT``)."""
        guard = 0
        while self._result is None and self.pending is None:
            guard += 1
            if guard > 100000:
                raise RuntimeError("into-the-dark state machine did not settle")
            if not self.queue:
                raise RuntimeError("into-the-dark: empty queue with no decision")
            if mover is not None:
                kind = self.queue[0][0]
                if kind in AFTER_MOVEMENT or (kind == "move-phase" and self.queue[0][1] != mover):
                    return
            task = self.queue.pop(0)
            run_task(self, task)

    def finish(self, winner: str | None, reason: str) -> None:
        losses = {s: self.losses(s) for s in SIDES}
        # the Result names units lost by type (the core's contract, which the simulator counts); the
        # result event keeps this rule system's own tally (turn-sequence.end-of-battle)
        self._result = Result(winner, reason, self.turn, {s: self.units_lost_by_type(s) for s in SIDES})
        self.pending = None
        self.queue = []
        self.log(
            "result",
            "turn-sequence.end-of-battle",
            side=winner,
            winner=winner,
            reason=reason,
            turns=self.turn,
            losses=losses,
        )

    def _lost(self, u: Unit) -> bool:
        """A unit counted lost at the end of the battle: off the table or routed."""
        if u.joined is not None and not u.destroyed:
            # a champion in a unit's front rank shares its fate (special-troops.champions)
            host = self.units[u.joined]
            return not host.on_table or host.routed
        return not u.on_table or u.routed

    def units_lost_by_type(self, side: str) -> dict[str, int]:
        """Units of ``side`` counted lost, by troop type code (as ``view()`` names a unit's type)."""
        out: dict[str, int] = {}
        for u in self.units.values():
            if u.side == side and not u.general and self._lost(u):
                out[u.code] = out.get(u.code, 0) + 1
        return out

    def losses(self, side: str) -> dict[str, int]:
        out = {"units_lost": 0, "figures_lost": 0, "points_lost": 0, "points": 0}
        for u in self.units.values():
            if u.side != side or u.general:
                continue  # a general's figure is counted with the generals below
            pts = unit_points(u.spec)
            out["points"] += pts
            out["figures_lost"] += u.original - u.figures if not u.gone else u.original
            if self._lost(u):
                out["units_lost"] += 1
                out["points_lost"] += pts
        # a general's figure costs 25 per rating; a fallen general's points are lost (command.generals)
        for g in self.generals.values():
            if g["side"] == side:
                out["points"] += int(g["points"])
                if g.get("fallen"):
                    out["points_lost"] += int(g["points"])
        return out

    # ------------------------------------------------------------------ views
    def view(self) -> dict[str, Any]:
        return self._view(False)

    def shared_view(self) -> dict[str, Any]:
        """``view()``, its units' entries those the view memo keeps, not copies (issue 16: the
        scripted general reads every unit's at every decision and changes none): to read, never to
        change. On the reference path, ``view()``."""
        return self._view(True)

    def _view(self, shared: bool) -> dict[str, Any]:
        return {
            "ruleset": RS,
            "scenario": self._game.scenario_name,
            "turn": self.turn,
            "max_turns": self.max_turns,
            "phase": self.phase,
            "step": self.pending["kind"] if self.pending else None,
            "side": self.pending["side"] if self.pending else None,
            "initiative": self.first,
            "active": self.active,
            "table": {"width": self.terrain.width, "depth": self.terrain.depth},
            "terrain": [feature_view(f) for f in self.terrain.features],
            "units": self._unit_views(shared),
            "cards": view_cards(self),
            "generals": copy.deepcopy(self.generals),
            "result": self._result.to_dict() if self._result else None,
        }

    def _unit_views(self, shared: bool = False) -> list[dict[str, Any]]:
        """``unit_view`` of every unit, with one look at the contacts and at who joined whom
        (``shared``: the memo's own entries, ``shared_view``)."""
        c, units = self._contacts, self.units
        if self._still is None:  # (in a still block the poses were compared at its start)
            c.sync(units)
        memo: ViewMemo | None = None if REFERENCE.on else self.__dict__.get("view_memo")
        if memo is not None:  # (the loop compiled: ``ViewMemo.views``; the cards looked at once)
            hidden = {card["unit"] for card in self.cards.values()}
            return memo.views(units, c, hidden, self.unit_view_reference, shared)
        joined: dict[str, list[Unit]] = {}
        for x in units.values():
            if x.joined is not None:
                joined.setdefault(x.joined, []).append(x)
        return [
            self._unit_view(u, u.on_table and bool(c.touching(u, units)), joined.get(u.id, []))
            for u in units.values()
        ]

    def unit_view(self, u: Unit) -> dict[str, Any]:
        in_melee = self.in_melee(u) if u.on_table else False
        return self._unit_view(u, in_melee, joined_to(self.units, u.id))

    def _unit_view(self, u: Unit, in_melee: bool, joined: list[Unit]) -> dict[str, Any]:
        """The view of ``u``; ``joined``: the units joined to it (``Unit.joined``), in state order.
        The view kept for the unit while it stays as it was (``view_memo``); on the reference path
        (or in a state made without the memo) it is made afresh (``unit_view_reference``)."""
        memo: ViewMemo | None = None if REFERENCE.on else self.__dict__.get("view_memo")
        if memo is None:
            return self.unit_view_reference(u, in_melee, joined)
        hidden = is_hidden(self, u.id)
        return memo.view(u, in_melee, joined, hidden, lambda: self.unit_view_reference(u, in_melee, joined))

    def unit_view_reference(self, u: Unit, in_melee: bool, joined: list[Unit]) -> dict[str, Any]:
        """``_unit_view`` made from the unit itself (the plain form)."""
        fp = u.fp
        return {
            "id": u.id,
            "side": u.side,
            "name": u.name,
            "type": u.code,
            "code": u.code,
            "quality": u.spec.quality,
            "role": u.spec.type,
            "category": "mounted" if u.mounted else "foot",
            "x": round_places(fp.x, 4),
            "y": round_places(fp.y, 4),
            "heading": round_places(fp.heading, 4),
            "frontage": round_places(fp.frontage, 4),
            "depth": round_places(fp.depth, 4),
            "figures": u.figures,
            "original": u.original,
            "front": u.front,
            "ranks": u.ranks,
            "hits": u.wounds if u.champion else u.original - u.figures,
            "max_hits": u.champion_hits if u.champion else u.original,
            "champion": u.champion,
            "general": u.general,
            "mixed": [
                {"code": p.code, "figures": p.figures, "type": p.type, "weapon": p.weapon}
                for p in u.spec.parts()
            ]
            if u.spec.mixed
            else [],
            "morale": u.morale,
            "disordered": u.disordered,
            "evading": u.evading,
            "shieldwall": u.shieldwall,
            "pursuing": u.pursuing,
            "faced": list(u.faced),
            "missile": u.majority.missile_weapon,
            "removed": not u.on_table,
            "gone": u.gone,
            "destroyed": u.destroyed,
            "joined": u.joined,
            "champions": [c.id for c in joined if not c.destroyed and not c.general],
            "generals": [c.id for c in joined if not c.destroyed and c.general],
            "acted": u.acted,
            "fired": u.fired,
            "charged": u.charged,
            "in_melee": in_melee,
            "deployed": u.deployed,
            "hidden_from": [other(u.side)] if is_hidden(self, u.id) else [],
        }

    def view_for(self, side: str) -> dict[str, Any]:
        """The view as ``side`` may see it: the other side's units still under their face-down cards
        are left out (concealed-deployment.playing-cards); their cards are shown, all of one size
        (``act_deploy.card_envelope``: a dummy card is not told by its size)."""
        v = self.view()
        v["units"] = [x for x in v["units"] if side not in x["hidden_from"]]
        v["cards"] = cards_seen_by(self, side)
        return v

    def event_for(self, ev: Event, side: str) -> Event:
        """``ev`` as ``side`` may read it: the other side's face-down cards all of one size."""
        return event_seen_by(self, ev, side)

    def __repr__(self) -> str:
        k = self.pending["kind"] if self.pending else None
        return f"<IntoTheDarkState turn {self.turn} {self.phase}/{k}>"


def side_order(first: str) -> tuple[str, str]:
    return (first, other(first))
