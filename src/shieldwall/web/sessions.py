"""Battles being played on the server: create, rebuild, give orders, bot replies, undo, replay.

The store holds the truth (game rows and accepted orders); a ``Session`` is the battle rebuilt in
memory by replaying those orders from the seed, kept in a small LRU cache. Every change goes
through ``State.apply`` — the page can change nothing except by a legal order.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

from shieldwall.ai.base import bot_names, make_bot
from shieldwall.core.datafiles import no_file_references, read_toml
from shieldwall.core.errors import IllegalOrder, ShieldwallError
from shieldwall.core.game import Game, Order, State
from shieldwall.core.reference import REFERENCE
from shieldwall.io.scenarios import builtin_scenarios, game_from_data
from shieldwall.web.session import (
    ApiError,
    Created,
    Played,
    Session,
    Viewers,
    decision_seed,
    finite_numbers,
    new_seed,
    refuse_spectator,
)
from shieldwall.web.store import GameRecord, OrderRow, Store, StoreConflict
from shieldwall.web.table_bots import bot_problem

log = logging.getLogger("shieldwall.web")

MAX_BOT_DECISIONS = 5000
MODES = ("bot", "hotseat", "remote")


#: the mark a spectator's token carries among its sides in the store (not a side name: sides are
#: words, this is not)
WATCH = "@watch"


def _on_menu(s: Session, sides: list[str], order: Order) -> bool:
    """Whether ``order`` is on the menu of a decision one of ``sides`` is to make. An order whose
    ``unit`` names another side's unit is then still the token's to give: a rule system may have
    the deciding side name a pair of units by the enemy's first (the choice of the next melee,
    ``fight <their unit> <our unit>``), which the owner check refused, so a player could not fight."""
    d = s.state.decision()
    return d is not None and d.side in sides and order in s.state.legal_orders()


class Games:
    """The games of one server: an LRU cache of sessions over the SQLite store."""

    def __init__(self, store: Store, cache_size: int = 64, max_db_bytes: int | None = None) -> None:
        self.store = store
        self.cache_size = cache_size
        #: no new game once the database holds this many bytes (None: no cap); games under way go on
        self.max_db_bytes = max_db_bytes
        self._cache: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ creating
    def scenario_data(self, name: str) -> dict[str, Any]:
        found = builtin_scenarios()
        if name not in found:
            stems = [k for k in found if k.split("/", 1)[1] == name]
            if len(stems) != 1:
                raise ApiError(
                    422, f"unknown scenario {name!r}; built-in scenarios: {', '.join(sorted(found))}"
                )
            name = stems[0]
        return dict(read_toml(found[name]))

    def create(
        self,
        *,
        ruleset: str,
        scenario: str,
        scenario_data: Mapping[str, Any] | None,
        side: str | None,
        opponent: str,
        seed: int | None,
        overrides: Mapping[str, Any],
        orders: list[dict[str, Any] | str] | None = None,
    ) -> Created:
        if self.max_db_bytes is not None and self.store.size_bytes() >= self.max_db_bytes:
            raise ApiError(
                507,
                f"this server's storage for games is full ({self.max_db_bytes // 1_000_000} MB): no new game "
                "can start; games under way go on",
            )
        if scenario_data is not None:
            data = dict(scenario_data)
            name = str(data.get("name") or "custom scenario")
        else:
            data = self.scenario_data(scenario)
            name = scenario
        if data.get("ruleset") != ruleset:
            raise ApiError(
                422, f"scenario {name!r} is for the rule system {data.get('ruleset')!r}, not {ruleset!r}"
            )
        try:
            with no_file_references():  # data from the network names no file on the server
                game = game_from_data(data, name, dict(overrides))
        except ShieldwallError as exc:
            raise ApiError(422, f"the scenario or its options do not validate: {exc}") from None
        except Exception as exc:  # a malformed custom scenario must never be a server error
            raise ApiError(422, f"the scenario does not validate: {exc!r}") from None
        sides = list(game.info.sides)
        if side is None:
            side = sides[0]
        if side not in sides:
            raise ApiError(422, f"side must be one of {', '.join(sides)}, not {side!r}")
        others = [s for s in sides if s != side]
        if opponent == "hotseat":
            mode, players = "hotseat", {s: "human" for s in sides}
        elif opponent == "remote":
            mode, players = "remote", {s: "human" for s in sides}
        elif (problem := bot_problem(opponent, game.info.id)) is None:
            mode, players = "bot", {s: ("human" if s == side else f"bot:{opponent}") for s in sides}
        elif problem:
            raise ApiError(422, problem)
        else:
            bots = bot_names(game.info.id)
            raise ApiError(
                422,
                f"opponent must be hotseat, remote or a bot ({', '.join(bots)}; mcts:N for N playouts, "
                "with options: mcts:N:mixP, mcts:N:hend:sh), "
                f"not {opponent!r}",
            )
        seed_public = seed is not None  # a seed the player chose is theirs; the server's stays secret
        if seed is None:
            seed = new_seed()
        gid = secrets.token_urlsafe(8)
        rec = GameRecord(
            gid, time.time(), ruleset, name, data, dict(overrides), int(seed), seed_public, mode, players
        )
        state = game.new_state(rec.seed)
        rows: list[OrderRow] = []
        marks: list[int] = []
        for i, od in enumerate(orders or []):
            marks.append(len(state.events))
            d = state.decision()
            if d is None:
                raise ApiError(422, f"orders[{i}]: the battle was already over")
            try:
                finite_numbers(od, f"orders[{i}]")
                order = state.parse_order(od)
                od = order.to_dict()  # kept as the live route keeps it (a text order too)
                finite_numbers(od, f"orders[{i}]")
                state.apply(order)
            except IllegalOrder as exc:
                raise ApiError(
                    422, f"orders[{i}] is not legal on replay: {exc.reason}", exc.rule, exc.reason
                ) from None
            except ApiError:
                raise
            except Exception as exc:
                raise ApiError(422, f"orders[{i}] could not be replayed: {exc!r}") from None
            rows.append(OrderRow(i, d.side, "imported", od))
        token = secrets.token_urlsafe(24)
        mine = sides if mode == "hotseat" else [side]
        invite = secrets.token_urlsafe(24) if mode == "remote" else None
        invites = [(others[0], invite)] if invite else []
        self.store.create_game(rec, [(token, mine)], invites)
        revision = self.store.append_orders(gid, rows, 0) or 0
        session = Session(rec, game, state, rows, marks, revision=revision)
        self._bots_play(session)
        self._remember(session)
        return Created(session, token, mine, invite, others[0] if invite else None)

    # ------------------------------------------------------------------ finding
    def _remember(self, s: Session) -> Session:
        with self._lock:
            have = self._cache.get(s.rec.id)
            if have is not None:
                self._cache.move_to_end(s.rec.id)
                return have
            self._cache[s.rec.id] = s
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
            return s

    def forget(self, game_id: str) -> None:
        with self._lock:
            self._cache.pop(game_id, None)

    def get(self, game_id: str) -> Session:
        with self._lock:
            s = self._cache.get(game_id)
            if s is not None:
                self._cache.move_to_end(game_id)
        if s is not None:
            with s.lock:  # another server process on the same file may have changed the game
                if self.store.revision(game_id) == s.revision or self._caught_up(s):
                    return s
            self.forget(game_id)
        rec = self.store.game(game_id)
        if rec is None:
            raise ApiError(404, f"no game {game_id!r} on this server")
        revision, rows = self.store.orders_at(game_id)
        s = self._rebuild(rec, rows)
        s.revision = revision
        s = self._remember(s)
        with s.lock:
            self._bots_play(s)  # a crash between a human's order and the bot's reply
        return s

    def _caught_up(self, s: Session) -> bool:
        """Bring a kept session up to the store after another worker gave orders in its game: the
        orders stored after the session's own, applied to its state, when the stored orders begin
        with the session's (else False: an undo there, or a failure here; the caller rebuilds the
        game from its orders). A player's requests may go to any worker (a new connection goes to
        whichever accepts it): without this each change of worker replayed the whole battle. Not
        under the reference switch (the plain path, a rebuild, is the reference). Call with
        ``s.lock`` held."""
        if REFERENCE.on:
            return False
        revision, rows = self.store.orders_at(s.rec.id)
        n = len(s.orders)
        if len(rows) < n or rows[:n] != s.orders:
            return False
        marks: list[int] = []
        try:
            for row in rows[n:]:
                marks.append(len(s.state.events))
                s.apply(s.state.parse_order(row.order))
        except Exception:  # a half-applied order: this session is dropped, the caller rebuilds
            log.exception("could not catch up game %s from the store", s.rec.id)
            s.revision = -1  # never written from again (every write checks the revision)
            return False
        s.orders.extend(rows[n:])
        s.marks.extend(marks)
        s.revision = revision
        s.frames_cache = None
        s.bot_error = None
        self._bots_play(s)  # as a rebuild does: a crash between an order and the bot's reply
        return True

    def _replayed(self, rec: GameRecord, rows: list[OrderRow]) -> tuple[Game, State, list[int]]:
        try:
            with no_file_references():
                game = game_from_data(rec.scenario, rec.scenario_name, rec.overrides)
        except ShieldwallError as exc:
            raise ApiError(409, f"game {rec.id} can no longer be loaded: {exc}") from None
        state = game.new_state(rec.seed)
        marks: list[int] = []
        for r in rows:
            marks.append(len(state.events))
            try:
                state.apply(state.parse_order(r.order))
            except IllegalOrder as exc:
                raise ApiError(
                    409,
                    f"game {rec.id} cannot be rebuilt with this version of the rules: order {r.seq} "
                    f"({r.order}) is now refused: {exc.reason}",
                    exc.rule,
                    exc.reason,
                ) from None
        return game, state, marks

    def _rebuild(self, rec: GameRecord, rows: list[OrderRow]) -> Session:
        game, state, marks = self._replayed(rec, rows)
        return Session(rec, game, state, list(rows), marks)

    def authorize(self, s: Session, token: str | None) -> list[str]:
        """The sides ``token`` commands in this game (403 if none)."""
        if not token:
            raise ApiError(403, "this request needs the side token of the game (header X-Shieldwall-Token)")
        sides = self.store.token_sides(s.rec.id, token)
        if not sides:
            raise ApiError(403, "that token does not belong to this game")
        if WATCH in sides:
            return Viewers(s.sides)
        return sides

    def spectate(self, s: Session, sides: list[str]) -> str:
        """A new spectator's token for the game (a player asks for it): it sees what both sides may
        see and gives no orders."""
        refuse_spectator(sides)
        token = secrets.token_urlsafe(24)
        self.store.add_token(s.rec.id, token, [WATCH])
        return token

    # ------------------------------------------------------------------ playing
    def _persist(self, s: Session, rows: list[OrderRow]) -> None:
        try:
            s.revision = self.store.append_orders(s.rec.id, rows, s.revision) or s.revision
        except StoreConflict:
            self.forget(s.rec.id)
            raise ApiError(
                409, "the game changed meanwhile (another request); reload it and try again"
            ) from None
        except Exception:
            log.exception("could not store orders of game %s", s.rec.id)
            self.forget(s.rec.id)  # the next request rebuilds from what the store holds
            raise ApiError(
                503, "the server could not save the order; the game is unchanged, try again"
            ) from None

    def _bots_play(self, s: Session) -> list[tuple[str, int, int]]:
        """Let the bots take their decisions until a human's turn or the end of the battle, and
        store their orders. Returns each order's text with the range of events it caused."""
        done, rows = self._bots_move(s)
        if rows:
            self._persist(s, rows)
        return done

    def _bots_move(self, s: Session) -> tuple[list[tuple[str, int, int]], list[OrderRow]]:
        """The bots' decisions, applied to the session but not stored yet: their texts with the
        range of events each caused (first, end), and the rows to store."""
        done: list[tuple[str, int, int]] = []
        rows: list[OrderRow] = []
        sides = s.sides
        try:
            while len(rows) < MAX_BOT_DECISIONS:
                d = s.state.decision()
                if d is None:
                    break
                who = s.rec.players.get(d.side, "human")
                if not who.startswith("bot:"):
                    break
                seq = len(s.orders)
                bot = make_bot(who[4:], decision_seed(s.rec.seed, sides.index(d.side), seq), s.game.info.id)
                order = bot.choose(s.state)
                first = len(s.state.events)
                s.apply(order)
                row = OrderRow(seq, d.side, "bot", order.to_dict())
                s.orders.append(row)
                s.marks.append(first)
                rows.append(row)
                done.append((str(order), first, len(s.state.events)))
        except Exception as exc:  # a bot bug leaves the game waiting, not broken
            log.exception("bot failed in game %s", s.rec.id)
            s.bot_error = f"the bot could not choose an order: {exc!r}"
            # the state may hold a half-applied order: rebuild it from the orders kept
            _, s.state, s.marks = self._replayed(s.rec, s.orders)
        if rows:
            s.frames_cache = None
        return done, rows

    def play(
        self,
        s: Session,
        sides: list[str],
        spec: str | Mapping[str, Any],
        client_id: str | None = None,
        version: int | None = None,
        near: Sequence[str | Mapping[str, Any]] = (),
    ) -> Played:
        """Give one order for a side the token commands; then the bots reply.

        ``client_id``: a retry of an order already accepted with that id is answered as the first
        time and changes nothing. ``version``: the game's version the order was made for; 409 (with
        the current version) if the game has moved on since. ``near``: if the rules refuse the
        order, the first of these they allow is played instead (a click snapped to the nearest
        legal position); none: the order's own refusal."""
        with s.lock:
            if client_id is not None:
                again = self._answered(s, sides, client_id)
                if again is not None:
                    return again
            refuse_spectator(sides)
            if version is not None and version != s.version:
                raise ApiError(
                    409,
                    f"the order was made for version {version} of the game, which is now at version "
                    f"{s.version} (another order came first): look at the game again",
                    version=s.version,
                )
            d = s.state.decision()
            if d is None:
                raise ApiError(409, "the battle is over")
            if d.side not in sides:
                who = "the bot" if s.rec.players.get(d.side, "human") != "human" else "the other player"
                raise ApiError(409, f"not your turn: the decision belongs to {d.side} ({who}): {d.prompt}")
            order = self._checked(s, sides, spec)
            first = len(s.state.events)
            snapped = None
            # No copy of the state is kept for a failure: a refused order leaves it as it was (the
            # engine's own rollback), and the rare failures below rebuild it from the orders kept.
            try:
                try:
                    s.apply(order)
                except IllegalOrder as refused:
                    if not near:
                        raise
                    order, snapped = self._nearest(s, sides, near, refused)
            except IllegalOrder:
                raise
            except Exception as exc:
                log.exception("engine error on order %s in game %s", order, s.rec.id)
                self._restore(s)
                raise ApiError(
                    422,
                    f"the rules engine could not apply '{order}' ({exc!r}); the game is unchanged",
                    reason="internal error while applying the order",
                ) from None
            n = len(s.orders)
            row = OrderRow(n, d.side, "human", order.to_dict(), client_id)
            s.orders.append(row)
            s.marks.append(first)
            s.frames_cache = None
            s.bot_error = None
            bots, bot_rows = self._bots_move(s)
            try:
                # the order and the bots' replies in one commit; it is answered only once committed
                self._persist(s, [row, *bot_rows])
            except ApiError:
                del s.orders[n:]
                self._restore(s)
                raise
            return Played(first, str(order), bots, snapped=snapped)

    def _restore(self, s: Session) -> None:
        """Put the session's battle back to its orders (replayed from the seed) after an order
        failed half-way: the engine broke, or the store could not keep it."""
        _, s.state, s.marks = self._replayed(s.rec, s.orders)
        s.frames_cache = None

    def check(
        self,
        s: Session,
        sides: list[str],
        spec: str | Mapping[str, Any],
        near: Sequence[str | Mapping[str, Any]],
    ) -> tuple[int | None, IllegalOrder | None]:
        """Would the rules take ``spec`` now (or, refused, one of ``near``)? Tried on a copy of the
        battle, nothing is played or stored: ``(None, None)`` as given, ``(i, refusal)`` the first
        of ``near`` allowed, ``(None, refusal)`` none. Only the decision's own side may ask."""
        with s.lock:
            refuse_spectator(sides)
            d = s.state.decision()
            if d is None or d.side not in sides:
                raise ApiError(409, "not your decision: only the side deciding may check an order")
            order = self._checked(s, sides, spec)
            trial = s.state.copy()
            try:
                trial.apply(order)
                return None, None
            except IllegalOrder as refused:
                for i, alt in enumerate(near):
                    try:
                        trial.apply(self._checked(s, sides, alt))
                    except (IllegalOrder, ApiError, ShieldwallError):
                        continue
                    return i, refused
                return None, refused
            except Exception as exc:  # an engine error on a trial: say so, never a 500
                raise ApiError(422, f"the rules engine could not try '{order}' ({exc!r})") from None

    def _checked(self, s: Session, sides: list[str], spec: str | Mapping[str, Any]) -> Order:
        """The order parsed, with usable numbers, for a unit of a side the token commands."""
        if isinstance(spec, Mapping):
            finite_numbers(dict(spec))
        order: Order = s.state.parse_order(spec)
        od = order.to_dict()
        finite_numbers(od)
        # the owners of the units this token may see: a unit hidden from it (a concealed or
        # not-yet-placed enemy) is left to the rules, which refuse it as an id that names nothing
        # (a 403 naming its side told the player the hidden unit exists)
        owners = {str(u["id"]): str(u.get("side")) for u in s.view_for(sides).get("units", [])}
        uid = od.get("unit")
        if (
            isinstance(uid, str)
            and uid in owners
            and owners[uid] not in sides
            and not _on_menu(s, sides, order)
        ):
            raise ApiError(
                403,
                f"{uid} is {owners[uid]}'s unit; your token commands {', '.join(sides)}",
                reason=f"{uid} is {owners[uid]}'s unit",
            )
        return order

    def _nearest(
        self, s: Session, sides: list[str], near: Sequence[str | Mapping[str, Any]], refused: IllegalOrder
    ) -> tuple[Order, tuple[int, IllegalOrder]]:
        """Apply the first of ``near`` the rules allow (a refused one leaves the state unchanged);
        none: ``refused``, the refusal of the order as given."""
        for i, spec in enumerate(near):
            try:
                order = self._checked(s, sides, spec)
                s.apply(order)
            except (IllegalOrder, ApiError, ShieldwallError):
                continue
            return order, (i, refused)
        raise refused

    def _answered(self, s: Session, sides: list[str], client_id: str) -> Played | None:
        """The first answer to the order ``client_id`` if it was accepted (and not undone)."""
        idx = next((i for i, r in enumerate(s.orders) if r.client_id == client_id), None)
        if idx is None:
            return None
        row = s.orders[idx]
        if row.side not in sides:
            raise ApiError(409, "that client id belongs to another side's order; send a fresh one")
        ends = [*s.marks[1:], len(s.state.events)]
        bots: list[tuple[str, int, int]] = []
        j = idx + 1
        while j < len(s.orders) and s.orders[j].by == "bot":
            bots.append((self._text(s, s.orders[j]), s.marks[j], ends[j]))
            j += 1
        return Played(s.marks[idx], self._text(s, row), bots, repeat=True, end=ends[j - 1])

    @staticmethod
    def _text(s: Session, row: OrderRow) -> str:
        try:
            return str(s.state.parse_order(row.order))
        except Exception:  # an order of an earlier decision may not parse against the state now
            return str(row.order.get("kind", "order"))

    def undo(self, s: Session, sides: list[str]) -> int:
        """Back to the start of the decision of the token's last order (hotseat and vs-bot only):
        drop that order and every bot order after it. Returns how many orders were dropped."""
        with s.lock:
            refuse_spectator(sides)
            if s.rec.mode == "remote":
                raise ApiError(
                    409, "undo is for hotseat and vs-bot games; between two browsers an order stands"
                )
            if s.finished():
                # the battle's seed and save are public once it is over (``seed_visible``): an
                # order taken back then would reopen a battle whose every coming die is known
                raise ApiError(409, "the battle is over: its orders stand (the seed is public now)")
            idx = s.last_own_order(sides)
            if idx is None:
                raise ApiError(409, "nothing to undo: you have given no order yet")
            if s.dice_seen_since(idx):
                raise ApiError(
                    409,
                    "that order stands: dice were rolled since it was given (by it or by the replies), "
                    "and taking it back would let the same dice fall for another order",
                )
            keep = s.orders[:idx]
            game, state, marks = self._replayed(s.rec, keep)
            try:
                s.revision = self.store.truncate_orders(s.rec.id, idx, s.revision)
            except StoreConflict:
                self.forget(s.rec.id)
                raise ApiError(
                    409, "the game changed meanwhile (another request); reload it and try again"
                ) from None
            dropped = len(s.orders) - idx
            s.orders = keep
            s.marks = marks
            s.state = state
            s.frames_cache = None
            s.bot_error = None
            return dropped

    # ------------------------------------------------------------------ joining
    def join(self, game_id: str, invite: str) -> tuple[str, str]:
        self.get(game_id)
        token = secrets.token_urlsafe(24)
        side = self.store.claim_invite(game_id, invite, token)
        if side is None:
            raise ApiError(403, "that invitation is not valid for this game, or it has already been used")
        return side, token

    def reissue_invite(self, s: Session, sides: list[str]) -> tuple[str, str]:
        refuse_spectator(sides)
        invites = self.store.invites(s.rec.id)
        open_sides = [side for side, claimed in invites.items() if not claimed and side not in sides]
        if not open_sides:
            raise ApiError(409, "there is no open seat to invite a player to")
        invite = secrets.token_urlsafe(24)
        self.store.reissue_invite(s.rec.id, open_sides[0], invite)
        return open_sides[0], invite
