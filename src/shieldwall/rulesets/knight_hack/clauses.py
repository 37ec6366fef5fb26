"""Every clause of shared/rules/percentile-rules-errata-1997.txt, by id (``knight-hack:<id>``).

Events, ``IllegalOrder``s and ``DataError``s name one of these; ``docs/rules/knight-hack.md`` is
generated from this table (``python scripts/kh_clause_table.py``) with where each is implemented
and which tests name it. The ids follow the clause inventory in ``shared/specs/knight-hack.md``.
"""

from __future__ import annotations

RS = "knight-hack"

CL1 = "Clarification 1 (turn sequence)"
CL2 = "Clarification 2 (morale levels)"
CL3 = "Clarification 3 (inflicting casualties)"
CL4 = "Clarification 4 (rally)"
P11 = "Errata p.11 (evolutions)"
P12 = "Errata p.12 (charge moves)"
P13 = "Errata p.13 (rally moves)"
DEP = "(scenario; ruling R51)"

#: id -> (section of the text, what it says)
CLAUSES: dict[str, tuple[str, str]] = {
    # --- turn sequence and charge phase ---
    "turn.sequence": (
        CL1,
        "Charge Phase, Movement Phase, Melee Phase; units rally in the rally phase (Cl.4).",
    ),
    "charge.declare": (
        CL1,
        "Both players declare all charges; charges are not written down but announced simultaneously (p.12).",
    ),
    "charge.declare-range": (P12, "The object of a charge must be within normal move when it is declared."),
    "charge.open": (
        P12,
        "Open never charge, except javelin-armed in ambush and eastern open mounted.",
    ),
    "charge.infantry-vs-mounted": (
        P12,
        "Infantry cannot charge mounted except skirmishers, mounted already in melee, flank or rear, "
        "fanatics, or in ambush.",
    ),
    "charge.redirect": (
        P12,
        "A unit that declared a charge but is the object of another may switch to charge it or stand and face.",
    ),
    "missile.window": (
        CL1,
        "Any target in range may be fired at, including units being charged; all fire is done in this phase.",
    ),
    "missile.order": (
        CL1,
        "Players may roll a die: the high roller does all his shooting or lets his opponent shoot first.",
    ),
    "morale.charger-casualties": (CL1, "A charging unit that receives 2 casualties tests morale."),
    "morale.auto-pass": (CL1, "A unit whose morale value is over 100 cannot fail morale."),
    "morale.receive-charge": (
        CL1,
        "A unit receiving a charge may test to receive it in good order or disorder; units of a lower "
        "morale class than their opponents test unless fanatics.",
    ),
    "charge.evade-then-move": (CL1, "All evades are made and then the charging units are moved."),
    "charge.distance": (P12, "Charge moves are normal movement plus a charge D6 die roll."),
    "charge.wheel": (
        P12,
        "A charging unit may wheel for only 1/4 of its charge move, without expansion or evolution; "
        "charges are straight ahead.",
    ),
    "charge.full-distance": (
        P12,
        "A unit that declared a charge and passed its test moves its maximum charge distance or until contact.",
    ),
    "charge.retarget-after-evade": (
        P12,
        "If the object evades and another unit can be contacted within reach, the charge continues and contacts it.",
    ),
    "contact.only-by-charge": (P12, "The only way for units to come into contact is the result of a charge."),
    "charge.disorder-on-contact": (P12, "After initial contact a unit is disordered until it rallies."),
    "charge.no-contact": (
        P12,
        "A charge that makes no contact rallies forward and must charge the closest enemy next turn; with "
        "none in reach it rallies forward or where the enemy was.",
    ),
    "charge.rear-open": (
        P12,
        "A charge contacting the rear of an open order unit destroys it if 1 casualty is inflicted.",
    ),
    # --- movement phase ---
    "move.initiative": (CL1, "An initiative roll: the high roller decides who makes regular moves first."),
    "move.alternate": (
        CL1,
        "The player going first makes all his units' normal moves, then the second player moves all his.",
    ),
    "move.unit-order": (
        CL1,
        "Evolutions, normal move up to full, an additional evolution at the end if the unit has more than "
        "1, then ambushes.",
    ),
    "evolution.kinds": (
        P11,
        "Evolutions are all movement other than wheeling or straight ahead: facing, frontage, "
        "mounting/dismounting/disembarking, formation, moving back facing the enemy.",
    ),
    "evolution.frontage": (
        P11,
        "Contracting or expanding frontage by up to 4 figures, excluding figures in melee.",
    ),
    "evolution.allowance": (P11, "Evolutions are based on Unit Class; open have 1 additional evolution."),
    "ambush.execute": (CL1, "Ambushes may be executed if the enemy are within reach."),
    "rout.stop": (
        CL1,
        "A player may test to stop routed units during his movement, one time; units not stopping rout are "
        "removed; routers that leave the table are lost.",
    ),
    # --- melee ---
    "melee.order": (
        CL1,
        "The side winning movement initiative chooses the order in which melees are fought.",
    ),
    "melee.rounds": (
        CL1,
        "Each melee is fought up to three rounds a turn until one unit wins or a draw; some continue next turn.",
    ),
    "melee.loser-fights-on": (
        CL1,
        "Units may lose a melee but continue to fight because they make their morale.",
    ),
    "casualties.target": (
        CL3,
        "The melee factor by type of combatants plus all modifiers is the number to roll or less on "
        "percentage dice for a casualty.",
    ),
    "casualties.multiple": (
        CL3,
        "Half the number required inflicts a second casualty, half again a third; all from the one roll.",
    ),
    "casualties.whole-figures": (CL3, "Whole figures are removed when casualties are inflicted."),
    "casualties.automatic": (
        CL3,
        "Sometimes 1 or 2 casualties are automatic, as the Melee Casualty Chart shows.",
    ),
    "morale.level": (
        CL2,
        "Basic Morale Level = cost per figure x figures + the basic point cost by troop type "
        "(12 heavy infantry C class: 12 x 3 + 40 = 76); then the page 15 modifiers.",
    ),
    # --- rally ---
    "rally.evaders": (CL4, "Units rally automatically in the rally phase of the turn they evaded."),
    "rally.pursuers": (
        CL4,
        "Pursuers rally after they are out of contact, taking an entire turn after they were out of contact.",
    ),
    "rally.fanatic-victor": (CL4, "A fanatic victor charges anyone within charge reach instead of rallying."),
    "rally.countercharge": (CL4, "A rallying unit that is charged can counter charge, disordered."),
    "rally.no-contact": (
        CL4,
        "Units charging and evading which are not in contact at the end of these actions are rallied at "
        "the end of the turn.",
    ),
    "rally.who": (
        P13,
        "Units that broke off, evaded, ceased pursuit, charged without contact or recovered from rout rally "
        "in the rally phase.",
    ),
    "rally.move": (
        P13,
        "Close formation rallies in place; others in place or falling back up to a full normal move; facing "
        "changes count as evolutions.",
    ),
    "rally.face-threat": (
        P13,
        "A rallying unit takes any formation but must face enemy who can charge it next charge phase.",
    ),
    "rally.fanatic-forward": (P13, "All fanatics rally forward."),
    # --- shieldwall's own: deployment by hand (the errata has none; ruling R51) ---
    "deployment": (
        DEP,
        "The errata says nothing of deployment: a scenario places every unit; with hand_deployment "
        "the sides place their units by hand.",
    ),
    "deployment.zone": (
        DEP,
        "Each side's zone: the scenario's deploy_zone, else the band along its home edge as deep as "
        "its placed units (never past the enemy's); an ambusher stands clear of the enemy's zone.",
    ),
    "deployment.order": (
        DEP,
        "A roll-off on the initiative die: the loser places first, then one unit at a time in turn, "
        "each side in its scenario's order.",
    ),
    "deployment.clear": (
        DEP,
        "A unit placed stands no nearer than 0.25 in. to a unit already placed that its side sees "
        "(only a charge makes contact).",
    ),
    "info.advice": (
        CL1,
        "Advice: letting the opponent move first, facing the way you mean to move next turn (informative).",
    ),
}


