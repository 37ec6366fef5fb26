"""``shieldwall odds`` for dbm-3.2: who kills whom, how often.

``attack``: one combat between two elements (SPEC ``Code(Grade)``, ``+gen``, ``/Code(Grade)`` per rank, the
ranks lined up behind), all 36 dice pairs enumerated through the same scoring code the game uses
(:func:`.combat.score_pair`); the outcome is a number: -2 the attacker destroyed, -1 the attacker
recoils or flees, 0 no result, +1 the target recoils or flees, +2 the target destroyed.
``matrix``: every element type of one army list against every type of another (``--set
lists=A:B``): P(the row destroys the column in one close combat, or with ``kind=shooting`` in one
shooting by the row, whose rows are empty for types that cannot shoot) and the mean outcome, the
column overlapped by ``overlaps`` enemy in close combat.
``kind=shooting`` refuses a shooter that cannot shoot (dbm-3.2:shoot.who) and ``overlaps`` above 0,
which count only in close combat (dbm-3.2:cc.overlap).
Base factors and unstated outcomes come from the data set: the illustrative sample is labelled
**illustrative data: not the published DBM tables**.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from shieldwall.core.dice import Dist
from shieldwall.core.errors import ShieldwallError, UnknownName
from shieldwall.odds.base import OddsPlugin
from shieldwall.odds.results import AttackOdds, MatrixOdds
from shieldwall.odds.settings import SetKey


def _sample_list_ids() -> tuple[str, ...]:
    """The sample's army list ids (the lists ``odds matrix`` can pit against each other)."""
    import tomllib
    from importlib import resources

    folder = resources.files("shieldwall.rulesets.dbm") / "data" / "sample" / "lists"
    return tuple(
        sorted(
            str(tomllib.loads(f.read_text(encoding="utf-8"))["id"])
            for f in folder.iterdir()
            if f.name.endswith(".toml")
        )
    )


class ListPairKey(SetKey):
    """``lists=A:B``: two of the list ids in ``choices``, colon-separated."""

    __slots__ = ()

    def parse(self, text: str | int) -> str | int:
        a, sep, b = str(text).strip().lower().partition(":")
        if not sep or a not in self.choices or b not in self.choices:
            pairs = tuple(f"{x}:{y}" for x in self.choices for y in self.choices)
            raise UnknownName(f"value for --set {self.name}", str(text), pairs)
        return f"{a}:{b}"

    def values_text(self) -> str:
        return "A:B with A, B from " + "|".join(self.choices)


SETS = {
    "kind": SetKey(
        "kind",
        "close combat (cc) or shooting (the attacker, in matrix the row, shoots; "
        "a row that cannot shoot is empty)",
        "cc",
        ("cc", "shooting"),
    ),
    "going": SetKey("going", "the going both elements stand in", "good", ("good", "rough", "difficult")),
    "overlaps": SetKey(
        "overlaps",
        "enemy overlapping the target (in matrix the column), in close combat only",
        0,
        int_range=(0, 2),
    ),
    "lists": ListPairKey(
        "lists",
        "two army lists of the sample data set, A:B (matrix)",
        "frankish-illustrative:norse-irish-illustrative",
        _sample_list_ids(),
        commands=frozenset({"matrix"}),
    ),
}


class SpecError(ShieldwallError, ValueError):
    pass


def _one(text: str) -> tuple[str, str]:
    t = text.strip()
    if not (t.endswith(")") and "(" in t):
        raise SpecError(f"element {t!r}: write it as Code(Grade), e.g. Bd(O)")
    code, grade = t[:-1].split("(", 1)
    return code, grade


#: the types and grades that shoot (dbm-3.2:shoot.who), for the words of a refusal
SHOOTERS = "Art, Bw, WWg(S)/(O), El(X), Shp(S)/(O)/(X), Gal, Bts(S)/(X)"
#: the note of a shooting query (ruling R33)
SHOOTER_UNHARMED = "in shooting only the target suffers (ruling R33): a shooter that loses scores 0"


def check_shooting(kind: str, overlaps: int) -> None:
    """Overlaps count only in close combat (dbm-3.2:cc.overlap): asking for them in shooting is an
    error, not a setting silently without effect."""
    if kind == "shooting" and overlaps:
        raise SpecError(
            f"--set overlaps={overlaps}: overlaps count only in close combat (dbm-3.2:cc.overlap), "
            "not with kind=shooting"
        )


def shoots(code: str, grade: str) -> bool:
    """Whether an element of ``code`` and ``grade`` shoots: a type and grade that shoot
    (dbm-3.2:shoot.who) with a range in the data set's ``range_p`` (as the game asks)."""
    from shieldwall.rulesets.dbm.shooting import type_shoots
    from shieldwall.rulesets.dbm.tables import sample_tables

    return type_shoots(code, grade) and sample_tables().ranges.range_p.get(code) is not None


def outcome_value(res: Mapping[str, Any] | None, kind: str = "cc") -> int:
    """The outcome as a number (-2 attacker destroyed ... +2 target destroyed). In shooting only
    the target suffers, as battles play it (ruling R33): a shooter that loses scores 0."""
    if res is None or res["result"] == "none" or (kind == "shooting" and res["loser"] == "a"):
        return 0
    sign = 1 if res["loser"] == "b" else -1
    return sign * (2 if res["result"] == "destroyed" else 1)


