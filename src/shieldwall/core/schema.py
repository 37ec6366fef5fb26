"""Scenario schema pieces shared by the rule systems (validated with pydantic; no file I/O here).

A rule system's scenario schema builds on these: strict tables (an unknown field is an error), the
terrain feature table (``TerrainSpecBase``: the rule system gives its crossing table, its terrain
kinds and, where it has one, the default width), the check of the ``[options]`` table against the
rule parameters, the checks of one terrain feature that do not depend on the rule system, and the
``Feature`` a terrain table stands for. Every problem found after pydantic's validation is a
``DataError`` naming the file, the field and the reason.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, field_validator

from .errors import DataError
from .game import Parameter
from .limits import MAX_POINTS, MAX_TABLE, MAX_TEXT, Pt
from .terrain import Crossing, Feature

__all__ = ["HomeEdge", "Pt", "StrictModel", "TerrainSpecBase"]
#: The table edge a side's army comes from.
HomeEdge = Literal["south", "north", "west", "east"]

C = TypeVar("C", bound=BaseModel)


class StrictModel(BaseModel):
    """A scenario table: an unknown field is an error, and every number is finite (TOML can say inf
    and nan; no distance, heading or size is either)."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


def known_name(value: str, names: Collection[str], what: str) -> str:
    """``value`` when it is one of ``names``; otherwise a ``ValueError`` listing them (pydantic makes
    it the field's validation error)."""
    if value not in names:
        raise ValueError(f"unknown {what} {value!r}; valid: {', '.join(names)}")
    return value


class TerrainSpecBase(StrictModel, Generic[C]):
    """One ``[[terrain]]`` table: an area feature's polygon or a linear feature's centre line
    (``points``), its width, the crossings of a linear feature (a table ``C`` of the rule system
    with ``kind``, ``at`` and ``width``), and a hill's crest. A subclass names its terrain kinds
    (``terrain_kinds``); it may give ``width`` a default."""

    id: str
    kind: str
    name: str = Field(default="", max_length=MAX_TEXT)
    points: list[Pt] = Field(min_length=2, max_length=MAX_POINTS)
    width: float | None = Field(default=None, gt=0, le=MAX_TABLE)
    crossings: list[C] = Field(default=[], max_length=MAX_POINTS)
    crest: list[Pt] = Field(default=[], max_length=MAX_POINTS)
    plateau: bool = False

    @classmethod
    def terrain_kinds(cls) -> Collection[str]:
        """The terrain kinds this rule system knows."""
        raise NotImplementedError(f"{cls.__name__} must name its terrain kinds")

    @field_validator("kind")
    @classmethod
    def _known_kind(cls, v: str) -> str:
        return known_name(v, cls.terrain_kinds(), "terrain kind")


def check_options(
    options: Mapping[str, Any],
    parameters: Mapping[str, Parameter],
    file: str,
    *,
    int_as_float: bool = False,
    range_problem: Callable[[str, Any], str | None] | None = None,
) -> None:
    """Check a scenario's ``[options]`` against the rule parameters: known names, the type of each
    default (a whole number for a float parameter when ``int_as_float``), the choices, and the
    parameter's range where ``range_problem`` says why a value is out of it."""
    for k, v in options.items():
        if k not in parameters:
            raise DataError(file, f"options.{k}", f"unknown option; valid: {', '.join(parameters)}")
        p = parameters[k]
        want = type(p.default)
        ok = isinstance(v, want) or (
            int_as_float and want is float and isinstance(v, int) and not isinstance(v, bool)
        )
        if not ok or (isinstance(v, bool) and want is not bool):
            raise DataError(file, f"options.{k}", f"expects a {want.__name__}, got {v!r}")
        if p.choices and v not in p.choices:
            raise DataError(file, f"options.{k}", f"must be one of {', '.join(map(str, p.choices))}")
        problem = range_problem(k, v) if range_problem is not None else None
        if problem:
            raise DataError(file, f"options.{k}", problem)


def check_feature_id_and_points(
    i: int, t: TerrainSpecBase[Any], linear: bool, seen: set[str], file: str
) -> None:
    """The ``i``-th terrain feature's id is not one of ``seen`` (then it is added) and, for an area
    feature, its polygon has at least 3 points."""
    if t.id in seen:
        raise DataError(file, f"terrain[{i}].id", f"duplicate terrain id {t.id!r}")
    seen.add(t.id)
    if not linear and len(t.points) < 3:
        raise DataError(file, f"terrain[{i}].points", f"an area feature ({t.kind}) needs at least 3 points")


def check_crossings_on_line(i: int, t: TerrainSpecBase[Any], width: float, line: str, file: str) -> None:
    """Every crossing of the ``i``-th terrain feature (a linear one, ``width`` wide) lies on its
    centre line (within half an inch); ``line`` names the feature in the error ("river")."""
    for j, c in enumerate(t.crossings):
        f = Feature(t.id, t.kind, tuple(t.points), True, width)
        if f.distance_to(c.at) > 0.5:
            raise DataError(file, f"terrain[{i}].crossings[{j}].at", f"the crossing is not on the {line}")


def terrain_feature(t: TerrainSpecBase[Any], *, name: str, linear: bool, width: float) -> Feature:
    """The feature a terrain table stands for (``name`` when the table gives none)."""
    return Feature(
        id=t.id,
        kind=t.kind,
        name=t.name or name,
        points=tuple(t.points),
        linear=linear,
        width=width,
        crossings=tuple(Crossing(c.kind, c.at, c.width) for c in t.crossings),
        crest=tuple(t.crest),
        plateau=t.plateau,
    )
