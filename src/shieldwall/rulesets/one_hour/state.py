"""The one-hour-dark-ages battle state: the four-phase player turn as a chain of decisions.

"Play Sequence": each turn both players take Movement, Shooting, Melee, Routs and Rallies, the
side with the initiative first. Every change is an ``Event`` naming its clause
(``one-hour-dark-ages:<clause>``, rows of docs/rules/one-hour-dark-ages.md).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from operator import attrgetter
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from shieldwall.core.dice import AVERAGE_DIE, D6, Die, copy_rng
from shieldwall.core.errors import IllegalOrder
from shieldwall.core.events import Event
from shieldwall.core.game import BattleState, Decision, Result
from shieldwall.core.geometry import CONTACT_TOL, Footprint
from shieldwall.core.geometry_index import FootprintIndex
from shieldwall.core.reference import REFERENCE
from shieldwall.core.terrain import feature_view
from shieldwall.rulesets.one_hour import act_hand_deploy, actions, menus
from shieldwall.rulesets.one_hour import orders as O
from shieldwall.rulesets.one_hour.act_deploy import pending
from shieldwall.rulesets.one_hour.clauses import rule
from shieldwall.rulesets.one_hour.combat import attack_modifier as combat_modifier
from shieldwall.rulesets.one_hour.model import SIDES, Personality, Unit, other, restore_field
from shieldwall.rulesets.one_hour.spatial import contacts

if TYPE_CHECKING:
    from shieldwall.rulesets.one_hour.game import OneHourGame

RS = "one-hour-dark-ages"
_FP = attrgetter("fp")
_REMOVED = attrgetter("removed")
#: at most this many units moved since the grid was made: the grid is moved, not made again, and
#: only the cached contacts near them are dropped (more: the grid is made again, the cache cleared)
FEW_MOVED = 8
#: ``OneHourState._touched`` is started again (with a new token) beyond this many entries
TOUCHED_MAX = 4096
_T = TypeVar("_T")


#: the prompts of the steps that name no unit
_PROMPTS: dict[str, str] = {
    "fight-as": "choose what your units fight as (after deployment)",
    "transfer": 'transfer personalities within 6" or end',
    "activate": "choose a unit to move, or end the Movement phase",
    "shoot": "choose a unit to shoot, or end the Shooting phase",
}


class OneHourState(BattleState["OneHourGame"]):
    """One moment of a one-hour-dark-ages battle. Use ``OneHourGame.new_state(seed)``."""

    def __init__(self, game: OneHourGame, seed: int | None) -> None:
        self.begin(game, seed)
        #: the old values of the unit fields an order changes, while it is applied (``apply``)
        self._journal: list[tuple[Unit, str, Any]] | None = None
        #: counts of changes to the units' fields, and to their footprints and ``removed`` flags
        #: (``Unit.__setattr__``)
        self._units_version = 0
        self._geo_version = 0
        #: the units a field was set on, in the order set (with repeats), since ``_touch_token``
        #: was made: readers keep (token, length) and look only at the units listed after it (the
        #: scripted general's views, ``OneHourGeneral._setup_direct``). A copy starts a list and a
        #: token of its own; ``apply`` starts them again when the list grows long.
        self._touched: list[Unit] = []
        self._touch_token: object = object()
        self.units: dict[str, Unit] = {u.id: u.clone() for u in game.initial_units}
        for u in self.units.values():
            u.owner = self
        self.personalities: dict[str, Personality] = {
            p.id: Personality(p.id, p.side, p.kind, p.banner, p.unit, p.allied)
            for p in game.initial_personalities
        }
        self.die: Die = AVERAGE_DIE if self.params["dice"] == "d5" else D6
        self.turn = 1
        self.max_turns = int(self.params["turns"])
        self.initiative = "red"
        self.order: tuple[str, str] = ("red", "blue")
        self.player = 0
        self.phase = "movement"
        self.step = "activate"
        self.active: str | None = None
        self.rolled = 0.0
        self.move_faces: list[int] = []
        self.transferred: set[str] = set()
        self.melee_queue: list[str] = []
        self.lost = {s: 0 for s in SIDES}
        self.lost_types: dict[str, dict[str, int]] = {s: {} for s in SIDES}
        self.destroyed_this_phase: list[str] = []
        self._events: list[Event] = []
        self._result: Result | None = None
        self._contact_cache: dict[str, list[tuple[Unit, str, str]]] = {}
        #: the live units with a grid (``_geometry``), valid while every unit's footprint and
        #: ``removed`` flag are those listed in ``_geo_fps`` / ``_geo_removed``
        self._geo_fps: list[Footprint] | None = None
        self._geo_removed: list[bool] = []
        self._geo_built = -1
        self._geo_live: FootprintIndex[Unit] = FootprintIndex(())
        #: the units whose footprint or ``removed`` flag was set since the grid was last brought up
        #: to date (``Unit.__setattr__``), the units in the order of ``units`` and, by id, each
        #: live unit's place in ``_geo_live`` (made with the grid, ``_geometry``)
        self._geo_changed: list[Unit] = []
        self._geo_units: list[Unit] = []
        self._geo_place: dict[str, int] = {}
        self._geo_index: dict[str, int] = {}
        #: > 0 while a menu is built (nothing moves then: the geometry is not re-checked)
        self._frozen = 0
        #: sight lines already traced (``act_common.sight``); keys hold every position they depend on
        self.sight_memo: dict[Any, tuple[int, int]] = {}
        #: the placement and path checks made while a menu is built (``act_common.placement``;
        #: None at any other time, and always on the reference path)
        self.check_memo: dict[Any, str | None] | None = None
        self._menu_cache: tuple[tuple[Any, ...], list[O.Order]] | None = None
        #: hand deployment (ruling R50): each side's units still to place, in order (replaced,
        #: never changed in place), and the side whose turn it is to place ("" when it is over)
        self.deploy_left: dict[str, tuple[str, ...]] = {s: () for s in SIDES}
        self.deploy_next = ""
        self._start()

    # ------------------------------------------------------------------ State API

    @property
    def side(self) -> str:
        return self.order[self.player]

    def decision(self) -> Decision | None:
        if self._result is not None:
            return None
        data: dict[str, Any] = {"phase": self.phase, "turn": self.turn}
        if self.step == "move":
            data["rolled"] = self.rolled
        return Decision(self.side, self.step, self._prompt(), self.active, data)

    def _prompt(self) -> str:
        """The decision's prompt, for its step (only that one is written out: ``decision`` is asked
        several times a decision)."""
        step = self.step
        if step == "deploy":
            return f"place {self.active} within your deployment zone"
        if step == "move":
            return f'move {self.active} (rolled {self.rolled:g}")'
        if step == "after-shot":
            return f"Moving Shot for {self.active} after its move, or skip"
        if step == "melee":
            return f"choose the enemy {self.active} attacks"
        return _PROMPTS[step]

    def legal_orders(self) -> list[O.Order]:
        if self._result is not None:
            return []
        return list(self._menu())

    def _menu_key(self) -> tuple[Any, ...]:
        """Everything a menu depends on that can change during a battle (the game is fixed)."""
        return (
            self.step,
            self.active,
            self.phase,
            self.player,
            self.turn,
            self.rolled,
            len(self._events),
            id(self.params),
            # (every change of a unit's field moves this on: ``Unit.__setattr__``)
            self._units_version,
            tuple([p.unit for p in self.personalities.values()]),
            tuple(sorted(self.transferred)),
            self.deploy_next,
        )

    def _menu(self) -> list[O.Order]:
        """The menu of this decision, built once: ``_advance`` asks whether there is a choice and
        the bot then asks for the choices (the key guards against any change in between)."""
        key = self._menu_key()
        cached = self._menu_cache
        if cached is not None and cached[0] == key and not REFERENCE.on:
            return cached[1]
        got = self._building(menus.legal_orders)
        self._menu_cache = (key, got)
        return got

    def _building(self, build: Callable[[OneHourState], _T]) -> _T:
        """``build(self)`` as a menu is built: the geometry brought up to date, then frozen (nothing
        moves while a menu is built), and a check asked twice (a turn tried for a face, an approach
        and a charge) answered from the first answer."""
        self._geometry()
        self._frozen += 1
        self.check_memo = None if REFERENCE.on else {}
        try:
            return build(self)
        finally:
            self._frozen -= 1
            self.check_memo = None

    def best_order(self, score: Callable[[O.Order], float]) -> O.Order:
        """``max(self.legal_orders(), key=score)``: the first of the menu's orders with the best
        score. For a move decision whose menu is not built yet (the scripted general's), the fast
        path scores the menu's entries before checking them and checks them best first until one
        passes (``menus.best_move``), leaving the menu unbuilt; on the reference path, and at any
        other decision, the whole menu is built and scored."""
        cached = self._menu_cache
        if (
            REFERENCE.on
            or self.step != "move"
            or self._result is not None
            or (cached is not None and cached[0] == self._menu_key())
        ):
            return max(self.legal_orders(), key=score)
        return self._building(lambda st: menus.best_move(st, score))

    def parse_order(self, spec: str | Mapping[str, Any]) -> O.Order:
        return O.parse(spec)

    def apply(self, order: Any) -> list[Event]:
        if self._result is not None:
            raise IllegalOrder(rule("play-sequence"), "the battle is over")
        if isinstance(order, (str, Mapping)):
            order = O.parse(order)
        n = len(self._events)
        if len(self._touched) > TOUCHED_MAX:
            self._touched = []
            self._touch_token = object()
        # The backup shares the generator and keeps its state (restored on an illegal order):
        # the same result as a deep copy of the generator, at a fraction of the cost.
        # (Any other generator -- a test's scripted dice -- is deep-copied as before.)
        plain = type(self.rng) is np.random.Generator
        saved = self._backup(share_rng=plain)
        rng_state = self.rng.bit_generator.state if plain else None
        outer = self._journal
        journal: list[tuple[Unit, str, Any]] = []
        self._journal = journal
        try:
            actions.apply_order(self, order)
            self._advance()
        except IllegalOrder:
            self._rollback(saved, journal, n)
            if rng_state is not None:
                self.rng.bit_generator.state = rng_state
            raise
        finally:
            self._journal = outer
        if outer is not None:
            outer.extend(journal)  # (an order applied within another's: undone with it)
        return self._events[n:]

    def _backup(self, share_rng: bool) -> dict[str, Any]:
        """What ``_rollback`` needs to undo an order besides the journal of unit fields: the
        state's attributes (the containers an order changes copied). The events are not copied:
        an order only appends to them."""
        saved = dict(self.__dict__)
        if not share_rng:
            saved["rng"] = copy_rng(self.rng)
        saved["personalities"] = {
            k: Personality(p.id, p.side, p.kind, p.banner, p.unit, p.allied)
            for k, p in self.personalities.items()
        }
        saved["transferred"] = set(self.transferred)
        saved["melee_queue"] = list(self.melee_queue)
        saved["lost"] = dict(self.lost)
        saved["lost_types"] = {s: dict(v) for s, v in self.lost_types.items()}
        saved["destroyed_this_phase"] = list(self.destroyed_this_phase)
        saved["move_faces"] = list(self.move_faces)
        return saved

    def _rollback(self, saved: dict[str, Any], journal: list[tuple[Unit, str, Any]], n_events: int) -> None:
        """Undo an order that failed part-way: every unit field it changed set back (latest
        first), the state's attributes as they were (``_backup``), the events after the first
        ``n_events`` dropped and the contact cache emptied (it may hold contacts found with a unit
        moved). The versions come back with the attributes, as do the caches built for them."""
        for u, name, old in reversed(journal):
            restore_field(u, name, old)
        self.__dict__.update(saved)
        del self._events[n_events:]
        self._contact_cache = {}
        self._geo_fps = None
        self._geo_built = -1
        self._frozen = 0

    def units_touched(self) -> tuple[object, list[Unit]]:
        """The log of unit changes, for readers that keep views of the units (the scripted
        general): the token of the log and the log, the units a field was set on since the token
        was made, in the order set, with repeats (read-only). A reader keeps the token and the
        log's length; next time, with the same token, only the units listed after that length can
        have changed. A copy of the state has a log and a token of its own, and ``apply`` starts
        them again when the log grows long (``TOUCHED_MAX``)."""
        return self._touch_token, self._touched

    def copy(self) -> OneHourState:
        return self._copy(share_rng=False)

    def _copy(self, share_rng: bool) -> OneHourState:
        new = object.__new__(OneHourState)
        new.__dict__.update(self.__dict__)
        if not share_rng:
            new.rng = copy_rng(self.rng)
        new.units = {k: u.clone() for k, u in self.units.items()}
        for u in new.units.values():
            u.owner = new
        new._journal = None
        new._touched = []
        new._touch_token = object()
        new.personalities = {
            k: Personality(p.id, p.side, p.kind, p.banner, p.unit, p.allied)
            for k, p in self.personalities.items()
        }
        new.transferred = set(self.transferred)
        new.melee_queue = list(self.melee_queue)
        new.lost = dict(self.lost)
        new.lost_types = {s: dict(v) for s, v in self.lost_types.items()}
        new.destroyed_this_phase = list(self.destroyed_this_phase)
        new._events = list(self._events)
        new.move_faces = list(self.move_faces)
        new._contact_cache = {}
        new._geo_fps = None
        new._geo_built = -1
        new._geo_live = FootprintIndex(())
        new._geo_changed = []
        new._frozen = 0
        new.check_memo = None
        return new

    # ------------------------------------------------------------------ helpers
    def log(self, kind: str, clause: str, /, side: str | None = None, **data: Any) -> Event:
        ev = Event(self.turn, self.phase, self.side if side is None else side, kind, rule(clause), data)
        self._events.append(ev)
        return ev

    def live(self, side: str | None = None) -> list[Unit]:
        """The units on the table (of ``side``), in the order of ``units``. Without a side: a
        ``FootprintIndex`` (a list that also finds the units near a point), shared until a unit
        moves or leaves, so callers must not change it."""
        if side is None:
            return self._geometry()
        return [u for u in self.units.values() if not u.removed and u.side == side]

    def _geometry(self) -> FootprintIndex[Unit]:
        """The live units with their grid, rebuilt when a footprint or a ``removed`` flag has
        changed since (checked by identity of the footprints: cheap). Contacts cached for units
        near a unit that moved or left (before or after) are dropped."""
        if self._frozen:
            return self._geo_live
        if REFERENCE.on:
            # the reference: the live units listed afresh (no version check), no cached contacts
            self._geo_built = -1
            self._geo_fps = None
            self._geo_changed = []
            self._contact_cache.clear()
            self._geo_live = FootprintIndex([u for u in self.units.values() if not u.removed])
            return self._geo_live
        if self._geo_built == self._geo_version:
            return self._geo_live
        self._geo_built = self._geo_version
        changed_units = self._geo_changed
        self._geo_changed = []
        old = self._geo_fps
        if old is not None and len(changed_units) <= FEW_MOVED:
            got = self._geometry_moved(old, changed_units)
            if got is not None:
                return got
        units = self.units.values()
        fps = list(map(_FP, units))
        removed = list(map(_REMOVED, units))
        old = self._geo_fps
        if old is not None and fps == old and removed == self._geo_removed:
            return self._geo_live
        live = FootprintIndex([u for u in units if not u.removed])
        cache = self._contact_cache
        if cache:
            if old is None or len(old) != len(fps):
                cache.clear()
            else:
                changed = [
                    i
                    for i, (a, b, ra, rb) in enumerate(zip(old, fps, self._geo_removed, removed, strict=True))
                    if a is not b or ra != rb
                ]
                self._forget_contacts(changed, old, fps, live)
        self._geo_fps = fps
        self._geo_removed = removed
        self._geo_live = live
        self._geo_units = list(units)
        self._geo_index = {u.id: i for i, u in enumerate(self._geo_units)}
        self._geo_place = {u.id: i for i, u in enumerate(live)}
        return live

    def _geometry_moved(self, old: list[Footprint], changed_units: list[Unit]) -> FootprintIndex[Unit] | None:
        """``_geometry`` when only the units ``changed_units`` (a few) may have moved since the grid
        was made: those whose footprint is not the one listed in ``old`` are moved in the grid
        (``FootprintIndex.moved``) instead of the grid being made again, and the contacts near them
        dropped. None (make it again) when a unit left the table or came back, or the units are not
        those the grid was made of."""
        units = self._geo_units
        index = self._geo_index
        removed = self._geo_removed
        if len(units) != len(self.units):
            return None
        changed: list[int] = []
        for u in changed_units:
            i = index.get(u.id, -1)
            if i < 0 or units[i] is not u:
                return None
            if u.removed != removed[i]:
                return None
            if u.fp is not old[i] and i not in changed:
                changed.append(i)
        if not changed:
            return self._geo_live
        changed.sort()
        fps = list(old)
        for i in changed:
            fps[i] = units[i].fp
        if fps == old:
            return self._geo_live  # (equal footprints: nothing moved)
        place = self._geo_place
        live = self._geo_live.moved([(place[units[i].id], old[i]) for i in changed if not removed[i]])
        if self._contact_cache:
            self._forget_contacts(changed, old, fps, live)
        self._geo_fps = fps
        self._geo_live = live
        return live

    def _forget_contacts(
        self, changed: list[int], old: list[Footprint], new: list[Footprint], live: FootprintIndex[Unit]
    ) -> None:
        """The cached contacts the units at ``changed`` may have changed dropped (``_drop_contacts``),
        or the whole cache cleared when more than ``FEW_MOVED`` moved."""
        if len(changed) > FEW_MOVED:
            self._contact_cache.clear()
        else:
            self._drop_contacts(changed, old, new, live)

    def _drop_contacts(
        self, changed: list[int], old: list[Footprint], new: list[Footprint], live: FootprintIndex[Unit]
    ) -> None:
        """Drop the cached contacts that the units at ``changed`` (indices into ``units``) may have
        changed: their own, and those of every unit within contact reach of where they stood or
        stand (``contacts`` pairs no units farther apart than their radii and ``CONTACT_TOL``)."""
        cache = self._contact_cache
        prev = self._geo_live
        ids = list(self.units)
        for i in changed:
            cache.pop(ids[i], None)
            for fp, index in ((old[i], prev), (new[i], live)):
                for u in index.near(fp.x, fp.y, fp.radius + CONTACT_TOL):
                    cache.pop(u.id, None)

    def unit(self, uid: str, clause: str = "orders") -> Unit:
        u = self.units.get(uid)
        if u is None or u.removed:
            raise IllegalOrder(rule(clause), f"there is no unit {uid!r} on the table")
        return u

    def personalities_of(self, unit: Unit) -> list[Personality]:
        return [p for p in self.personalities.values() if p.unit == unit.id]

    def has_personality(self, unit: Unit, kind: str, banner: bool = False) -> bool:
        if not self.params["personalities"]:
            return False
        return any(p.kind == kind and (p.banner or not banner) for p in self.personalities_of(unit))

    def attack_modifier(self, unit: Unit, mode: str) -> tuple[int, list[tuple[str, str]]]:
        """Die modifier for a unit's melee attack or shot, with the clause of each part
        (``combat.attack_modifier``: type, Variations upgrade, Hero)."""
        hero = self.params["personalities"] and any(x.kind == "hero" for x in self.personalities_of(unit))
        return combat_modifier(unit.profile, mode, self.params, unit.attack_mod, bool(hero))

    def touching(self, unit: Unit) -> list[tuple[Unit, str, str]]:
        """Enemies in contact with ``unit``: (enemy, unit's facing, enemy's facing). Cached for as
        long as no unit near it moves or leaves the table."""
        self._geometry()
        return self._touching_checked(unit)

    def _check_contacts(self) -> None:
        """Bring the contact cache up to date with the units' positions (``_geometry``)."""
        self._geometry()

    def _touching_checked(self, unit: Unit) -> list[tuple[Unit, str, str]]:
        """``touching`` once ``_check_contacts`` has run (nothing has moved since)."""
        if REFERENCE.on:
            return contacts(unit, self._geo_live)  # (the reference: every live unit looked at)
        got = self._contact_cache.get(unit.id)
        if got is None:
            fp = unit.fp
            live = self._geo_live
            got = contacts(unit, live.near(fp.x, fp.y, fp.radius + CONTACT_TOL))
            self._contact_cache[unit.id] = got
        return got

    def in_melee(self, unit: Unit) -> bool:
        return bool(self.touching(unit))

    def roll(
        self,
        n: int,
        clause: str,
        what: str,
        unit: str | None = None,
        side: str | None = None,
        die: Die | None = None,
        **extra: Any,
    ) -> list[int]:
        d = die or self.die
        faces = d.roll_n(self.rng, n)
        self.log("roll", clause, side=side, what=what, die=d.name, faces=faces, unit=unit, **extra)
        return faces

    def roll_off(self, favoured: str, clause: str, what: str) -> bool:
        """ "Grey Areas": a friendly roll-off; True if ``favoured`` wins (ties re-rolled)."""
        while True:
            a, b = D6.roll(self.rng), D6.roll(self.rng)
            if a != b:
                break
        won = a > b
        self.log(
            "roll-off",
            clause,
            side=favoured,
            what=what,
            faces={favoured: a, other(favoured): b},
            winner=favoured if won else other(favoured),
        )
        return won

    def close_call(self, value: float, limit: float, favoured: str, clause: str, what: str) -> bool:
        """Is ``value <= limit``? Too close to call (within the grey margin) goes to a roll-off."""
        margin = float(self.params["grey_margin"])
        if value <= limit - margin:
            return True
        if value > limit + margin:
            return False
        return self.roll_off(favoured, "grey-areas", f'{what}: {value:.2f}" against {limit:g}"')

    # ------------------------------------------------------------------ flow
    def _start(self) -> None:
        g = self._game
        self.log(
            "battle",
            "play-sequence",
            side=None,
            scenario=g.scenario_name,
            seed=self.seed,
            options={k: v for k, v in self.params.items() if v != g.parameters[k].default},
        )
        attacker = g.spec.attacker
        if attacker == "roll-off":
            attacker = "red" if self.roll_off("red", "initiative", "no clear attacker") else "blue"
        self.initiative = attacker
        self.order = (attacker, other(attacker))
        self.log(
            "initiative",
            "initiative" if self.params["initiative"] else "play-sequence",
            side=attacker,
            holder=attacker,
            reason="scenario attacker goes first",
        )
        if self.params["hand_deployment"]:
            act_hand_deploy.begin(self)
        else:
            self.after_deployment()
        self._advance()

    def after_deployment(self) -> None:
        """The choices made after deployment (Viking Veterans), else the first turn."""
        self.active = None
        if not self._begin_choices():
            self.player = 0
            self._begin_player_turn()

    def _begin_choices(self, after: int = -1) -> bool:
        """Ask the next side (in play order, after player index ``after``) with a choice to make
        after deployment ("Viking Veterans"); False when no side has one left."""
        for i, side in enumerate(self.order):
            if i > after and pending(self, side):
                self.player = i
                self.phase = "movement"
                self.step = "fight-as"
                return True
        return False

    def after_choice(self) -> None:
        """After a choice: the same side's next one, the other side's, or the first turn."""
        if pending(self, self.side):
            return
        if not self._begin_choices(self.player):
            self.player = 0
            self._begin_player_turn()

    def _begin_player_turn(self) -> None:
        for u in self.live(self.side):
            u.reset_turn()
        self.transferred = set()
        self.phase = "movement"
        self.active = None
        self.log("phase", "play-sequence", phase_name="movement", player=self.side)
        has_pers = self.params["personalities"] and any(
            p.side == self.side and p.unit for p in self.personalities.values()
        )
        self.step = "transfer" if has_pers else "activate"

    def enter_phase(self, phase: str) -> None:
        self.phase = phase
        self.active = None
        self.log("phase", "play-sequence", phase_name=phase, player=self.side)
        if phase == "shooting":
            self.step = "shoot"
        elif phase == "melee":
            self.melee_queue = [u.id for u in self.live(self.side)]
            self.step = "melee"
        elif phase == "routs":
            actions.routs_and_rallies(self)
            self._end_player_turn()

    def _end_player_turn(self) -> None:
        if self._result is not None:
            return
        if self.player == 0:
            self.player = 1
            self._begin_player_turn()
            return
        if self.turn >= self.max_turns:
            self._finish_on_time()
            return
        self.turn += 1
        self.player = 0
        if self.params["initiative"]:
            actions.initiative_roll(self)
        self.phase = "movement"
        self.log("turn", "play-sequence", side=None, number=self.turn, first=self.order[0])
        self._begin_player_turn()

    def finish(self, winner: str | None, reason: str) -> None:
        losses = {s: dict(self.lost_types[s]) for s in SIDES}
        self._result = Result(winner, reason, self.turn, losses)
        self.log(
            "result",
            "play-sequence",
            side=winner,
            winner=winner,
            reason=reason,
            turns=self.turn,
            lost={s: self.lost[s] for s in SIDES},
        )

    def _finish_on_time(self) -> None:
        """At the turn limit the side that lost fewer Units wins; with equal losses, the side whose
        surviving Units carry the smaller share of their hit limits (see the rulings)."""
        r, b = self.lost["red"], self.lost["blue"]
        if r != b:
            w = "red" if r < b else "blue"
            self.finish(w, f"turn limit ({self.max_turns}) reached; Units lost red {r}, blue {b}")
            return
        wear = {s: sum(u.hits / u.max_hits for u in self.live(s)) for s in SIDES}
        if abs(wear["red"] - wear["blue"]) < 1e-9:
            self.finish(
                None, f"turn limit ({self.max_turns}) reached with equal losses ({r} each) and equal wear"
            )
            return
        w = "red" if wear["red"] < wear["blue"] else "blue"
        self.finish(
            w,
            f"turn limit ({self.max_turns}) reached with equal losses ({r} each); {w}'s Units are "
            f"less worn ({wear[w]:.2f} against {wear[other(w)]:.2f} hit limits)",
        )

    def _advance(self) -> None:
        """Resolve everything that needs no decision, until a real choice or the end."""
        guard = 0
        while self._result is None:
            guard += 1
            if guard > 10000:
                raise RuntimeError("state machine did not settle")
            if self.step == "melee":
                if actions.melee_step(self):
                    return
                self.enter_phase("routs")
                continue
            # (each of these menus starts with one order that is always there: end, or skip)
            if self.step == "shoot" and len(self._menu()) <= 1:
                self.enter_phase("melee")
                continue
            if self.step == "transfer" and len(self._menu()) <= 1:
                self.step = "activate"
                continue
            if self.step == "activate" and len(self._menu()) <= 1:
                self.enter_phase("shooting")
                continue
            if self.step == "after-shot" and len(self._menu()) <= 1:
                self.finish_activation()
                continue
            return

    def finish_activation(self) -> None:
        self.active = None
        self.step = "activate"

    # ------------------------------------------------------------------ views
    def view(self) -> dict[str, Any]:
        return {
            "ruleset": RS,
            "scenario": self._game.scenario_name,
            "turn": self.turn,
            "max_turns": self.max_turns,
            "phase": self.phase,
            "step": self.step,
            "side": self.side,
            "initiative": self.initiative,
            "active": self.active,
            "rolled": self.rolled if self.step == "move" else None,
            "table": {"width": self.terrain.width, "depth": self.terrain.depth},
            "terrain": [feature_view(f) for f in self.terrain.features],
            "units": self._unit_views(),
            "personalities": [
                {"id": p.id, "side": p.side, "kind": p.kind, "banner": p.banner, "unit": p.unit}
                for p in self.personalities.values()
            ],
            "lost": dict(self.lost),
            "result": self._result.to_dict() if self._result else None,
            **self._deployment_view(),
        }

    def _deployment_view(self) -> dict[str, Any]:
        """With hand deployment (ruling R50): each side's zone and the units still to place."""
        if not self.params["hand_deployment"]:
            return {}
        g = self._game
        return {
            "deployment": {
                "zones": {s: list(g.deploy_zones[s]) for s in SIDES},
                "waiting": [uid for s in SIDES for uid in self.deploy_left[s]],
                "next": self.active if self.step == "deploy" else None,
            }
        }

    def _unit_views(self) -> list[dict[str, Any]]:
        self._check_contacts()  # once for all the units (nothing moves while the views are built)
        return [self.unit_view(u, contacts_checked=True) for u in self.units.values()]

    def unit_view(self, u: Unit, contacts_checked: bool = False) -> dict[str, Any]:
        fp = u.fp
        shots_left: int | None = None
        if u.profile.missile:
            shots_left = (
                (0 if u.out_of_missiles else None)
                if self.params["missile_supply"]
                else max(0, int(self.params["shots"]) - u.shots_used)
            )
        return {
            "id": u.id,
            "side": u.side,
            "name": u.name,
            "type": u.type,
            "category": u.category,
            "x": round(fp.x, 4),
            "y": round(fp.y, 4),
            "heading": round(fp.heading, 4),
            "frontage": fp.frontage,
            "depth": fp.depth,
            "hits": u.hits,
            "max_hits": u.max_hits,
            "missile": u.profile.missile,
            "shots_left": shots_left,
            "removed": u.removed,
            "upgrade": u.upgrade,
            "quality": u.quality,
            "allied": u.allied,
            "personalities": [p.label for p in self.personalities_of(u)]
            if self.params["personalities"]
            else [],
            "moved": u.moved,
            "shot": u.shot,
            "charged": u.charged,
            "in_melee": (not u.removed)
            and bool(self._touching_checked(u) if contacts_checked else self.touching(u)),
        }

    def footprint(self, uid: str) -> Footprint:
        return self.units[uid].fp

    def move_budget(self) -> float:
        return self.rolled

    def __repr__(self) -> str:
        return f"<OneHourState turn {self.turn} {self.side} {self.phase}/{self.step}>"


def angle_ok(a: float) -> bool:
    return math.isfinite(a) and abs(a) <= 180.0 + 1e-9
