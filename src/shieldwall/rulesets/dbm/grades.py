"""Effective grades of the two exception grades the amendments rewrite.

dbm-3.2:troops.kn-x (Knights (X)) and dbm-3.2:troops.bd-x (Blades (X)); every other element fights
at its listed grade. Rulings R16 (Kn(X) in flank/rear fights or shot at by artillery: "otherwise"
gives (O)) and R3-bd (Bd(X) support only between Bd(X)).
"""

from __future__ import annotations

NAVAL = ("Shp", "Gal", "Bts")


def kn_x_grade(kind: str, frontal: bool, opp_code: str, opp_grade: str) -> str:
    """Kn(X): (S) shot at by bowmen or naval, or in frontal CC v LH, Sp, Pk, Bw; (I) in frontal CC
    v knights except (X), expendables or warband; otherwise (O)."""
    if kind == "shooting":
        return "S" if opp_code == "Bw" or opp_code in NAVAL else "O"
    if frontal and opp_code in ("LH", "Sp", "Pk", "Bw"):
        return "S"
    if frontal and ((opp_code == "Kn" and opp_grade != "X") or opp_code in ("Exp", "Wb")):
        return "I"
    return "O"


def bd_x_grade(kind: str, frontal: bool, opp_code: str, opp_grade: str, double_base_required: bool) -> str:
    """Bd(X): (S) in frontal CC v knights or Cm(S); (O) in other frontal CC if their list requires a
    double element base; otherwise (F) (impetuosity is the base rule's, not graded here)."""
    if kind == "cc" and frontal and (opp_code == "Kn" or (opp_code == "Cm" and opp_grade == "S")):
        return "S"
    if kind == "cc" and frontal and double_base_required:
        return "O"
    return "F"


def effective_grade(
    code: str,
    grade: str,
    kind: str,
    frontal: bool,
    opp_code: str,
    opp_grade: str,
    double_base_required: bool = False,
) -> str:
    if code == "Kn" and grade == "X":
        return kn_x_grade(kind, frontal, opp_code, opp_grade)
    if code == "Bd" and grade == "X":
        return bd_x_grade(kind, frontal, opp_code, opp_grade, double_base_required)
    return grade
