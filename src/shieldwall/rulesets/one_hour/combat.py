"""One attack in one-hour-dark-ages, as an exact distribution and as a seeded sample.

This is the single source of truth for hits: the engine samples ``AttackSituation.dist()`` (via
``roll``) and the odds engine enumerates it.

Clauses: "Shooting" (1D5 -2 bows / -1 javelins; terrain, shieldwall, rear, stacked modifiers) and
"Melee" (1D5 +1 Warriors / -1 javelin units / -2 bows; terrain, shieldwall, flank/rear, stacked
modifiers). See docs/rules/one-hour-dark-ages.md and docs/rulings/one-hour-dark-ages.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal

from shieldwall.core.dice import Die, Dist
from shieldwall.rulesets.one_hour.profiles import UnitProfile

if TYPE_CHECKING:
    import numpy as np

RS = "one-hour-dark-ages"
Mode = Literal["melee", "shoot"]
Facing = Literal["front", "flank", "rear"]

#: "Stacked Modifiers. The max defensive benefit any Unit may receive is 1/4 Hits [1/2x1/2]."
MAX_HALVINGS = 2


def attack_modifier(
    profile: UnitProfile, mode: str, params: Mapping[str, Any], change: int = 0, hero: bool = False
) -> tuple[int, list[tuple[str, str]]]:
    """A unit's die modifier for a melee attack or a shot, with the clause of each part.

    "Unit Definitions" / "Ideas for Unit Types" give the type's modifier (Warriors' from the
    ``warriors_bonus`` parameter); the "Variations" change it by ``change`` (Household +1, Levy -1);
    "Personalities: Hero" adds +1 in shooting or melee. Used by the engine and by the odds engine.
    """
    if mode == "melee":
        base = profile.melee if profile.melee_param is None else int(params[profile.melee_param])
    else:
        base = profile.shoot if profile.shoot is not None else 0
    cites = [(f"{profile.name} {base:+d}", profile.clause)]
    if change:
        cites.append((f"{'household' if change > 0 else 'levy'} {change:+d}", "army-lists.variations"))
    if hero:
        cites.append(("hero +1", "personalities.hero"))
    return base + change + (1 if hero else 0), cites


def _hits(face: int, modifier: int, doubled: bool, halvings: int) -> int:
    """``AttackSituation.hits_for_face``."""
    raw = max(0, face + modifier)
    if doubled:
        raw *= 2
    return -(-raw // (1 << halvings))


@lru_cache(maxsize=1024)
def _hits_dist(faces: tuple[int, ...], modifier: int, doubled: bool, halvings: int) -> Dist:
    """``AttackSituation.dist``: equally likely ``faces`` through ``_hits``, memoised."""
    return Dist.uniform(faces).map(lambda face: _hits(face, modifier, doubled, halvings))


@dataclass(frozen=True, slots=True)
class AttackSituation:
    """Everything that decides the hits of one melee attack or one shot.

    ``modifier`` is the attacker's total die modifier (unit type, upgrade/downgrade, hero).
    ``facing`` is the target's facing attacked. ``terrain`` says the target has the terrain
    defensive bonus (for melee: uphill, or defending woods / village / marsh / river bank /
    gully / wall; for shooting: woods / village / marsh / wall). ``shieldwall`` says the target
    is Infantry.
    """

    mode: Mode
    die: Die
    modifier: int
    facing: Facing = "front"
    terrain: bool = False
    shieldwall: bool = False
    notes: tuple[str, ...] = field(default=())
    #: (what, clause id) of each part of ``modifier`` for the event log,
    #: e.g. ("hero +1", "personalities.hero")
    citations: tuple[tuple[str, str], ...] = field(default=())

    # --- the rules -----------------------------------------------------------------------------
    def doubled(self) -> bool:
        """ "Unshielded or unprepared": double hits on the rear (shooting) or flank/rear (melee)."""
        if self.mode == "shoot":
            return self.facing == "rear"
        return self.facing in ("flank", "rear")

    def halvings(self) -> list[str]:
        """The defensive halvings that apply, capped by "Stacked Modifiers" at two (1/4 hits)."""
        out: list[str] = []
        if self.terrain:
            out.append("terrain")
        if self.shieldwall and (self.mode == "melee" or self.facing in ("front", "flank")):
            out.append("shieldwall")
        return out[:MAX_HALVINGS]

    def rule_of(self, part: str) -> str:
        """The clause of a modifier of this attack, by its mode: "shooting.dice", "shooting.terrain",
        "shooting.shieldwall", "shooting.unshielded", "shooting.stacked" for a shot; "melee.dice",
        "melee.terrain", "melee.shieldwall", "melee.unshielded", "melee.stacked" in melee."""
        section = "shooting" if self.mode == "shoot" else "melee"
        return f"{RS}:{section}.{part}"

    def note_rule(self, note: str) -> str:
        """The clause behind a modifier note: "hero +1" is "Personalities: Hero"; "household +1" /
        "levy -1" are the army-list "Variations"."""
        word = note.split()[0] if note else ""
        if word == "hero":
            return f"{RS}:personalities.hero"
        if word in ("household", "levy"):
            return f"{RS}:army-lists.variations"
        return self.rule_of("dice")

    def hits_for_face(self, face: int) -> int:
        """Hits for one natural die face: (face + modifier, at least 0), doubled, then halved
        rounding up once per halving (ceil of ceil is ceil of the quotient)."""
        return _hits(face, self.modifier, self.doubled(), len(self.halvings()))

    def dist(self) -> Dist:
        """Exact distribution of hits: the die's faces through ``hits_for_face`` (the table per die,
        modifier, doubling and number of halvings is shared by every situation that has them)."""
        return _hits_dist(self.die.faces, self.modifier, self.doubled(), len(self.halvings()))

    def breakdown(self, face: int) -> dict[str, Any]:
        """The event data for a roll: faces, modifiers, and the rule clause of each."""
        mods: list[dict[str, Any]] = [
            {"name": "attack", "value": self.modifier, "rule": self.rule_of("dice")}
        ]
        for n in self.notes:
            mods.append({"name": n, "rule": self.note_rule(n)})
        for what, clause in self.citations:
            mods.append({"name": what, "rule": f"{RS}:{clause}"})
        if self.doubled():
            mods.append({"name": "double (unshielded or unprepared)", "rule": self.rule_of("unshielded")})
        halves = self.halvings()
        for h in halves:
            mods.append({"name": f"halve ({h})", "rule": self.rule_of(h)})
        if len(halves) == MAX_HALVINGS:
            mods.append({"name": "stacked modifiers: 1/4 is the most", "rule": self.rule_of("stacked")})
        return {
            "die": self.die.name,
            "faces": [face],
            "modifiers": mods,
            "facing": self.facing,
            "hits": self.hits_for_face(face),
        }

    def roll(self, rng: np.random.Generator) -> tuple[int, int]:
        """Roll the attack die with the battle's generator: (natural face, hits)."""
        face = self.die.roll(rng)
        return face, self.hits_for_face(face)
