"""Exact odds for ``spi-dark-ages`` (the plug-in to ``shieldwall odds``, :data:`PLUGIN`): the
"attack preview" of a hex game. One attack on the CRT: the adjusted strengths, the odds and the
column they round down to, the die modifier and every result with its exact probability.

The charts are the illustrative sample set (``data/sample``, NOT SPI's), and every answer says so.

SPECs: ATTACKER is a comma-separated list of unit types of the sample counters, each with an
optional ``:N`` straight-charge length (``mc:2,hc:3``), or a number (an adjusted strength: ``4``);
TARGET is a list of unit types, each with optional ``:flank`` and ``:dem`` (demoralized), or a
number or fraction (an adjusted defence: ``1/2``)::

    >>> a = PLUGIN.attack("4", "1/2")
    >>> a.details[1]
    'odds 8:1 (spi-dark-ages:combat.adjust) -> column 6-1 (rounded down; above the last column)'
    >>> sum(a.probabilities.values())
    Fraction(1, 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, ClassVar

from shieldwall.core.dice import Dist
from shieldwall.core.errors import ShieldwallError
from shieldwall.odds.base import OddsPlugin
from shieldwall.odds.results import AttackOdds, attack_odds
from shieldwall.odds.settings import Given, ReadSettings, SetKey

if TYPE_CHECKING:
    from shieldwall.rulesets.spi_dark_ages.tables import Charts

RS = "spi-dark-ages"
Sets = Iterable[str] | Mapping[str, str | int] | None
_A = frozenset({"attack"})
TERRAIN = ("clear", "woods", "slope", "swamp", "stream", "keep")

SET_KEYS: dict[str, SetKey] = {
    k.name: k
    for k in (
        SetKey(
            "table",
            "melee (MAS against MDS) or fire (missile strength against the FPS)",
            "melee",
            ("melee", "fire"),
            commands=_A,
        ),
        SetKey(
            "terrain", "the defender's hex (melee: TEC defence; fire: its FPS)", "clear", TERRAIN, commands=_A
        ),
        SetKey(
            "attacker-command",
            "bonus of a command unit with the attackers (melee only)",
            0,
            int_range=(0, 3),
            commands=_A,
        ),
        SetKey(
            "defender-command",
            "bonus of a command unit with the defenders (melee only)",
            0,
            int_range=(0, 3),
            commands=_A,
        ),
        SetKey(
            "ferocious",
            "the ferocious (or Byzantine vitality) side: -1 for its attacks, +1 against it",
            "none",
            ("none", "attacker", "defender"),
            commands=_A,
        ),
    )
}


def _number(text: str) -> Fraction | None:
    try:
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        return None


class DarkAgesOdds(OddsPlugin):
    ruleset: ClassVar[str] = RS
    title: ClassVar[str] = "SPI Dark Ages (illustrative sample CRT, not SPI's)"
    commands: ClassVar[tuple[str, ...]] = ("attack",)
    spec_help: ClassVar[str] = (
        "ATTACKER: unit types of the sample counters, comma-separated, each with an optional :N straight "
        "charge (mc:2), or a number (adjusted strength). TARGET: unit types with optional :flank and :dem, "
        "or a number or fraction (adjusted defence; with table=fire it is ignored for the terrain's FPS)."
    )
    spec_examples: ClassVar[tuple[str, ...]] = (
        "4 1/2",
        "mc:2,hc:3 spear",
        "archer,archer spear --set table=fire",
    )
    set_keys: ClassVar[Mapping[str, SetKey]] = SET_KEYS

    def attack(self, attacker: str, target: str, sets: Sets = None) -> AttackOdds:
        return self.memo("attack", (attacker, target), sets, self._attack)

    def _attack(self, specs: tuple[str, ...], s: ReadSettings, given: Given) -> AttackOdds:
        from shieldwall.rulesets.spi_dark_ages.combat import Attack, outcomes
        from shieldwall.rulesets.spi_dark_ages.tables import sample_charts

        charts = sample_charts()
        table = str(s["table"])
        att, classes, notes = self._attackers(charts, specs[0], table)
        dfn, dnotes = self._defenders(charts, specs[1], table, classes, str(s["terrain"]))
        mod = int(s["defender-command"] or 0) - int(s["attacker-command"] or 0) if table == "melee" else 0
        fero = s["ferocious"]
        if table == "melee" and fero != "none":
            mod += -1 if fero == "attacker" else 1
        a = Attack(table, att, dfn, mod, tuple(notes + dnotes))
        dist = outcomes(charts, a)
        codes = list(charts.crt.results)
        weights = {codes.index(c): p for c, p in dist.items()}
        details = self._details(charts, a, dist, codes)
        return attack_odds(
            RS, specs[0], specs[1], dict(s), Dist.from_fractions(weights), a, lambda: details, "result"
        )

    def _attackers(self, charts: Charts, spec: str, table: str) -> tuple[Fraction, set[str], list[str]]:
        from shieldwall.rulesets.spi_dark_ages.combat import attack_adjust

        n = _number(spec)
        if n is not None:
            if n < 0:
                raise ShieldwallError("an attack strength is not negative")
            return n, {"I"}, [f"attack strength {n} (as given)"]
        total, notes = Fraction(0), []
        classes: set[str] = set()
        for item in spec.split(","):
            name, colon, run = item.strip().partition(":")
            t = charts.units.get(name)
            if t is None:
                raise ShieldwallError(f"unknown unit type {name!r}; sample types: {', '.join(charts.units)}")
            if colon and (t.charge is None or table == "fire"):
                # (":N" was taken by any type, and ignored)
                raise ShieldwallError(
                    f"{item.strip()!r}: :N is the length of a straight charge, which {name} does not "
                    + (
                        "make when it fires"
                        if t.charge is not None
                        else "make (spi-dark-ages:cavalry.mc-charge)"
                    )
                )
            if colon and not run.isdigit():
                # (":x" and ":-1" were read as a full charge, while ":0" was a charge of none)
                raise ShieldwallError(
                    f"{item.strip()!r}: the straight charge's length is a whole number of hexes, 0 or more, "
                    f"not {run!r}"
                )
            classes.add(t.cls)
            if table == "fire":
                if not t.missile:
                    raise ShieldwallError(f"{name} has no missile strength: it does not fire")
                total += t.missile
                notes.append(f"{name}: missile {t.missile}")
                continue
            mas = t.mas
            if mas == 0:
                raise ShieldwallError(
                    f"{name} has a Melee Attack Strength of 0: it never initiates a melee "
                    "(spi-dark-ages:combat.zero-mas)"
                )
            if t.charge is not None:
                r = int(run) if run.isdigit() else t.charge.min_hexes
                if r < t.charge.min_hexes:
                    mas = max(
                        t.mas - (t.charge.min_hexes - r) * t.charge.shortfall, min(t.mas, t.charge.floor)
                    )
                    notes.append(
                        f"{name}: charge {r} < {t.charge.min_hexes}: MAS {t.mas} -> {mas} "
                        "(spi-dark-ages:cavalry.mc-charge)"
                    )
            total += attack_adjust(Fraction(mas))
        return total, classes, notes

    def _defenders(
        self, charts: Charts, spec: str, table: str, classes: set[str], terrain: str
    ) -> tuple[Fraction, list[str]]:
        from shieldwall.rulesets.spi_dark_ages.combat import defence_adjust
        from shieldwall.rulesets.spi_dark_ages.schemas import effect_value
        from shieldwall.rulesets.spi_dark_ages.tables import FPS_CAP

        ter = charts.tec.terrain[terrain]
        if table == "fire":
            p = ter.fps if terrain == "keep" else min(FPS_CAP, ter.fps)
            return Fraction(p), [f"FPS of {terrain}: {p} (spi-dark-ages:demoralization.fire-immune)"]
        n = _number(spec)
        if n is not None:
            if n < 0:
                raise ShieldwallError("a defence strength is not negative")
            return n, [f"defence strength {n} (as given)"]
        total, notes = Fraction(0), []
        for item in spec.split(","):
            name, *flags = item.strip().split(":")
            t = charts.units.get(name)
            if t is None:
                raise ShieldwallError(f"unknown unit type {name!r}; sample types: {', '.join(charts.units)}")
            bad = [f for f in flags if f not in ("flank", "dem")]
            if bad:
                raise ShieldwallError(f"{item}: {bad[0]!r} is not flank or dem")
            flank = "flank" in flags
            row = charts.cuc.defender.get(name, {})
            cuc = max(
                effect_value(row.get(f"flank_{c}", row.get(c, "1")) if flank else row.get(c, "1")) or 1
                for c in classes
            )
            terr = effect_value(ter.defense.get(t.cls, "1")) or Fraction(1)
            s = defence_adjust((t.mds_flank if flank else t.mds_front) * cuc * terr)
            if "dem" in flags:
                s = defence_adjust(s / 2)
            notes.append(f"{item}: MDS x CUC {cuc} x TEC {terr} = {s} (spi-dark-ages:combat.adjust)")
            total += s
        return total, notes

    def _details(
        self, charts: Charts, a: object, dist: dict[str, Fraction], codes: list[str]
    ) -> tuple[str, ...]:
        from shieldwall.rulesets.spi_dark_ages.combat import Attack, lookup

        assert isinstance(a, Attack)
        table = getattr(charts.crt, a.table)
        idx, label = lookup(table, a.attack, a.defence)
        odds = "infinite" if a.defence == 0 else _ratio(a.attack / a.defence)
        where = "a fixed result" if idx is None else "rounded down"
        last = table.columns[-1]
        if idx == len(table.columns) - 1 and (
            a.defence == 0 or a.attack / a.defence > Fraction(last.att, last.defn)
        ):
            where += "; above the last column"
        out = [
            charts.label or "user charts",
            f"odds {odds} (spi-dark-ages:combat.adjust) -> column {label} ({where})",
            f"die: one d6 {a.modifier:+d}, clamped to rows {table.min_row}..{table.max_row}",
        ]
        out += list(a.notes)
        for c in codes:
            if c in dist:
                out.append(f"value {codes.index(c)} = {c} ({charts.crt.results[c].name}): {dist[c]}")
        return tuple(out)


def _ratio(q: Fraction) -> str:
    if q == 0:
        return "0:1"
    if q >= 1:
        return f"{q.numerator}:{q.denominator}" if q.denominator != 1 else f"{q.numerator}:1"
    return f"1:{1 / q}" if (1 / q).denominator == 1 else f"{q.numerator}:{q.denominator}"


PLUGIN = DarkAgesOdds()
