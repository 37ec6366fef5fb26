"""Loading a DBM 3.2 data set: the table files of one folder, validated, with the text's values locked.

A data set is a folder of ``troops``, ``geometry``, ``movement``, ``ranges``, ``factors``,
``outcomes``, ``pips``, ``costs``, ``terrain`` and ``game`` ``.toml`` files plus ``lists/*.toml``
(schemas in :mod:`.schemas`). Where the amendments state a value, the file may omit it (the text's
value is used) but may not contradict it: that is a :class:`DataError` naming the file, the field
and the clause (``dbm-3.2:factor.bw-cm``, ``dbm-3.2:cost.bd-ax``, ``dbm-3.2:fig.10b`` ...).

The package ships ``data/sample``, an illustrative set (``illustrative = true`` in every file):
invented numbers, labelled with :data:`.schemas.SAMPLE_LABEL` wherever used.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

from shieldwall.core.datafiles import read_text, validate
from shieldwall.core.errors import DataError
from shieldwall.rulesets.dbm.clauses import rule
from shieldwall.rulesets.dbm.schemas import (
    SAMPLE_LABEL,
    ArmyList,
    BaseFactor,
    CostRow,
    CostsFile,
    FactorsFile,
    GameFile,
    GeometryFile,
    MovementFile,
    OrderOfBattle,
    OutcomesFile,
    PipsFile,
    RangesFile,
    TerrainFile,
    TroopsFile,
)

M = TypeVar("M", bound=BaseModel)

#: factor.bw-cm: the only base-factor rows the amendments give
LOCKED_BASE: dict[str, dict[str, int]] = {
    "Bw": {"v_mounted": 4, "v_naval": 3, "v_bowmen_shooting": 3, "v_foot": 2},
    "Cm": {"v_mounted": 4, "v_naval": 3, "v_foot": 2},
}
#: cost.bd-ax: (regular, code, grade) -> AP
LOCKED_COSTS: dict[tuple[bool, str, str], float] = {
    (True, "Bd", "S"): 8.0,
    (True, "Bd", "O"): 6.0,
    (True, "Bd", "I"): 4.0,
    (True, "Bd", "F"): 6.0,
    (True, "Bd", "X"): 7.0,
    (False, "Bd", "I"): 3.0,
    (True, "Ax", "S"): 4.5,
    (True, "Ax", "O"): 3.5,
    (True, "Ax", "I"): 2.5,
    (True, "Ax", "X"): 3.0,
}
#: fig.10b: "A's shooting range (200p)"
BOW_RANGE_P = 200.0
#: fig.11: "-1 for being overlapped", "a further +1 for the general"
LOCKED_TACTICAL = {"overlap": (-1, "fig.11"), "general": (1, "fig.11")}
#: the outcome rows the text replaces (out.*): a user row for these is refused
TEXT_ROWS = {"Kn": "out.kn", "Sp": "out.sp", "Pk": "out.pk", "Bd": "out.bd", "Hd": "out.hd"}
#: rs.deleted: base rear-support bullets 2, 6, 8, 13, 14
DELETED_RS = ("rs_base_2", "rs_base_6", "rs_base_8", "rs_base_13", "rs_base_14")
#: victory.quarter: VPs on the "0 to 10" scale
VP_SCALE = 10


@dataclass(frozen=True)
class Tables:
    """A validated data set."""

    folder: str
    troops: TroopsFile
    geometry: GeometryFile
    movement: MovementFile
    ranges: RangesFile
    factors: FactorsFile
    outcomes: OutcomesFile
    pips: PipsFile
    costs: CostsFile
    terrain: TerrainFile
    game: GameFile
    lists: dict[str, ArmyList]

    @property
    def illustrative(self) -> bool:
        files: list[TroopsFile | GeometryFile | FactorsFile | OutcomesFile | CostsFile | ArmyList] = [
            self.troops,
            self.geometry,
            self.factors,
            self.outcomes,
            self.costs,
            *self.lists.values(),
        ]
        return any(f.meta.illustrative for f in files)

    @property
    def label(self) -> str | None:
        """The banner every header, log and picture carries when the data is illustrative."""
        return SAMPLE_LABEL if self.illustrative else None

    @property
    def bw(self) -> float:
        return self.geometry.bw_p

    def depth(self, code: str) -> float:
        return self.troops.type[code].depth_p

    def base(self, code: str) -> BaseFactor:
        try:
            return self.factors.base[code]
        except KeyError:
            raise DataError(
                f"{self.folder}/factors.toml", f"base.{code}", "missing (no base factor row)"
            ) from None

    def cost(self, regular: bool, code: str, grade: str) -> float:
        for r in self.costs.cost:
            if r.regular == regular and r.code == code and r.grade == grade:
                return r.ap
        raise DataError(
            f"{self.folder}/costs.toml", "cost", f"no row for {'Reg' if regular else 'Irr'} {code}({grade})"
        )


def _read(node: Traversable | Path, where: str) -> dict[str, Any]:
    """A data file as TOML. A file of the user's (a ``Path``) is read as the core reads data files
    (``core.datafiles.read_text``: a regular file of at most ``MAX_FILE_BYTES``; a device or a huge
    file is refused, not read); the package's own files as they are."""
    try:
        text = read_text(node) if isinstance(node, Path) else node.read_text(encoding="utf-8")
        return tomllib.loads(text.removeprefix("\ufeff"))
    except FileNotFoundError:
        raise DataError(where, "", "file not found (a data set needs every table)") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(where, "", f"cannot read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise DataError(where, "", f"not valid TOML: {exc}") from None


def _lock_factors(raw: dict[str, Any], where: str) -> dict[str, Any]:
    rs = raw.get("rear_support", {})
    for k in DELETED_RS:
        if isinstance(rs, dict) and k in rs:
            raise DataError(where, f"rear_support.{k}", f"deleted by the amendments ({rule('rs.deleted')})")
    base = dict(raw.get("base", {}))
    for code, locked in LOCKED_BASE.items():
        row = dict(base.get(code, {}))
        for k, v in locked.items():
            if k in row and row[k] != v:
                raise DataError(
                    where, f"base.{code}.{k}", f"{row[k]} contradicts the text's {v} ({rule('factor.bw-cm')})"
                )
            row[k] = v
        row.setdefault("shot_at", 0)
        base[code] = row
    for i, m in enumerate(raw.get("tactical", [])):
        lock = LOCKED_TACTICAL.get(m.get("when", ""))
        if lock and m.get("delta") != lock[0]:
            raise DataError(
                where,
                f"tactical[{i}].delta",
                f"{m.get('delta')} contradicts the text's {lock[0]} ({rule(lock[1])})",
            )
    tactical = list(raw.get("tactical", []))
    for when, (delta, _c) in LOCKED_TACTICAL.items():
        if not any(m.get("when") == when for m in tactical):
            tactical.append({"id": when, "delta": delta, "when": when})
    return {**raw, "base": base, "tactical": tactical}


def _lock_costs(f: CostsFile, where: str) -> CostsFile:
    rows = list(f.cost)
    for i, r in enumerate(rows):
        want = LOCKED_COSTS.get((r.regular, r.code, r.grade))
        if want is not None and r.ap != want:
            raise DataError(
                where, f"cost[{i}].ap", f"{r.ap} contradicts the text's {want} ({rule('cost.bd-ax')})"
            )
    have = {(r.regular, r.code, r.grade) for r in rows}
    for k, v in LOCKED_COSTS.items():
        if k not in have:
            rows.append(CostRow.model_validate({"regular": k[0], "code": k[1], "grade": k[2], "ap": v}))
    return f.model_copy(update={"cost": rows})


def _check(t: Tables) -> None:
    d = t.folder
    bw = t.ranges.range_p.get("Bw")
    if bw is not None and bw != BOW_RANGE_P:
        raise DataError(
            f"{d}/ranges.toml", "range_p.Bw", f"{bw} contradicts the text's 200 p ({rule('fig.10b')})"
        )
    for i, r in enumerate(t.outcomes.row):
        if r.band == "beaten" and r.loser in TEXT_ROWS:
            raise DataError(
                f"{d}/outcomes.toml", f"row[{i}]", f"the text gives this row ({rule(TEXT_ROWS[r.loser])})"
            )
        if (
            r.loser == "Pk"
            and r.band == "doubled"
            and r.otherwise != "destroyed"
            and "Bd" not in r.destroyed_by
        ):
            raise DataError(
                f"{d}/outcomes.toml", f"row[{i}]", f"pikes scoring half or less die ({rule('fig.11')})"
            )
    ww = t.terrain.feature.get("WW")
    if ww is not None and ww.fe != 1:
        raise DataError(
            f"{d}/terrain.toml", "feature.WW.fe", f"{ww.fe} contradicts 1 FE ({rule('terrain.ww-extent')})"
        )
    if t.game.vp_scale_max != VP_SCALE:
        raise DataError(
            f"{d}/game.toml", "vp_scale_max", f"the text's scale is 0 to 10 ({rule('victory.quarter')})"
        )


def load_tables(folder: Traversable | Path, name: str | None = None) -> Tables:
    """Load and check a data set folder (a ``DataError`` names the file and field on any problem)."""
    label = name or str(folder)

    def one(model: type[M], stem: str, fix: Any = None) -> M:
        where = f"{label}/{stem}.toml"
        raw = _read(folder / f"{stem}.toml", where)
        if fix is not None:
            raw = fix(raw, where)
        return validate(model, raw, where)

    lists: dict[str, ArmyList] = {}
    lf = folder / "lists"
    if lf.is_dir():
        for node in sorted(lf.iterdir(), key=lambda n: n.name):
            if node.name.endswith(".toml"):
                where = f"{label}/lists/{node.name}"
                al = validate(ArmyList, _read(node, where), where)
                lists[al.id] = al
    t = Tables(
        folder=label,
        troops=one(TroopsFile, "troops"),
        geometry=one(GeometryFile, "geometry"),
        movement=one(MovementFile, "movement"),
        ranges=one(RangesFile, "ranges"),
        factors=one(FactorsFile, "factors", _lock_factors),
        outcomes=one(OutcomesFile, "outcomes"),
        pips=one(PipsFile, "pips"),
        costs=_lock_costs(one(CostsFile, "costs"), f"{label}/costs.toml"),
        terrain=one(TerrainFile, "terrain"),
        game=one(GameFile, "game"),
        lists=lists,
    )
    _check(t)
    return t


@cache
def sample_tables() -> Tables:
    """The illustrative sample shipped in the package (NOT the published DBM tables)."""
    return load_tables(resources.files("shieldwall.rulesets.dbm") / "data" / "sample", "dbm-3.2/sample")


def load_order_of_battle(path: Traversable | Path, name: str | None = None) -> OrderOfBattle:
    where = name or str(path)
    return validate(OrderOfBattle, _read(path, where), where)
