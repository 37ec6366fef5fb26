"""Loading a Knight Hack data set: the six table files of one folder, validated and cross-checked.

A data set is a folder holding ``classes.toml``, ``troop_types.toml``, ``melee_chart.toml``,
``melee_modifiers.toml``, ``weapons.toml`` and ``morale.toml`` (schemas in :mod:`.schemas`). A
missing or inconsistent table is a one-line :class:`DataError` naming the file and the field, and
the errata clause when a value contradicts the text (heavy infantry, C class: 3 points a figure and
a base cost of 40, Clarification 2, ``knight-hack:morale.level``).

The package ships ``data/sample``, an *illustrative sample* (``provenance = "illustrative-sample"``
in every file): invented numbers, labelled wherever they are used (:attr:`Tables.label`). Each
table's SHA-256 is kept (:attr:`Tables.digests`) so a save can record which tables it used.
"""

from __future__ import annotations

import hashlib
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

from shieldwall.core.datafiles import validate
from shieldwall.core.errors import DataError
from shieldwall.rulesets.knight_hack.clauses import RS
from shieldwall.rulesets.knight_hack.schemas import (
    FORMATIONS,
    SAMPLE_LABEL,
    ChartEntry,
    ClassesFile,
    MeleeChartFile,
    MeleeModifiersFile,
    MoraleFile,
    TroopType,
    TroopTypesFile,
    Weapon,
    WeaponsFile,
)

M = TypeVar("M", bound=BaseModel)

#: the files of a data set, in loading order
FILES = (
    "classes.toml",
    "troop_types.toml",
    "melee_chart.toml",
    "melee_modifiers.toml",
    "weapons.toml",
    "morale.toml",
)

#: the two numbers the errata gives (Clarification 2): heavy infantry, C class
ERRATA_HI_TYPE = "heavy-infantry"
ERRATA_HI_CLASS = "C"
ERRATA_HI_COST = 3
ERRATA_HI_BASE = 40


@dataclass(frozen=True)
class Tables:
    """One validated data set."""

    name: str
    classes: ClassesFile
    types: dict[str, TroopType]
    #: (attacker type, defender type) -> chart entry
    chart: dict[tuple[str, str], ChartEntry]
    melee_modifiers: MeleeModifiersFile
    weapons: dict[str, Weapon]
    morale: MoraleFile
    #: file name -> provenance
    provenance: dict[str, str]
    #: file name -> SHA-256 of its bytes
    digests: dict[str, str]

    @property
    def sample(self) -> bool:
        """Whether any table is the illustrative sample (then :attr:`label` must be shown)."""
        return "illustrative-sample" in self.provenance.values()

    @property
    def label(self) -> str | None:
        """The banner to show wherever these tables are used, or None for user/published tables."""
        return SAMPLE_LABEL if self.sample else None

    def class_rank(self, cls: str) -> int:
        """0 for the best class; a larger rank is a *lower* morale class (ruling R7)."""
        return self.classes.order.index(cls)

    def evolutions(self, cls: str) -> int:
        return self.classes.unit_class[cls].evolutions


def _read(node: Traversable, file: str) -> tuple[dict[str, Any], str]:
    try:
        raw = node.read_bytes()
    except FileNotFoundError:
        raise DataError(file, "", "file not found (a data set needs " + ", ".join(FILES) + ")") from None
    except OSError as exc:
        raise DataError(file, "", f"cannot read: {exc}") from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise DataError(file, "", f"not valid TOML: {exc}") from None
    return data, hashlib.sha256(raw).hexdigest()


def _errata(file: str, field: str, what: str) -> DataError:
    return DataError(
        file,
        field,
        f"{what} contradicts the errata (Clarification 2, {RS}:morale.level: heavy infantry C class "
        f"cost {ERRATA_HI_COST} points each plus {ERRATA_HI_BASE}); set errata_override = true to use it",
    )


