"""Range bands, arcs of fire and lines of sight from a unit (the plugin's ``ranges``), as the
viewer may see them: a unit hidden from the viewer has none, and no line names a hidden unit."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter
from fastapi import Path as PathParam
from pydantic import BaseModel, Field

from shieldwall import registry
from shieldwall.visibility import visible_unit_ids
from shieldwall.web.context import ERRORS, Ctx, GameIdPath, Token
from shieldwall.web.models import NAME
from shieldwall.web.session import ApiError

router = APIRouter(tags=["games"])


class RangesOut(BaseModel):
    unit: str
    shapes: list[dict[str, Any]] = Field(
        description="Polygons in table units: {label, kind (range, arc, corridor), points, rule}."
    )
    sight: list[dict[str, Any]] = Field(
        description="One line per enemy in view: {unit, visible, from, to, why, rule}."
    )
    sight_label: str = Field(
        "sees",
        description="What a line marked visible means: the unit sees that enemy, or may shoot at it, "
        "or may charge it.",
    )


@router.get("/api/games/{game_id}/ranges/{unit_id}", responses=ERRORS)
def unit_ranges(
    game_id: GameIdPath,
    unit_id: Annotated[str, PathParam(pattern=NAME)],
    ctx: Ctx,
    token: Token = None,
) -> RangesOut:
    """What a unit's weapons reach and what it can see, drawn from its rule system's data: its
    range bands, its arcs of fire and a line of sight to each enemy (seen or not, and why)."""
    s, sides = ctx.session_for(game_id, token)
    with s.lock:
        rs = registry.find(s.rec.ruleset)
        fn = None if rs is None else rs.optional("ranges")
        if fn is None:
            raise ApiError(404, f"the rule system {s.rec.ruleset} draws no ranges")
        view = s.view_for(sides)
        seen = visible_unit_ids(view)
        if unit_id not in seen or any(u["id"] == unit_id and u.get("removed") for u in view.get("units", [])):
            raise ApiError(404, f"there is no unit {unit_id!r} on the table")
        raw = fn(s.state, unit_id)
        if raw is None:
            raise ApiError(404, f"there is no unit {unit_id!r} on the table")
        lines = [x for x in raw.get("sight", []) if x.get("unit") in seen]
        return RangesOut(
            unit=unit_id,
            shapes=list(raw.get("shapes", [])),
            sight=lines,
            sight_label=str(raw.get("sight_label", "sees")),
        )
