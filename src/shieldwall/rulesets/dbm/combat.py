"""Resolving a close combat or a shooting combat between two elements, in the order of Fig 11.

A :class:`Fighter` is everything about one side of a combat the rules read (its type and grade,
going, general, overlaps, rear ranks already lined up behind it...), so the same code serves the
battle, the odds engine and the Fig 11 golden. The order (dbm-3.2:fig.11, ruling R1):

1. base factor by the opponent's class (user data; Bw and Cm rows are the text's, factor.bw-cm),
2. tactical factors: data (general +1 and overlap -1 each are fixed by Fig 11), tf.demoralised,
   tf.rough, rear-support factors (rs.*), the pikes' 4th rank (rs.pikes),
3. the die,
4. grading factors on those totals (grade.vs-f; data for the rest), with effective grades
   (troops.kn-x, troops.bd-x),
5. mitigating rear support on the winner (mrs),
6. the outcome band: beaten (less, more than half) or doubled (half or less), and the row
   (out.* for the text's five types, out.wb-support, the data rows otherwise).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from shieldwall.rulesets.dbm.clauses import rule
from shieldwall.rulesets.dbm.grades import NAVAL, effective_grade
from shieldwall.rulesets.dbm.outcomes import outcome
from shieldwall.rulesets.dbm.support import (
    Fighter,
    Rank,
    mitigations,
    pike_fourth_rank,
    rs_factor,
    support_blocked,
    valid_ranks,
)
from shieldwall.rulesets.dbm.tables import Tables


@dataclass
class Score:
    """One side's score, step by step (each step names its clause)."""

    fighter: Fighter
    grade: str
    steps: list[dict[str, Any]] = field(default_factory=list)
    total: int = 0

    def add(self, delta: int, clause: str, what: str) -> None:
        if delta:
            self.total += delta
            self.steps.append({"delta": delta, "rule": rule(clause), "what": what})


def _class(tb: Tables, code: str) -> str:
    c = tb.troops.type[code].troop_class
    return "foot" if c == "baggage" else c  # baggage is fought as foot (ruling R25)


def base_factor(tb: Tables, me: Fighter, opp: Fighter, kind: str, shooter: bool = True) -> tuple[int, str]:
    """The base factor: v foot / mounted / naval by the opponent's class; a shooting target uses its
    ``shot_at`` factor. Bowmen shooting at or shot at by bowmen use +3 instead (ruling R2)."""
    b = tb.base(me.code)
    if kind == "shooting" and me.code == "Bw" and opp.code == "Bw" and b.v_bowmen_shooting is not None:
        return b.v_bowmen_shooting, "factor.bw-cm"
    if kind == "shooting" and not shooter:
        return b.shot_at, "fig.11"
    oc = _class(tb, opp.code)
    v = b.v_naval if opp.code in NAVAL else b.v_mounted if oc == "mounted" else b.v_foot
    return v, "factor.bw-cm" if me.code in ("Bw", "Cm") else "fig.11"


def _tactical(tb: Tables, s: Score, me: Fighter, opp: Fighter, kind: str) -> None:
    for m in tb.factors.tactical:
        if m.when == "general" and me.general and kind == "cc":
            s.add(m.delta, "fig.11", "general")
        elif m.when == "overlap" and kind == "cc" and me.overlaps:
            s.add(m.delta * me.overlaps, "cc.overlap", f"overlapped x{me.overlaps}")
        elif m.when == "uphill" and me.uphill and kind == "cc":
            s.add(m.delta, "fig.11", m.id)
        elif m.when == "flank-contact" and me.flank_contact or m.when == "rear-contact" and me.rear_contact:
            s.add(m.delta, "cc.support-hit", m.id)
        elif m.when == "shooting-aided" and me.aided and kind == "shooting":
            s.add(m.delta, "shoot.aid", "aided by a 2nd rank of bowmen")
    if me.demoralised_command and not me.general:
        s.add(-2, "tf.demoralised", "demoralised command")
    if kind == "cc":
        rough = me.going in ("rough", "difficult")
        opp_foot = _class(tb, opp.code) == "foot"
        if me.code == "Wb" and me.grade in ("S", "O") and me.frontal and opp_foot and rough:
            s.add(-1, "tf.rough", "warband v foot in rough or difficult going")
        if me.code == "Bd" and me.frontal and opp_foot and rough:
            s.add(-2, "tf.rough", "blades v foot in rough or difficult going")
        hd = me.code == "Hd" and me.grade in ("O", "I")
        if (me.code in ("Sp", "Pk") or hd or me.train) and (rough or me.crossing_river):
            s.add(-2, "tf.rough", "in rough or difficult going or crossing a river")


