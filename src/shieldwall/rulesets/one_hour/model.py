"""Mutable pieces of a one-hour-dark-ages battle: units and personalities (copied with the state)."""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field, fields
from typing import Any

from shieldwall.core.geometry import Footprint
from shieldwall.rulesets.one_hour.profiles import UnitProfile

SIDES = ("red", "blue")


def other(side: str) -> str:
    return "blue" if side == "red" else "red"


@dataclass(slots=True)
class Personality:
    """A personality figure ("Personalities"): hero or leader (optionally with a banner), or priest."""

    id: str
    side: str
    kind: str  # hero | leader | priest
    banner: bool
    unit: str | None
    allied: bool = False

    @property
    def label(self) -> str:
        return self.kind + ("+banner" if self.banner else "")


@dataclass(slots=True, init=False)
class Unit:
    """One unit on the table. Compiled (``scripts/build_compiled.py``) it is a mypyc native class:
    compiled modules read its fields directly, not through the generic attribute API (issue 16,
    docs/performance.md "One-Hour: eighth slice")."""

    id: str
    side: str
    name: str
    type: str
    profile: UnitProfile
    fp: Footprint
    hits: int
    max_hits: int
    attack_mod: int  # upgrade / downgrade (+1 household, -1 levy)
    upgrade: str
    quality: str  # elite / levy (Variable Quality)
    shots_used: int
    out_of_missiles: bool
    allied: bool
    removed: bool
    reached_five: bool
    # this player-turn
    moved: bool
    shot: bool
    moving_shot: bool
    charged: bool
    activated: bool
    turns_used: int
    extra: dict[str, Any]
    #: a weak reference to the battle state this unit belongs to (``owner``), or None. Weak: the
    #: state holds its units, and a strong reference back made every finished battle a reference
    #: cycle that only the cyclic garbage collector could free (docs/performance.md, "A
    #: finished One-Hour battle freed at once")
    owner_ref: Any = field(compare=False, repr=False)

    def __init__(
        self,
        id: str,
        side: str,
        name: str,
        type: str,
        profile: UnitProfile,
        fp: Footprint,
        hits: int = 0,
        max_hits: int = 15,
        attack_mod: int = 0,
        upgrade: str = "",
        quality: str = "",
        shots_used: int = 0,
        out_of_missiles: bool = False,
        allied: bool = False,
        removed: bool = False,
        reached_five: bool = False,
        moved: bool = False,
        shot: bool = False,
        moving_shot: bool = False,
        charged: bool = False,
        activated: bool = False,
        turns_used: int = 0,
        extra: dict[str, Any] | None = None,
        owner: Any = None,
    ) -> None:
        """The dataclass's constructor written out: the fields are set past ``__setattr__`` (a new
        unit has no owner to tell; compiled, each is a store into the native object)."""
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "side", side)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "type", type)
        object.__setattr__(self, "profile", profile)
        object.__setattr__(self, "fp", fp)
        object.__setattr__(self, "hits", hits)
        object.__setattr__(self, "max_hits", max_hits)
        object.__setattr__(self, "attack_mod", attack_mod)
        object.__setattr__(self, "upgrade", upgrade)
        object.__setattr__(self, "quality", quality)
        object.__setattr__(self, "shots_used", shots_used)
        object.__setattr__(self, "out_of_missiles", out_of_missiles)
        object.__setattr__(self, "allied", allied)
        object.__setattr__(self, "removed", removed)
        object.__setattr__(self, "reached_five", reached_five)
        object.__setattr__(self, "moved", moved)
        object.__setattr__(self, "shot", shot)
        object.__setattr__(self, "moving_shot", moving_shot)
        object.__setattr__(self, "charged", charged)
        object.__setattr__(self, "activated", activated)
        object.__setattr__(self, "turns_used", turns_used)
        object.__setattr__(self, "extra", {} if extra is None else extra)
        object.__setattr__(self, "owner_ref", None if owner is None else weakref.ref(owner))

    @property
    def owner(self) -> Any:
        """The battle state this unit belongs to, told of every change of a field
        (``__setattr__``); None for a game's initial units and for probes (copies standing
        somewhere to be checked), and once its state is gone."""
        ref = self.owner_ref
        return None if ref is None else ref()

    @owner.setter
    def owner(self, state: Any) -> None:
        object.__setattr__(self, "owner_ref", None if state is None else weakref.ref(state))

    def __setattr__(self, name: str, value: Any) -> None:
        """Set a field; an owned unit first tells its state (``OneHourState._journal`` gets the old
        value while an order is applied, the state's versions of its units and of their places move
        on, and the unit joins ``OneHourState._touched``), so the state can undo an order and knows
        when its caches are stale."""
        try:
            ref = self.owner_ref
        except AttributeError:  # (while the fields are first set: a copy or an unpickling)
            ref = None
        owner = None if ref is None else ref()
        if owner is not None:
            journal = owner._journal
            if journal is not None:
                journal.append((self, name, getattr(self, name)))
            owner._units_version += 1
            owner._touched.append(self)
            if name == "fp" or name == "removed":
                owner._geo_version += 1
                owner._geo_changed.append(self)
        object.__setattr__(self, name, value)

    def clone(self) -> Unit:
        """A copy with its own ``extra`` dict and no owner (every field passed by position: this
        runs on every order applied, every state copy and every charge probe)."""
        return Unit(
            self.id, self.side, self.name, self.type, self.profile, self.fp, self.hits,
            self.max_hits, self.attack_mod, self.upgrade, self.quality, self.shots_used,
            self.out_of_missiles, self.allied, self.removed, self.reached_five, self.moved,
            self.shot, self.moving_shot, self.charged, self.activated, self.turns_used,
            dict(self.extra), None,
        )  # fmt: skip

    def __reduce__(self) -> tuple[Any, ...]:
        """Copied and pickled through the constructor (a compiled native class cannot be made
        without its arguments), the owner among them: the constructor sets it past
        ``__setattr__``, so ``copy.deepcopy`` of a state gives units owned by the copy (the copy is
        in the memo before its units are copied) and nothing is told to a half-made state."""
        return (
            Unit,
            (
                self.id, self.side, self.name, self.type, self.profile, self.fp, self.hits,
                self.max_hits, self.attack_mod, self.upgrade, self.quality, self.shots_used,
                self.out_of_missiles, self.allied, self.removed, self.reached_five, self.moved,
                self.shot, self.moving_shot, self.charged, self.activated, self.turns_used,
                self.extra, self.owner,
            ),
        )  # fmt: skip

    @property
    def category(self) -> str:
        return self.profile.category

    def reset_turn(self) -> None:
        self.moved = self.shot = self.moving_shot = self.charged = self.activated = False
        self.turns_used = 0

    # The writes of the act modules (``act_move``, ``act_charge``, ``act_shoot``, ``act_melee``), made
    # here, in the class's own module: compiled, another module's ``u.fp = fp`` would store into the
    # native object past ``__setattr__`` and its journal (docs/performance.md, "A write past the
    # journal"; tests/plugins/test_compiled_setattr.py), while these go through it.
    def set_fp(self, fp: Footprint) -> None:
        self.fp = fp

    def set_moved(self, value: bool) -> None:
        self.moved = value

    def set_activated(self, value: bool) -> None:
        self.activated = value

    def set_charged(self, value: bool) -> None:
        self.charged = value

    def set_shot(self, value: bool) -> None:
        self.shot = value

    def set_moving_shot(self, value: bool) -> None:
        self.moving_shot = value

    def set_hits(self, hits: int) -> None:
        self.hits = hits

    def set_reached_five(self, value: bool) -> None:
        self.reached_five = value

    def set_shots_used(self, shots: int) -> None:
        self.shots_used = shots

    def set_out_of_missiles(self, value: bool) -> None:
        self.out_of_missiles = value

    def set_removed(self, value: bool) -> None:
        self.removed = value


def restore_field(u: Unit, name: str, value: Any) -> None:
    """Set a unit's field past its ``__setattr__`` (an order undone: ``OneHourState._rollback``).
    From Python, ``object.__setattr__`` refuses a compiled unit (its class sets its own fields)."""
    object.__setattr__(u, name, value)


# __init__ takes and clone() passes every field in this order: a field added to Unit must be added there too
assert [f.name for f in fields(Unit)] == [
    "id",
    "side",
    "name",
    "type",
    "profile",
    "fp",
    "hits",
    "max_hits",
    "attack_mod",
    "upgrade",
    "quality",
    "shots_used",
    "out_of_missiles",
    "allied",
    "removed",
    "reached_five",
    "moved",
    "shot",
    "moving_shot",
    "charged",
    "activated",
    "turns_used",
    "extra",
    "owner_ref",
]
