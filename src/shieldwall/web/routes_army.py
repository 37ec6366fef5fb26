"""The army builder's API: a rule system's builder catalogue and the costing of an army file by its
plugin's ``army_cost`` (the code behind ``shieldwall army cost``), for every rule system that has
army files."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter
from fastapi import Path as PathParam
from pydantic import AfterValidator, BaseModel, Field, model_validator

from shieldwall import registry
from shieldwall.web import armies
from shieldwall.web.bounds import check_json
from shieldwall.web.context import BAD_INPUT
from shieldwall.web.models import NAME, ErrorOut
from shieldwall.web.session import ApiError

router = APIRouter(tags=["armies"])

NOT_FOUND: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorOut, "description": "No such rule system, or it has no army files."},
    **BAD_INPUT,
}


class BuilderOut(BaseModel):
    ruleset: str
    title: str
    builder: dict[str, Any] | None = Field(
        description="The builder's fields and choices (the plugin's `army_builder`), or null: the "
        "page edits the army file's text."
    )


class ArmyIn(BaseModel):
    """An army: as data (the parsed army file) or as the file's TOML text; exactly one of them."""

    army: Annotated[dict[str, Any] | None, AfterValidator(lambda v: check_json(v, "army"))] = None
    text: str | None = Field(default=None, max_length=armies.MAX_TEXT)

    @model_validator(mode="after")
    def _one(self) -> ArmyIn:
        if (self.army is None) == (self.text is None):
            raise ValueError("give exactly one of army (the file as data) and text (the file's TOML)")
        return self


class ArmyOut(BaseModel):
    army: dict[str, Any] = Field(description="The army file as data.")
    text: str = Field(description="The army file as TOML: what Export downloads.")
    legal: bool = Field(
        description="Whether `shieldwall army cost` accepts it (valid, within its points limit)."
    )
    error: str | None = Field(description="Why not, naming the field and the clause.")
    costed: Any = Field(
        description="The costed army, as `shieldwall army cost --json` prints it (null if invalid)."
    )


def _system(ruleset: str) -> Any:
    rs = registry.find(ruleset)
    if rs is None or not rs.army_cost:
        have = [rid for rid, r in registry.systems().items() if r.army_cost]
        raise ApiError(404, f"no rule system {ruleset!r} with army files; these have them: {', '.join(have)}")
    return rs


@router.get("/api/rulesets/{ruleset}/army", responses=NOT_FOUND)
def army_builder(ruleset: Annotated[str, PathParam(pattern=NAME)]) -> BuilderOut:
    """What the army builder offers for a rule system's army files."""
    rs = _system(ruleset)
    builder = rs.optional("army_builder")
    return BuilderOut(ruleset=rs.id, title=rs.title, builder=None if builder is None else builder())


@router.post("/api/rulesets/{ruleset}/army", responses=NOT_FOUND)
def army_cost(ruleset: Annotated[str, PathParam(pattern=NAME)], body: ArmyIn) -> ArmyOut:
    """Cost and check an army file with the same code as `shieldwall army cost`; nothing is stored."""
    rs = _system(ruleset)
    if body.text is not None:
        try:
            data = check_json(armies.parse(body.text), "text")
        except ValueError as exc:
            raise ApiError(422, f"text: {exc}") from None
    else:
        data = body.army or {}
    try:
        out = armies.cost(rs, data)
    except ValueError as exc:
        raise ApiError(422, f"army: {exc}") from None
    return ArmyOut(army=data, **out)