def _support(tb: Tables, s: Score, me: Fighter, opp: Fighter, kind: str) -> tuple[Rank, ...]:
    if support_blocked(
        me.code,
        s.grade,
        me.going,
        me.defending_fort,
        kind == "shooting",
        me.touching_exp_front,
        me.just_into_cc_v_art_s,
        me.chariot,
    ):
        return ()
    ranks = valid_ranks(me.code, me.grade, me.ranks, me.command)
    if kind == "cc" and me.frontal:
        for d, clause, what in rs_factor(
            me.code, me.grade, me.going, ranks, opp.code, tb.troops.type[opp.code].skirmisher
        ):
            s.add(d, clause, what)
    return ranks


def score_pair(tb: Tables, a: Fighter, b: Fighter, kind: str, die_a: int, die_b: int) -> dict[str, Any]:
    """Both sides' scores through steps 1-5 and the result (step 6) for the loser, if any.

    In shooting, ``a`` is the shooting element and ``b`` its target."""
    ga = effective_grade(a.code, a.grade, kind, a.frontal, b.code, b.grade, a.double_base_required)
    gb = effective_grade(b.code, b.grade, kind, b.frontal, a.code, a.grade, b.double_base_required)
    sa, sb = Score(a, ga), Score(b, gb)
    ranks: dict[int, tuple[Rank, ...]] = {}
    for s, me, opp, shooter in ((sa, a, b, True), (sb, b, a, False)):
        v, clause = base_factor(tb, me, opp, kind, shooter)
        s.add(v, clause, f"base factor v {opp.code}")
        _tactical(tb, s, me, opp, kind)
        ranks[id(s)] = _support(tb, s, me, opp, kind)
    for s, me, opp, other in ((sa, a, b, sb), (sb, b, a, sa)):
        opp_ranks = ranks[id(other)]
        if (
            kind == "cc"
            and me.frontal
            and _class(tb, me.code) == "foot"
            and pike_fourth_rank(opp.code, opp.grade, opp.going, opp_ranks)
        ):
            s.add(-1, "rs.pikes", "4th rank of enemy pikes")
    sa.add(die_a, "fig.11", "die")
    sb.add(die_b, "fig.11", "die")
    # 4. grading, on the totals before grading
    ta, tb_ = sa.total, sb.total
    for s, mine, theirs, opp_grade, me in ((sa, ta, tb_, gb, a), (sb, tb_, ta, ga, b)):
        if me.code != "Art" and opp_grade == "F" and mine >= theirs + 2:
            s.add(1, "grade.vs-f", "scored 2 more than (F)")
        for m in tb.factors.grading:
            sup = m.when == "s-scored-more" and s.grade == "S" and mine > theirs
            inf = m.when == "i-scored-equal-or-less" and s.grade == "I" and mine <= theirs
            if sup or inf:
                s.add(m.delta, "grade.vs-f", m.id)
    # 5. mitigating rear support, on the winner
    if sa.total != sb.total:
        w, lo, wf, lf = (sa, sb, a, b) if sa.total > sb.total else (sb, sa, b, a)
        for d, clause, what in mitigations(
            wf.code,
            wf.grade,
            wf.defending_fort,
            lf.code,
            lo.grade,
            ranks[id(lo)],
            lf.ps_support_permitted,
            _class(tb, wf.code),
        ):
            w.add(d, clause, what)
    res = None
    if sa.total != sb.total:
        w, lo, wf, lf = (sa, sb, a, b) if sa.total > sb.total else (sb, sa, b, a)
        band = "doubled" if lo.total * 2 <= w.total else "beaten"
        res = outcome(tb, lf, lo.grade, ranks[id(lo)], wf, w.grade, band, kind)
        res["loser"] = "a" if lo is sa else "b"
        res["band"] = band
    return {"a": sa, "b": sb, "result": res}
