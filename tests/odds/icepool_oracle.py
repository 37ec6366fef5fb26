"""An independent statement of the one-hour-dark-ages attack rules, in icepool.

Written from the rules text (dark-age-one-hour-d5.txt: "Unit Definitions", "Ideas for Unit Types",
"Shooting", "Melee", "Variations for All Armies", "Personalities") and the terrain data file's
village/marsh rulings, without calling shieldwall's rules code. Used by the tests as an oracle and
by benchmarks/bench_odds.py as the icepool side of the speed comparison.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import icepool

D5_FACES = (2, 3, 3, 4, 4, 5)  # "pips of 2, 3, 3, 4, 4, 5"
D6_FACES = (1, 2, 3, 4, 5, 6)
FACES = {"d5": D5_FACES, "d6": D6_FACES}


@dataclass(frozen=True)
class T:
    melee: int
    shoot: int | None = None
    shieldwall: bool = False  # "Infantry Units assume a Shieldwall formation"
    rough: bool = False  # "Only Skirmishers and Raiders may enter" woods and marsh
    hits: int | None = None


#: The unit types as the text defines them (warriors' +1 is the `warriors_bonus`).
TYPES: dict[str, T] = {
    "infantry": T(0, shieldwall=True),
    "warriors": T(1),
    "raiders": T(0, rough=True),
    "cavalry": T(0),
    "cavalry-javelins": T(-1, -1),
    "skirmishers-javelins": T(-1, -1, rough=True),
    "skirmishers-bows": T(-2, -2, rough=True),
    "roman-militia": T(-1, shieldwall=True),
    "roman-cavalry": T(0, 0),
    "arthurs-cavalry": T(1, 1),
    "roundtable-knights": T(2, 1),  # "fight d5+2": melee; shoot as Arthur's d5+1 (one-hour ruling R45)
    "mounted-servants": T(-2, -2),
    "irish-nobles": T(0, -1, rough=True),  # "fight at d5": melee; javelins d5-1 (ruling R45)
    "scots-nobles": T(1, hits=18),
    # "After deployment choose to fight as Infantry OR Warriors" (one-hour ruling R47)
    "viking-veterans": T(0, shieldwall=True),
    "viking-veterans-infantry": T(0, shieldwall=True),
    "viking-veterans-warriors": T(1),
}

#: "Units uphill or defending woods / river bank / gully / wall halve Hits" (+ villages and marsh,
#: which the Terrain section gives a defensive bonus "when inside").
MELEE_HALVING = {"uphill", "woods", "river-bank", "gully", "wall", "village", "marsh"}
#: "Units defending woods, villages or walls halve Hits" (+ marsh, like woods).
SHOOT_HALVING = {"woods", "village", "wall", "marsh"}
ROUGH_ONLY = {"woods", "marsh"}

ATTACK_CHANGE = {"household": 1, "levy": -1}
HITS_CHANGE = {"determined": 3, "elite": 3, "reluctant": -3}


def modifier(
    kind: str, mode: str, change: str | None = None, hero: bool = False, warriors_bonus: int = 1
) -> int:
    t = TYPES[kind]
    warband = kind in ("warriors", "viking-veterans-warriors") and mode == "melee"
    base = warriors_bonus if warband else (t.melee if mode == "melee" else t.shoot)
    assert base is not None
    return base + ATTACK_CHANGE.get(change or "", 0) + (1 if hero else 0)


def hits_limit(kind: str, change: str | None = None, hit_limit: int = 15) -> int:
    t = TYPES[kind]
    return (t.hits or hit_limit) + HITS_CHANGE.get(change or "", 0)


def halvings(target: str, mode: str, facing: str, terrain: str) -> int:
    n = 0
    if terrain in (MELEE_HALVING if mode == "melee" else SHOOT_HALVING):
        n += 1
    if TYPES[target].shieldwall and (mode == "melee" or facing in ("front", "flank")):
        n += 1
    return min(n, 2)  # "The max defensive benefit any Unit may receive is 1/4 Hits"


def doubled(mode: str, facing: str) -> bool:
    return facing == "rear" if mode == "shoot" else facing in ("flank", "rear")


def attack_die(faces: tuple[int, ...], mod: int, mode: str, facing: str, n_halve: int) -> icepool.Die:
    """The hits of one attack, built with icepool's dice algebra."""
    hits = (icepool.Die(faces) + mod).clip(0, None)
    if doubled(mode, facing):
        hits = hits * 2
    for _ in range(n_halve):
        hits = (hits + 1) // 2  # halve, rounding up
    return hits


def hits_die(
    attacker: str,
    target: str,
    mode: str = "melee",
    facing: str = "front",
    terrain: str = "open",
    dice: str = "d5",
    change: str | None = None,
    hero: bool = False,
    warriors_bonus: int = 1,
) -> icepool.Die:
    return attack_die(
        FACES[dice],
        modifier(attacker, mode, change, hero, warriors_bonus),
        mode,
        facing,
        halvings(target, mode, facing, terrain),
    )


def brute(faces: tuple[int, ...], mod: int, mode: str, facing: str, n_halve: int) -> dict[int, Fraction]:
    """The same by plain enumeration of the die faces."""
    out: dict[int, Fraction] = {}
    for f in faces:
        h = max(0, f + mod)
        if doubled(mode, facing):
            h *= 2
        for _ in range(n_halve):
            h = -(-h // 2)
        out[h] = out.get(h, Fraction(0)) + Fraction(1, len(faces))
    return dict(sorted(out.items()))


def die_probs(d: icepool.Die) -> dict[int, Fraction]:
    den = d.denominator()
    return {int(k): Fraction(int(q), den) for k, q in d.items()}


def duel_die(
    first: icepool.Die, second: icepool.Die, limit1: int, limit2: int, opening: icepool.Die | None = None
) -> icepool.Die:
    """icepool's own absorbing-chain solution of the alternating duel: a die over
    (hits on first, hits on second, winner) with winner 1 = first, 2 = second."""

    def turn(x_die: icepool.Die, h1: int, h2: int) -> icepool.Die:
        def after_first(x: int) -> object:
            nh2 = min(h2 + x, limit2)
            if nh2 >= limit2:
                return (h1, nh2, 1)
            return second.map(lambda y: (min(h1 + y, limit1), nh2, 2 if h1 + y >= limit1 else 0))

        return x_die.map(after_first)

    def step(h1: int, h2: int, w: int) -> object:
        if w:
            return (h1, h2, w)
        return turn(first, h1, h2)

    start = turn(opening if opening is not None else first, 0, 0)
    return icepool.map(step, start, star=True, repeat="inf")


def duel_turns(
    first: icepool.Die, second: icepool.Die, limit1: int, limit2: int, max_turns: int = 60
) -> dict[int, Fraction]:
    """P(the duel ends in turn T) from icepool's map_and_time (frontal duels)."""

    def step(h1: int, h2: int, w: int) -> object:
        if w:
            return (h1, h2, w)

        def after_first(x: int) -> object:
            nh2 = min(h2 + x, limit2)
            if nh2 >= limit2:
                return (h1, nh2, 1)
            return second.map(lambda y: (min(h1 + y, limit1), nh2, 2 if h1 + y >= limit1 else 0))

        return first.map(after_first)

    timed = icepool.map_and_time(step, icepool.Die([(0, 0, 0)]), star=True, time_limit=max_turns)
    den = timed.denominator()
    out: dict[int, Fraction] = {}
    for (state, t), q in timed.items():
        if state[2]:
            out[t] = out.get(t, Fraction(0)) + Fraction(q, den)
    return dict(sorted(out.items()))
