"""Rear support: who may support whom, the rear-support factors and the mitigating factors.

Clauses: dbm-3.2:rs.general (the conditions), dbm-3.2:rs.spears, dbm-3.2:rs.pikes,
dbm-3.2:rs.pikes-x, dbm-3.2:rs.psiloi, dbm-3.2:mrs (three mitigating factors applied to the winner
after grading), dbm-3.2:glossary (rear support counts only against types for which a factor,
outcome or mitigation is listed: each rule below names its opponents).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Rank:
    """A rear rank lined up behind the front element (2nd, 3rd, 4th in order)."""

    code: str
    grade: str
    going: str = "good"
    command: str = "c1"
    #: for psiloi: "bow", "crossbow", "handgun" or "" (mrs c)
    weapon: str = ""
    chariot: bool = False


def may_support(front_code: str, front_grade: str, rear: Rank) -> bool:
    """The pairwise conditions of dbm-3.2:rs.general the amendments state: no chariots, not in
    difficult going, Sp(O) cannot support Sp(S); Bd(X) only with Bd(X) (dbm-3.2:troops.bd-x)."""
    if rear.chariot or rear.going == "difficult":
        return False
    if front_code == "Sp" and front_grade == "S" and rear.code == "Sp" and rear.grade == "O":
        return False
    return (front_code == "Bd" and front_grade == "X") == (rear.code == "Bd" and rear.grade == "X")


def support_blocked(
    front_code: str,
    front_grade: str,
    going: str,
    defending_fort: bool,
    shot_at: bool,
    touching_exp_front: bool,
    just_into_cc_v_art_s: bool,
    chariot: bool,
) -> bool:
    """dbm-3.2:rs.general: rear support is not permitted if any rank is of chariots, or in difficult
    going, or defending fortifications, or being shot at (unless Cv or Kn(I)), touching the front
    edge of enemy expendables, or has just moved into close combat against Art(S) (ruling R17)."""
    if chariot or going == "difficult" or defending_fort or touching_exp_front or just_into_cc_v_art_s:
        return True
    return shot_at and not (front_code == "Cv" or (front_code == "Kn" and front_grade == "I"))


def valid_ranks(front_code: str, front_grade: str, ranks: tuple[Rank, ...], command: str) -> tuple[Rank, ...]:
    """The contiguous run of ranks that may support: same command, and each of the front's type
    or an intervening rank of the front's type (dbm-3.2:rs.general)."""
    out: list[Rank] = []
    for r in ranks:
        if r.command != command or not may_support(front_code, front_grade, r):
            break
        out.append(r)
    return tuple(out)


def rs_factor(
    code: str, grade: str, going: str, ranks: tuple[Rank, ...], opp_code: str, opp_skirmisher: bool
) -> list[tuple[int, str, str]]:
    """Rear support factors for the front element: [(delta, clause, words)]."""
    out: list[tuple[int, str, str]] = []
    if opp_code == "El":
        return out  # spears and pikes v elephants: outcome modified instead (out.sp, out.pk)
    if code == "Sp" and ranks and going == "good":
        r = ranks[0]
        if r.code == "Sp" and r.grade == grade and r.going == "good":
            out.append((1, "rs.spears", "2nd rank of spears"))
    if code == "Pk" and going == "good":
        for n, r in enumerate(ranks[:2], start=2):
            if grade != "X":
                ok = r.code == "Pk" and r.grade == grade and r.going == "good"
                clause = "rs.pikes"
            else:
                ok = r.code == "Pk" and r.grade in ("X", "I") and r.going == "good"
                clause = "rs.pikes-x"
            if not ok:
                break
            out.append((1, clause, f"rank {n} of pikes"))
    if code == "Ps" and grade in ("S", "O") and opp_skirmisher and ranks:
        r = ranks[0]
        if r.code == "Ps" and r.grade in (grade, "O"):
            out.append((1, "rs.psiloi", "supporting psiloi"))
    return out


def pike_fourth_rank(opp_code: str, opp_grade: str, opp_going: str, opp_ranks: tuple[Rank, ...]) -> bool:
    """dbm-3.2:rs.pikes: foot fighting to their front against pikes except (X) deduct 1 if the pikes
    have a 4th rank, all ranks pikes of the same grade in good going."""
    if opp_code != "Pk" or opp_grade == "X" or opp_going != "good" or len(opp_ranks) < 3:
        return False
    return all(r.code == "Pk" and r.grade == opp_grade and r.going == "good" for r in opp_ranks[:3])


def mitigations(
    winner_code: str,
    winner_grade: str,
    winner_defends_fort: bool,
    loser_code: str,
    loser_grade: str,
    loser_ranks: tuple[Rank, ...],
    loser_ps_permitted: bool,
    winner_class: str,
) -> list[tuple[int, str, str]]:
    """dbm-3.2:mrs: the winner's score is reduced by each that applies (at most once each: R4)."""
    out: list[tuple[int, str, str]] = []
    r2 = loser_ranks[0] if loser_ranks else None
    r3 = loser_ranks[1] if len(loser_ranks) > 1 else None
    if loser_code == "Cv" and r2 is not None:
        if (
            winner_code not in ("El", "Art")
            and r2.code == "Cv"
            and loser_grade in ("O", "I")
            and r2.grade == loser_grade
        ):
            out.append((-1, "mrs", "(a) cavalry supported by a 2nd rank of cavalry"))
        kn_x = winner_code == "Kn" and winner_grade == "X"
        if (
            (winner_code == "Cv" or kn_x)
            and loser_grade in ("O", "I")
            and r2.code == "Ps"
            and r2.grade in ("S", "I")  # the text's literal grades (ruling R3)
            and loser_ps_permitted
        ):
            out.append((-1, "mrs", "(b) cavalry supported by a 2nd rank of psiloi"))
    if loser_code in ("Sp", "Pk", "Bd", "Ax") and loser_ps_permitted:
        mounted_ok = winner_class == "mounted" and not (winner_code == "Kn" and winner_grade == "X")
        if winner_code in ("Wb", "WWg") or mounted_ok or winner_defends_fort:
            ps = [r for r in (r2, r3) if r is not None and r.code == "Ps"]
            single_bow = len(ps) == 1 and ps[0].weapon == "bow"
            xbow = len(ps) == 1 and ps[0] is r2 and r2.weapon in ("crossbow", "handgun")
            if single_bow or xbow:
                out.append((-1, "mrs", "(c) foot supported by a single rank of psiloi"))
    return out


@dataclass(frozen=True)
class Fighter:
    code: str
    grade: str
    regular: bool = True
    command: str = "c1"
    general: bool = False
    demoralised_command: bool = False
    going: str = "good"  # after the mixed-going rule (terrain.mixed-going)
    crossing_river: bool = False  # a non-paltry river, not at a road ford or bridge
    overlaps: int = 0  # enemy elements overlapping it (cc.overlap already applied)
    uphill: bool = False
    flank_contact: bool = False
    rear_contact: bool = False
    frontal: bool = True  # its opponent is to its front
    ranks: tuple[Rank, ...] = ()
    double_base_required: bool = False
    defending_fort: bool = False
    touching_exp_front: bool = False
    just_into_cc_v_art_s: bool = False
    chariot: bool = False
    ps_support_permitted: bool = False
    moved_into_contact_this_bound: bool = False
    train: bool = False
    aided: bool = False  # shooting aided by a 2nd rank of bowmen (shoot.aid)
