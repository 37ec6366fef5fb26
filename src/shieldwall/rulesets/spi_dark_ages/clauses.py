"""Every clause of shared/rules/spi-dark-ages-errata-moves12.txt, by id (``spi-dark-ages:<id>``).

Events, ``IllegalOrder``s and ``DataError``s name one of these; ``docs/rules/spi-dark-ages.md`` is
generated from this table (``python scripts/clause_table.py spi-dark-ages``) with where each is implemented and
which tests name it. The ids follow the clause inventory in ``shared/specs/spi-dark-ages.md`` (C1-C92);
the last few name the base rules the errata leaves to the data files (sequence, CRT, victory).
"""

from __future__ import annotations

RS = "spi-dark-ages"

INV = "Game inventory / The units"
MOV = "General movement rules"
STK = "Stacking / Viking fleets"
FAC = "Facing"
CMB = "Combat"
CAV = "Cavalry"
DEM = "Demoralization and panic"
PAN = "Panic"
CMD = "Command units"
VIC = "Victory conditions"
TEC = "Terrain Effects Chart"
SET = "How to set up the game"
CUC = "Combat Unit Capability Chart"
RES = "Explanation of combat results"
SCN = "Scenario chart"
BASE = "base rules (data files; not in the errata)"

#: id -> (section of the text, what it says)
CLAUSES: dict[str, tuple[str, str]] = {
    "inventory": (
        INV,
        "One die; the charts are Scenario, TEC, CUC, VP scale, Summary of Units, CRT; two sets of counters, green and tan.",
    ),
    "movement.C": (
        MOV,
        "Each unit is moved to the full extent desired before the movement of any other unit is begun.",
    ),
    "movement.F": (
        MOV,
        "No enemy movement during the friendly Movement Phase; Withdrawal and the Manipular Legion rule do not apply.",
    ),
    "movement.I": (MOV, "Tactical Concession does not apply to Dark Ages."),
    "movement.J": (MOV, "No combat (enemy or friendly) is permitted during a Movement Phase."),
    "movement.K.stop": (
        MOV,
        "A unit entering one of the three hexes adjacent to the front of an enemy Class IV or V missile unit ceases movement at once.",
    ),
    "movement.K.leave": (
        MOV,
        "In a later friendly Movement Phase it may leave, but stops again on entering another such hex; it may move directly from one to another.",
    ),
    "stacking.C": (
        STK,
        "Viking fleets have no stacking points; no more than one fleet in a hex; a fleet may pass through but not end a Movement Phase in a hex with another.",
    ),
    "stacking.C.capacity": (
        STK,
        "A fleet carries at most three friendly combat units (any number of command units), whatever their stacking points.",
    ),
    "facing.general": (
        FAC,
        "All combat units, command units included, are subject to facing; Viking fleets are exempt.",
    ),
    "facing.flank": (
        FAC,
        "A unit attacked in melee from any hex not adjacent to its front uses its Melee Defense Strength Flank.",
    ),
    "facing.I.phase": (FAC, "Units change facing only during a friendly Movement Phase."),
    "facing.I.command": (
        FAC,
        "A facing change that costs Movement Points is subject to the command unit movement restriction.",
    ),
    "facing.I.contact": (
        FAC,
        "Units in contact may change facing by one hexside (60 degrees) in each friendly Movement Phase, staying in their hex.",
    ),
    "combat.dispersed": (CMB, "'Dispersed' reads as 'demoralized'."),
    "combat.zero-mas": (
        CMB,
        "A unit with Melee Attack Strength 0 never initiates melee but defends with its Melee Defense Strength.",
    ),
    "combat.defensive-fire": (
        CMB,
        "Missile units may use defensive fire only against enemy units allocated to attack the missile unit itself; it is always voluntary.",
    ),
    "combat.D.over-units": (
        CMB,
        "Missile units may fire over a unit only if it is on lower terrain than the missile unit.",
    ),
    "combat.D.hilltop-range": (
        CMB,
        "A missile unit on a hilltop firing downhill (into a slope or level hex) has its range increased by one.",
    ),
    "combat.D.hilltop-over": (
        CMB,
        "A missile unit on a hilltop may fire over any hex on level terrain and over any unit in a slope or level hex.",
    ),
    "combat.D.wooded-slope": (CMB, "Missile units on hilltops may never fire over wooded slope hexes."),
    "combat.D.hilltop-def": (
        CMB,
        "A hilltop is a non-slope hex from which every line of hexes to a map edge passes through a slope hex.",
    ),
    "combat.K.contact": (
        CMB,
        "Units in a melee in which no participating unit is eliminated or demoralized remain in contact.",
    ),
    "combat.K.bound": (
        CMB,
        "Units in contact need not attack but may not leave their hex until one of them is eliminated or demoralized.",
    ),
    "combat.L": (
        CMB,
        "No unit takes part in more than one missile and one melee attack per Player-Turn; only Class I units may both melee and fire offensively.",
    ),
    "cavalry.mc-charge": (
        CAV,
        "Medium cavalry must take a minimum straight charge of two hexes (not three).",
    ),
    "cavalry.last-hex": (CAV, "Cavalry may not change facing in the last hex entered during a charge."),
    "cavalry.contact": (
        CAV,
        "Cavalry is not held in contact by solely non-cavalry enemy units; opposing cavalry are held as usual.",
    ),
    "cavalry.back-up": (
        CAV,
        "Cavalry may back up to gain charging room, paying all the facing movement costs.",
    ),
    "cavalry.floors": (
        CAV,
        "Terrain and CUC may reduce heavy cavalry's MAS below two and medium cavalry's below one.",
    ),
    "cavalry.cataphract": (
        CAV,
        "Byzantine cataphracts must charge three hexes for full MAS; their MAS never falls below two for too short a charge.",
    ),
    "demoralization.cause": (
        DEM,
        "A unit, combat or command, becomes demoralized by a demoralization combat result.",
    ),
    "demoralization.marker": (DEM, "A demoralization marker is placed on the unit or stack."),
    "demoralization.ma": (
        DEM,
        "A demoralized unit's Movement Allowance and Melee Defense Strengths are halved, fractions lost.",
    ),
    "demoralization.no-attack": (
        DEM,
        "A demoralized unit never initiates an attack, melee or fire, defensive fire included.",
    ),
    "demoralization.command": (
        DEM,
        "A demoralized command unit gives no combat bonus but keeps its control over movement.",
    ),
    "demoralization.control": (
        DEM,
        "Missile units (and Cross River control) forfeit their control of front hexes while demoralized.",
    ),
    "demoralization.duration": (
        DEM,
        "Demoralization lasts until the end of the same phase of the following Game-Turn.",
    ),
    "panic.trigger": (
        PAN,
        "An army panics when its cumulative losses reach its Panic Level on the Scenario Chart.",
    ),
    "panic.exempt": (
        PAN,
        "Command units, units stacked with or adjacent to a command unit and units more than ten hexes from the nearest enemy do not panic.",
    ),
    "panic.immediate": (PAN, "Panic occurs immediately, in whatever phase the Panic Level is reached."),
    "panic.mark": (PAN, "Panicked units are inverted and marked demoralized."),
    "panic.once": (
        PAN,
        "Panic occurs only once per army per game; the other army can still panic when its own losses reach its level.",
    ),
    "panic.effects": (
        PAN,
        "Panicked units are demoralized (defence halved, no attacks, no defensive fire) but keep their full Movement Allowance.",
    ),
    "panic.flight": (
        PAN,
        "Panicked units move their full allowance toward the map edge nearest when they panicked, through as few enemy-adjacent hexes as possible.",
    ),
    "panic.flight.rules": (
        PAN,
        "Flight pays normal terrain and facing costs, independent of the command unit movement restriction.",
    ),
    "panic.flight.order": (
        PAN,
        "Panicked units move at the beginning of each friendly Movement Phase, before any other friendly unit.",
    ),
    "panic.flight.exit": (
        PAN,
        "They flee until they leave the map (one MP to move off), are eliminated, or are rallied.",
    ),
    "rally.who": (
        PAN,
        "A non-panicked friendly command or combat unit may try to rally each panicked unit adjacent to it at the end of the Movement Phase, one die each.",
    ),
    "rally.rolls": (
        PAN,
        "A command unit rallies on any roll but six; a combat unit on one to three; rolled after all movement.",
    ),
    "rally.rallied": (PAN, "Rallied units may not rally others until the next friendly Player-Turn."),
    "demoralization.melee-def": (
        PAN,
        "In melee, panicked and demoralized units have their defence strengths halved, even below one.",
    ),
    "demoralization.fire-immune": (
        PAN,
        "Panic and demoralization never affect units defending against fire: the Fire Protection Strength is the target hex's.",
    ),
    "demoralization.DD": (PAN, "Panicked or demoralized units receiving a DD result are eliminated."),
    "command.A": (
        CMD,
        "'Pinned' means 'contact'; a demoralized unit moves up to half its allowance, and every moving unit must have begun the phase stacked with or adjacent to a friendly command unit.",
    ),
    "command.B": (
        CMD,
        "To initiate an attack a unit must be stacked with or adjacent to a non-demoralized friendly command unit in the Attack Allocation Phase; units in contact and defenders are exempt.",
    ),
    "command.C.melee-only": (CMD, "Command units influence only melee die rolls, never missile combat."),
    "command.C.mods": (
        CMD,
        "Melee attacks by units with a friendly command unit subtract its bonus; attacks on units with one add it; lost while demoralized.",
    ),
    "command.no-panic": (CMD, "Command units never panic."),
    "victory.darius": (VIC, "Ignore the Darius rule."),
    "victory.vp": (
        VIC,
        "Victory points per unit come from the Summary of Units Chart; command units are worth ten.",
    ),
    "ferocity": (
        "Ferocity (B), (C)",
        "The ferocious player subtracts one from his melee rolls; one is added to melee rolls against him.",
    ),
    "vitality": (
        "Roman (Byzantine) vitality",
        "The Byzantine player subtracts one from his melee rolls; one is added to the opponent's.",
    ),
    "fleets.E": (STK, "Troops disembark only from moored fleets, during a friendly Movement Phase."),
    "dismount.phase": (
        "Dismounted cavalry",
        "Cavalry dismount or remount only in a friendly Movement Phase.",
    ),
    "dismount.vp": (
        "Dismounted cavalry",
        "Dismounted unit only: its VP; riderless mount only: cavalry VP minus dismounted VP; both: the cavalry's VP.",
    ),
    "tec.sections": (
        TEC,
        "The Defense section is melee defence; the Attack section applies to melee and fire strengths of attackers.",
    ),
    "tec.up-down": (TEC, "The higher unit uses the Downhill column, the lower unit the Uphill column."),
    "tec.slope-slope": (TEC, "A slope unit attacking an adjacent slope hex: both use the Uphill column."),
    "tec.fps-cap": (TEC, "The greatest Fire Protection Strength of a hex (other than the Keep) is 4."),
    "tec.mixed-mp": (
        TEC,
        "A hex of two terrain types costs the more difficult type's entry cost (wooded slope 4 MP, not 6).",
    ),
    "tec.road": (
        TEC,
        "Entering a road hex through a road hexside costs 1/2 MP; otherwise the other terrain in the hex applies.",
    ),
    "tec.stream": (
        TEC,
        "A stream hex (land both sides) costs 2 MP to enter; crossing adds 2 MP to the next hex, none at a bridge or ford.",
    ),
    "tec.river": (
        TEC,
        "River hexes (no land) may not be entered except at bridges (Viking fleets excepted).",
    ),
    "tec.bridge": (TEC, "A bridge hex costs 1/2 MP from a road hex, 1 MP otherwise."),
    "tec.land-water": (
        TEC,
        "A non-stream hex with land and water is land; crossing a water-covered hexside costs 2 more MP.",
    ),
    "tec.water-melee": (TEC, "Melee through a water hexside: both sides' strengths as if in stream hexes."),
    "tec.ford": (TEC, "A ford is clear terrain for movement and a stream for combat."),
    "tec.cross-river": (
        TEC,
        "The Cross River Attack rule applies to stream or river hexes adjacent to a unit's front.",
    ),
    "tec.notes": (TEC, "No 'L' (light cavalry) units; the stream-note asterisk refers to swamp and woods."),
    "tec.road-only-def": (
        TEC,
        "Units allowed in a terrain only on roads have their Melee Defense halved when attacked on such a road hex.",
    ),
    "tec.attack-P": (
        TEC,
        "Only a 'P' in the Attack section prohibits attacking; otherwise the road has no effect on attack.",
    ),
    "tec.melee-prohibited": (TEC, "Melee is allowed against adjacent hexes the attacker may not enter."),
    "tec.classV": (
        TEC,
        "Class V: 'P' for attack in woods or swamp; attack strength halved in woods/road or swamp/road hexes.",
    ),
    "setup.order": (SET, "The first player listed deploys first; the second player listed moves first."),
    "setup.turn": (SET, "The Game-Turn is tracked on the Victory Points Scale."),
    "cuc": (
        CUC,
        "The CUC multiplies a unit's melee defence by the attacking unit's class, unit by unit (MS front 1 vs MC: 2, not 6).",
    ),
    "combat.adjust": (
        CUC,
        "Each unit's strength is adjusted individually, fractions lost; defenders may fall below 1; odds use the adjusted totals (4 vs 1/2 = 8:1).",
    ),
    "crt.loss": (
        RES,
        "Command units are eliminated by 1E or 2E only if not enough combat units are present.",
    ),
    "crt.cmd-fire": (RES, "Command units stacked with other units are never affected by enemy missile fire."),
    "scenario.pv-pl": (
        SCN,
        "Corrected PV and PL: Tours Franks 55/22, Arabs 80/24; Constantinople Byzantines 150/60; Balathusta Byzantines 160/64; Stanford Bridge Anglo-Saxons 115/34; Manzikert Seljug Turks 145/72.",
    ),
    "scenario.dorylaeum": (
        SCN,
        "Dorylaeum: Crusaders deploy half their PV within 15 hexes of the east edge; the rest enter on the east road on Game-Turn 5.",
    ),
    # --- base rules the errata leaves to the data files (rulings A11, A27, A30 ...) ---
    "sequence": (
        BASE,
        "The sequence of play (rules.toml): Movement (flight, moves, rally), Attack Allocation, Defensive Fire, Offensive Fire, Melee.",
    ),
    "crt.result": (
        BASE,
        "Combat results from the user's CRT file: odds column (rounded down), die roll, result code, effects.",
    ),
    "reinforcements": (
        BASE,
        "Units listed with enter = {turn, at} come on at that hex at the start of their side's Movement Phase of that Game-Turn (scenario data).",
    ),
    "victory.end": (
        BASE,
        "The battle ends after the scenario's Game-Turns or when an army has no unit left on the map; victory by VP of enemy losses.",
    ),
}


