"""What the routers of the web app share: the games, the answers they build, the common parameters.

``create_app`` puts one :class:`WebContext` in ``app.state.web``; a route asks for it with the
``Ctx`` dependency (which reads the request, so it is not part of the OpenAPI schema).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, Header, Request, Response
from fastapi import Path as PathParam
from pydantic import BaseModel

from shieldwall import registry
from shieldwall.core.errors import IllegalOrder
from shieldwall.render.svg import render_svg
from shieldwall.visibility import (
    FilteredEvents,
    event_reader,
    filter_reach,
    hidden_in_view,
    visible_unit_ids,
)
from shieldwall.web import log as L
from shieldwall.web.models import GAME_ID, DecisionOut, ErrorOut, GameCreated, GameState, ScenarioOut
from shieldwall.web.session import Created, Session, read_only
from shieldwall.web.sessions import Games
from shieldwall.web.store import Store

TOKEN_HEADER = "X-Shieldwall-Token"

log = logging.getLogger("shieldwall.web")

BAD_INPUT: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorOut, "description": "The body cannot be read (not UTF-8 JSON)."},
    422: {"model": ErrorOut, "description": "Malformed or invalid input (the message says what and where)."},
}
#: a new game (created or imported) when the server's storage cap is reached
FULL: dict[int | str, dict[str, Any]] = {
    507: {"model": ErrorOut, "description": "The server's storage for games is full: no new game."},
}
ERRORS: dict[int | str, dict[str, Any]] = {
    403: {"model": ErrorOut, "description": "Missing or wrong side token, or another side's unit."},
    404: {"model": ErrorOut, "description": "No such game or unit."},
    409: {"model": ErrorOut, "description": "Not now: not your turn, battle over, nothing to undo..."},
    **BAD_INPUT,
}
ORDER_ERRORS: dict[int | str, dict[str, Any]] = {
    **ERRORS,
    422: {
        "model": ErrorOut,
        "description": "The rules refuse the order (rule clause and reason), or it is malformed.",
    },
}

GameIdPath = Annotated[str, PathParam(pattern=GAME_ID, description="The game id.")]
Token = Annotated[
    str | None,
    Header(alias=TOKEN_HEADER, max_length=200, description="The secret side token of the game."),
]


def draw(view: dict[str, Any], highlight: dict[str, Any] | None = None) -> str:
    """The table as SVG (``render.svg.render_svg``); a plain notice if this view cannot be drawn."""
    try:
        return render_svg(view, highlight=highlight)
    except Exception:
        log.exception("could not draw the table")
        return (
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 480 60" class="shieldwall-board">'
            '<text x="10" y="35" font-size="16">This table cannot be drawn yet.</text></svg>'
        )


def reach_function(ruleset: str) -> Any:
    """The rule system's ``reach(state, unit_id) -> dict`` (its plugin's ``reach``), or None."""
    rs = registry.find(ruleset)
    return None if rs is None else rs.optional("reach")


#: answers kept per game (``WebContext.state_out``): one per side looking, and a spectator
OUT_CACHE_SIZE = 4


@dataclass
class _Kept:
    """An answer kept (``WebContext.state_out``), and its JSON once encoded (``state_json``)."""

    out: GameState
    json: bytes | None = None


@dataclass
class WebContext:
    """The games of one app and the answers built from them."""

    store: Store
    games: Games
    #: the built-in scenarios read once per change of their files
    scenario_cache: dict[tuple[tuple[str, float], ...], list[ScenarioOut]] = field(default_factory=dict)

    def session_for(self, game_id: str, token: str | None) -> tuple[Session, list[str]]:
        s = self.games.get(game_id)
        return s, self.games.authorize(s, token)

    def active_reach(
        self, s: Session, sides: list[str], view: dict[str, Any] | None = None
    ) -> dict[str, Any] | None:
        """The reach of the unit the decision of ``sides`` is about (``view``: the state's view
        for ``sides``, when the caller has it), filtered to what they may see."""
        d = s.state.decision()
        if d is None or d.side not in sides or not d.unit:
            return None
        reach = reach_function(s.rec.ruleset)
        if reach is None:
            return None
        try:
            r = s.reach(reach, d.unit)
        except IllegalOrder:
            return None
        seen = visible_unit_ids(s.view_for(sides) if view is None else view)
        return filter_reach(r, seen, hidden_in_view(s.full_view(), sides))

    def state_out(self, s: Session, sides: list[str]) -> GameState:
        """The game as ``sides`` may see it. Kept per session (a few answers) until the game
        changes: a player waiting for the other polls it every 1.5 s, and drawing the table,
        the menu and the reach each time is most of a server's work between orders."""
        return self._kept(s, sides).out

    def state_json(self, s: Session, sides: list[str]) -> bytes:
        """``state_out`` as the JSON of its answer, encoded once and kept with it: a poll of a game
        that has not changed is answered with the bytes of the last one."""
        kept = self._kept(s, sides)
        if kept.json is None:
            kept.json = kept.out.model_dump_json().encode("utf-8")
        return kept.json

    def _kept(self, s: Session, sides: list[str]) -> _Kept:
        joined = {side: True for side in s.sides}
        for side, claimed in self.store.invites(s.rec.id).items():
            joined[side] = claimed
        looking = (tuple(sides), read_only(sides))  # a spectator sees as every side, and may not act
        key = (s.revision, s.version, len(s.state.events), looking, tuple(joined.items()), s.bot_error)
        kept: _Kept | None = s.out_cache.get(key)
        if kept is not None:
            return kept
        kept = _Kept(self._state_out(s, sides, joined))
        if len(s.out_cache) >= OUT_CACHE_SIZE:
            s.out_cache.pop(next(iter(s.out_cache)))
        s.out_cache[key] = kept
        return kept

    def _state_out(self, s: Session, sides: list[str], joined: dict[str, bool]) -> GameState:
        st = s.state
        d = st.decision()
        view = s.view_for(sides)
        mine = d is not None and d.side in sides and not read_only(sides)
        menu = []
        if mine:
            for o in st.legal_orders():
                od = o.to_dict()
                menu.append(
                    {
                        "text": str(o),
                        "order": od,
                        "kind": str(od.get("kind", "")),
                        "unit": od.get("unit"),
                        "target": od.get("target") or od.get("charge"),
                        "label": str(getattr(o, "label", "") or ""),
                    }
                )
        reach = self.active_reach(s, sides, view) if mine else None
        highlight: dict[str, Any] | None = None
        if reach is not None:
            highlight = dict(reach["highlight"])
        elif d is not None and d.unit and d.unit in visible_unit_ids(view):
            highlight = {"active": d.unit}
        waiting = None
        if d is not None and not mine:
            who = s.rec.players.get(d.side, "human")
            if who.startswith("bot:"):
                waiting = f"{d.side} ({who[4:]} bot)"
            elif not joined.get(d.side, True):
                waiting = f"{d.side} to join (send the invitation link)"
            else:
                waiting = f"{d.side} (the other player)"
        res = st.result()
        return GameState(
            id=s.rec.id,
            ruleset=s.rec.ruleset,
            scenario=s.rec.scenario_name,
            title=s.game.scenario_name,
            mode=s.rec.mode,
            players=dict(s.rec.players),
            joined=joined,
            you=[] if read_only(sides) else list(sides),
            spectator=read_only(sides),
            seed=s.rec.seed if s.seed_visible(sides) else None,
            seed_text=str(s.rec.seed) if s.seed_visible(sides) else None,
            version=s.version,
            decision=None
            if d is None
            else DecisionOut(side=d.side, kind=d.kind, prompt=d.prompt, unit=d.unit, data=dict(d.data)),
            your_turn=mine,
            waiting_for=waiting,
            result=res.to_dict() if res else None,
            view=view,
            reach=reach,
            svg=draw(view, highlight),
            menu=menu,  # type: ignore[arg-type]
            log_size=len(st.events),
            can_undo=s.can_undo(sides) and not read_only(sides),
            bot_error=s.bot_error,
        )

    def events(self, s: Session, sides: list[str]) -> FilteredEvents:
        """The battle's events as ``sides`` may see them."""
        return FilteredEvents(s.state.events, sides, not s.seed_visible(sides), event_reader(s.state, sides))

    def entries(
        self,
        s: Session,
        sides: list[str],
        since: int,
        until: int | None = None,
        view: dict[str, Any] | None = None,
    ) -> list[dict[str, Any]]:
        """The log entries from ``since`` to ``until`` as ``sides`` may see them (``view``: the
        state's view for ``sides``, when the caller has it: the units' names are read from it)."""
        evs = self.events(s, sides)
        names = L.unit_names(s.view_for(sides) if view is None else view)
        kinds = L.explainer(s.rec.ruleset).kinds
        stop = len(evs) if until is None else min(until, len(evs))
        return [L.entry(i, evs[i], names, kinds) for i in range(max(0, since), stop)]

    def created(self, request: Request, c: Created) -> GameCreated:
        base = str(request.base_url).rstrip("/")
        gid = c.session.rec.id
        return GameCreated(
            game=self.state_out(c.session, c.sides),
            token=c.token,
            sides=c.sides,
            play_url=f"{base}/play/{gid}#token={c.token}",
            invite_url=f"{base}/join/{gid}#invite={c.invite}" if c.invite else None,
        )


async def _context(request: Request) -> WebContext:
    """The app's context. ``async``: FastAPI calls a plain function dependency through its thread
    pool, a hand-over per request for reading one attribute."""
    ctx: WebContext = request.app.state.web
    return ctx


def json_bytes(content: bytes) -> Response:
    """JSON already encoded (``WebContext.state_json``) as the answer."""
    return Response(content, media_type="application/json")


def json_answer(model: BaseModel) -> Response:
    """``model`` as the JSON answer, serialized in the route's thread. A route that returns a
    model from a plain function has FastAPI hand it to its thread pool again to check it against
    the route's ``response_model`` (which a model built by that class passes unchanged: pydantic
    does not validate an instance again) and serialize it: the same bytes, one hand-over less."""
    return Response(model.model_dump_json(), media_type="application/json")


Ctx = Annotated[WebContext, Depends(_context)]

#: the folder of the page's own files (``/static``)
STATIC = Path(__file__).resolve().parent / "static"
