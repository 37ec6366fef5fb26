"""Shared builders for the into-the-dark tests."""

from __future__ import annotations

from typing import Any

from shieldwall.rulesets.into_the_dark.army import Army, ArmyUnit, parse_army


def unit_dict(**kw: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "name": "Test unit",
        "division": "Main",
        "code": "CPF",
        "quality": "average",
        "type": "melee",
        "figures": 12,
        "frontage": 6,
    }
    base.update(kw)
    return {k: v for k, v in base.items() if v is not None}


def army_dict(*units: dict[str, Any], **top: Any) -> dict[str, Any]:
    d: dict[str, Any] = {
        "name": "Test army",
        "generals": [{"name": "Alfred", "rating": "average", "division": "Main"}],
        "units": list(units) or [unit_dict()],
    }
    d.update(top)
    return d


def army(*units: dict[str, Any], **top: Any) -> Army:
    return parse_army(army_dict(*units, **top), "test.toml")


def unit(**kw: Any) -> ArmyUnit:
    return army(unit_dict(**kw)).units[0]