class DbmOdds(OddsPlugin):
    ruleset = "dbm-3.2"
    title = "DBM 3.2 (illustrative data, not the published tables)"
    commands = ("attack", "matrix")
    spec_help = "Code(Grade), +gen for a general's element, then /Code(Grade) for each rear rank"
    spec_examples = ("Bd(O)+gen", "Pk(O)/Pk(O)/Pk(O)/Pk(O)", "Kn(X)")
    set_keys = SETS

    def parse_spec(self, text: str) -> Any:
        from shieldwall.rulesets.dbm.support import Fighter, Rank
        from shieldwall.rulesets.dbm.tables import sample_tables

        tb = sample_tables()
        parts = text.split("/")
        head = parts[0]
        general = head.endswith("+gen")
        code, grade = _one(head[: -len("+gen")] if general else head)
        ranks = tuple(Rank(*_one(p)) for p in parts[1:])
        for c, g in [(code, grade), *((r.code, r.grade) for r in ranks)]:
            if c not in tb.troops.type:
                raise SpecError(f"unknown troop type {c!r}; the codes are {', '.join(tb.troops.type)}")
            if g not in tb.troops.type[c].grades:
                raise SpecError(f"{c} has no grade {g!r} in the data ({', '.join(tb.troops.type[c].grades)})")
        return Fighter(code, grade, general=general, ranks=ranks)

    def _dist(self, a: Any, b: Any, kind: str) -> Dist:
        from shieldwall.rulesets.dbm.combat import score_pair
        from shieldwall.rulesets.dbm.tables import sample_tables

        tb = sample_tables()
        w: dict[int, int] = {}
        for da in range(1, 7):
            for db in range(1, 7):
                v = outcome_value(score_pair(tb, a, b, kind, da, db)["result"], kind)
                w[v] = w.get(v, 0) + 1
        return Dist(w)

    def attack(
        self, attacker: str, target: str, sets: Iterable[str] | Mapping[str, str | int] | None = None
    ) -> AttackOdds:
        from dataclasses import replace

        from shieldwall.rulesets.dbm.tables import sample_tables

        s = self.parse_sets(sets, "attack")
        check_shooting(str(s["kind"]), int(s["overlaps"] or 0))
        a = replace(self.parse_spec(attacker), going=str(s["going"]))
        if s["kind"] == "shooting" and not shoots(a.code, a.grade):
            raise SpecError(
                f"{attacker!r} cannot shoot (dbm-3.2:shoot.who: {SHOOTERS} shoot); "
                "ask kind=cc for a close combat"
            )
        b = replace(self.parse_spec(target), going=str(s["going"]), overlaps=int(s["overlaps"] or 0))
        dist = self._dist(a, b, str(s["kind"]))
        label = sample_tables().label
        return AttackOdds(
            self.ruleset,
            attacker,
            target,
            dict(s),
            dist,
            (a, b),
            explain=lambda: (
                "-2 attacker destroyed, -1 attacker recoils/flees, 0 no result, "
                "+1 target recoils/flees, +2 target destroyed",
                *((SHOOTER_UNHARMED,) if s["kind"] == "shooting" else ()),
                *((label,) if label else ()),
            ),
            unit="outcome",
        )

    def matrix(
        self, sets: Iterable[str] | Mapping[str, str | int] | None = None, *, progress: Any = None
    ) -> MatrixOdds:
        from shieldwall.rulesets.dbm.support import Fighter
        from shieldwall.rulesets.dbm.tables import sample_tables

        s = self.parse_sets(sets, "matrix")
        kind, overlaps = str(s["kind"]), int(s["overlaps"] or 0)
        check_shooting(kind, overlaps)
        tb = sample_tables()
        la, _, lb = str(s["lists"]).partition(":")
        for name in (la, lb):
            if name not in tb.lists:
                raise SpecError(f"unknown army list {name!r}; the data set has {', '.join(sorted(tb.lists))}")
        types = []
        for name in (la, lb):
            for e in tb.lists[name].entries:
                spec = f"{e.code}({e.grade})"
                if spec not in types:
                    types.append(spec)
        n = len(types)
        wins: list[list[Fraction | float | None]] = [[None] * n for _ in range(n)]
        mean: list[list[Fraction | None]] = [[None] * n for _ in range(n)]
        for i, ti in enumerate(types):
            a = Fighter(*_one(ti), going=str(s["going"]))
            if kind == "shooting" and not shoots(a.code, a.grade):
                continue  # dbm-3.2:shoot.who: the row cannot shoot, its cells stay empty
            for j, tj in enumerate(types):
                b = Fighter(*_one(tj), going=str(s["going"]), overlaps=overlaps)
                d = self._dist(a, b, kind)
                wins[i][j] = d.probabilities().get(2, Fraction(0))
                mean[i][j] = d.mean()
        label = tb.label
        combat = "one close combat" if kind == "cc" else "one shooting, the row shooting"
        notes = [
            f"first_wins: P(the row element destroys the column element in {combat}); "
            "mean: the mean outcome (-2 row destroyed ... +2 column destroyed)"
        ]
        if kind == "shooting":
            notes.append(SHOOTER_UNHARMED)
            notes.append(f"empty rows: types that cannot shoot (dbm-3.2:shoot.who: {SHOOTERS} shoot)")
        if overlaps:
            notes.append(f"the column element is overlapped by {overlaps} enemy (dbm-3.2:cc.overlap)")
        return MatrixOdds(
            self.ruleset,
            dict(s),
            tuple(types),
            ("front",),
            {"front": mean},
            {"front": wins},
            unit="outcome",
            notes=(*notes, *((label,) if label else ())),
        )


PLUGIN = DbmOdds()
