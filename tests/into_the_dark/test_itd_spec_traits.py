"""What a unit's army entry implies, kept beside the entry (``spec_traits``, issue 16): the same
answers as the entry's own properties, for every kind of entry, and the same battles.

``Unit.mounted``, ``champion``, ``density``, ``close_foot``, ``open_foot``, ``quality``,
``allowance`` and ``rout_dice`` read the kept traits on the fast path and the entry itself on the
reference path (``core.reference``); whole battles are played both ways by
``tests/plugins/test_fast_vs_reference.py``."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from shieldwall.core.errors import DataError
from shieldwall.core.reference import reference_path
from shieldwall.io.scenarios import load_game
from shieldwall.rulesets.into_the_dark import spec_traits
from shieldwall.rulesets.into_the_dark.army import ArmyUnit, parse_army
from shieldwall.rulesets.into_the_dark.model import Unit
from shieldwall.rulesets.into_the_dark.profiles import movement_for
from shieldwall.rulesets.into_the_dark.spec_traits import traits

PROPERTIES = [
    "mounted",
    "category",
    "champion",
    "density",
    "close_foot",
    "open_foot",
    "quality",
    "allowance",
    "rout_dice",
    "fanatic",
]
QUALITIES = ("peasant", "levy", "average", "elite", "fanatic")


def _entries() -> list[ArmyUnit]:
    """Army entries of every code, quality and champion option the data allows, alone and mixed
    with a part of the same density and category (troops.unit-organisation)."""
    out: list[ArmyUnit] = []
    for d, a, c in itertools.product("CLO", "UPAME", "FM"):
        part = {"code": f"{d}{'E' if a != 'E' else 'U'}{c}", "figures": 2, "quality": "levy"}
        for quality, options in itertools.product(QUALITIES, ((), ("champion",))):
            for mixed in ([], [part]):
                unit: dict[str, Any] = {
                    "name": "u",
                    "division": "Main",
                    "code": f"{d}{a}{c}",
                    "quality": quality,
                }
                figures = 1 if options else 12  # a champion is one figure
                unit |= {"type": "melee", "figures": figures, "options": list(options), "mixed": mixed}
                data = {
                    "name": "x",
                    "generals": [{"name": "g", "rating": "average", "commanding": True, "division": "Main"}],
                    "units": [unit],
                }
                try:
                    out.append(parse_army(data).units[0])
                except DataError:
                    continue
    return out


def _answer(f: Any) -> Any:
    try:
        return f()
    except (KeyError, ValueError) as e:  # the same refusal both ways
        return type(e)


def test_the_kept_traits_answer_as_the_entry_for_every_kind_of_entry() -> None:
    entries = _entries()
    assert len(entries) > 100
    assert any(e.mixed for e in entries) and any(e.champion for e in entries)
    for spec in entries:
        t = traits(spec)
        assert traits(spec) is t  # kept
        assert t.category() == spec.category and t.density() == spec.density
        assert t.champion() == spec.champion
        parts = spec.parts()
        assert t.quality() == (min(p.quality_level for p in parts) if spec.mixed else spec.quality_level)
        for cat in ("F", "M"):
            rows = _answer(lambda: [movement_for(p.density, cat, p.armour) for p in parts])  # noqa: B023
            want_move = rows if isinstance(rows, type) else float(min(r.move for r in rows))
            want_dice = rows if isinstance(rows, type) else min(r.rout_dice for r in rows)
            assert _answer(lambda: t.allowance(cat)) == want_move, (spec.code, cat)  # noqa: B023
            assert _answer(lambda: t.rout_dice(cat)) == want_dice, (spec.code, cat)  # noqa: B023


def test_an_equal_entry_that_is_another_object_has_traits_of_its_own() -> None:
    spec = _entries()[0]
    twin = spec.model_copy()
    assert twin == spec and twin is not spec
    assert traits(twin) is not traits(spec) and traits(twin).spec is twin


def test_the_kept_traits_are_dropped_all_at_once_beyond_their_bound() -> None:
    spec_traits._TRAITS.clear()  # (a Final dictionary: the compiled code holds this one)
    entries = _entries()[: spec_traits.KEEP + 1] if len(_entries()) > spec_traits.KEEP else None
    if entries is None:  # fewer kinds of entry than the bound: copies make the rest
        base = _entries()
        entries = [base[i % len(base)].model_copy() for i in range(spec_traits.KEEP + 1)]
    for e in entries[:-1]:
        traits(e)
    assert len(spec_traits._TRAITS) == spec_traits.KEEP
    traits(entries[-1])
    assert len(spec_traits._TRAITS) == 1


def _unit_answers(u: Unit) -> dict[str, Any]:
    return {p: _answer(lambda: getattr(u, p)) for p in PROPERTIES}  # noqa: B023


@pytest.mark.parametrize("scenario", ["into-the-dark/senlac", "into-the-dark/wye-fords"])
def test_every_units_answers_are_the_reference_paths_in_every_state_it_can_take(scenario: str) -> None:
    """Each unit of the scenario, steady and routed, horsed and unhorsed: the same answers from the
    kept traits as from its entry (the reference path)."""
    st: Any = load_game(scenario).new_state(1)
    seen = 0
    for u in st.units.values():
        for morale, unhorsed in itertools.product(("steady", "routed"), (False, True)):
            u.morale, u.unhorsed = morale, unhorsed
            fast = _unit_answers(u)
            with reference_path():
                ref = _unit_answers(u)
            assert fast == ref, (u.id, morale, unhorsed)
            seen += 1
    assert seen >= 40
