"""The replay of a battle, turn by turn, rebuilt by replaying its orders."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse

from shieldwall.web.context import ERRORS, Ctx, GameIdPath, Token, draw
from shieldwall.web.frames import save_data, turn_frames
from shieldwall.web.models import ReplayFrame, ReplayOut, StepsOut
from shieldwall.web.session import ApiError
from shieldwall.web.steps import steps_since

router = APIRouter(tags=["replay"])

#: the events a turn's headline in the replay list is made of
HEADLINE_KINDS = ("charge", "removed", "result", "initiative")


@router.get("/api/games/{game_id}/replay", responses=ERRORS)
def replay(game_id: GameIdPath, ctx: Ctx, token: Token = None) -> ReplayOut:
    """The battle turn by turn (turn 0 is the deployment), rebuilt by replaying its orders."""
    s, sides = ctx.session_for(game_id, token)
    frames = turn_frames(s, sides)
    out = []
    for f in frames:
        lines = [
            e["text"]
            for e in ctx.entries(s, sides, f["first_event"], f["end_event"])
            if e["kind"] in HEADLINE_KINDS
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


@router.get("/api/games/{game_id}/replay/{turn}", responses=ERRORS)
def replay_turn(
    game_id: GameIdPath, turn: Annotated[int, PathParam(ge=0, le=10**6)], ctx: Ctx, token: Token = None
) -> ReplayFrame:
    """One turn of the replay: its events and the table at its end."""
    s, sides = ctx.session_for(game_id, token)
    frames = turn_frames(s, sides)
    f = next((f for f in frames if f["turn"] == turn), None)
    if f is None:
        raise ApiError(404, f"no turn {turn} in this battle (turns 0..{frames[-1]['turn']})")
    return ReplayFrame(
        turn=turn,
        complete=f["complete"],
        events=ctx.entries(s, sides, f["first_event"], f["end_event"]),  # type: ignore[arg-type]
        view=f["view"],
        svg=draw(f["view"]),
    )


@router.get("/api/games/{game_id}/steps", responses=ERRORS)
def steps(
    game_id: GameIdPath, ctx: Ctx, since: Annotated[int, Query(ge=0, le=10**6)] = 0, token: Token = None
) -> StepsOut:
    """The orders from ``since`` on (at most the last 200), one at a time: who gave it, its words,
    its events and the table after it: the step-through of the other side's turn."""
    s, sides = ctx.session_for(game_id, token)
    with s.lock:
        rows = steps_since(s, sides, since)
        out = [
            {
                "index": r["index"],
                "side": r["side"],
                "by": r["by"],
                "text": r["text"],
                "unit": r["unit"],
                "first_event": r["first_event"],
                "events": ctx.entries(s, sides, r["first_event"], r["end_event"]),
                "svg": draw(r["view"], {"active": r["unit"]} if r["unit"] else None),
            }
            for r in rows
        ]
        return StepsOut(size=len(s.orders), steps=out)  # type: ignore[arg-type]


#: the report's answer is a page; its errors are the JSON of every other route
REPORT_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {"content": {"text/html": {"schema": {"type": "string"}}}, "description": "The report page."},
    **{
        k: {
            "description": v["description"],
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}},
        }
        for k, v in ERRORS.items()
    },
}


@router.get("/api/games/{game_id}/report", response_class=HTMLResponse, responses=REPORT_RESPONSES)
def battle_report(game_id: GameIdPath, ctx: Ctx, token: Token = None) -> HTMLResponse:
    """The illustrated battle report (docs/report.md): one standalone HTML page made from the
    battle's save, as ``shieldwall report-battle`` makes it; who may save the battle may ask it."""
    from shieldwall.render.report import battle_report as report

    s, sides = ctx.session_for(game_id, token)
    save = save_data(s, sides)
    return HTMLResponse(report(save, f"game {game_id}"))
