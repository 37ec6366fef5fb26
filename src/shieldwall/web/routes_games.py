"""Games: start or resume one, see it, give orders, reach, log, the why of a combat, undo, save,
and the invitations of a game between two browsers."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response
from fastapi import Path as PathParam

from shieldwall import registry
from shieldwall.core.errors import IllegalOrder
from shieldwall.visibility import filter_reach, hidden_in_view, order_text, visible_unit_ids
from shieldwall.web import log as L
from shieldwall.web.context import (
    BAD_INPUT,
    ERRORS,
    FULL,
    ORDER_ERRORS,
    Ctx,
    GameIdPath,
    Token,
    draw,
    json_answer,
    json_bytes,
    reach_function,
)
from shieldwall.web.frames import save_data
from shieldwall.web.links import CREATED_LINKS, JOINED_LINKS, PLAYED_LINKS, with_links
from shieldwall.web.models import (
    NAME,
    CheckIn,
    CheckOut,
    CombatOut,
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
    SnapOut,
    SpectateOut,
    UndoOut,
)
from shieldwall.web.session import ApiError

router = APIRouter(tags=["games"])


def _known() -> str:
    return ", ".join(registry.ids())


@router.post(
    "/api/games",
    status_code=201,
    responses=with_links(
        {
            **BAD_INPUT,
            **FULL,
            422: {"model": ErrorOut, "description": "Unknown scenario, side, opponent or parameter."},
        },
        201,
        CREATED_LINKS,
    ),
)
def new_game(body: NewGame, request: Request, ctx: Ctx) -> GameCreated:
    """Start a battle. The answer holds your secret side token (and, against a friend on
    another browser, a one-time invitation link for them)."""
    if body.ruleset not in registry.ids():
        raise ApiError(422, f"unknown rule system {body.ruleset!r}; known: {_known()}")
    c = ctx.games.create(
        ruleset=body.ruleset,
        scenario=body.scenario,
        scenario_data=body.scenario_data,
        side=body.side,
        opponent=body.opponent,
        seed=body.seed,
        overrides=body.overrides,
    )
    return ctx.created(request, c)


@router.post(
    "/api/games/import", status_code=201, responses=with_links({**BAD_INPUT, **FULL}, 201, CREATED_LINKS)
)
def import_save(body: ImportSave, request: Request, ctx: Ctx) -> GameCreated:
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
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**128):
        raise ApiError(422, "the save's seed must be a whole number from 0 to 2**128 - 1")
    if not isinstance(overrides, dict):
        raise ApiError(422, "the save's overrides must be an object")
    rid = scen.get("ruleset")
    if not isinstance(rid, str) or rid not in registry.ids():
        raise ApiError(422, f"the save's scenario names no known rule system ({_known()})")
    c = ctx.games.create(
        ruleset=rid,
        scenario="",
        scenario_data=scen,
        side=body.side,
        opponent=body.opponent,
        seed=seed if seed is not None else 0,
        overrides=overrides,
        orders=orders,
    )
    return ctx.created(request, c)


@router.get("/api/games/{game_id}", response_model=GameState, responses=ERRORS)
def get_game(game_id: GameIdPath, ctx: Ctx, token: Token = None) -> Response:
    """The game as your side may see it."""
    s, sides = ctx.session_for(game_id, token)
    with s.lock:
        return json_bytes(ctx.state_json(s, sides))


@router.post(
    "/api/games/{game_id}/orders",
    response_model=OrderOut,
    responses=with_links(ORDER_ERRORS, 200, PLAYED_LINKS),
)
def give_order(game_id: GameIdPath, body: OrderIn, ctx: Ctx, token: Token = None) -> Response:
    """Give one order for the decision your side owns. The rules validate it (422 with the
    clause and the reason when illegal); then a bot opponent replies until it is your turn.
    The answer comes once the order is committed to the database. With ``client_id`` a retry is
    answered as the first time (``repeat``); with ``version`` an order made for an older state of
    the game is refused (409, with the current ``version``)."""
    s, sides = ctx.session_for(game_id, token)
    with s.lock:
        p = ctx.games.play(s, sides, body.order, body.client_id, body.version, body.near)
        evs = s.state.events
        snapped = None
        if p.snapped is not None:
            i, why = p.snapped
            snapped = SnapOut(index=i, rule=why.rule, reason=why.reason, rule_url=L.rule_url(why.rule))
        state = ctx.state_out(s, sides)  # its view names the units of the log entries
        out = OrderOut(
            accepted=p.accepted,
            repeat=p.repeat,
            snapped=snapped,
            bot_orders=[order_text(text, evs[a:b], sides) for text, a, b in p.bots],
            events=ctx.entries(s, sides, p.first, p.end, state.view),  # type: ignore[arg-type]
            state=state,
        )
        return json_answer(out)


@router.post("/api/games/{game_id}/check", responses=ORDER_ERRORS)
def check_order(game_id: GameIdPath, body: CheckIn, ctx: Ctx, token: Token = None) -> CheckOut:
    """Would the rules take this order now (or, refused, the first of `near` they take)? Tried on a
    copy: nothing is played. The page asks while a unit is dragged, to show where it would go and
    why a place is refused before the drop."""
    s, sides = ctx.session_for(game_id, token)
    index, why = ctx.games.check(s, sides, body.order, body.near)
    if why is None:
        return CheckOut(legal=True, index=None)
    return CheckOut(
        legal=index is not None, index=index, rule=why.rule, reason=why.reason, rule_url=L.rule_url(why.rule)
    )


@router.get("/api/games/{game_id}/reach/{unit_id}", responses=ERRORS)
def unit_reach(
    game_id: GameIdPath,
    unit_id: Annotated[str, PathParam(pattern=NAME)],
    ctx: Ctx,
    token: Token = None,
) -> ReachOut:
    """What a unit can reach, computed by the rules: its movement band, the enemies it may
    charge (and on which facings), those it may shoot and why not the others, its front arc."""
    s, sides = ctx.session_for(game_id, token)
    with s.lock:
        view = s.view_for(sides)
        if unit_id not in visible_unit_ids(view) or any(
            u["id"] == unit_id and u.get("removed") for u in view.get("units", [])
        ):
            raise ApiError(404, f"there is no unit {unit_id!r} on the table")
        reach = reach_function(s.rec.ruleset)
        if reach is None:
            raise ApiError(404, f"the rule system {s.rec.ruleset} does not compute reach")
        try:
            raw = s.reach(reach, unit_id)
        except IllegalOrder:
            raise ApiError(404, f"there is no unit {unit_id!r} on the table") from None
        r = filter_reach(raw, visible_unit_ids(view), hidden_in_view(s.full_view(), sides))
        return ReachOut(unit=unit_id, reach=r, svg=draw(view, r["highlight"]))


@router.get("/api/games/{game_id}/log", responses=ERRORS)
def game_log(
    game_id: GameIdPath,
    ctx: Ctx,
    token: Token = None,
    since: Annotated[int, Query(ge=0, le=10**9, description="First event index wanted.")] = 0,
) -> LogOut:
    """The battle log from event ``since`` on: plain words, dice, and the clause of each."""
    s, sides = ctx.session_for(game_id, token)
    with s.lock:
        return LogOut(size=len(s.state.events), entries=ctx.entries(s, sides, since))  # type: ignore[arg-type]


@router.get("/api/games/{game_id}/combat", responses=ERRORS)
def last_combat(
    game_id: GameIdPath,
    ctx: Ctx,
    token: Token = None,
    index: Annotated[int | None, Query(ge=0, le=10**9, description="A combat event's index.")] = None,
) -> CombatOut | None:
    """Why the last attack (or the attack at ``index``) came out as it did: the die, every
    modifier with its clause, the hits. ``null`` before the first attack."""
    s, sides = ctx.session_for(game_id, token)
    with s.lock:
        evs = ctx.events(s, sides)
        names = L.unit_names(s.view_for(sides))
        ex = L.explainer(s.rec.ruleset)
        if index is not None:
            if index >= len(evs):
                raise ApiError(404, f"there is no event {index} (the log has {len(evs)})")
            ev = evs[index]
            if ev.kind not in ex.kinds:
                raise ApiError(404, f"event {index} is a {ev.kind!r} event, not an attack or a test")
            return CombatOut(**L.combat_why(evs, index, names, ex))
        for i in range(len(evs) - 1, -1, -1):
            if evs[i].kind in ex.attack_kinds:
                return CombatOut(**L.combat_why(evs, i, names, ex))
        return None


@router.post("/api/games/{game_id}/undo", responses=with_links(ERRORS, 200, PLAYED_LINKS))
def undo(game_id: GameIdPath, ctx: Ctx, token: Token = None) -> UndoOut:
    """Take back your last order (hotseat and vs-bot games): back to the start of that decision,
    the bot's replies dropped too. The dice are the battle's: the same order rolls the same."""
    s, sides = ctx.session_for(game_id, token)
    with s.lock:
        n = ctx.games.undo(s, sides)
        return UndoOut(dropped=n, state=ctx.state_out(s, sides))


@router.get("/api/games/{game_id}/save", responses=ERRORS)
def save(game_id: GameIdPath, ctx: Ctx, token: Token = None) -> dict[str, Any]:
    """The battle as a save file (for ``shieldwall replay`` or to resume it later with Import)."""
    s, sides = ctx.session_for(game_id, token)
    return save_data(s, sides)


@router.post("/api/games/{game_id}/join", responses=with_links(ERRORS, 200, JOINED_LINKS))
def join(game_id: GameIdPath, body: JoinIn, request: Request, ctx: Ctx) -> JoinOut:
    """Take the open side of a game between two browsers with its one-time invitation."""
    side, token = ctx.games.join(game_id, body.invite)
    base = str(request.base_url).rstrip("/")
    return JoinOut(side=side, token=token, play_url=f"{base}/play/{game_id}#token={token}")


@router.post("/api/games/{game_id}/spectate", responses=ERRORS)
def spectate(game_id: GameIdPath, request: Request, ctx: Ctx, token: Token = None) -> SpectateOut:
    """A new read-only link for a spectator: it sees only what both sides may see (no unit or
    order hidden from either side, no seed before the end) and gives no orders."""
    s, sides = ctx.session_for(game_id, token)
    watch = ctx.games.spectate(s, sides)
    base = str(request.base_url).rstrip("/")
    return SpectateOut(watch_url=f"{base}/play/{game_id}#token={watch}")


@router.post("/api/games/{game_id}/invite", responses=ERRORS)
def reinvite(game_id: GameIdPath, request: Request, ctx: Ctx, token: Token = None) -> InviteOut:
    """A new invitation link for the open side (the old one stops working)."""
    s, sides = ctx.session_for(game_id, token)
    side, invite = ctx.games.reissue_invite(s, sides)
    base = str(request.base_url).rstrip("/")
    return InviteOut(side=side, invite_url=f"{base}/join/{game_id}#invite={invite}")
