"""The toy's one odds query: the hits of one strike."""

from __future__ import annotations

from typing import Any

from shieldwall.core.dice import D6
from shieldwall.odds.base import OddsPlugin
from shieldwall.odds.results import AttackOdds
from shieldwall.odds.settings import SetKey


class ToyOdds(OddsPlugin):
    ruleset = "toy-duel"
    title = "Toy duel"
    commands = ("attack",)
    spec_help = "champion"
    spec_examples = ("champion",)
    set_keys = {"hit_on": SetKey("hit_on", "the d6 score that hits", 4, int_range=(2, 6))}

    def parse_spec(self, text: str) -> str:
        return text

    def attack(self, attacker: str, target: str, sets: Any = None) -> AttackOdds:
        hit_on = int(self.parse_sets(sets, "attack")["hit_on"] or 4)
        dist = D6.dist().map(lambda face: int(face >= hit_on))
        return AttackOdds(self.ruleset, attacker, target, {"hit_on": hit_on}, dist)


PLUGIN = ToyOdds()
