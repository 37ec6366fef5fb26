"""The web app: a JSON API over the rules engine, and the page that plays it.

``create_app(db_path)`` builds a FastAPI application whose games live in the SQLite file
``db_path``. Every order goes through ``State.apply``; the page can change nothing else. See
docs/web.md for the API and the security model.
"""

from __future__ import annotations

import logging
from html import escape
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Header, Query, Request
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Receive, Scope, Send

from shieldwall.ai.base import bot_names
from shieldwall.core.datafiles import read_toml
from shieldwall.core.errors import IllegalOrder, ShieldwallError
from shieldwall.io.scenarios import builtin_scenarios, default_scenario
from shieldwall.registry import game_class as get_game_class
from shieldwall.registry import ids as ruleset_ids
from shieldwall.render.svg import render_svg
from shieldwall.web import log as L
from shieldwall.web.models import (
    GAME_ID,
    NAME,
    ClauseOut,
    CombatOut,
    DecisionOut,
    ErrorOut,
    GameCreated,
    GameState,
    ImportSave,
    InviteOut,
    JoinIn,
    JoinOut,
    LogOut,
    NewGame,
    OrderIn,
    OrderOut,
    ReachOut,
    ReplayFrame,
    ReplayOut,
    RulesetOut,
    ScenarioOut,
    UndoOut,
)
from shieldwall.web.sessions import ApiError, Games, Session
from shieldwall.web.store import Store
from shieldwall.web.visibility import (
    filter_event,
    filter_reach,
    hidden_unit_ids,
    order_text,
    view_for,
    visible_unit_ids,
)

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 1_000_000
TOKEN_HEADER = "X-Shieldwall-Token"

log = logging.getLogger("shieldwall.web")

BAD_INPUT: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorOut, "description": "The body cannot be read (not UTF-8 JSON)."},
    422: {"model": ErrorOut, "description": "Malformed or invalid input (the message says what and where)."},
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


