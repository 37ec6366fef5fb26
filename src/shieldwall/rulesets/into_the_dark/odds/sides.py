"""A SPEC as the rules see it (:class:`Side`: the army-file unit in two ranks), and the rules
modules, imported on first use (import stays light: no rules module, no numpy, until a query is
answered)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

from shieldwall.core.errors import ShieldwallError

from .spec import BOW_OPTIONS, ITDSpec, parse_spec

if TYPE_CHECKING:
    from shieldwall.core.dice import Dist
    from shieldwall.rulesets.into_the_dark.army import ArmyUnit
    from shieldwall.rulesets.into_the_dark.combat import Troops


@cache
def rules() -> Any:
    """The rules modules ``(army, combat, morale, profiles)``, imported on first use."""
    from shieldwall.rulesets.into_the_dark import army, combat, morale, profiles

    return army, combat, morale, profiles


@cache
def situations() -> tuple[Any, Any]:
    """The situation modules ``(melee_situation, fire_situation)``, imported on first use."""
    from shieldwall.rulesets.into_the_dark import fire_situation, melee_situation

    return melee_situation, fire_situation


@dataclass(frozen=True, slots=True)
class Side:
    """A SPEC as the rules see it: the army-file unit and its two-rank formation.

    What the queries read of the unit is read once, when the SPEC is parsed (``text``, ``figures``,
    ``front``, ``shieldwall``, ``pike``, ``quality``: the army unit is a pydantic model, slow to ask)."""

    spec: ITDSpec
    unit: ArmyUnit
    text: str = field(init=False, compare=False, repr=False)
    figures: int = field(init=False, compare=False, repr=False)
    front: int = field(init=False, compare=False, repr=False)
    shieldwall: bool = field(init=False, compare=False, repr=False)
    pike: bool = field(init=False, compare=False, repr=False)
    quality: int = field(init=False, compare=False, repr=False)
    shoots: bool = field(init=False, compare=False, repr=False)
    #: (disordered, melee) -> figures that count at full strength (``fighting``)
    full: dict[tuple[bool, bool], int] = field(init=False, compare=False, repr=False)
    #: Templates for new questions (``with_fields``): control -> the unit's morale (False) or control
    #: (True) test with no modifier but shieldwall; its melee attack and its shot (None if it does not
    #: shoot), each on itself with nothing in contact.
    tests: dict[bool, Any] = field(init=False, compare=False, repr=False)
    melee: Any = field(init=False, compare=False, repr=False)
    shot: Any = field(init=False, compare=False, repr=False)
    _hash: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        u = self.unit
        for name, value in (
            ("text", self.spec.text),
            ("figures", self.spec.figures),
            ("front", u.front),
            ("shieldwall", u.has("shieldwall")),
            ("pike", u.has("pike")),
            ("quality", u.quality_level),
            ("shoots", u.missile_weapon is not None),
            ("_hash", hash(self.spec)),
        ):
            object.__setattr__(self, name, value)
        object.__setattr__(
            self,
            "full",
            {
                (dis, melee): self._fighting(self.figures, dis, melee)
                for dis in (False, True)
                for melee in (False, True)
            },
        )
        morale = rules()[2]
        tests = {
            control: _plain(cls(quality=self.quality, original=self.figures, shieldwall=self.shieldwall))
            for control, cls in ((False, morale.MoraleSituation), (True, morale.ControlSituation))
        }
        object.__setattr__(self, "tests", tests)
        me = self.troops()
        melee, fire = situations()
        object.__setattr__(self, "melee", _plain(melee.MeleeSituation(me, me)))
        object.__setattr__(self, "shot", _plain(fire.MissileSituation(me, me)) if self.shoots else None)

    def __hash__(self) -> int:
        return self._hash

    def fighting(self, figures: int, disordered: bool, melee: bool = True) -> int:
        """Figures that count with ``figures`` left: casualties come off the rear rank first."""
        if figures == self.figures:
            return self.full[(disordered, melee)]
        return self._fighting(figures, disordered, melee)

    def _fighting(self, figures: int, disordered: bool, melee: bool) -> int:
        combat = rules()[1]
        front = min(self.front, figures)
        return int(
            combat.fighting_figures(
                front, [figures - front], melee=melee, disordered=disordered, pike=self.pike
            )
        )

    def troops(self, shaken: bool = False, disordered: bool = False, firing: bool = False) -> Troops:
        return cached_troops(self, shaken, disordered, firing)

    def _make_troops(self, shaken: bool, disordered: bool, firing: bool) -> Troops:
        combat = rules()[1]
        t: Troops = combat.Troops.from_unit(
            self.unit,
            shaken=shaken,
            disordered=disordered,
            in_shieldwall=self.shieldwall and not disordered,
            firing=firing,
        )
        return t


def _plain(sit: Any) -> Any:
    """The same situation holding its fields in a plain dict of its own, which ``with_fields`` copies
    fast: a template for new questions."""
    return type(sit).from_fields({f.name: getattr(sit, f.name) for f in fields(sit)})


@lru_cache(maxsize=4096)
def cached_troops(side: Side, shaken: bool, disordered: bool, firing: bool) -> Troops:
    """The unit of ``side`` as ``combat.Troops`` in this state (memoised; :meth:`Side.troops`)."""
    return side._make_troops(shaken, disordered, firing)


@lru_cache(maxsize=512)
def side(spec: ITDSpec) -> Side:
    """Build and check the army-file unit of a SPEC (``army.check_unit``)."""
    army = rules()[0]
    bow_opt = any(o in BOW_OPTIONS for o in spec.options)
    role = "cross-trained" if spec.cross_trained else ("missile" if spec.weapon or bow_opt else "melee")
    try:
        unit = army.ArmyUnit(
            name=spec.text,
            division="odds",
            code=spec.code,
            quality=spec.quality,
            type=role,
            figures=spec.figures,
            frontage=-(-spec.figures // 2),
            weapon=spec.weapon,
            options=spec.options,
        )
    except ValueError as exc:  # pydantic
        raise ShieldwallError(f"unit SPEC {spec.text!r}: {exc}") from None
    army.check_unit(unit, "SPEC", repr(spec.text))
    return Side(spec, unit)


@lru_cache(maxsize=8192)
def situation_dist(sit: Any) -> Dist:
    """``sit.dist()``, memoised (the rules' situations are frozen, hashable values)."""
    d: Dist = sit.dist()
    return d


def rule_error(exc: ValueError) -> ShieldwallError:
    """A rule's ``ValueError`` (a situation the rules do not allow) as a one-line error."""
    return ShieldwallError(str(exc))


#: SPEC text as given -> its ``Side`` (the parsed units: ``parse_spec`` and ``side`` in one look-up)
SIDES: dict[str, Side] = {}


def side_of(text: str) -> Side:
    """The ``Side`` of a SPEC as given (``parse_spec`` and :func:`side`, memoised on the text)."""
    got = SIDES.get(text)
    if got is None:
        got = side(parse_spec(text))
        if len(SIDES) >= 512:
            SIDES.pop(next(iter(SIDES)))
        SIDES[text] = got
    return got