def _check_types(types: dict[str, TroopType], classes: ClassesFile, file: str) -> None:
    order = classes.order
    for tid, t in types.items():
        for c in t.cost_per_figure:
            if c not in classes.unit_class:
                raise DataError(file, f"type.{tid}.cost_per_figure.{c}", f"no class {c!r} in classes.toml")
        missing = [c for c in order if c not in t.cost_per_figure]
        if missing:
            raise DataError(file, f"type.{tid}.cost_per_figure", f"no cost for class {missing[0]!r}")
    hi = types.get(ERRATA_HI_TYPE)
    if hi is None or hi.errata_override:
        return
    where = f"type.{ERRATA_HI_TYPE}"
    if ERRATA_HI_CLASS not in hi.cost_per_figure:
        raise _errata(file, f"{where}.cost_per_figure", f"no class {ERRATA_HI_CLASS!r}")
    cost = hi.cost_per_figure[ERRATA_HI_CLASS]
    if cost != ERRATA_HI_COST:
        raise _errata(file, f"{where}.cost_per_figure.{ERRATA_HI_CLASS}", f"{cost}")
    if hi.base_cost != ERRATA_HI_BASE:
        raise _errata(file, f"{where}.base_cost", f"{hi.base_cost}")


def _check_chart(
    chart: MeleeChartFile, types: dict[str, TroopType], file: str
) -> dict[tuple[str, str], ChartEntry]:
    out: dict[tuple[str, str], ChartEntry] = {}
    for i, e in enumerate(chart.factor):
        for role in ("attacker", "defender"):
            tid = getattr(e, role)
            if tid not in types:
                raise DataError(
                    file, f"factor[{i}].{role}", f"unknown type {tid!r} (not in troop_types.toml)"
                )
        if (e.attacker, e.defender) in out:
            raise DataError(file, f"factor[{i}]", f"{e.attacker} against {e.defender} is given twice")
        out[(e.attacker, e.defender)] = e
    for a in types:
        for d in types:
            if (a, d) not in out:
                raise DataError(
                    file,
                    "factor",
                    f"the chart is incomplete: no factor for {a} against {d} ({RS}:casualties.target)",
                )
    return out


def _check_weapons(weapons: WeaponsFile, types: dict[str, TroopType], file: str) -> None:
    for wid, w in weapons.weapon.items():
        for k in w.factor_vs:
            if k not in FORMATIONS and k not in types:
                raise DataError(
                    file, f"weapon.{wid}.factor_vs.{k}", "not a formation (open, loose, close) nor a type id"
                )


def _load(model: type[M], folder: Traversable, name: str, label: str) -> tuple[M, str, str]:
    data, digest = _read(folder / name, f"{label}/{name}")
    obj = validate(model, data, f"{label}/{name}")
    return obj, digest, str(data.get("provenance"))


def load_tables(folder: Traversable | Path | str, name: str | None = None) -> Tables:
    """Load and check the data set in ``folder`` (``DataError`` naming file and field)."""
    node: Traversable = Path(folder) if isinstance(folder, str | Path) else folder
    label = name or str(folder)
    classes, d1, p1 = _load(ClassesFile, node, "classes.toml", label)
    types_f, d2, p2 = _load(TroopTypesFile, node, "troop_types.toml", label)
    _check_types(types_f.type, classes, f"{label}/troop_types.toml")
    chart_f, d3, p3 = _load(MeleeChartFile, node, "melee_chart.toml", label)
    chart = _check_chart(chart_f, types_f.type, f"{label}/melee_chart.toml")
    mods, d4, p4 = _load(MeleeModifiersFile, node, "melee_modifiers.toml", label)
    weapons, d5, p5 = _load(WeaponsFile, node, "weapons.toml", label)
    _check_weapons(weapons, types_f.type, f"{label}/weapons.toml")
    morale, d6, p6 = _load(MoraleFile, node, "morale.toml", label)
    return Tables(
        name=label,
        classes=classes,
        types=dict(types_f.type),
        chart=chart,
        melee_modifiers=mods,
        weapons=dict(weapons.weapon),
        morale=morale,
        provenance=dict(zip(FILES, (p1, p2, p3, p4, p5, p6), strict=True)),
        digests=dict(zip(FILES, (d1, d2, d3, d4, d5, d6), strict=True)),
    )


def sample_folder() -> Traversable:
    """The package's illustrative sample data set."""
    return resources.files("shieldwall.rulesets.knight_hack") / "data" / "sample"


@cache
def sample_tables() -> Tables:
    """The illustrative sample data set (loaded once)."""
    return load_tables(sample_folder(), "knight-hack/data/sample")
