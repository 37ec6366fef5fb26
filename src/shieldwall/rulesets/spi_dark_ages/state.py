"""One moment of a Dark Ages battle: the ``State`` API over the board and the turn sequence."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from shieldwall.core.events import Event
from shieldwall.core.game import Decision, Result, State
from shieldwall.core.hexgrid import Hex, ccrr
from shieldwall.rulesets.spi_dark_ages import picture
from shieldwall.rulesets.spi_dark_ages.board import Board, Unit
from shieldwall.rulesets.spi_dark_ages.orders import Order, parse_order
from shieldwall.rulesets.spi_dark_ages.plugin import RS
from shieldwall.rulesets.spi_dark_ages.turn import DECIDING, PROMPTS, advance, begin_phase, handle, menu

if TYPE_CHECKING:
    from shieldwall.rulesets.spi_dark_ages.game import DarkAgesGame


class DarkAgesState(State):
    def __init__(self, game: DarkAgesGame, board: Board, *, start: bool = True) -> None:
        self._game, self.board = game, board
        self._pic: list[dict[str, Any]] | None = None
        if not start:
            return
        sc = game.scenario
        board.log(
            "battle",
            "inventory",
            None,
            scenario=sc.spec.name,
            armies={c: sc.spec.army[k].name for c, k in sc.armies.items()},
            order=list(board.order),
            charts=sc.charts.name,
            label=sc.charts.label,
            digests=dict(sc.charts.digests),
            turns=board.turns,
            pv_pl={
                c: [sc.spec.army[k].pv, sc.spec.army[k].pl, sc.spec.army[k].pv_source]
                for c, k in sc.armies.items()
            },
            oob_vp={sc.spec.army[k].colour: v for k, v in sc.oob_vp.items()},
        )
        for p in sc.units:
            if p.enter_turn:
                board.log(
                    "due", "reinforcements", p.side, unit=p.id, type=p.type, at=ccrr(p.hex), turn=p.enter_turn
                )
            else:
                board.log(
                    "deploys", "setup.order", p.side, unit=p.id, type=p.type, at=ccrr(p.hex), facing=p.facing
                )
        board.log("game-turn", "setup.turn", None, turn=1)
        begin_phase(board)
        advance(board)

    @property
    def game(self) -> DarkAgesGame:
        return self._game

    @property
    def events(self) -> list[Event]:
        return self.board.events

    def decision(self) -> Decision | None:
        b = self.board
        if b.result is not None or b.closed or b.phase not in DECIDING:
            return None
        kind = DECIDING[b.phase]
        unit = b.dfire_queue[0] if kind == "defensive-fire" and b.dfire_queue else b.active
        prompt = PROMPTS[kind].format(unit=unit or "")
        return Decision(b.current_side(), kind, prompt, unit, {"phase": b.phase, "turn": b.turn})

    def legal_orders(self) -> list[Order]:
        return menu(self.board)

    def parse_order(self, spec: str | Mapping[str, Any]) -> Order:
        return parse_order(spec)

    def apply(self, order: Any) -> list[Event]:
        o = order if isinstance(order, Order) else parse_order(order)
        start = len(self.board.events)
        handle(self.board, o)
        advance(self.board)
        return self.board.events[start:]

    def is_terminal(self) -> bool:
        return self.board.result is not None

    def result(self) -> Result | None:
        return self.board.result

    def _terrain(self) -> list[dict[str, Any]]:
        if self._pic is None:
            self._pic = picture.terrain(self.board.map)
        return self._pic

    def _at(self, h: Hex | None, facing: int) -> dict[str, Any]:
        if h is None:
            return {"x": 0.0, "y": 0.0, "heading": 0.0, "frontage": 1.2, "depth": 0.6}
        x, y = picture.centre(self.board.map, h)
        return {"x": x, "y": y, "heading": picture.HEADINGS[facing], "frontage": 1.2, "depth": 0.6}

    def _where(self, u: Unit) -> Hex | None:
        """The hex a unit is drawn on: its own, or its ship's when aboard."""
        return u.hex if u.aboard is None else self.board.units[u.aboard].hex

    def observed_for(self, side: str) -> dict[str, Any]:
        """What an agent's observation numbers read of ``side``'s view (``shieldwall.agents``):
        ``view()``'s turn, turn limit, table and, of each unit, its id, side, place, heading and
        whether it is off the map, without the map's picture and the rest of each unit (no unit
        of this system is hidden: every side sees the same)."""
        b = self.board
        units = []
        for u in b.units.values():
            at = self._at(self._where(u), u.facing)
            units.append(
                {
                    "id": u.id,
                    "side": u.side,
                    "x": at["x"],
                    "y": at["y"],
                    "heading": at["heading"],
                    "removed": not u.on_map,
                    "gone": u.gone,
                }
            )
        return {"turn": b.turn, "max_turns": b.turns, "table": picture.table(b.map), "units": units}

    def copy(self) -> DarkAgesState:
        return DarkAgesState(self._game, self.board.copy(), start=False)

    def view(self) -> dict[str, Any]:
        b = self.board
        sc = self._game.scenario
        return {
            "ruleset": RS,
            "scenario": self._game.scenario_name,  # with the sample banner (inventory)
            "label": sc.charts.label,
            "turn": b.turn,
            "phase": b.phase,
            "side": b.current_side() if b.result is None else None,
            "map": {"name": b.map.name, "cols": b.map.cols, "rows": b.map.rows},
            "max_turns": b.turns,
            "table": picture.table(b.map),
            "terrain": self._terrain(),
            "hexes": picture.hexes(b.map),
            "units": [
                {
                    "id": u.id,
                    "side": u.side,
                    "name": b.type_of(u).name,
                    "type": u.type,
                    "class": b.cls(u),
                    "hex": ccrr(u.hex)
                    if u.hex is not None
                    else ccrr(h)
                    if u.aboard is not None and (h := b.units[u.aboard].hex) is not None
                    else None,
                    "aboard": u.aboard,
                    "facing": u.facing,
                    **self._at(self._where(u), u.facing),
                    # spi-dark-ages:demoralization.marker: the marker (the renderer puts it on the stack)
                    "demoralized": u.demoralized is not None,
                    "panicked": u.panicked,
                    "in_contact": b.in_contact(u),
                    "removed": not u.on_map,
                    "gone": u.gone,
                }
                for u in b.units.values()
            ],
            "losses": dict(b.losses),
            "panicked_armies": sorted(b.panicked_armies),
            "result": b.result.to_dict() if b.result else None,
        }
