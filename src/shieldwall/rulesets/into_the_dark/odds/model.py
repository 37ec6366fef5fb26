"""The round-by-round rules of a frontal melee between two units (:class:`DuelModel`), the round
model that ``shieldwall.odds.simultaneous.simultaneous_duel`` solves: every distribution is the rules' own
(``melee_situation.MeleeSituation.dist()``, ``morale.MoraleSituation.dist()``)."""

from __future__ import annotations

from typing import Any

from .sides import Side, rules, situation_dist, situations


class DuelModel:
    """The round-by-round rules of a frontal melee between two units, for ``simultaneous_duel``.

    State: (figures of first, figures of second, first shaken, second shaken). Round 1 has the charge
    modifiers (charging +1, impetuous double dice); a Warband that charged impetuously is disordered
    "at the end of the turn" and stays so while in melee.
    """

    def __init__(
        self, a: Side, b: Side, charging: bool, impetuous: bool, uphill: bool, obstacle: bool
    ) -> None:
        self.a, self.b = a, b
        self.charging, self.impetuous, self.uphill, self.obstacle = charging, impetuous, uphill, obstacle
        self.a_disorders = impetuous and a.unit.has("warband")
        self.a_front, self.b_front = a.front, b.front
        self._att: dict[tuple[Any, ...], tuple[tuple[tuple[int, int], ...], int]] = {}
        self._mor: dict[tuple[Any, ...], tuple[tuple[int, int], ...]] = {}
        self._interned: dict[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]] = {}
        self._tests: dict[tuple[Any, ...], tuple[tuple[tuple[int, int], ...], ...]] = {}
        self._aft: dict[tuple[Any, ...], tuple[tuple[object, int], ...]] = {}

    @property
    def start(self) -> tuple[int, int]:
        return self.a.figures, self.b.figures

    def a_disordered(self, later: bool) -> bool:
        return self.a_disorders and later

    def casualties(
        self, attacker: str, figures: int, shaken: bool, later: bool
    ) -> tuple[tuple[tuple[int, int], ...], int]:
        """Casualties inflicted by ``attacker`` ('A' first / 'B' second) with ``figures`` left, as
        integer weights and their total (``MeleeSituation.dist()``)."""
        key = (attacker, figures, shaken, later)
        got = self._att.get(key)
        if got is not None:
            return got
        melee = situations()[0]
        round1 = not later
        dis = self.a_disordered(later)
        if attacker == "A":
            sit = melee.MeleeSituation(
                self.a.troops(shaken=shaken, disordered=dis),
                self.b.troops(),
                front=self.a.fighting(figures, dis),
                charging=self.charging and round1,
                impetuous=self.impetuous and round1,
                target_uphill=self.uphill,
                obstacle=("front",) if self.obstacle else (),
            )
        else:
            sit = melee.MeleeSituation(
                self.b.troops(shaken=shaken),
                self.a.troops(disordered=dis),
                front=self.b.fighting(figures, False),
            )
        dist = situation_dist(sit)
        got = (tuple(dist.items()), dist.total)
        self._att[key] = got
        return got

    def morale(
        self, who: str, own: int, opp: int, shaken: bool, later: bool, initial: bool = False
    ) -> tuple[tuple[int, int], ...]:
        """Weights out of 6 of each ``MoraleOutcome`` of a test by ``who`` with ``own`` figures
        against ``opp`` (``MoraleSituation.dist()``)."""
        if who == "A":
            me, my_front, their_front = self.a, self.a_front, self.b_front
        else:
            me, my_front, their_front = self.b, self.b_front, self.a_front
        outnumber = not initial and own >= 2 * opp
        deeper = not initial and opp // their_front > own // my_front
        dis = who == "A" and self.a_disorders and later
        # memoised on what the test depends on (the opponent's figures only through these flags)
        key = (who, own, outnumber, deeper, shaken, dis)
        got = self._mor.get(key)
        if got is not None:
            return got
        morale = rules()[2]
        sit = morale.MoraleSituation(
            quality=me.unit.quality_level,
            shaken=shaken,
            disordered=dis,
            casualties=me.figures - own,
            original=me.figures,
            outnumber_double=outnumber,
            deeper_ranks=deeper,
            uphill=who == "B" and self.uphill,
            in_cover=who == "B" and self.obstacle,
            shieldwall=me.shieldwall and not dis,
        )
        d = situation_dist(sit)
        got = tuple((o, w * 6 // d.total) for o, w in d.items())
        got = self._mor[key] = self._interned.setdefault(got, got)  # equal answers: one object
        return got

    def after_melee(
        self, fa: int, fb: int, sa: bool, sb: bool, loser: str, later: bool
    ) -> tuple[tuple[object, int], ...]:
        """The morale tests after a round ("Morale Tests" **: losers first, winners if still in contact,
        ties together) and their effect, as weights out of 36: 'A' / 'B' (that unit wins), 'D'
        (draw), or the new shaken flags (a unit that drives back its opponent without being driven
        back itself becomes steady)."""
        tests = self._tests.get((fa, fb, sa, sb, later))
        if tests is None:  # the same two tests whoever lost the round
            tests = self._tests[fa, fb, sa, sb, later] = (
                self.morale("A", fa, fb, sa, later),
                self.morale("B", fb, fa, sb, later),
            )
        ma, mb = tests
        # the effect depends on the two tests' outcome weights and the loser only (``morale``
        # memoises its answers, so they are told apart by identity)
        key = (id(ma), id(mb), loser)
        got = self._aft.get(key)
        if got is not None:
            return got
        shaken, back, routed = 1, 2, 3
        out: dict[object, int] = {}
        if loser == "T":
            for oa, pa in ma:
                for ob, pb in mb:
                    if oa == routed and ob == routed:
                        k: object = "D"
                    elif oa == routed:
                        k = "B"
                    elif ob == routed:
                        k = "A"
                    elif oa == back and ob == back:
                        k = "D"
                    elif oa == back:
                        k = (True, False)
                    elif ob == back:
                        k = (False, True)
                    else:
                        k = (oa == shaken, ob == shaken)
                    out[k] = out.get(k, 0) + pa * pb
        else:
            ml, mw = (ma, mb) if loser == "A" else (mb, ma)
            winner = "B" if loser == "A" else "A"
            for ol, pl in ml:
                if ol == routed:
                    out[winner] = out.get(winner, 0) + 6 * pl
                    continue
                if ol == back:
                    k = (True, False) if loser == "A" else (False, True)
                    out[k] = out.get(k, 0) + 6 * pl
                    continue
                for ow, pw in mw:
                    if ow == routed:
                        k = loser
                    else:
                        lsh, wsh = (False, True) if ow == back else (ol == shaken, ow == shaken)
                        k = (lsh, wsh) if loser == "A" else (wsh, lsh)
                    out[k] = out.get(k, 0) + pl * pw
        got = tuple(out.items())
        self._aft[key] = got
        return got

    def after_melee_cell(self, fa: int, fb: int, later: bool) -> list[tuple[tuple[object, int], ...]]:
        """``after_melee`` of the 12 intermediate states of one ``(figures, figures)`` cell, the
        same objects, in the order of the shaken flags (first, second) ``(no, no)``, ``(no, yes)``,
        ``(yes, no)``, ``(yes, yes)``, then the loser ``A``, ``B``, ``T`` (the float solver asks for
        every cell: each morale test is looked up once per cell, not once per loser)."""
        out: list[tuple[tuple[object, int], ...]] = []
        aft, morale = self._aft, self.morale
        for sa in (False, True):
            ia = id(morale("A", fa, fb, sa, later))
            for sb in (False, True):
                ib = id(morale("B", fb, fa, sb, later))
                for lo in "ABT":
                    got = aft.get((ia, ib, lo))
                    out.append(got if got is not None else self.after_melee(fa, fb, sa, sb, lo, later))
        return out

    def opening(self) -> tuple[tuple[tuple[object, int], ...], int]:
        """Before the first round: the second unit tests on receiving an impetuous charge.
        Weights and their total."""
        if not self.impetuous:
            steady: tuple[tuple[object, int], ...] = (((False, False), 1),)
            return steady, 1
        out: dict[object, int] = {}
        for o, w in self.morale("B", self.b.figures, self.a.figures, False, False, initial=True):
            k: object = "A" if o == 3 else (False, o != 0)
            out[k] = out.get(k, 0) + w
        return tuple(out.items()), 6
