"""one-hour-dark-ages: the rules of shared/rules/dark-age-one-hour-d5.txt, every clause."""

from shieldwall.rulesets.one_hour.game import OneHourGame

GAME_CLASS = OneHourGame

__all__ = ["GAME_CLASS", "OneHourGame"]
