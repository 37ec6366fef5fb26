"""Units of an into-the-dark battle: figures in ranks on the table (copied with the state).

A unit stands as a rectangle of ``front`` figures by ``ranks`` ranks ("Formations"). Its position
is the centre of its front edge (``x``, ``y``) and its ``heading``; its footprint follows from the
width of one figure and the depth of one rank, both given by the scenario's basing ("Basing": the
text names the WRG and GW systems; it gives no depths, so the scenario supplies them). Casualties
come off the rear rank; a partial rear rank stands centred behind the front.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any, Literal, cast, final

from shieldwall.core.geometry import Footprint, Point, heading_vector
from shieldwall.core.reference import REFERENCE

from .army import ArmyUnit
from .profiles import special
from .spec_traits import Traits, allowance_of, quality_of, rout_dice_of, traits

SIDES = ("red", "blue")
Morale = Literal["steady", "shaken", "routed"]


def other(side: str) -> str:
    return "blue" if side == "red" else "red"


@final
class FootprintMemo:
    """A unit's footprint and the fields it was drawn from (``Unit.fp``; issue 16). Compiled, the
    fields are native numbers: asking whether the unit still stands where the footprint was drawn
    is seven comparisons of numbers, where a key tuple of the seven, its floats boxed, was built
    and compared as objects at every one of the footprint's many reads. Never changed once made."""

    __slots__ = ("x", "y", "heading", "front", "figures", "fig_w", "rank_d", "fp")

    def __init__(
        self, x: float, y: float, heading: float, front: int, figures: int, fig_w: float, rank_d: float,
        fp: Footprint,
    ) -> None:  # fmt: skip
        self.x, self.y, self.heading = x, y, heading
        self.front, self.figures, self.fig_w, self.rank_d = front, figures, fig_w, rank_d
        self.fp = fp

    def __repr__(self) -> str:
        return (
            f"FootprintMemo({self.x!r}, {self.y!r}, {self.heading!r}, {self.front!r}, {self.figures!r}, "
            f"{self.fig_w!r}, {self.rank_d!r}, {self.fp!r})"
        )

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (and deep-copied) as its constructor's arguments (a compiled class is not
        remade without them)."""
        return (
            FootprintMemo,
            (self.x, self.y, self.heading, self.front, self.figures, self.fig_w, self.rank_d, self.fp),
        )


@dataclass(slots=True)
class Unit:
    """One unit on the table: its army entry, its formation and its state."""

    id: str
    side: str
    spec: ArmyUnit
    fig_w: float  # inches across one figure
    rank_d: float  # inches of one rank, front to back
    figures: int
    original: int
    front: int
    x: float
    y: float
    heading: float
    morale: Morale = "steady"
    disordered: bool = False
    evading: bool = False
    shieldwall: bool = False
    column: int = 2  # widest front that counts as a column on a road (terrain.roads)
    pursuing: str | None = None  # fanatics who keep chasing a routed unit (combat.pursuit)
    faced: tuple[str, ...] = ()  # flank/rear sides with figures turned to face (combat.flanks-and-rear)
    gone: bool = False  # off the table (routed or pursued off)
    deployed: bool = True  # False until placed in an alternate deployment (setup.deployment)
    wounds: int = 0  # hits a champion has taken (special-troops.champions)
    unhorsed: bool = False  # a mounted champion whose first hit removed his mount
    destroyed: bool = False  # every figure lost, or surrendered
    joined: str | None = (
        None  # a champion or general mixed in with this unit's front rank (special-troops.champions)
    )
    general: bool = False  # a general's own figure, "treated as if he were LMM (or LMF)" (command.generals)
    # --- this turn ---------------------------------------------------------------------------
    acted: bool = False  # took its action in the movement phase (or rallied)
    used: float = 0.0  # inches of allowance used in the movement phase (about face = half)
    travelled: float = 0.0  # inches moved this turn, by choice or forced (missile fire: foot half)
    moved: bool = False  # moved at all this turn (by choice or forced)
    fired: bool = False
    charged: bool = False  # charged or counter-charged this turn (+1, no shooting)
    impetuous: bool = False  # charged impetuously this turn (doubled dice in the first round)
    caught: bool = False  # a caught evader: attacked in the back, may not fight back
    rallying: bool = False  # attempting to rally this turn (no other actions)
    rally_disorder: bool = False  # rallying from disorder: removed at the end of the turn if still
    interpenetrated: bool = False  # interpenetrating or interpenetrated this turn
    fought: bool = False
    pinned: bool = False  # attacked in flank or rear: may turn to face only next turn
    pinned_sides: tuple[str, ...] = ()
    turned_this_turn: bool = False
    halved: bool = False  # interpenetrated by a unit while both moved: maximum halved this turn
    pursued: bool = False  # pursued or followed up this turn (no shooting)
    charge_turn: int = 0  # the turn whose melee counts this unit as charging (+1)
    impetuous_turn: int = 0  # the turn whose melee is its first round after an impetuous charge
    extra: dict[str, Any] = field(default_factory=dict)
    _fpc: FootprintMemo | None = field(default=None, repr=False, compare=False)

    def clone(self) -> Unit:
        """A copy that shares nothing mutable (``extra`` copied): ``dataclasses.replace`` with
        ``extra=dict(self.extra)``, every field passed by position in the order of ``fields(Unit)``
        (compiled, a direct call of the native constructor: issue 16, a state copy clones every
        unit; ``tests/into_the_dark/test_itd_fast_paths.py`` checks it field for field)."""
        if REFERENCE.on:
            return self.clone_reference()
        return Unit(
            self.id, self.side, self.spec, self.fig_w, self.rank_d, self.figures, self.original,
            self.front, self.x, self.y, self.heading, self.morale, self.disordered, self.evading,
            self.shieldwall, self.column, self.pursuing, self.faced, self.gone, self.deployed,
            self.wounds, self.unhorsed, self.destroyed, self.joined, self.general, self.acted,
            self.used, self.travelled, self.moved, self.fired, self.charged, self.impetuous,
            self.caught, self.rallying, self.rally_disorder, self.interpenetrated, self.fought,
            self.pinned, self.pinned_sides, self.turned_this_turn, self.halved, self.pursued,
            self.charge_turn, self.impetuous_turn, dict(self.extra), self._fpc,
        )  # fmt: skip

    def state_fields(self) -> tuple[Any, ...]:
        """Every field but ``extra`` and ``_fpc``, in the order of ``fields(Unit)``: the memos' key
        of the unit (``plan_memo._fields_of``; compiled, each field read from the native object,
        where ``operator.attrgetter`` looked every name up; issue 16: the memos ask it of every
        unit at every decision). ``tests/into_the_dark/test_itd_fast_paths_plans.py`` checks it
        against ``attrgetter`` of those fields, field for field."""
        return (
            self.id, self.side, self.spec, self.fig_w, self.rank_d, self.figures, self.original,
            self.front, self.x, self.y, self.heading, self.morale, self.disordered, self.evading,
            self.shieldwall, self.column, self.pursuing, self.faced, self.gone, self.deployed,
            self.wounds, self.unhorsed, self.destroyed, self.joined, self.general, self.acted,
            self.used, self.travelled, self.moved, self.fired, self.charged, self.impetuous,
            self.caught, self.rallying, self.rally_disorder, self.interpenetrated, self.fought,
            self.pinned, self.pinned_sides, self.turned_this_turn, self.halved, self.pursued,
            self.charge_turn, self.impetuous_turn,
        )  # fmt: skip

    def same_fields(self, t: tuple[Any, ...]) -> bool:
        """Whether ``t`` (a ``state_fields()`` of this unit taken before) equals ``state_fields()``
        now, compared field by field with nothing built (issue 16: the memos compare every unit
        with their snapshot at every decision; a new tuple of 44 fields, its floats boxed, for
        each was most of that). A field holding an object (the army entry, a tuple) compares by
        identity first, as a tuple's comparison does; the army entry and the flags by identity
        only: ``False`` may then be answered for an equal unit (a memo makes its entry again, the
        same), never ``True`` for a changed one; never an error, whatever ``t`` holds.
        ``tests/into_the_dark/test_itd_fast_paths_plans.py`` changes each field in turn."""
        if len(t) != 44:
            return False
        try:  # (compiled, each ``cast`` checks the type: a field of another type answers False)
            return self._same_fields(t)
        except TypeError:
            return False

    def _same_fields(self, t: tuple[Any, ...]) -> bool:
        return (
            self.x == cast(float, t[8]) and self.y == cast(float, t[9])
            and self.heading == cast(float, t[10]) and self.used == cast(float, t[26])
            and self.travelled == cast(float, t[27]) and self.figures == cast(int, t[5])
            and self.front == cast(int, t[7]) and self.morale == cast(str, t[11])
            and self.acted is t[25] and self.moved is t[28] and self.fired is t[29]
            and self.charged is t[30] and self.fought is t[36] and self.disordered is t[12]
            and self.evading is t[13] and self.shieldwall is t[14] and self.gone is t[18]
            and self.deployed is t[19] and self.unhorsed is t[21] and self.destroyed is t[22]
            and self.general is t[24] and self.impetuous is t[31] and self.caught is t[32]
            and self.rallying is t[33] and self.rally_disorder is t[34]
            and self.interpenetrated is t[35] and self.pinned is t[37]
            and self.turned_this_turn is t[39] and self.halved is t[40] and self.pursued is t[41]
            and self.original == cast(int, t[6]) and self.column == cast(int, t[15])
            and self.wounds == cast(int, t[20]) and self.charge_turn == cast(int, t[42])
            and self.impetuous_turn == cast(int, t[43]) and self.fig_w == cast(float, t[3])
            and self.rank_d == cast(float, t[4]) and self.id == cast(str, t[0])
            and self.side == cast(str, t[1]) and self.spec is t[2]
            and self.pursuing == t[16] and self.joined == t[23]
            and (self.faced is t[17] or self.faced == t[17])
            and (self.pinned_sides is t[38] or self.pinned_sides == t[38])
        )  # fmt: skip

    def clone_reference(self) -> Unit:
        """What ``clone`` did before (the tests compare the two)."""
        return replace(self, extra=dict(self.extra))

    # --- what it is ------------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def code(self) -> str:
        return self.spec.code

    @property
    def mounted(self) -> bool:
        if REFERENCE.on:
            return self.spec.category == "M" and not self.unhorsed
        return traits(self.spec).category() == "M" and not self.unhorsed

    def _category_of(self, t: Traits) -> Literal["F", "M"]:
        """``category`` from the entry's kept traits ``t`` (the fast path: one lookup, not two)."""
        return "M" if t.category() == "M" and not self.unhorsed else "F"

    @property
    def category(self) -> Literal["F", "M"]:
        return "M" if self.mounted else "F"

    @property
    def champion(self) -> bool:
        if REFERENCE.on:
            return self.spec.champion
        return traits(self.spec).champion()

    @property
    def champion_hits(self) -> int:
        """ "Foot Champions can take a total of 2 hits before being removed. Mounted Champions can
        take 3 hits, the first one removing the mount." (special-troops.champions)"""
        ch = special().champion
        return ch.hits_mounted if self.spec.category == "M" else ch.hits_foot

    @property
    def wounded(self) -> bool:
        """A champion with 1 hit left attacks with 1 d6 (special-troops.champions)."""
        return self.champion and self.champion_hits - self.wounds == 1

    @property
    def density(self) -> str:
        """Formation density; "Routers are considered loose order troops for all purposes"."""
        return "L" if self.morale == "routed" else self._spec_density()

    def _spec_density(self) -> str:
        """The army entry's density (``spec_traits``: kept beside the entry; the reference asks it)."""
        if REFERENCE.on:
            return self.spec.density
        return traits(self.spec).density()

    @property
    def close_foot(self) -> bool:
        return self._spec_density() == "C" and not self.mounted

    @property
    def open_foot(self) -> bool:
        return self._spec_density() == "O" and not self.mounted

    @property
    def quality(self) -> int:
        """ "Morale = lowest quality in the unit" (morale.morale): a mixed unit's lowest."""
        if REFERENCE.on:
            return quality_of(self.spec)
        return traits(self.spec).quality()

    # into-the-dark:troops.unit-organisation.mixed-missiles
    @property
    def majority(self) -> ArmyUnit:
        """The troop type whose values are used "when giving or receiving missile fire": the majority
        of the figures left (a mixed unit, troops.unit-organisation; casualties come off the rear,
        the types listed last); for a unit of one type, its own."""
        return self.spec.majority(self.figures) if self.spec.mixed else self.spec

    @property
    def front_spec(self) -> ArmyUnit:
        """The troop type of the figures in contact in melee: "the figures in contact with the enemy
        determine the attack/defence values" - the majority of the front rank (a mixed unit's types
        stand in ranks in the order listed, ruling 76); for a unit of one type, its own."""
        return self.spec.majority(min(self.front, self.figures)) if self.spec.mixed else self.spec

    def spec_of(self, figs: Sequence[tuple[int, int]]) -> ArmyUnit:
        """The troop type of the figures ``figs`` ((rank, slot), as ``rank_slots``) of a mixed unit:
        their majority (ties: the type listed first) - "the figures in contact with the enemy
        determine the attack/defence values" on whatever edge they touch it (ruling 78,
        `troops.unit-organisation.mixed-melee`); without figures, the front rank's; for a unit of one
        type, its own."""
        if not self.spec.mixed:
            return self.spec
        parts = self.spec.parts()
        seq = [j for j, p in enumerate(parts) for _ in range(p.figures)][: self.figures]
        before = [0]
        for r in range(self.ranks):
            before.append(before[-1] + self.rank_count(r))
        counts: dict[int, int] = {}
        for r, i in figs:
            if r >= self.ranks or i not in self.rank_slots(r):
                continue
            k = before[r] + i - self.rank_slots(r).start
            if k < len(seq):
                counts[seq[k]] = counts.get(seq[k], 0) + 1
        if not counts:
            return self.front_spec
        return parts[max(counts, key=lambda j: (counts[j], -j))]

    @property
    def has_missiles(self) -> bool:
        return self.majority.has_missiles

    @property
    def has_melee(self) -> bool:
        """A general's figure "has no value in combat" (command.generals): he never charges."""
        return self.spec.has_melee_weapons and not self.general

    @property
    def missile_only(self) -> bool:
        """Missile troops that are not cross trained."""
        return self.majority.type == "missile"

    @property
    def fanatic(self) -> bool:
        return self.quality == 5

    @property
    def on_table(self) -> bool:
        return self.deployed and not (self.gone or self.destroyed) and self.joined is None

    @property
    def routed(self) -> bool:
        return self.morale == "routed"

    @property
    def shaken(self) -> bool:
        # into-the-dark:combat.rout.shaken-and-disordered: routers are shaken
        return self.morale in ("shaken", "routed")

    # into-the-dark:troops.unit-organisation.mixed - the slowest part's move and rout dice
    @property
    def allowance(self) -> float:
        """Maximum move in inches (25mm) by troop type ("Distances", encased limit)."""
        # "If different troop types are mixed in a unit, it moves at the speed of the slowest"
        if REFERENCE.on:
            return allowance_of(self.spec, self.category)
        t = traits(self.spec)
        return t.allowance(self._category_of(t))

    @property
    def rout_dice(self) -> int:
        if REFERENCE.on:
            return rout_dice_of(self.spec, self.category)
        t = traits(self.spec)
        return t.rout_dice(self._category_of(t))

    # --- formation ---------------------------------------------------------------------------
    @property
    def ranks(self) -> int:
        return max(1, -(-self.figures // self.front)) if self.front else 1

    @property
    def complete_ranks(self) -> int:
        return self.figures // self.front if self.front else 0

    def rank_count(self, r: int) -> int:
        """Figures in rank ``r`` (0 = front)."""
        full = self.figures // self.front
        if r < full:
            return self.front
        if r == full:
            return self.figures - full * self.front
        return 0

    def rank_slots(self, r: int) -> range:
        """Slot indices (0 = left of the front) filled in rank ``r``: a partial rank is centred."""
        n = self.rank_count(r)
        start = (self.front - n) // 2
        return range(start, start + n)

    @property
    def frontage(self) -> float:
        return self.front * self.fig_w

    @property
    def depth(self) -> float:
        return self.ranks * self.rank_d

    @property
    def fp(self) -> Footprint:
        c = self._fpc
        if (
            c is not None and c.x == self.x and c.y == self.y and c.heading == self.heading
            and c.front == self.front and c.figures == self.figures and c.fig_w == self.fig_w
            and c.rank_d == self.rank_d
        ):  # fmt: skip
            return c.fp
        fx, fy = heading_vector(self.heading)
        depth = self.depth
        d = depth / 2.0
        fp = Footprint(self.x - fx * d, self.y - fy * d, self.heading, self.front * self.fig_w, depth)
        self._fpc = FootprintMemo(
            self.x, self.y, self.heading, self.front, self.figures, self.fig_w, self.rank_d, fp
        )
        return fp

    def place(self, fp: Footprint) -> None:
        """Stand the unit on a footprint of its own size (front edge centre from the rectangle)."""
        fx, fy = heading_vector(fp.heading)
        self.x = fp.x + fx * fp.depth / 2.0
        self.y = fp.y + fy * fp.depth / 2.0
        self.heading = fp.heading

    @property
    def front_centre(self) -> Point:
        return (self.x, self.y)

    def lose(self, n: int) -> int:
        """Remove ``n`` casualties from the rear rank; returns the figures actually lost (for a
        champion: the hits taken; he is removed with his last hit, special-troops.champions)."""
        if self.champion:
            taken = max(0, min(n, self.champion_hits - self.wounds))
            self.wounds += taken
            if self.wounds and self.spec.category == "M":
                self.unhorsed = True  # "the first one removing the mount"
            if self.wounds >= self.champion_hits:
                self.figures = 0
                self.destroyed = True
            return taken
        n = max(0, min(n, self.figures))
        self.figures -= n
        if self.figures < self.front:
            self.front = self.figures
        if self.figures == 0:
            self.destroyed = True
        return n

    def reset_turn(self) -> None:
        self.acted = self.moved = self.fired = self.charged = self.impetuous = False
        self.caught = self.rallying = self.rally_disorder = self.interpenetrated = False
        self.fought = self.turned_this_turn = False
        self.used = self.travelled = 0.0
        self.halved = self.pursued = False
        self.pinned = False
        self.pinned_sides = ()


#: every field of a unit is an init field (``Unit.clone`` passes them all by position)
assert all(f.init for f in fields(Unit))


def clone_units(units: dict[str, Unit]) -> dict[str, Unit]:
    """``{k: u.clone() for k, u in units.items()}`` (a state's copy: compiled, the loop too)."""
    return {k: u.clone() for k, u in units.items()}


def live_units(units: dict[str, Unit], side: str | None) -> list[Unit]:
    """The units on the table (of ``side``, unless None), in the state's order (``State.live``:
    the loop compiled, as every look-ahead asks it of every unit)."""
    if side is None:
        return [u for u in units.values() if u.on_table]
    return [u for u in units.values() if u.on_table and u.side == side]


def joined_to(units: dict[str, Unit], uid: str) -> list[Unit]:
    """The units joined to unit ``uid`` (``Unit.joined``), in the state's order."""
    return [c for c in units.values() if c.joined == uid]


def base_width_in(system: str, density: str, custom: dict[str, float] | None) -> float:
    """Width of one figure in inches from the scenario's basing ("Basing", "1) Density")."""
    from .profiles import basing

    b = basing()
    if system == "gw":
        mm = float(b.gw.width_per_figure_mm[density])  # type: ignore[index]
    elif system in ("wrg-60", "wrg-75"):
        width = 60.0 if system == "wrg-60" else 75.0
        mm = width / b.wrg.figures_per_base[density]  # type: ignore[index]
    else:
        assert custom is not None
        mm = float(custom[density])
    return mm / 25.4


def angle_between(a: float, b: float) -> float:
    d = math.fmod(a - b, 360.0)
    if d < -180.0:
        d += 360.0
    elif d > 180.0:
        d -= 360.0
    return abs(d)
