"""Combat outcomes: the rows the amendments restate, and the user's rows for the rest.

dbm-3.2:out.kn, dbm-3.2:out.sp, dbm-3.2:out.pk, dbm-3.2:out.bd, dbm-3.2:out.hd give the "less than
its opponent but more than half" band of five types; dbm-3.2:out.wb-support overrides the user's
warband row; everything else is ``outcomes.toml``. "If in going these count as good" reads the
winner's own going (ruling R6).
"""

from __future__ import annotations

from typing import Any

from shieldwall.core.errors import DataError
from shieldwall.rulesets.dbm.clauses import rule
from shieldwall.rulesets.dbm.support import Fighter, Rank
from shieldwall.rulesets.dbm.tables import Tables


def _r(result: str, clause: str, why: str) -> dict[str, Any]:
    return {"result": result, "rule": rule(clause), "why": why}


def _fast_good(w: Fighter, wg: str) -> bool:
    return (w.code in ("Kn", "Exp") or (w.code == "Cm" and wg == "S")) and w.going == "good"


def text_row(
    lf: Fighter, lg: str, ranks: tuple[Rank, ...], w: Fighter, wg: str, kind: str
) -> dict[str, Any] | None:
    cc = kind == "cc"
    r2 = ranks[0] if ranks else None
    if lf.code == "Kn":
        if w.code in ("El", "Exp", "LH"):
            return _r("destroyed", "out.kn", f"knights beaten by {w.code}")
        if w.code == "Bw" and wg == "S" and lf.moved_into_contact_this_bound:
            return _r("destroyed", "out.kn", "knights beaten by (S) bowmen they contacted this bound")
        if cc and lf.going == "difficult":
            return _r("destroyed", "out.kn", "knights beaten in close combat in difficult going")
        return _r("recoil", "out.kn", "knights beaten")
    if lf.code in ("Sp", "Pk"):
        clause = "out.sp" if lf.code == "Sp" else "out.pk"
        if cc and w.code == "El" and lf.frontal and r2 is not None and r2.code == lf.code:
            ok = r2.grade == lg or (lf.code == "Pk" and lg == "X" and r2.grade in ("X", "I"))
            if ok:
                return _r("recoil", clause, "supported by a 2nd rank against elephants")
        if w.code == "El" or _fast_good(w, wg):
            return _r(
                "destroyed",
                clause,
                f"beaten by {w.code} in good going" if w.code != "El" else "beaten by elephants",
            )
        if w.code == "Wb":
            return _r("destroyed", clause, "beaten by warband")
        return _r("recoil", clause, "beaten")
    if lf.code == "Bd":
        v_kn = cc and lf.frontal and lg in ("S", "O") and (w.code == "Kn" or (w.code == "Cm" and wg == "S"))
        rear_ok = (
            r2 is not None
            and r2.code == "Bd"
            and (r2.grade in ("S", "O") or (lf.grade == "X" and r2.grade == "X"))
        )
        if v_kn and rear_ok:
            return _r("recoil", "out.bd", "supported by a 2nd rank of (S) or (O) blades")
        if _fast_good(w, wg) or w.code == "Wb":
            return _r("destroyed", "out.bd", f"beaten by {w.code}")
        return _r("recoil", "out.bd", "beaten")
    if lf.code == "Hd":
        if _fast_good(w, wg) or w.code in ("El", "Wb"):
            return _r("destroyed", "out.hd", f"beaten by {w.code}")
        if lg == "I" and cc:
            return _r("destroyed", "out.hd", "(I) hordes beaten in close combat")
        if lg == "I":
            return _r("none", "out.hd", "(I) hordes beaten by shooting: no recoil (ruling R8)")
        return _r("recoil", "out.hd", "beaten")
    return None


def outcome(
    tb: Tables, lf: Fighter, lg: str, ranks: tuple[Rank, ...], w: Fighter, wg: str, band: str, kind: str
) -> dict[str, Any]:
    """The loser's outcome in ``band`` ("beaten": less, more than half; "doubled": half or less)."""
    if band == "beaten":
        got = text_row(lf, lg, ranks, w, wg, kind)
        if got is not None:
            return got
        if (
            lf.code == "Wb"
            and lg in ("S", "O")
            and kind == "cc"
            and lf.frontal
            and (w.code in ("Kn", "El") or (w.code == "Cm" and wg == "S"))
            and len(ranks) >= 3
            and all(r.code == "Wb" and r.grade in ("S", "O") for r in ranks[:3])
        ):
            return _r("recoil", "out.wb-support", "supported by 2nd, 3rd and 4th ranks of warband")
    for row in tb.outcomes.row:
        if row.loser == lf.code and row.band == band:
            res = "destroyed" if w.code in row.destroyed_by else row.otherwise
            clause = "fig.11"  # the bands and their order (ruling R7)
            return {
                "result": res,
                "rule": rule(clause),
                "why": f"{lf.code} {band} by {w.code} (outcomes data)",
            }
    raise DataError(f"{tb.folder}/outcomes.toml", "row", f"no row for {lf.code} {band}")
