"""Errors shared by every rule system and adapter.

Every error a user can cause carries enough to say *what* was wrong and *where*: the rule clause
for an illegal order, the file and field for a bad data file.
"""

from __future__ import annotations


class ShieldwallError(Exception):
    """Base class of every error shieldwall raises on purpose."""


class IllegalOrder(ShieldwallError, ValueError):
    """An order the rules do not allow at this decision point.

    ``rule`` is the clause id (``ruleset:clause``) that forbids it, ``reason`` says why in words.
    """

    def __init__(self, rule: str, reason: str) -> None:
        self.rule = rule
        self.reason = reason
        super().__init__(f"illegal order ({rule}): {reason}")


class DataError(ShieldwallError, ValueError):
    """A scenario, army, chart or save file that does not validate.

    ``file`` is the path (or a name for built-in data), ``field`` the dotted location inside it.
    """

    def __init__(self, file: str, field: str, reason: str) -> None:
        self.file = file
        self.field = field
        self.reason = reason
        where = f"{file}: {field}" if field else file
        super().__init__(f"{where}: {reason}")


class UnknownName(ShieldwallError, ValueError):
    """A name (ruleset, bot, unit type, parameter) that is not one of the valid choices."""

    def __init__(self, kind: str, name: str, choices: list[str] | tuple[str, ...]) -> None:
        self.kind = kind
        self.name = name
        self.choices = list(choices)
        super().__init__(f"unknown {kind} {name!r}; valid choices: {', '.join(self.choices)}")


class ReplayMismatch(ShieldwallError):
    """A replayed battle produced an event different from the one recorded in the save file."""

    def __init__(self, index: int, expected: object, got: object) -> None:
        self.index = index
        self.expected = expected
        self.got = got
        super().__init__(f"event {index} differs on replay:\n  saved:    {expected}\n  replayed: {got}")