class BodyLimit:
    """Refuse request bodies over ``MAX_BODY`` bytes (413) before reading them."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            for k, v in scope.get("headers", []):
                if k == b"content-length" and v.isdigit() and int(v) > MAX_BODY:
                    resp = JSONResponse({"detail": f"request body over {MAX_BODY} bytes"}, status_code=413)
                    await resp(scope, receive, send)
                    return
        await self.app(scope, receive, send)


def _error(status: int, detail: str, rule: str | None = None, reason: str | None = None) -> JSONResponse:
    body = ErrorOut(detail=detail, rule=rule, reason=reason, rule_url=L.rule_url(rule) if rule else None)
    return JSONResponse(body.model_dump(exclude_none=True), status_code=status)


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


def _reach_module(ruleset: str) -> Any:
    return L.ruleset_module(ruleset, "reach")


def create_app(db_path: str | Path) -> FastAPI:
    """The shieldwall web app with its games in the SQLite file ``db_path``."""
    store = Store(db_path)
    games = Games(store)
    app = FastAPI(
        title="shieldwall",
        version="1",
        summary="Play Dark Age wargames in the browser, against a bot or a friend.",
        description=(
            "Every order is validated by the rules engine; an illegal order is answered with the "
            "rule clause that refuses it. Game requests carry the side token in the "
            f"`{TOKEN_HEADER}` header."
        ),
    )
    app.state.games = games
    app.state.store = store
    app.add_middleware(BodyLimit)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = [
            {
                "loc": [str(x) for x in e.get("loc", ())],
                "msg": str(e.get("msg", "")),
                "type": str(e.get("type", "")),
            }
            for e in exc.errors()
        ]
        words = "; ".join(f"{'.'.join(e['loc'])}: {e['msg']}" for e in errors) or "invalid request"
        body = ErrorOut(detail=f"invalid request: {words}", errors=errors)
        return JSONResponse(body.model_dump(exclude_none=True), status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        resp = _error(exc.status_code, str(exc.detail))
        resp.headers.update(exc.headers or {})
        return resp

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> JSONResponse:
        return _error(exc.status, exc.detail, exc.rule, exc.reason)

    @app.exception_handler(IllegalOrder)
    async def _illegal(request: Request, exc: IllegalOrder) -> JSONResponse:
        return _error(422, f"illegal order: {exc.reason}", exc.rule, exc.reason)

    @app.exception_handler(ShieldwallError)
    async def _shieldwall_error(request: Request, exc: ShieldwallError) -> JSONResponse:
        return _error(422, str(exc))

    # ------------------------------------------------------------------ helpers
    def session_for(game_id: str, token: str | None) -> tuple[Session, list[str]]:
        s = games.get(game_id)
        return s, games.authorize(s, token)

    def active_reach(s: Session, sides: list[str]) -> dict[str, Any] | None:
        d = s.state.decision()
        if d is None or d.side not in sides or not d.unit:
            return None
        mod = _reach_module(s.rec.ruleset)
        if mod is None:
            return None
        try:
            r: dict[str, Any] = mod.reach(s.state, d.unit)
        except IllegalOrder:
            return None
        seen = visible_unit_ids(view_for(s.state, sides))
        return filter_reach(r, seen, hidden_unit_ids(s.state, sides))

    def state_out(s: Session, sides: list[str]) -> GameState:
        st = s.state
        d = st.decision()
        view = view_for(st, sides)
        mine = d is not None and d.side in sides
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
        reach = active_reach(s, sides) if mine else None
        highlight: dict[str, Any] | None = None
        if reach is not None:
            highlight = dict(reach["highlight"])
        elif d is not None and d.unit and d.unit in visible_unit_ids(view):
            highlight = {"active": d.unit}
        joined = {side: True for side in s.sides}
        for side, claimed in store.invites(s.rec.id).items():
            joined[side] = claimed
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
            you=list(sides),
            seed=s.rec.seed if s.seed_visible() else None,
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
            can_undo=s.can_undo(sides),
            bot_error=s.bot_error,
        )

    def entries(s: Session, sides: list[str], since: int, until: int | None = None) -> list[dict[str, Any]]:
        evs = s.state.events
        names = L.unit_names(view_for(s.state, sides))
        hide_seed = not s.seed_visible()
        stop = len(evs) if until is None else min(until, len(evs))
        return [L.entry(i, filter_event(evs[i], sides, hide_seed), names) for i in range(max(0, since), stop)]

    # ------------------------------------------------------------------ reference data
    @app.get("/api/health", tags=["reference"])
    def health() -> dict[str, str]:
        """Liveness check."""
        return {"status": "ok"}

    @app.get("/api/rulesets", tags=["reference"])
    def rulesets() -> list[RulesetOut]:
        """The rule systems a game can be played with, and their parameters."""
        out = []
        for rid in ruleset_ids():
            cls = get_game_class(rid)
            info = cls.info
            out.append(
                RulesetOut(
                    id=rid,
                    title=info.title,
                    board=info.board,
                    sides=list(info.sides),
                    summary=info.summary,
                    complete=info.complete,
                    parameters=[
                        {
                            "name": p.name,
                            "default": p.default,
                            "doc": p.doc,
                            "choices": list(p.choices),
                            "rule": p.rule,
                        }  # type: ignore[misc]
                        for p in cls.parameters.values()
                    ],
                )
            )
        return out

    @app.get(
        "/api/rulesets/{ruleset}/clauses",
        tags=["reference"],
        responses={404: {"model": ErrorOut}, **BAD_INPUT},
    )
    def ruleset_clauses(ruleset: Annotated[str, PathParam(pattern=NAME)]) -> list[ClauseOut]:
        """The clause table of a rule system: every clause id an event or a refusal can name."""
        table = L.clauses(ruleset)
        if not table:
            raise ApiError(
                404, f"no clause table for rule system {ruleset!r}; known: {', '.join(ruleset_ids())}"
            )
        return [
            ClauseOut(id=k, rule=f"{ruleset}:{k}", section=v[0], text=v[1], url=L.rule_url(f"{ruleset}:{k}"))
            for k, v in table.items()
        ]

    scenario_cache: dict[tuple[tuple[str, float], ...], list[ScenarioOut]] = {}

    @app.get("/api/scenarios", tags=["reference"], responses=BAD_INPUT)
    def scenarios(
        ruleset: Annotated[str | None, Query(max_length=64, description="Only this rule system's.")] = None,
    ) -> list[ScenarioOut]:
        """The built-in scenarios."""
        if ruleset and ruleset not in ruleset_ids():
            known = ", ".join(ruleset_ids())
            raise ApiError(422, f"ruleset: unknown rule system {ruleset!r}; known: {known}")
        found = builtin_scenarios()
        key = tuple((str(p), p.stat().st_mtime) for p in found.values())
        if key not in scenario_cache:
            scenario_cache.clear()
            scenario_cache[key] = read_scenarios(found)
        return [s for s in scenario_cache[key] if not ruleset or s.ruleset == ruleset]

    def read_scenarios(found: dict[str, Path]) -> list[ScenarioOut]:
        out = []
        default_name = default_scenario()
        for name, path in found.items():
            try:
                d = read_toml(path)
            except ShieldwallError:
                continue
            rid = d.get("ruleset")
            if not isinstance(rid, str) or rid not in ruleset_ids():
                continue
            sides = {s: str((d.get(s) or {}).get("name", s)) for s in get_game_class(rid).info.sides}
            out.append(
                ScenarioOut(
                    name=name,
                    ruleset=rid,
                    title=str(d.get("name", name)),
                    description=" ".join(str(d.get("description", "")).split()),
                    sides=sides,
                    default=name == default_name,
                )
            )
        return out

    @app.get("/api/bots", tags=["reference"])
    def bots() -> list[str]:
        """The bots one can play against."""
        return bot_names()

    # ------------------------------------------------------------------ games
    def created(request: Request, c: Any) -> GameCreated:
        base = str(request.base_url).rstrip("/")
        gid = c.session.rec.id
        return GameCreated(
            game=state_out(c.session, c.sides),
            token=c.token,
            sides=c.sides,
            play_url=f"{base}/play/{gid}#token={c.token}",
            invite_url=f"{base}/join/{gid}#invite={c.invite}" if c.invite else None,
        )

    @app.post(
        "/api/games",
        status_code=201,
        tags=["games"],
        responses={
            **BAD_INPUT,
            422: {"model": ErrorOut, "description": "Unknown scenario, side, opponent or parameter."},
        },
    )
    def new_game(body: NewGame, request: Request) -> GameCreated:
        """Start a battle. The answer holds your secret side token (and, against a friend on
        another browser, a one-time invitation link for them)."""
        if body.ruleset not in ruleset_ids():
            raise ApiError(422, f"unknown rule system {body.ruleset!r}; known: {', '.join(ruleset_ids())}")
        c = games.create(
            ruleset=body.ruleset,
            scenario=body.scenario,
            scenario_data=body.scenario_data,
            side=body.side,
            opponent=body.opponent,
            seed=body.seed,
            overrides=body.overrides,
        )
        return created(request, c)

    @app.post("/api/games/import", status_code=201, tags=["games"], responses=BAD_INPUT)
    def import_save(body: ImportSave, request: Request) -> GameCreated:
        """Resume a battle from a save file: its orders are replayed and checked by the rules."""
        sv = body.save
        scen = sv.get("scenario")
        orders = sv.get("orders")
        seed = sv.get("seed")
        overrides = sv.get("overrides")
        overrides = {} if overrides is None else overrides
        if not isinstance(scen, dict) or not isinstance(orders, list):
            raise ApiError(422, "not a shieldwall save: it needs a 'scenario' object and an 'orders' list")
        if not all(isinstance(o, (dict, str)) for o in orders):
            raise ApiError(422, "every order of a save is an object or a text")
        if seed is not None and (
            not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= 2**62
        ):
            raise ApiError(422, "the save's seed must be a whole number from 0 to 2**62")
        if not isinstance(overrides, dict):
            raise ApiError(422, "the save's overrides must be an object")
        rid = scen.get("ruleset")
        if not isinstance(rid, str) or rid not in ruleset_ids():
            raise ApiError(
                422, f"the save's scenario names no known rule system ({', '.join(ruleset_ids())})"
            )
        c = games.create(
            ruleset=rid,
            scenario="",
            scenario_data=scen,
            side=body.side,
            opponent=body.opponent,
            seed=seed if seed is not None else 0,
            overrides=overrides,
            orders=orders,
        )
        return created(request, c)

    @app.get("/api/games/{game_id}", tags=["games"], responses=ERRORS)
    def get_game(game_id: GameIdPath, token: Token = None) -> GameState:
        """The game as your side may see it."""
        s, sides = session_for(game_id, token)
        with s.lock:
            return state_out(s, sides)

    @app.post("/api/games/{game_id}/orders", tags=["games"], responses=ORDER_ERRORS)
    def give_order(game_id: GameIdPath, body: OrderIn, token: Token = None) -> OrderOut:
        """Give one order for the decision your side owns. The rules validate it (422 with the
        clause and the reason when illegal); then a bot opponent replies until it is your turn."""
        s, sides = session_for(game_id, token)
        with s.lock:
            first, accepted, bot_orders = games.play(s, sides, body.order)
            evs = s.state.events
            return OrderOut(
                accepted=accepted,
                bot_orders=[order_text(text, evs[a:b], sides) for text, a, b in bot_orders],
                events=entries(s, sides, first),  # type: ignore[arg-type]
                state=state_out(s, sides),
            )

    @app.get("/api/games/{game_id}/reach/{unit_id}", tags=["games"], responses=ERRORS)
    def unit_reach(
        game_id: GameIdPath,
        unit_id: Annotated[str, PathParam(pattern=NAME)],
        token: Token = None,
    ) -> ReachOut:
        """What a unit can reach, computed by the rules: its movement band, the enemies it may
        charge (and on which facings), those it may shoot and why not the others, its front arc."""
        s, sides = session_for(game_id, token)
        with s.lock:
            view = view_for(s.state, sides)
            if unit_id not in visible_unit_ids(view) or any(
                u["id"] == unit_id and u.get("removed") for u in view.get("units", [])
            ):
                raise ApiError(404, f"there is no unit {unit_id!r} on the table")
            mod = _reach_module(s.rec.ruleset)
            if mod is None:
                raise ApiError(404, f"the rule system {s.rec.ruleset} does not compute reach")
            try:
                raw: dict[str, Any] = mod.reach(s.state, unit_id)
            except IllegalOrder:
                raise ApiError(404, f"there is no unit {unit_id!r} on the table") from None
            r = filter_reach(raw, visible_unit_ids(view), hidden_unit_ids(s.state, sides))
            return ReachOut(unit=unit_id, reach=r, svg=draw(view, r["highlight"]))

    @app.get("/api/games/{game_id}/log", tags=["games"], responses=ERRORS)
    def game_log(
        game_id: GameIdPath,
        token: Token = None,
        since: Annotated[int, Query(ge=0, le=10**9, description="First event index wanted.")] = 0,
    ) -> LogOut:
        """The battle log from event ``since`` on: plain words, dice, and the clause of each."""
        s, sides = session_for(game_id, token)
        with s.lock:
            return LogOut(size=len(s.state.events), entries=entries(s, sides, since))  # type: ignore[arg-type]

    @app.get("/api/games/{game_id}/combat", tags=["games"], responses=ERRORS)
    def last_combat(
        game_id: GameIdPath,
        token: Token = None,
        index: Annotated[int | None, Query(ge=0, le=10**9, description="A combat event's index.")] = None,
    ) -> CombatOut | None:
        """Why the last attack (or the attack at ``index``) came out as it did: the die, every
        modifier with its clause, the hits. ``null`` before the first attack."""
        s, sides = session_for(game_id, token)
        with s.lock:
            evs = s.state.events
            names = L.unit_names(view_for(s.state, sides))
            hide = not s.seed_visible()
            if index is not None:
                if index >= len(evs):
                    raise ApiError(404, f"there is no event {index} (the log has {len(evs)})")
                ev = filter_event(evs[index], sides, hide)
                if ev.kind not in L.COMBAT_KINDS:
                    raise ApiError(404, f"event {index} is a {ev.kind!r} event, not an attack or a test")
                return CombatOut(**L.combat_why(index, ev, names))
            for i in range(len(evs) - 1, -1, -1):
                ev = filter_event(evs[i], sides, hide)
                if ev.kind in L.ATTACK_KINDS:
                    return CombatOut(**L.combat_why(i, ev, names))
            return None

    @app.post("/api/games/{game_id}/undo", tags=["games"], responses=ERRORS)
    def undo(game_id: GameIdPath, token: Token = None) -> UndoOut:
        """Take back your last order (hotseat and vs-bot games): back to the start of that decision,
        the bot's replies dropped too. The dice are the battle's: the same order rolls the same."""
        s, sides = session_for(game_id, token)
        with s.lock:
            n = games.undo(s, sides)
            return UndoOut(dropped=n, state=state_out(s, sides))

    @app.get("/api/games/{game_id}/save", tags=["games"], responses=ERRORS)
    def save(game_id: GameIdPath, token: Token = None) -> dict[str, Any]:
        """The battle as a save file (for ``shieldwall replay`` or to resume it later with Import)."""
        s, sides = session_for(game_id, token)
        return games.save(s, sides)

    @app.post("/api/games/{game_id}/join", tags=["games"], responses=ERRORS)
    def join(game_id: GameIdPath, body: JoinIn, request: Request) -> JoinOut:
        """Take the open side of a game between two browsers with its one-time invitation."""
        side, token = games.join(game_id, body.invite)
        base = str(request.base_url).rstrip("/")
        return JoinOut(side=side, token=token, play_url=f"{base}/play/{game_id}#token={token}")

    @app.post("/api/games/{game_id}/invite", tags=["games"], responses=ERRORS)
    def reinvite(game_id: GameIdPath, request: Request, token: Token = None) -> InviteOut:
        """A new invitation link for the open side (the old one stops working)."""
        s, sides = session_for(game_id, token)
        side, invite = games.reissue_invite(s, sides)
        base = str(request.base_url).rstrip("/")
        return InviteOut(side=side, invite_url=f"{base}/join/{game_id}#invite={invite}")

    @app.get("/api/games/{game_id}/replay", tags=["replay"], responses=ERRORS)
    def replay(game_id: GameIdPath, token: Token = None) -> ReplayOut:
        """The battle turn by turn (turn 0 is the deployment), rebuilt by replaying its orders."""
        s, sides = session_for(game_id, token)
        frames = games.frames(s, sides)
        out = []
        for f in frames:
            lines = [
                e["text"]
                for e in entries(s, sides, f["first_event"], f["end_event"])
                if e["kind"] in ("charge", "removed", "result", "initiative")
            ]
            out.append(
                {
                    "turn": f["turn"],
                    "events": f["end_event"] - f["first_event"],
                    "complete": f["complete"],
                    "headline": lines[:6],
                }
            )
        return ReplayOut(turns=out, finished=s.finished())  # type: ignore[arg-type]

    @app.get("/api/games/{game_id}/replay/{turn}", tags=["replay"], responses=ERRORS)
    def replay_turn(
        game_id: GameIdPath, turn: Annotated[int, PathParam(ge=0, le=10**6)], token: Token = None
    ) -> ReplayFrame:
        """One turn of the replay: its events and the table at its end."""
        s, sides = session_for(game_id, token)
        frames = games.frames(s, sides)
        f = next((f for f in frames if f["turn"] == turn), None)
        if f is None:
            raise ApiError(404, f"no turn {turn} in this battle (turns 0..{frames[-1]['turn']})")
        return ReplayFrame(
            turn=turn,
            complete=f["complete"],
            events=entries(s, sides, f["first_event"], f["end_event"]),  # type: ignore[arg-type]
            view=f["view"],
            svg=draw(f["view"]),
        )

    # ------------------------------------------------------------------ pages
    index = STATIC / "index.html"

    @app.get("/", include_in_schema=False)
    def home() -> FileResponse:
        return FileResponse(index)

    @app.get("/play/{game_id}", include_in_schema=False)
    def play_page(game_id: str) -> FileResponse:
        return FileResponse(index)

    @app.get("/join/{game_id}", include_in_schema=False)
    def join_page(game_id: str) -> FileResponse:
        return FileResponse(index)

    @app.get("/rules/{ruleset}", include_in_schema=False, response_class=HTMLResponse)
    def rules_page(ruleset: str) -> HTMLResponse:
        table = L.clauses(ruleset)
        if not table:
            return HTMLResponse(
                f"<!doctype html><title>not found</title><p>No clause table for {escape(ruleset)}.</p>",
                status_code=404,
            )
        rows = "".join(
            f'<tr id="{escape(k)}"><td><a href="#{escape(k)}"><code>{escape(k)}</code></a></td>'
            f"<td>{escape(v[0])}</td><td>{escape(v[1])}</td></tr>"
            for k, v in table.items()
        )
        return HTMLResponse(
            "<!doctype html><html lang=en><head><meta charset=utf-8>"
            f"<title>{escape(ruleset)} - clause table</title>"
            '<meta name=viewport content="width=device-width,initial-scale=1">'
            '<link rel=stylesheet href="/static/style.css"></head><body class=rules-page>'
            f'<h1><a href="/">shieldwall</a> · {escape(ruleset)}: the clauses</h1>'
            "<p>Every event of a battle and every refused order names one of these clauses "
            f"(<code>{escape(ruleset)}:&lt;clause&gt;</code>).</p>"
            f"<table class=clauses><thead><tr><th>clause</th><th>section</th><th>what it says</th></tr>"
            f"</thead><tbody>{rows}</tbody></table></body></html>"
        )

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
