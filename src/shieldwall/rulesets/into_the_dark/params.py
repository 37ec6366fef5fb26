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


#: Optional rules of Part III a unit takes in its army file: each is a switch a scenario may turn off
#: ("add whatever optional rules you like"); a unit using a switched-off rule is refused on load.
UNIT_RULES: dict[str, tuple[tuple[str, ...], str, str]] = {
    # parameter: (army-file options or quality it governs, clause, what it is)
    "champions": (("champion",), "special-troops.champions", "Champions"),
    "warbands": (("warband",), "special-troops.warbands", "Warbands"),
    "skirmishers": (("skirmisher",), "special-troops.skirmishers", "Skirmishers"),
    "peasants": (("peasant",), "special-troops.peasants", "Peasants (quality 1)"),
    "longbow": (("longbow",), "swat.longbow", "Longbow"),
    "polearm": (("polearm",), "swat.polearm", "Polearm"),
    "crossbow": (("crossbow", "heavy-crossbow"), "swat.crossbow", "Crossbow and heavy crossbow"),
    "pike": (("pike",), "swat.pike", "Pike"),
    "shieldwall": (("shieldwall",), "swat.shieldwall", "Shieldwall"),
}

for _name, (_opts, _clause, _what) in UNIT_RULES.items():
    _P.append(
        Parameter(
            _name,
            True,
            f"Optional rule {_what} (Part III): on by default; when off, no unit may use it "
            f"(army-file option {' / '.join(_opts)}).",
            (True, False),
            cite(_clause),
        )
    )

_P += [
    Parameter(
        "deployment",
        "scenario",
        '"scenario": units stand where the scenario puts them; "alternate": the meeting-engagement '
        "procedure - roll off, the low roller places a foot unit first, sides alternate foot units "
        'then mounted units, within 1/4 of the table from their edge and 12" from the side edges '
        "(the scenario positions are then only suggestions).",
        ("scenario", "alternate"),
        cite("setup.deployment"),
    ),
    Parameter(
        "concealed_deployment",
        False,
        "Concealed Deployment: with alternate deployment, units are placed as face-down cards (and "
        "each side's dummy cards, the scenario's `dummies`), revealed when both armies are deployed.",
        (True, False),
        cite("concealed-deployment.playing-cards"),
    ),
    Parameter(
        "command_and_control",
        False,
        "Command & Control: generals, divisions, orders (Attack, Hold, Fall Back), combat preferences, "
        "command actions and new orders; the scenario's `generals` table places them.",
        (True, False),
        cite("command.command-and-control"),
    ),
    Parameter(
        "difficult_maneuvers",
        False,
        "Difficult Maneuvers: turning, falling back, careful movement and break off, each after a "
        "control test (a failure disorders the unit).",
        (True, False),
        cite("maneuvers.difficult-maneuvers"),
    ),
]

PARAMETERS: dict[str, Parameter] = {p.name: p for p in _P}
DEFAULTS = {p.name: p.default for p in _P}

SCALE_FACTOR = {"25mm": 1.0, "15mm": 0.5}