def rule(cid: str) -> str:
    """``knight-hack:<cid>`` for a clause of :data:`CLAUSES` (``KeyError`` for an unknown one)."""
    if cid not in CLAUSES:
        raise KeyError(f"unknown knight-hack clause {cid!r}")
    return f"{RS}:{cid}"


#: how scripts/clause_table.py writes docs/rules/knight-hack.md (options: its ``Spec``)
CLAUSE_TABLE: dict[str, object] = {
    "cites": "simple",
    "data_files": False,
    "skip": {
        "clauses.py",
        "plugin.py",
        "narrate.py",
        "drawing.py",
        "explain.py",
        "odds.py",
        "cli.py",
        "schemas.py",
    },
    "notes": {"info.advice": "informative advice, no rule (clause inventory 45)"},
    "missing": "**not yet**",
    "status": "rules",
    "header": (
        "# knight-hack: clause table",
        "",
        "Every clause of `shared/rules/percentile-rules-errata-1997.txt` (the Knight Hack errata sheet of",
        "23 May 1997), its id (events and errors cite `{rs}:<id>`), where it is implemented and which",
        "tests name it. Generated by `python scripts/clause_table.py knight-hack`;",
        "`tests/knight_hack/test_kh_clause_table.py` fails if it is stale. Rulings on ambiguities:",
        "[docs/rulings/knight-hack.md](../rulings/knight-hack.md). The tables the errata does not give are",
        "user data ([docs/knight-hack-data.md](../knight-hack-data.md)); the package's sample set is",
        "**illustrative sample tables — not the published Knight Hack charts**.",
        "",
        '"Implemented in" names the rules modules that carry a clause: the pure functions and situations',
        "and the turn engine that sequences them into the four-phase battle (`turn.py`, `phase_*.py`).",
        "Every clause is played; ambushes (R26, R49) in the scenario `bourgtheroulde-1124-ambush`.",
    ),
}
