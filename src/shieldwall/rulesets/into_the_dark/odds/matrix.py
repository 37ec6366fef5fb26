"""The matchup table of the into-the-dark odds: its representative troop types (a data file, read
and checked once) and every type against every other (:func:`matrix_odds`)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path

from shieldwall.core.errors import ShieldwallError
from shieldwall.odds.results import Grid, MatrixOdds, PGrid, Prob, Progress
from shieldwall.odds.settings import ReadSettings

from .model import DuelModel
from .settings import FACINGS
from .sides import Side, rule_error, side, side_of, situation_dist, situations
from .spec import RS, parse_spec

#: The representative troop types of the matchup table (a data file: into-the-dark has no fixed list).
TYPES_FILE = Path(__file__).resolve().parents[1] / "data" / "into-the-dark-types.toml"
_TYPE_FIELDS = {"name": str, "short": str, "spec": str, "core": bool, "source": str}


@dataclass(frozen=True, slots=True)
class TroopType:
    """One representative troop type: a name, a short column label, its SPEC and where it comes from."""

    name: str
    short: str
    spec: str
    core: bool
    source: str


def load_troop_types(path: Path | str = TYPES_FILE) -> tuple[TroopType, ...]:
    """Read and check a troop-types file: every field present and of its type, names and short labels
    unique (short: at most 5 characters), and every SPEC a valid unit (``army.check_unit``).

    >>> [t.name for t in troop_types() if t.core][:3]
    ['huscarls', 'select fyrd', 'levy spearmen']
    """
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ShieldwallError(f"{path}: cannot read the troop types: {exc}") from None
    rows = data.get("types")
    if not isinstance(rows, list) or not rows:
        raise ShieldwallError(f"{path}: expected [[types]] entries")
    out: list[TroopType] = []
    for n, row in enumerate(rows, 1):
        where = f"{path.name}: [[types]] #{n}"
        if not isinstance(row, dict):
            raise ShieldwallError(f"{where}: expected a table")
        extra = set(row) - set(_TYPE_FIELDS)
        if extra:
            raise ShieldwallError(f"{where}: unknown field(s) {', '.join(sorted(extra))}")
        for k, typ in _TYPE_FIELDS.items():
            if not isinstance(row.get(k), typ):
                raise ShieldwallError(f"{where}: field {k!r} must be a {typ.__name__}")
        t = TroopType(**row)
        if not 1 <= len(t.short) <= 5:
            raise ShieldwallError(f"{where} ({t.name}): short label {t.short!r} must be 1-5 characters")
        try:
            side(parse_spec(t.spec))
        except ShieldwallError as exc:
            raise ShieldwallError(f"{where} ({t.name}): {exc}") from None
        out.append(t)
    for attr in ("name", "short"):
        seen: set[str] = set()
        for t in out:
            v = getattr(t, attr).lower()
            if v in seen:
                raise ShieldwallError(f"{path.name}: {attr} {getattr(t, attr)!r} appears twice")
            seen.add(v)
    return tuple(out)


@cache
def troop_types() -> tuple[TroopType, ...]:
    """The representative troop types (``data/into-the-dark-types.toml`` of the rule system), loaded once."""
    return load_troop_types()


def matrix_odds(s: ReadSettings, progress: Progress | None = None, exact: bool = False) -> MatrixOdds:
    """The matchup table in the settings ``s`` (``types``, ``charge``): the mean casualties of one
    round of melee on each facing, and P(the row type wins / the duel is drawn) of a frontal duel it
    opens with its charge (float64, or exact fractions with ``exact``); ``progress("duels", done,
    total)`` after each duel."""
    types = [t for t in troop_types() if s["types"] == "all" or t.core]
    sides = [side_of(t.spec) for t in types]
    charge = str(s["charge"])
    melee = situations()[0]
    from shieldwall.odds import float_rounds
    from shieldwall.odds.simultaneous import simultaneous_duel

    def impetuous(a: Side) -> bool:
        return charge == "impetuous" and (a.unit.mounted or a.unit.has("warband"))

    mean: dict[str, Grid] = {}
    for facing in FACINGS:
        grid: Grid = []
        for a in sides:
            imp = impetuous(a)
            att = a.troops()
            row: list[Fraction | None] = []
            for b in sides:
                sit = melee.MeleeSituation(
                    att,
                    b.troops(),
                    **{facing: a.fighting(a.figures, False)},
                    charging=charge != "none",
                    impetuous=imp,
                )
                row.append(situation_dist(sit).mean())
            grid.append(row)
        mean[facing] = grid
    wins: PGrid = []
    draws: PGrid = []
    bound = 0.0
    for a in sides:
        wrow: list[Prob | None] = []
        drow: list[Prob | None] = []
        for b in sides:
            model = DuelModel(a, b, charge != "none", impetuous(a), False, False)
            try:  # win probabilities only
                if exact:
                    sol = simultaneous_duel(model, max_turns=1)
                    wrow.append(sol.first_wins)
                    drow.append(sol.draw)
                else:
                    fsol = float_rounds.solve(model, max_turns=1)
                    wrow.append(fsol.first_wins)
                    drow.append(fsol.draw)
                    bound = max(bound, fsol.error_bound)
            except ValueError as exc:
                raise rule_error(exc) from None
            if progress is not None:
                progress("duels", len(wins) * len(sides) + len(wrow), len(sides) ** 2)
        wins.append(wrow)
        draws.append(drow)
    # ("its charge", "its impetuous charge": the setting's value names the charge, "charge" itself
    # not twice)
    opening = "charge" if charge == "charge" else f"{charge} charge"
    notes = (
        f"types: {TYPES_FILE.name} ({len(types)} of {len(troop_types())}); every unit in two ranks",
        "mean: casualties the row inflicts in one round of melee on the column's facing, every "
        "figure in contact" + ("" if charge == "none" else f", with its {opening}"),
        "duel: frontal, in simultaneous rounds with morale tests, to a rout or destruction; "
        + ("no charge" if charge == "none" else f"the row opens with its {opening}"),
    )
    return MatrixOdds(
        RS,
        s,
        tuple(t.name for t in types),
        FACINGS,
        mean,
        {"front": wins},
        "casualties",
        draws={"front": draws},
        short=tuple(t.short for t in types),
        descriptions=tuple(t.spec for t in types),
        notes=notes,
        exact=exact,
        error_bound=bound,
    )
