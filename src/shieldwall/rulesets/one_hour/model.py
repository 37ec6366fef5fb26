"""Mutable pieces of a one-hour-dark-ages battle: units and personalities (copied with the state)."""

from __future__ import annotations

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


@dataclass(slots=True)
class Unit:
    id: str
    side: str
    name: str
    type: str
    profile: UnitProfile
    fp: Footprint
    hits: int = 0
    max_hits: int = 15
    attack_mod: int = 0  # upgrade / downgrade (+1 household, -1 levy)
    upgrade: str = ""
    quality: str = ""  # elite / levy (Variable Quality)
    shots_used: int = 0
    out_of_missiles: bool = False
    allied: bool = False
    removed: bool = False
    reached_five: bool = False
    # this player-turn
    moved: bool = False
    shot: bool = False
    moving_shot: bool = False
    charged: bool = False
    activated: bool = False
    turns_used: int = 0
    extra: dict[str, Any] = field(default_factory=dict)
    #: the battle state this unit belongs to, told of every change of a field (``__setattr__``);
    #: None for a game's initial units and for probes (copies standing somewhere to be checked)
    owner: Any = field(default=None, compare=False, repr=False)

    def __setattr__(self, name: str, value: Any) -> None:
        """Set a field; an owned unit first tells its state (``OneHourState._journal`` gets the old
        value while an order is applied, and the state's versions of its units and of their
        places move on), so the state can undo an order and knows when its caches are stale."""
        try:
            owner = self.owner
        except AttributeError:  # (while the fields are first set)
            owner = None
        if owner is not None:
            journal = owner._journal
            if journal is not None:
                journal.append((self, name, object.__getattribute__(self, name)))
            owner._units_version += 1
            if name == "fp" or name == "removed":
                owner._geo_version += 1
                owner._geo_changed.append(self)
        object.__setattr__(self, name, value)

    def clone(self) -> Unit:
        """A copy with its own ``extra`` dict (field by field: this runs on every order applied, every
        state copy and every charge probe). The fields are set past ``__setattr__``: a new unit has
        no owner to tell (the hook would look for one, find none and set the field the same way)."""
        new = _new_unit(Unit)
        _set(new, "id", self.id)
        _set(new, "side", self.side)
        _set(new, "name", self.name)
        _set(new, "type", self.type)
        _set(new, "profile", self.profile)
        _set(new, "fp", self.fp)
        _set(new, "hits", self.hits)
        _set(new, "max_hits", self.max_hits)
        _set(new, "attack_mod", self.attack_mod)
        _set(new, "upgrade", self.upgrade)
        _set(new, "quality", self.quality)
        _set(new, "shots_used", self.shots_used)
        _set(new, "out_of_missiles", self.out_of_missiles)
        _set(new, "allied", self.allied)
        _set(new, "removed", self.removed)
        _set(new, "reached_five", self.reached_five)
        _set(new, "moved", self.moved)
        _set(new, "shot", self.shot)
        _set(new, "moving_shot", self.moving_shot)
        _set(new, "charged", self.charged)
        _set(new, "activated", self.activated)
        _set(new, "turns_used", self.turns_used)
        _set(new, "extra", dict(self.extra))
        _set(new, "owner", None)
        return new

    @property
    def category(self) -> str:
        return self.profile.category

    def reset_turn(self) -> None:
        self.moved = self.shot = self.moving_shot = self.charged = self.activated = False
        self.turns_used = 0


_new_unit = object.__new__
_set = object.__setattr__
# clone() copies every field by name (but the owner): a field added to Unit must be added there too
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
    "owner",
]
