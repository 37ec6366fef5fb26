"""Mutable pieces of a one-hour-dark-ages battle: units and personalities (copied with the state)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
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

    def clone(self) -> Unit:
        return replace(self, extra=dict(self.extra))

    @property
    def category(self) -> str:
        return self.profile.category

    def reset_turn(self) -> None:
        self.moved = self.shot = self.moving_shot = self.charged = self.activated = False
        self.turns_used = 0
