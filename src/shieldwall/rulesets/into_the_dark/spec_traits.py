"""What a unit's army entry implies, worked out once per entry (issue 16, "Fast core").

A unit's category, density, quality and move allowance follow from its army entry (``ArmyUnit``, a
frozen pydantic model) and the data tables: the entry's properties parse its code, look the tables
up and walk its mixed parts at every call (``Unit.allowance`` was about 14,000 instructions a call
and is asked for every move the menus and the general weigh). The entry never changes, so
``traits(spec)`` keeps what they answer beside it: each value worked out the first time it is asked
(by the very expression ``Unit`` used, :func:`allowance_of` and :func:`rout_dice_of`), then read.

The reference path (``core.reference``) neither reads nor fills these: ``Unit`` asks the entry
itself, as before (``tests/into_the_dark/test_itd_spec_traits.py`` compares the two on every entry
of every army and sample scenario, and for each category a unit may take).
"""

from __future__ import annotations

from typing import Final

from .army import ArmyUnit
from .profiles import Category, movement_for

#: entries kept (the armies of the battles in play); beyond this they are all dropped and made again
KEEP: Final = 4096


def allowance_of(spec: ArmyUnit, category: Category) -> float:
    """Maximum move in inches of a unit of ``spec`` in ``category`` ("Distances", the encased limit):
    its slowest part's ("If different troop types are mixed in a unit, it moves at the speed of the
    slowest", troops.unit-organisation.mixed)."""
    return float(min(movement_for(p.density, category, p.armour).move for p in spec.parts()))


def rout_dice_of(spec: ArmyUnit, category: Category) -> int:
    """Rout and evade dice of a unit of ``spec`` in ``category``: its slowest part's."""
    return min(movement_for(p.density, category, p.armour).rout_dice for p in spec.parts())


def quality_of(spec: ArmyUnit) -> int:
    """ "Morale = lowest quality in the unit" (morale.morale): a mixed unit's lowest."""
    if spec.mixed:
        return min(p.quality_level for p in spec.parts())
    return spec.quality_level


class Traits:
    """One army entry's derived values, each worked out when first asked."""

    def __init__(self, spec: ArmyUnit) -> None:
        self.spec = spec
        self._category: str | None = None
        self._density: str | None = None
        self._champion: bool | None = None
        self._quality: int | None = None
        #: by category ("F", "M"): a mounted champion who lost his horse moves as foot
        self._allowance: dict[str, float] = {}
        self._rout_dice: dict[str, int] = {}

    def category(self) -> str:
        got = self._category
        if got is None:
            got = self._category = self.spec.category
        return got

    def density(self) -> str:
        got = self._density
        if got is None:
            got = self._density = self.spec.density
        return got

    def champion(self) -> bool:
        got = self._champion
        if got is None:
            got = self._champion = self.spec.champion
        return got

    def quality(self) -> int:
        got = self._quality
        if got is None:
            got = self._quality = quality_of(self.spec)
        return got

    def allowance(self, category: Category) -> float:
        got = self._allowance.get(category)
        if got is None:
            got = self._allowance[category] = allowance_of(self.spec, category)
        return got

    def rout_dice(self, category: Category) -> int:
        got = self._rout_dice.get(category)
        if got is None:
            got = self._rout_dice[category] = rout_dice_of(self.spec, category)
        return got


#: (Final: compiled, a static read, not a module dictionary lookup per call)
_TRAITS: Final[dict[int, Traits]] = {}


def traits(spec: ArmyUnit) -> Traits:
    """The traits of ``spec`` (kept by the entry's identity: the entry is held, so its id is not
    reused while it is kept)."""
    t = _TRAITS.get(id(spec))
    if t is None or t.spec is not spec:
        if len(_TRAITS) >= KEEP:
            _TRAITS.clear()
        t = _TRAITS[id(spec)] = Traits(spec)
    return t
