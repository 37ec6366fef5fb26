"""Declared parameters of one-hour-dark-ages: what a designer may vary, with defaults and docs.

Optional rules are switches here too; a scenario's ``[options]`` table sets them and
``--variant KEY=VALUE`` overrides them for a simulation.
"""

from __future__ import annotations

import math

from shieldwall.core.game import Parameter

RS = "one-hour-dark-ages"

_P = [
    Parameter(
        "dice",
        "d5",
        "Attack and movement die: d5 = average die (2,3,3,4,4,5) or d6.",
        ("d5", "d6"),
        f"{RS}:dice",
    ),
    Parameter(
        "hit_limit",
        15,
        "Hits at which a unit is removed (Elite/Determined +3, Levy/Reluctant -3).",
        (),
        f"{RS}:routs-and-rallies.removal",
    ),
    Parameter(
        "warriors_bonus",
        1,
        "Warriors' melee modifier (the author toned it down from +2 to +1).",
        (),
        f"{RS}:unit-definitions",
    ),
    Parameter(
        "shots",
        3,
        "Shots a missile unit has (ignored with missile_supply).",
        (),
        f"{RS}:shooting.three-shots",
    ),
    Parameter("bow_range", 12.0, "Bow range in inches.", (), f"{RS}:shooting.range"),
    Parameter("javelin_range", 6.0, "Javelin range in inches.", (), f"{RS}:shooting.range"),
    Parameter("arc", 45.0, "Half-angle in degrees of the charge and shooting arc.", (), f"{RS}:charging.arc"),
    Parameter(
        "road_bonus", 3.0, "Inches added to a move made entirely on a road.", (), f"{RS}:terrain.roads"
    ),
    Parameter(
        "grey_margin",
        0.1,
        "A measurement within this many inches of a limit is too close to call and is settled by a roll-off.",
        (),
        f"{RS}:grey-areas",
    ),
    Parameter("turns", 15, "Turns in the battle (the scenario may set its own).", (), f"{RS}:play-sequence"),
    # optional rules
    Parameter(
        "personalities",
        False,
        "Optional rule: Personalities (hero, leader, banner, priest).",
        (),
        f"{RS}:personalities",
    ),
    Parameter(
        "rally_variation",
        False,
        "Personalities variant: a unit with 5+ hits may not rally below 5.",
        (),
        f"{RS}:personalities.rally-variation",
    ),
    Parameter("initiative", False, "Optional rule: Initiative roll-off from turn 2.", (), f"{RS}:initiative"),
    Parameter(
        "initiative_die",
        "d6",
        "Die of the Initiative roll-off (the text does not say; with the d5 and +3 the Initiative "
        "could never change hands).",
        ("d6", "d5"),
        f"{RS}:initiative",
    ),
    Parameter(
        "initiative_bonus",
        3,
        "Initiative roll-off bonus for the side holding it (+2 more change, +4 less).",
        (2, 3, 4),
        f"{RS}:initiative.bonus",
    ),
    Parameter(
        "initiative_routed_penalty",
        False,
        "Initiative variant: -1 per routed (removed) unit.",
        (),
        f"{RS}:initiative.routed",
    ),
    Parameter(
        "variable_quality",
        False,
        "Optional rule: Elite (18 hits) and Levy (12 hits) units.",
        (),
        f"{RS}:variable-quality",
    ),
    Parameter(
        "force_morale",
        False,
        "Optional rule: Force Morale roll each time a unit is destroyed.",
        (),
        f"{RS}:force-morale",
    ),
    Parameter(
        "force_morale_two_dice",
        False,
        "Force Morale variant: roll two dice, keep fighting if either beats the losses.",
        (),
        f"{RS}:force-morale.two-dice",
    ),
    Parameter(
        "force_morale_emboldened",
        False,
        "Force Morale variant: +1 if the opponent has lost more units.",
        (),
        f"{RS}:force-morale.emboldened",
    ),
    Parameter(
        "force_morale_last_attack",
        False,
        "Force Morale campaign variant: the opposing side gets one last free attack as a force routs.",
        (),
        f"{RS}:force-morale.last-attack",
    ),
    Parameter(
        "fall_back", False, "Optional rule: Fall Back! for Skirmishers and Cavalry.", (), f"{RS}:fall-back"
    ),
    Parameter(
        "missile_supply",
        False,
        "Optional rule: a natural 5 when shooting uses the last missiles (replaces the three-shot limit).",
        (),
        f"{RS}:missile-supply",
    ),
    Parameter(
        "declared_movement",
        False,
        "Optional rule: declare intent, roll, then fulfil it.",
        (),
        f"{RS}:declared-movement",
    ),
    Parameter(
        "upgrades",
        False,
        "Army-list variations: one upgrade and one downgrade per list.",
        (),
        f"{RS}:army-lists.variations",
    ),
    Parameter(
        "hand_deployment",
        False,
        "The sides place their units by hand, in turn, within their deployment zones (ruling R50); "
        "off: the scenario places every unit.",
        (),
        f"{RS}:deployment",
    ),
    Parameter("allies", False, "Army lists: allied contingents of 1-3 units.", (), f"{RS}:army-lists.allies"),
    Parameter(
        "allies_debate",
        "first-die",
        "Which movement die's natural 2 keeps a small allied contingent still: the first die "
        "rolled (1 in 6 for every class) or any of the dice (the former reading).",
        ("first-die", "any-die"),
        f"{RS}:army-lists.allies.debate",
    ),
]

PARAMETERS: dict[str, Parameter] = {p.name: p for p in _P}
DEFAULTS = {p.name: p.default for p in _P}

#: The values a designer may give the numeric parameters (inclusive). The text fixes
#: none of them; these keep a variant playable: a hit limit the Levy/Reluctant -3 leaves at 1 or more,
#: an arc of a half-angle within 180 degrees, ranges and margins that are distances, the scenario's
#: own 1-100 turns.
RANGES: dict[str, tuple[float, float]] = {
    "hit_limit": (4, 100),
    "warriors_bonus": (-5, 5),
    "shots": (0, 99),
    "bow_range": (0.5, 100.0),
    "javelin_range": (0.5, 100.0),
    "arc": (1.0, 180.0),
    "road_bonus": (0.0, 24.0),
    "grey_margin": (0.0, 2.0),
    "turns": (1, 100),
}


def range_problem(name: str, value: object) -> str | None:
    """Why ``value`` is out of the range of parameter ``name`` (None when it is fine)."""
    if name not in RANGES or isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if not math.isfinite(value):
        return f"must be a finite number, not {value!r}"
    lo, hi = RANGES[name]
    if not lo <= value <= hi:
        return f"must be from {lo:g} to {hi:g}, not {value!r}"
    return None
