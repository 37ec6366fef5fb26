"""One moment of a Knight Hack battle: the ``State`` API over the board (:mod:`.board`) and the turn
sequence (:mod:`.turn`)."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from shieldwall.core.events import Event
from shieldwall.core.game import Decision, Result, State
from shieldwall.core.reference import REFERENCE
from shieldwall.rulesets.knight_hack import deploy
from shieldwall.rulesets.knight_hack.board import Board
from shieldwall.rulesets.knight_hack.orders import Order, parse_order
from shieldwall.rulesets.knight_hack.plugin import RS
from shieldwall.rulesets.knight_hack.turn import MENUS, PROMPTS, advance, apply
from shieldwall.rulesets.knight_hack.unit_view import unit_entries

if TYPE_CHECKING:
    from shieldwall.rulesets.knight_hack.game import KnightHackGame


#: the prompt of a hidden unit's decision (it names no unit)
AMBUSH_PROMPT = "ambushes: spring an ambush on an enemy within reach, or keep hidden"
#: the prompt of a hidden unit's placement with hand deployment (ruling R51; it names no unit)
HIDDEN_DEPLOY_PROMPT = "place a unit hidden in ambush within your deployment zone"


def _deployment_view(b: Board) -> dict[str, Any]:
    """With hand deployment (R51): each side's zone, how many units each side has still to place,
    and the unit to place now (unless it is hidden in ambush: the view is shown to both sides)."""
    if not b.deploy_left:
        return {}
    ask = b.queue[0] if b.queue and b.result is None else None
    nxt = ask.unit if ask is not None and ask.kind == "deploy" else None
    return {
        "deployment": {
            "zones": {s: list(b.deploy_zones[s]) for s in b.sides},
            "left": {s: len(b.deploy_left[s]) for s in b.sides},
            "next": None if nxt is None or b.units[nxt].hidden else nxt,
        }
    }


class KnightHackState(State):
    def __init__(self, game: KnightHackGame, board: Board) -> None:
        self._game, self.board = game, board
        sc = game.scenario
        board.log(
            "battle",
            "turn.sequence",
            None,
            scenario=sc.spec.name,
            date=sc.spec.date,
            armies=dict(sc.armies),
            tables=board.tables.name,
            label=board.tables.label,
            digests=dict(board.tables.digests),
            turns=game.params["turns"],
        )
        if game.params["hand_deployment"]:
            order = {s: [d.unit.id for d in sc.units if d.side == s] for s in board.sides}
            deploy.begin(board, sc.zones, order)
        advance(board)

    @property
    def game(self) -> KnightHackGame:
        return self._game

    @property
    def events(self) -> list[Event]:
        return self.board.events

    def decision(self) -> Decision | None:
        b = self.board
        if b.result is not None or not b.queue:
            return None
        ask = b.queue[0]
        if ask.unit and b.units[ask.unit].hidden:
            # the decision is shown to both sides: it must not name a hidden ambusher (R49, R51)
            prompt = HIDDEN_DEPLOY_PROMPT if ask.kind == "deploy" else AMBUSH_PROMPT
            return Decision(ask.side, ask.kind, prompt, None, {"phase": b.phase, "turn": b.turn})
        prompt = PROMPTS[ask.kind].format(unit=b.units[ask.unit].name if ask.unit else "")
        return Decision(ask.side, ask.kind, prompt, ask.unit, {"phase": b.phase, "turn": b.turn})

    def legal_orders(self) -> list[Order]:
        b = self.board
        if b.result is not None or not b.queue:
            return []
        return MENUS[b.queue[0].kind](b, b.queue[0])

    def parse_order(self, spec: str | Mapping[str, Any]) -> Order:
        return parse_order(spec)

    def apply(self, order: Any) -> list[Event]:
        o = order if isinstance(order, Order) else parse_order(order)
        start = len(self.board.events)
        apply(self.board, o)
        return self.board.events[start:]

    def is_terminal(self) -> bool:
        return self.board.result is not None

    def result(self) -> Result | None:
        return self.board.result

    def copy(self) -> KnightHackState:
        new = object.__new__(KnightHackState)
        new._game = self._game
        b = self.board
        memo: dict[int, Any] = {id(b.tables): b.tables}
        if not REFERENCE.on:
            # the events are frozen: the copy's log is a list of its own holding the same events, as
            # the other rule systems' copies keep it (deep-copying them was most of a copy's cost,
            # a search copies the board for every playout); the reference path copies them too
            memo[id(b.events)] = list(b.events)
        new.board = copy.deepcopy(b, memo)
        return new

    def view(self) -> dict[str, Any]:
        b = self.board
        sc = self._game.scenario
        return {
            "ruleset": RS,
            "scenario": sc.spec.name,
            "label": b.tables.label,
            "turn": b.turn,
            "phase": b.phase,
            "side": b.queue[0].side if b.queue and b.result is None else None,
            "initiative": b.initiative,
            "table": {"width": b.width, "depth": b.depth},
            "terrain": [
                {
                    "id": t.id,
                    "kind": t.kind,
                    "name": t.name,
                    "points": [list(p) for p in t.points],
                    "linear": t.linear,
                    "width": t.width,
                    "crest": [],
                    "crossings": [],
                }
                for t in sc.spec.terrain
            ],
            "units": unit_entries(b),
            "melees": [{"a": m.a, "b": m.b, "a_faces": m.a_faces, "b_faces": m.b_faces} for m in b.melees],
            "points_lost": {s: b.points_lost(s) for s in b.sides},
            "result": b.result.to_dict() if b.result else None,
            **_deployment_view(b),
        }
