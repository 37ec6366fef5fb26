"""A battle being played on the server, as the games' cache holds it (``web.sessions.Games``): the
game's record, the battle rebuilt from its orders, what is kept of its views, and the small values
the games' routes share: who may only watch, the API's errors, a bot's seed for a decision, the
checks on a request's numbers, the answer to an order.
"""

from __future__ import annotations

import functools
import math
import secrets
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from shieldwall.ai.base import bot_seed
from shieldwall.core.errors import IllegalOrder
from shieldwall.core.game import Game, Order, State
from shieldwall.core.reference import REFERENCE
from shieldwall.visibility import filter_view, view_for
from shieldwall.web.store import GameRecord, OrderRow


class Viewers(list[str]):
    """The sides a spectator's token sees *as*: every side, so that whatever is hidden from either
    side is hidden from it (``visibility``'s filters), and it commands none (``read_only``)."""

    read_only = True


def read_only(sides: list[str]) -> bool:
    """Whether ``sides`` (from ``authorize``) are a spectator's, who may only look."""
    return bool(getattr(sides, "read_only", False))


def refuse_spectator(sides: list[str]) -> None:
    if read_only(sides):
        raise ApiError(403, "a spectator's link only watches the battle: it gives no orders")


class ApiError(Exception):
    """An error the API answers with ``status`` and a message (never a 500)."""

    def __init__(
        self,
        status: int,
        detail: str,
        rule: str | None = None,
        reason: str | None = None,
        version: int | None = None,
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.rule = rule
        self.reason = reason
        self.version = version


def decision_seed(seed: int, side_index: int, seq: int) -> int:
    """A bot's seed for the decision at order ``seq``: a pure function of the battle seed, so a
    rebuilt game (after a restart) gets the same bot choices as one that never left memory."""
    ss = np.random.SeedSequence([_side_seed(seed, side_index), seq])
    return int(ss.generate_state(1)[0])


@functools.lru_cache(maxsize=1024)
def _side_seed(seed: int, side_index: int) -> int:
    """``bot_seed(seed, side_index)``, kept: the same for every decision of a bot's battle, and it
    costs four times the rest of ``decision_seed`` (21-28 -> 5 us a decision)."""
    return bot_seed(seed, side_index)


def finite_numbers(x: Any, path: str = "order") -> None:
    """Refuse numbers a table cannot hold (NaN, infinities, absurd sizes) before the engine sees them."""
    if isinstance(x, bool):
        return
    if isinstance(x, float | int):
        if not math.isfinite(x) or abs(x) > 1e6:
            raise ApiError(
                422, f"{path}: {x!r} is not a usable number", reason=f"{x!r} is not a usable number"
            )
    elif isinstance(x, Mapping):
        for k, v in x.items():
            finite_numbers(v, f"{path}.{k}")
    elif isinstance(x, list | tuple):
        for i, v in enumerate(x):
            finite_numbers(v, f"{path}[{i}]")


@dataclass
class Session:
    rec: GameRecord
    game: Game
    state: State
    orders: list[OrderRow]
    #: the number of events before each order (``marks[i]`` is where ``orders[i]``'s events start)
    marks: list[int]
    lock: threading.RLock = field(default_factory=threading.RLock)
    frames_cache: tuple[int, list[dict[str, Any]]] | None = None
    bot_error: str | None = None
    #: the store's revision of the game this session was built at or last wrote (``web.store``)
    revision: int = 0
    #: answers already built for this game (``WebContext.state_out``), keyed by its revision,
    #: version, log size, the sides looking and what else they show
    out_cache: dict[tuple[Any, ...], Any] = field(default_factory=dict)
    #: orders applied to ``state`` in place (``apply``): with the state object itself, what tells
    #: whether ``full_view`` is still the state's view
    moves: int = 0
    _full: tuple[State, int, dict[str, Any]] | None = field(default=None, repr=False)
    #: the step-through's own replay of the battle (``web.steps``): a second state and the order
    #: rows applied to it, carried on from one ``/steps`` answer to the next
    replay: tuple[State, list[OrderRow]] | None = field(default=None, repr=False)
    _reaches: tuple[State, int, dict[str, dict[str, Any]]] | None = field(default=None, repr=False)

    @property
    def version(self) -> int:
        return len(self.orders)

    @property
    def sides(self) -> tuple[str, ...]:
        return tuple(self.game.info.sides)

    def finished(self) -> bool:
        return self.state.is_terminal()

    def seed_visible(self, sides: list[str] | None = None) -> bool:
        """Whether the battle seed may be shown (to ``sides``): a spectator sees it only once the
        battle is over (with it and the orders, one could tell a player every coming roll)."""
        if sides is not None and read_only(sides):
            return self.finished()
        return self.rec.seed_public or self.finished()

    def last_own_order(self, sides: Iterable[str]) -> int | None:
        """The index of the last order a human gave for one of ``sides``."""
        ss = set(sides)
        return next(
            (
                i
                for i in range(len(self.orders) - 1, -1, -1)
                if self.orders[i].by == "human" and self.orders[i].side in ss
            ),
            None,
        )

    def dice_seen_since(self, idx: int) -> bool:
        """Whether a die was rolled since order ``idx`` began (by it or by the replies after it)."""
        evs = self.state.events
        return any("faces" in evs[i].data for i in range(self.marks[idx], len(evs)))

    def can_undo(self, sides: Iterable[str]) -> bool:
        if self.rec.mode == "remote" or self.finished():
            return False
        idx = self.last_own_order(sides)
        return idx is not None and not self.dice_seen_since(idx)

    def apply(self, order: Order) -> None:
        """``state.apply(order)``; every order applied to the session's state goes through here."""
        self.moves += 1
        self.state.apply(order)

    def full_view(self) -> dict[str, Any]:
        """``state.view()``, unfiltered (for the server's own checks, never sent as it is), built
        once per state: the answer to an order asks which units are hidden from the player, and
        the next order which side owns its unit, of the same state. Kept with the state object it
        was built from and the count of orders applied to it, so a replaced state (undo, a
        rebuild) or an order applied in place builds it anew; read it without changing it."""
        kept = self._full
        if kept is not None and kept[0] is self.state and kept[1] == self.moves:
            return kept[2]
        view = self.state.view()
        self._full = (self.state, self.moves, view)
        return view

    def view_for(self, sides: Iterable[str]) -> dict[str, Any]:
        """``visibility.view_for(state, sides)``: the state's view as ``sides`` may see it. Filtered
        from ``full_view`` unless the state has a view of its own for them (one side's token of a
        state with ``view_for``): the answer to an order, its reach's hidden units and the next
        order's owner check then read one ``state.view()`` of the state, not two."""
        vs = list(sides)
        if len(vs) == 1 and callable(getattr(self.state, "view_for", None)):
            return view_for(self.state, vs)
        return filter_view(self.full_view(), vs)

    def reach(self, compute: Callable[[State, str], dict[str, Any]], unit_id: str) -> dict[str, Any]:
        """``compute(state, unit_id)`` (the rule system's reach, unfiltered), kept per unit while the
        state does not change, as ``full_view`` is: the answer to an order computes the reach of the
        unit to move, and the page asks for it again when that unit is clicked. A refusal
        (``IllegalOrder``) is not kept; under the reference switch nothing is. Read it without
        changing it."""
        kept = self._reaches
        if kept is None or kept[0] is not self.state or kept[1] != self.moves:
            kept = self._reaches = (self.state, self.moves, {})
        got = None if REFERENCE.on else kept[2].get(unit_id)
        if got is None:
            got = compute(self.state, unit_id)
            kept[2][unit_id] = got
        return got


@dataclass(frozen=True)
class Played:
    """The answer to an order: where its events start, its words, the bots' replies with the range
    of events each caused; ``repeat`` when it answers a retry of an order already accepted."""

    first: int
    accepted: str
    bots: list[tuple[str, int, int]]
    repeat: bool = False
    end: int | None = None  # where the answer's events end (None: the log's end)
    snapped: tuple[int, IllegalOrder] | None = None  # the alternative played, and the refusal


def new_seed() -> int:
    """A battle seed nobody can guess: 128 bits from ``secrets`` (a numpy ``SeedSequence`` takes
    any non-negative integer). With a 31-bit seed a few dice seen would give the seed away, and with
    it every coming roll."""
    return secrets.randbits(128)


@dataclass(frozen=True)
class Created:
    session: Session
    token: str
    sides: list[str]
    invite: str | None
    invite_side: str | None
