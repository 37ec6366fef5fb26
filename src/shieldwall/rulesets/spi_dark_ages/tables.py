"""Loading a Dark Ages data set: ``units.toml``, ``tec.toml``, ``cuc.toml``, ``crt.toml``,
``rules.toml`` and ``map.toml`` of one folder, validated and cross-checked.

A missing or inconsistent file is a one-line :class:`DataError` naming the file and the field; a
value that contradicts the errata names the clause (``spi-dark-ages:<id>``). The package ships
``data/sample``, an *illustrative* data set (``provenance = "illustrative"``): invented numbers and an
original map, NOT SPI's, labelled wherever used (:attr:`Charts.label`).
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
from shieldwall.rulesets.spi_dark_ages.clauses import rule
from shieldwall.rulesets.spi_dark_ages.schemas import (
    ATTACKER_CLASSES,
    CLASSES,
    KINDS,
    PHASES,
    SAMPLE_LABEL,
    CrtFile,
    CrtTable,
    CucFile,
    MapFile,
    RulesFile,
    TecFile,
    UnitsFile,
    UnitType,
    effect_value,
)

M = TypeVar("M", bound=BaseModel)

FILES = ("units.toml", "tec.toml", "cuc.toml", "crt.toml", "rules.toml", "map.toml")
#: terrain types the engine needs in every TEC
REQUIRED_TERRAIN = ("clear", "woods", "slope", "swamp", "stream", "river")

#: errata constants (code, not data)
COMMAND_VP = 10  # victory.vp
FLEET_CAPACITY = 3  # stacking.C.capacity
STREAM_MP = 2.0  # tec.stream
STREAM_CROSSING_MP = 2.0  # tec.stream
WATER_SIDE_MP = 2.0  # tec.land-water
ROAD_MP = 0.5  # tec.road
BRIDGE_FROM_ROAD_MP, BRIDGE_MP = 0.5, 1.0  # tec.bridge
WOODED_SLOPE_MP = 4.0  # tec.mixed-mp
FPS_CAP = 4  # tec.fps-cap
OFF_MAP_MP = 1.0  # panic.flight.exit
KIND_NAMES = frozenset(KINDS)
#: (cavalry kind) -> (clause, min_hexes or None, floor)
CHARGE_LOCKS = {
    "medium": ("cavalry.mc-charge", 2, 1),
    "heavy": ("cavalry.floors", None, 2),
    "cataphract": ("cavalry.cataphract", 3, 2),
}


@dataclass(frozen=True)
class Charts:
    """One validated data set."""

    name: str
    units: dict[str, UnitType]
    tec: TecFile
    cuc: CucFile
    crt: CrtFile
    rules: RulesFile
    map: MapFile
    provenance: dict[str, str]
    digests: dict[str, str]
    #: the data set's folder (other maps of the set are read from it: :func:`load_map`)
    folder: Any = None

    @property
    def label(self) -> str | None:
        """The banner to show wherever these charts are used, or None for user or SPI files."""
        return SAMPLE_LABEL if "illustrative" in self.provenance.values() else None


def errata(file: str, field: str, clause: str, what: str) -> DataError:
    return DataError(file, field, f"{what} contradicts the errata ({rule(clause)})")


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


def check_units(types: dict[str, UnitType], file: str) -> None:
    for tid, t in types.items():
        at = f"type.{tid}"
        if t.cls == "command" and t.vp != COMMAND_VP:
            raise errata(file, f"{at}.vp", "victory.vp", f"a command unit worth {t.vp} VP (not {COMMAND_VP})")
        if t.cls == "fleet":
            if t.stacking_points != 0:
                raise errata(file, f"{at}.stacking_points", "stacking.C", "a fleet with stacking points")
            if t.capacity != FLEET_CAPACITY:
                raise errata(
                    file, f"{at}.capacity", "stacking.C.capacity", f"a fleet capacity of {t.capacity} (not 3)"
                )
        if t.cls in ("IV", "V") and (t.missile <= 0 or t.range <= 0):
            raise DataError(
                file, f"{at}.missile", f"a Class {t.cls} missile unit needs missile and range > 0"
            )
        if t.cavalry != "none":
            if t.charge is None:
                raise DataError(file, f"{at}.charge", "cavalry needs charge = {min_hexes, shortfall, floor}")
            clause, need, floor = CHARGE_LOCKS[t.cavalry]
            if need is not None and t.charge.min_hexes != need:
                raise errata(
                    file, f"{at}.charge.min_hexes", clause, f"a minimum charge of {t.charge.min_hexes}"
                )
            if t.charge.floor != floor:
                raise errata(file, f"{at}.charge.floor", clause, f"a short-charge floor of {t.charge.floor}")
        for ref in ("dismounts_to", "mount"):
            other = getattr(t, ref)
            if other is not None and other not in types:
                raise DataError(file, f"{at}.{ref}", f"no unit type {other!r}")
        if t.dismounts_to is not None:
            if t.mount is None:
                raise DataError(
                    file, f"{at}.mount", "a cavalry type that dismounts names its riderless mount type"
                )
            want = t.vp - types[t.dismounts_to].vp
            if types[t.mount].vp != want:
                raise errata(
                    file,
                    f"type.{t.mount}.vp",
                    "dismount.vp",
                    f"a riderless mount worth {types[t.mount].vp} (not {want})",
                )


def check_tec(tec: TecFile, types: dict[str, UnitType], file: str) -> None:
    for tid in REQUIRED_TERRAIN:
        if tid not in tec.terrain:
            raise DataError(
                file, f"terrain.{tid}", "missing (every TEC gives " + ", ".join(REQUIRED_TERRAIN) + ")"
            )
    t = tec.terrain
    if t["stream"].mp != STREAM_MP:
        raise errata(file, "terrain.stream.mp", "tec.stream", f"a stream cost of {t['stream'].mp}")
    if t["river"].mp != "P":
        raise errata(file, "terrain.river.mp", "tec.river", "an enterable river hex")
    costs = [t[k].mp for k in ("woods", "slope")]
    if "P" in costs or max(float(c) for c in costs) != WOODED_SLOPE_MP:
        raise errata(
            file, "terrain.woods.mp", "tec.mixed-mp", f"a wooded slope cost of max{tuple(costs)} (not 4)"
        )
    for tid, ter in t.items():
        if tid != "keep" and ter.fps > FPS_CAP:
            raise errata(
                file, f"terrain.{tid}.fps", "tec.fps-cap", f"a Fire Protection Strength of {ter.fps}"
            )
        for k in ter.road_only:
            if k not in CLASSES:
                raise DataError(file, f"terrain.{tid}.road_only", f"{k!r} is not a class")
    for tid in ("woods", "swamp"):
        if t[tid].attack.get("V", "P") != "P":
            raise errata(file, f"terrain.{tid}.attack.V", "tec.classV", "Class V allowed to attack")
    for tid, ter in t.items():
        for k in ter.mp_by_class:
            if k not in KIND_NAMES:
                raise DataError(file, f"terrain.{tid}.mp_by_class.{k}", "not a class, command or fleet")


def check_cuc(cuc: CucFile, types: dict[str, UnitType], file: str) -> None:
    for tid, u in types.items():
        if u.cls == "fleet":
            continue
        row = cuc.defender.get(tid)
        if row is None:
            raise DataError(file, f"defender.{tid}", f"no row for unit type {tid!r} ({rule('cuc')})")
        for c in ATTACKER_CLASSES:
            if c not in row:
                raise DataError(
                    file, f"defender.{tid}.{c}", f"no multiplier against class {c} ({rule('cuc')})"
                )
        for k, e in row.items():
            if k not in ATTACKER_CLASSES and not (k.startswith("flank_") and k[6:] in ATTACKER_CLASSES):
                raise DataError(file, f"defender.{tid}.{k}", "not a class or flank_<class>")
            if effect_value(e) is None:
                raise DataError(file, f"defender.{tid}.{k}", "a CUC multiplier cannot be 'P'")


def _check_table(t: CrtTable, results: set[str], file: str, name: str) -> None:
    ratios = [(c.att, c.defn) for c in t.columns]
    for i in range(1, len(ratios)):
        if ratios[i][0] * ratios[i - 1][1] <= ratios[i - 1][0] * ratios[i][1]:
            raise DataError(file, f"{name}.columns[{i}]", "column odds must strictly increase")
    if t.min_row > t.max_row:
        raise DataError(file, f"{name}.min_row", "above max_row")
    for r in range(t.min_row, t.max_row + 1):
        row = t.rows.get(str(r))
        if row is None:
            raise DataError(file, f"{name}.rows", f"no row {r} (rows {t.min_row}..{t.max_row})")
        if len(row) != len(t.columns):
            raise DataError(file, f"{name}.rows.{r}", f"{len(row)} results for {len(t.columns)} columns")
        for code in row:
            if code not in results:
                raise DataError(file, f"{name}.rows.{r}", f"result {code!r} is not defined in [results]")
    extra = set(t.rows) - {str(r) for r in range(t.min_row, t.max_row + 1)}
    if extra:
        raise DataError(file, f"{name}.rows", f"row {sorted(extra)[0]} is outside min_row..max_row")
    ids = {c.id for c in t.columns}
    for k in ("below_min", "above_max"):
        v = getattr(t, k)
        if v not in ids and v not in results:
            raise DataError(file, f"{name}.{k}", f"{v!r} is neither a column id nor a result code")


def check_crt(crt: CrtFile, file: str) -> None:
    for code, clause in (("DD", "demoralization.DD"), ("1E", "crt.loss"), ("2E", "crt.loss")):
        if code not in crt.results:
            raise errata(file, f"results.{code}", clause, f"a CRT without the {code} result")
    codes = set(crt.results)
    _check_table(crt.melee, codes, file, "melee")
    _check_table(crt.fire, codes, file, "fire")


def check_rules(r: RulesFile, file: str) -> None:
    seq = r.sequence
    if len(set(seq)) != len(seq) or set(seq) != set(PHASES) or seq[0] != "movement":
        raise DataError(file, "sequence", f"the five phases once each, movement first ({rule('sequence')})")
    if seq.index("allocation") > min(seq.index(p) for p in ("defensive-fire", "offensive-fire", "melee")):
        raise DataError(file, "sequence", f"attack allocation comes before any combat ({rule('command.B')})")


def load_charts(folder: Traversable | Path | str, name: str | None = None) -> Charts:
    """Load and check the data set in ``folder`` (``DataError`` naming file and field)."""
    node: Traversable = Path(folder) if isinstance(folder, str | Path) else folder
    label = name or str(folder)
    got: dict[str, tuple[Any, str, str]] = {}
    models: dict[str, type[BaseModel]] = {
        "units.toml": UnitsFile,
        "tec.toml": TecFile,
        "cuc.toml": CucFile,
        "crt.toml": CrtFile,
        "rules.toml": RulesFile,
        "map.toml": MapFile,
    }
    for f in FILES:
        data, digest = _read(node / f, f"{label}/{f}")
        obj = validate(models[f], data, f"{label}/{f}")
        got[f] = (obj, digest, obj.meta.provenance)  # type: ignore[attr-defined]
    units: UnitsFile = got["units.toml"][0]
    check_units(units.type, f"{label}/units.toml")
    check_tec(got["tec.toml"][0], units.type, f"{label}/tec.toml")
    check_cuc(got["cuc.toml"][0], units.type, f"{label}/cuc.toml")
    check_crt(got["crt.toml"][0], f"{label}/crt.toml")
    check_rules(got["rules.toml"][0], f"{label}/rules.toml")
    return Charts(
        name=label,
        units=dict(units.type),
        tec=got["tec.toml"][0],
        cuc=got["cuc.toml"][0],
        crt=got["crt.toml"][0],
        rules=got["rules.toml"][0],
        map=got["map.toml"][0],
        provenance={f: got[f][2] for f in FILES},
        digests={f: got[f][1] for f in FILES},
        folder=node,
    )


def load_map(charts: Charts, name: str) -> MapFile:
    """Another map of the data set (``map-<name>.toml`` beside ``map.toml``), validated."""
    if name == "map.toml":
        return charts.map
    if "/" in name or "\\" in name or not name.startswith("map-") or not name.endswith(".toml"):
        raise DataError(charts.name, "map", f"{name!r}: a map of the data set is a file map-<name>.toml")
    data, _ = _read(charts.folder / name, f"{charts.name}/{name}")
    m = validate(MapFile, data, f"{charts.name}/{name}")
    if m.meta.provenance == "illustrative" and charts.label is None:
        raise DataError(f"{charts.name}/{name}", "meta.provenance", "an illustrative map in a user data set")
    return m


def sample_folder() -> Traversable:
    """The package's illustrative sample data set."""
    return resources.files("shieldwall.rulesets.spi_dark_ages") / "data" / "sample"


@cache
def sample_charts() -> Charts:
    """The illustrative sample data set (loaded once)."""
    return load_charts(sample_folder(), "spi-dark-ages/data/sample")
