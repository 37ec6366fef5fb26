"""The odds' ``:N`` straight-charge length (``cavalry.mc-charge``) is a whole number of hexes, 0
or more, given only to a type that charges and only in melee: ``mc:x`` and ``mc:-1`` were taken
for a full charge (while ``mc:0`` was a charge of none), and ``spear:5`` was taken and ignored
(found by an exploratory test of the command line)."""

from __future__ import annotations

import pytest

from shieldwall.core.errors import ShieldwallError
from shieldwall.rulesets.spi_dark_ages.odds import PLUGIN


@pytest.mark.parametrize("attacker", ["mc:x", "mc:-1", "mc:", "mc:1.5", "spear:5", "hc:-2"])
def test_cavalry_mc_charge_odds_refuse_a_charge_length_that_is_not_one(attacker: str) -> None:
    with pytest.raises(ShieldwallError, match="charge"):
        PLUGIN.attack(attacker, "spear")


def test_cavalry_mc_charge_odds_take_a_whole_length_and_shorter_is_weaker() -> None:
    full = PLUGIN.attack("mc", "spear")
    assert PLUGIN.attack("mc:99", "spear").probabilities == full.probabilities
    assert PLUGIN.attack("mc:0", "spear").probabilities != full.probabilities