def rule(cid: str) -> str:
    """The full clause id ``spi-dark-ages:<cid>`` (``KeyError`` for an unknown clause: a typo in code)."""
    if cid not in CLAUSES:
        raise KeyError(cid)
    return f"{RS}:{cid}"


#: how scripts/clause_table.py writes docs/rules/spi-dark-ages.md (options: its ``Spec``)
CLAUSE_TABLE: dict[str, object] = {
    "cites": "simple",
    "data_files": False,
    "skip": {
        "clauses.py",
        "schemas.py",
        "odds.py",
        "plugin.py",
        "narrate.py",
        "bots.py",
        "picture.py",
        "drawing.py",
        "reach.py",
    },
    "notes": {
        "movement.I": "nothing to play: Tactical Concession does not apply (no code, no option)",
        "victory.darius": "nothing to play: the Darius rule does not apply (no code, no option)",
    },
    "missing": "**not yet**",
    "status": "rules",
    "header": (
        "# spi-dark-ages: clause table",
        "",
        "Every clause of `shared/rules/spi-dark-ages-errata-moves12.txt` (the MOVES 12 errata and",
        "clarifications of SPI's *Dark Ages*, 1971), its id (events and errors cite `{rs}:<id>`), where it",
        "is implemented and which tests name it. Generated by `python scripts/clause_table.py spi-dark-ages`;",
        "`scripts/clause_table.py --check` (run by the tests) fails if it is stale. Rulings on ambiguities:",
        "[docs/rulings/spi-dark-ages.md](../rulings/spi-dark-ages.md). The charts the errata does not give",
        "are user data ([docs/spi-dark-ages-data.md](../spi-dark-ages-data.md)); the package's sample set",
        "is **ILLUSTRATIVE DATA — not SPI's charts, counters or map**.",
        "",
        "The ids follow the clause inventory `shared/specs/spi-dark-ages.md` (C1-C92); the last four",
        "(`sequence`, `crt.result`, `reinforcements`, `victory.end`) name the base rules the errata",
        "leaves to the data. The inventory's double ids are single rows here: `fleets.A` is",
        "`stacking.C` and `stacking.C.capacity`, `fleets.C` is `facing.general`, `combat.K.note` is",
        "`facing.I.contact`, `ferocity.B/C` is `ferocity`, `vitality.A/B` is `vitality`.",
        "Every rule id has code citing it and a test naming it (the status line below counts them; a",
        "rule without code would show **not yet**); `movement.I` and `victory.darius` are informative:",
        "the errata strikes those rules, so there is nothing to play.",
    ),
}
