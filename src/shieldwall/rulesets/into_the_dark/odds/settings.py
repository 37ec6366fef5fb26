"""The ``--set`` keys of the into-the-dark odds: the situation of an attack, a morale or control
test, a duel or the matchup table. Plain data: imports no rules module."""

from __future__ import annotations

from shieldwall.odds.settings import SetKey

FACINGS = ("front", "flank", "rear")
YES_NO = ("yes", "no")
GENERALS = ("none", "poor", "average", "good")

_X = frozenset({"matrix"})
_A = frozenset({"attack"})
_M = frozenset({"morale"})
_D = frozenset({"duel"})
_AD = frozenset({"attack", "duel"})
_AM = frozenset({"attack", "morale"})
_ADM = frozenset({"attack", "duel", "morale"})

SET_KEYS: dict[str, SetKey] = {
    k.name: k
    for k in (
        SetKey(
            "mode",
            "melee (a round of melee) or shoot (missile fire)",
            "melee",
            ("melee", "shoot"),
            commands=_A,
        ),
        SetKey(
            "facing",
            "side of the target the attacking figures are in contact with, or shot from (rear: "
            "shields do not count)",
            "front",
            ("front", "flank", "rear"),
            commands=_A,
        ),
        SetKey(
            "charging",
            "melee: the attacker (duel: the first unit) charged this round, +1",
            "no",
            YES_NO,
            commands=_AD,
        ),
        SetKey(
            "impetuous",
            "melee: an impetuous charge (cavalry and warbands): double dice in the first "
            "round; in a duel the second unit tests morale on receiving it",
            "no",
            YES_NO,
            commands=_AD,
        ),
        SetKey(
            "uphill",
            "attack: the target is uphill of the attacker (-1); duel: the second unit is uphill "
            "of the first (-1 to the first's dice, +1 to the second's morale); morale: the unit is uphill "
            "of all enemy (+1)",
            "no",
            YES_NO,
            commands=_ADM,
        ),
        SetKey(
            "obstacle",
            "melee: the target (duel: the second unit) defends an obstacle (fence, ditch) on "
            "the side attacked (-1; in a duel also +1 to its morale, 'in cover')",
            "no",
            YES_NO,
            commands=_AD,
        ),
        SetKey(
            "range",
            "shoot: every firing figure at close or long range (long: 1 d6 per 8 figures)",
            "close",
            ("close", "long"),
            commands=_A,
        ),
        SetKey(
            "cover",
            "shoot: the target is in light cover (woods, fences) -1 or heavy cover (buildings, walls) -2",
            "none",
            ("none", "light", "heavy"),
            commands=_A,
        ),
        SetKey(
            "shaken",
            "attack: the attacker is shaken (steady fanatics lose their +1); morale: the unit is shaken (-1)",
            "no",
            YES_NO,
            commands=_AM,
        ),
        SetKey(
            "disordered",
            "attack: the attacker is disordered (only its front rank fights in melee, no "
            "shieldwall); morale: the unit is disordered (-1)",
            "no",
            YES_NO,
            commands=_AM,
        ),
        SetKey(
            "target-disordered", "the target is disordered (so not in shieldwall)", "no", YES_NO, commands=_A
        ),
        SetKey(
            "target-firing",
            "shoot: the target is firing bows (it cannot use shields)",
            "no",
            YES_NO,
            commands=_A,
        ),
        SetKey(
            "test",
            "morale test (passed / shaken / driven back / routed) or control test (passed / failed)",
            "morale",
            ("morale", "control"),
            commands=_M,
        ),
        SetKey(
            "casualties",
            "figures lost from the SPEC's strength (-1 per full 25%)",
            0,
            int_range=(0, 1000),
            commands=_M,
        ),
        SetKey("flanked", "the unit has been flanked by enemy in melee (-3)", "no", YES_NO, commands=_M),
        SetKey(
            "outnumber",
            "the unit outnumbers its melee opponents by double or more (+1)",
            "no",
            YES_NO,
            commands=_M,
        ),
        SetKey("long-range-only", "receiving long range missile fire only (+1)", "no", YES_NO, commands=_M),
        SetKey(
            "fewer-firers",
            "receiving missile fire from fewer enemy than its own numbers (+1)",
            "no",
            YES_NO,
            commands=_M,
        ),
        SetKey(
            "deeper-ranks",
            "the opposing unit in melee has more complete ranks (-1)",
            "no",
            YES_NO,
            commands=_M,
        ),
        SetKey(
            "supported",
            'unrouted friends within 3" of both flanks or 6" behind (+1)',
            "no",
            YES_NO,
            commands=_M,
        ),
        SetKey(
            "unsupported", 'no unrouted friendly troops in sight within 12" (-2)', "no", YES_NO, commands=_M
        ),
        SetKey(
            "friends-routing",
            'friendly units routing within 12" (-1 each)',
            0,
            int_range=(0, 50),
            commands=_M,
        ),
        SetKey(
            "in-cover",
            "completely in or behind cover for missile fire, or defending an obstacle in melee, "
            "or behind the front lines (+1)",
            "no",
            YES_NO,
            commands=_M,
        ),
        SetKey(
            "types",
            "matrix: every representative troop type of data/into-the-dark-types.toml (all) or "
            "the 8 marked core",
            "all",
            ("all", "core"),
            commands=_X,
        ),
        SetKey(
            "charge",
            "matrix: the row unit's opening charge (the first round, and the mean of one round): none; "
            "charge (+1); impetuous (cavalry and Warbands charge impetuously: double dice, and the "
            "column unit tests morale on receiving it; the others charge)",
            "charge",
            ("none", "charge", "impetuous"),
            commands=_X,
        ),
        SetKey(
            "general",
            "a general leading the unit negates negative modifiers up to his rating (poor 1, "
            "average 2, good 3)",
            "none",
            GENERALS,
            commands=_M,
        ),
    )
}
