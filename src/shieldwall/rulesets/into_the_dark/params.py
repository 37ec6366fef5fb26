"""Declared parameters of into-the-dark: what a designer may vary, with defaults and docs.

A scenario's ``[options]`` table sets them and ``--variant KEY=VALUE`` overrides them. Part III
(optional rules) that change how a unit plays are chosen per unit in the army file (SWAT weapons,
warbands, skirmishers, peasants); the switches here are the optional rules that act on the whole
battle.
"""

from __future__ import annotations

from shieldwall.core.game import Parameter

from .clauses import cite

_P = [
    Parameter(
        "scale",
        "25mm",
        'Figure scale: the distances of the text are for 25mm/30mm figures; "15mm" halves every '
        'distance (moves, ranges, zones of control, the 4" of a drive back, the morale radii).',
        ("25mm", "15mm"),
        cite("intro.scale"),
    ),
    Parameter(
        "turns",
        12,
        "Turns in the battle (the scenario sets its own); the text gives no limit.",
        (),
        cite("turn-sequence.end-of-battle"),
    ),
]

PARAMETERS: dict[str, Parameter] = {p.name: p for p in _P}
DEFAULTS = {p.name: p.default for p in _P}

SCALE_FACTOR = {"25mm": 1.0, "15mm": 0.5}
