"""Every clause of shared/rules/dark-age-one-hour-d5.txt, by id (``one-hour-dark-ages:<id>``).

Events and ``IllegalOrder``s name one of these; ``docs/rules/one-hour-dark-ages.md`` is generated
from this table (``python scripts/clause_table.py``, options in ``CLAUSE_TABLE``) with where each
is implemented and tested.
"""

from __future__ import annotations

RS = "one-hour-dark-ages"

#: id -> (section of the text, what it says)
CLAUSES: dict[str, tuple[str, str]] = {
    "grey-areas": (
        "Grey Areas",
        "A situation not covered, or a measurement too close to call, is settled by a friendly roll off.",
    ),
    "units": ("Units", "Four types of Units: Infantry, Warband (Raiders, Warriors), Cavalry, Skirmishers."),
    "figures-basing": ("Figures & Basing", "4-6 inch frontage per Unit, no prescribed depth."),
    "dice": ("Dice", "The d5 average die (2,3,3,4,4,5); a d6 for more extreme swings."),
    "line-of-sight": (
        "Line of Sight",
        "From the front centre to the closest visible part of the target; blocked by Units, hills, woods, buildings.",
    ),
    "line-of-sight.woods": (
        "Line of Sight",
        "Units may see into and out of woods, but not through two sides of a wood.",
    ),
    "line-of-sight.required": (
        "Line of Sight",
        "Units must have LoS to shoot or charge at the time of the shooting or charge.",
    ),
    "play-sequence": (
        "Play Sequence",
        "Each player in turn: Movement, Shooting, Melee, Routs and Rallies; the attacker first.",
    ),
    "movement": (
        "1) Movement",
        "Units move one after another, no corner exceeding the total distance rolled in inches.",
    ),
    "movement.dice": (
        "1) Movement",
        "Class 1 Infantry 1d5+2, Class 2 Warband and Skirmishers 2d5+2, Class 3 Cavalry 3d5+2.",
    ),
    "movement.columns": (
        "1) Movement",
        "Through a gap or along a road the bases may go one behind the other; no game difference.",
    ),
    "terrain": ("Terrain", "Linear and Area terrain; building and tree models are decorative."),
    "terrain.sizes": ("Terrain", 'Linear 6-12" long x 1-3" wide; Area 6-12" per side or diameter.'),
    "terrain.villages": ("Terrain", "Villages: no movement effect; defensive bonus when inside."),
    "terrain.villages.movement": ("Terrain", "Villages (Area): no movement effect."),
    "terrain.villages.defence": ("Terrain", "Villages: defensive bonus when inside."),
    "terrain.hills": ("Terrain", "Hills: defensive bonus when fighting from uphill."),
    "terrain.hills.movement": ("Terrain", "Hills (Area): no movement effect."),
    "terrain.hills.uphill": (
        "Terrain",
        "Hills: 'uphill' is defined by a centre point, a crest or a plateau.",
    ),
    "terrain.woods-marsh": (
        "Terrain",
        "Woods, Marsh: only Skirmishers and Raiders may enter; defensive bonus when inside.",
    ),
    "terrain.woods-marsh.entry": ("Terrain", "Woods, Marsh (Area): only Skirmishers and Raiders may enter."),
    "terrain.woods-marsh.defence": ("Terrain", "Woods, Marsh: defensive bonus when inside."),
    "terrain.lakes": ("Terrain", "Lakes: impassable."),
    "terrain.rivers": (
        "Terrain",
        "Rivers: impassable; any Unit may cross at a bridge, a ford, or if shallow.",
    ),
    "terrain.rivers.impassable": ("Terrain", "Rivers (Linear): impassable."),
    "terrain.rivers.crossings": ("Terrain", "Rivers: any Unit may cross at a bridge, a ford, or if shallow."),
    "terrain.walls-gullies": ("Terrain", "Walls, Gullies: no movement effect but defensive bonus."),
    "terrain.walls-gullies.movement": ("Terrain", "Walls, Gullies (Linear): no movement effect."),
    "terrain.walls-gullies.defence": ("Terrain", "Walls, Gullies: defensive bonus."),
    "terrain.roads": (
        "Terrain",
        'Roads: a 3" bonus moving entirely on a road, neither Charging nor Turning.',
    ),
    "interpenetration": ("Interpenetration", "Only by Skirmishers and any Unit, and vice-versa."),
    "turning": (
        "Turning",
        "Units turn by rotating on their centre or centre front up to 180 degrees; turns are not measured.",
    ),
    "turning.limits": (
        "Turning",
        "Warband & Infantry turn once, at the start OR end; Skirmishers & Cavalry twice, start AND end.",
    ),
    "turning.face-melee": (
        "Turning",
        "A Unit in melee with enemies off its front may face one, turning 90 or 180; enemy bases adjusted.",
    ),
    "charging": ("Charging", "Charge moves end with the Unit in Contact with an enemy Unit."),
    "charging.arc": (
        "Charging",
        "The target must be within 45 degrees of the charger's front and in its LoS.",
    ),
    "charging.flank-rear": (
        "Charging",
        "Flank or rear contact only if the entire charger is past the line of that facing.",
    ),
    "charging.one-per-facing": (
        "Charging",
        "Contact by only one attacking Unit per facing: front, rear and either flank.",
    ),
    "charging.contact": (
        "Charging",
        "Along the shortest line to the centre of a facing not in contact; stop; no closing the door.",
    ),
    "moving-shots": (
        "Moving Shots",
        "Javelin Units may shoot in their Movement Phase before or after moving; bows not if they move.",
    ),
    "shooting": ("2) Shooting", "Skirmishers and javelin Units may shoot at a single target."),
    "shooting.arc": ("2) Shooting", "The target must be within 45 degrees off the front facing."),
    "shooting.los-facing": ("2) Shooting", "A clear Line of Sight to an entire Facing."),
    "shooting.bows-moved": (
        "2) Shooting",
        "Bows may not shoot if they moved during the Movement Phase; turns are not movement.",
    ),
    "shooting.javelins-moving-shot": (
        "2) Shooting",
        "Javelins may not shoot if they performed a Moving Shot.",
    ),
    "shooting.into-melee": ("2) Shooting", "Fulfilling the restrictions, they may shoot into a melee."),
    "shooting.range": ("2) Shooting", '12" for bows, 6" for javelins, from the closest points.'),
    "shooting.three-shots": ("2) Shooting", "Bows and javelins have three shots."),
    "shooting.dice": ("2) Shooting", "Roll 1D5, subtract 2 for bows or 1 for javelins: the Hits."),
    "shooting.terrain": ("2) Shooting", "Units defending woods, villages or walls halve Hits (round up)."),
    "shooting.shieldwall": ("2) Shooting", "Infantry halve Hits from shooting at their front or flank."),
    "shooting.unshielded": ("2) Shooting", "Double Hits from Units shooting at the rear Facing."),
    "shooting.stacked": ("2) Shooting", "The max defensive benefit is 1/4 Hits."),
    "melee": ("3) Melee", "One-sided melee: Units only inflict casualties during their own player turn."),
    "melee.dice": (
        "3) Melee",
        "Roll 1D5: +1 Warriors, -1 javelin Skirmishers/Cavalry, -2 bow Skirmishers: the Hits.",
    ),
    "melee.terrain": (
        "3) Melee",
        "Units uphill or defending woods / river bank / gully / wall halve Hits (round up).",
    ),
    "melee.shieldwall": ("3) Melee", "Infantry halve Hits (rounded up)."),
    "melee.unshielded": ("3) Melee", "Double Hits by Units attacking on the flank or rear facing."),
    "melee.stacked": ("3) Melee", "The max defensive benefit is 1/4 Hits."),
    "melee.front-only": (
        "3) Melee",
        "Units fight only to their Front, attacking a single enemy in contact with their Front Facing.",
    ),
    "melee.locked": (
        "3) Melee",
        "Melee concludes with the elimination of one side (Units in melee stay locked; they may turn to face).",
    ),
    "routs-and-rallies.removal": (
        "4) Routs and Rallies",
        "Any Unit with 15 or more Hits is removed from the table.",
    ),
    "routs-and-rallies.rally": (
        "4) Routs and Rallies",
        "Any Unit eligible to rally off Hits due to an Optional Rule does so now.",
    ),
    "personalities": ("Personalities", "For every three Units a player may pick a personality figure."),
    "personalities.transfer": (
        "Personalities",
        'Transfer to another Unit within 6" at the start of the Movement Phase; not out of melee.',
    ),
    "personalities.fate": ("Personalities", "In a Unit in melee they share its fate if destroyed."),
    "personalities.hero": ("Personalities", "Hero: +1 in shooting or melee."),
    "personalities.leader": (
        "Personalities",
        "Leader: one additional Turn at any time during the Unit's movement.",
    ),
    "personalities.banner": (
        "Personalities",
        "Banner: a Unit not in melee that has not moved or shot rallies 1-3 Hits (d5 halved, up).",
    ),
    "personalities.priest": ("Personalities", "Priest: rallies 2-4 Hits (d5 halved, up, +1)."),
    "personalities.rally-variation": (
        "Personalities",
        "Rally variation: after 5 or more Hits, a Unit may not rally below 5.",
    ),
    "initiative": (
        "Initiative",
        "The scenario attacker goes first; from turn 2 roll off, +3 to the Initiative side; losing passes it.",
    ),
    "initiative.bonus": ("Initiative", "Use +2 for more likelihood to change, +4 for less."),
    "initiative.routed": (
        "Initiative",
        "Subtract 1 from the roll for each of the player's Units that have routed.",
    ),
    "variable-quality": (
        "Variable Quality",
        "Per six Units one Elite (18 Hits) balanced by one Levy (12 Hits).",
    ),
    "ideas-for-unit-types": (
        "Ideas for Unit Types",
        "Historical types from the game mechanics; relative values between Units matter; less is more.",
    ),
    "ideas-for-unit-types.roman-militia": (
        "Ideas for Unit Types",
        "Roman Militia: Infantry who melee at d5-1.",
    ),
    "ideas-for-unit-types.roman-cavalry": (
        "Ideas for Unit Types",
        "Roman Cavalry: better-equipped cavalry on bigger horses; shoot & melee at d5.",
    ),
    "ideas-for-unit-types.arthurs-cavalry": (
        "Ideas for Unit Types",
        "Arthur's Cavalry: as Roman Cavalry, but d5+1.",
    ),
    "ideas-for-unit-types.arthurs-cavalry.roundtable-knights": (
        "Ideas for Unit Types",
        'If "Roundtable Knights", they fight d5+2.',
    ),
    "ideas-for-unit-types.mounted-servants": (
        "Ideas for Unit Types",
        "Mounted Servants: fight with javelin but at d5-2.",
    ),
    "ideas-for-unit-types.mounted-servants.upgrade": (
        "Ideas for Unit Types",
        "If Arthur's cavalry is in play, Mounted Servants may also be upgraded; a second Unit must then be downgraded.",
    ),
    "ideas-for-unit-types.irish-nobles": (
        "Ideas for Unit Types",
        "Irish Nobles: javelin Skirmishers who fight at d5.",
    ),
    "ideas-for-unit-types.scots-nobles": (
        "Ideas for Unit Types",
        "Scots Nobles: Determined Warband who fight at d5+1 with 18 Hits.",
    ),
    "ideas-for-unit-types.viking-veterans": (
        "Ideas for Unit Types",
        "Viking Veterans: after deployment choose to fight as Infantry OR Warriors.",
    ),
    "force-morale": (
        "Force Morale",
        "Each time a Unit is destroyed roll a d5; equal or less than Units lost: the force routs.",
    ),
    "force-morale.small-army": (
        "Force Morale",
        "With a three or four Unit army roll a d5 halved (round up).",
    ),
    "force-morale.two-dice": (
        "Force Morale",
        "Roll TWO d5 and keep fighting if EITHER beats the Units lost.",
    ),
    "force-morale.emboldened": ("Force Morale", "+1 if the opponent has lost more Units."),
    "force-morale.last-attack": (
        "Force Morale",
        "In a campaign, the opposing side gets one last free attack as the force routs.",
    ),
    "force-morale.bonus": ("Force Morale", "Bonus points on the roll for period flavour (scenario-given)."),
    "fall-back": (
        "Fall Back!",
        "Skirmishers and cavalry of a higher class than all enemies, none on their rear, move back out of melee.",
    ),
    "fall-back.dice-off": (
        "Fall Back!",
        "With an enemy in frontal contact, dice off movement; if it wins it makes a free attack.",
    ),
    "missile-supply": (
        "Missile Supply",
        "A natural 5 when shooting uses the last missiles; replaces the three-shot limit.",
    ),
    "declared-movement": (
        "Declared Movement",
        "The player indicates a Unit, states the intent of its move, rolls, then fulfils the intent as much as possible.",
    ),
    "declared-movement.full-distance": (
        "Declared Movement",
        "Units move the full distance rolled even if farther than desired.",
    ),
    "declared-movement.may-stop": (
        "Declared Movement",
        "They may stop alongside a Unit with a banner, or at a terrain feature giving a movement or combat bonus.",
    ),
    "declared-movement.must-stop": (
        "Declared Movement",
        "They must stop at any Unit they may not interpenetrate, Contacting for Melee if an enemy Unit.",
    ),
    "declared-movement.warband": (
        "Declared Movement",
        "Warband must contact an enemy Unit if they roll enough distance.",
    ),
    "army-lists": (
        "Army Lists",
        "Six Units per list; the lists themselves are the user's data (not given by the text).",
    ),
    "army-lists.variations": (
        "Variations for All Armies",
        "One upgrade (Household +1 / Determined 18) must bring one downgrade (Levy -1 / Reluctant 12).",
    ),
    "army-lists.allies": ("Allied Forces", "1-3 Units may be fielded as an allied force from another list."),
    "army-lists.allies.debate": (
        "Allied Forces",
        "1-2 allied Units: on a natural 2 for Movement a Unit does not move (the leaders debate).",
    ),
    "army-lists.allies.personality": (
        "Allied Forces",
        "3 allied Units may take a Personality, and then need not roll for the debate; it counts against the Personality limit.",
    ),
    "army-lists.allies.own-list": (
        "Allied Forces",
        "Personalities may only affect or attach to Units of their own list, Host or Allied.",
    ),
    "unit-definitions": (
        "Unit Definitions",
        "Warriors d5+1, Raiders d5, Cavalry and Infantry d5, javelin units d5-1, bow Skirmishers d5-2.",
    ),
    # shieldwall's own
    "deployment": (
        "(scenario; ruling R50)",
        "The text leaves deployment to 'the 1HW scenarios'; with hand_deployment the sides place "
        "their units by hand.",
    ),
    "deployment.zone": (
        "(scenario; ruling R50)",
        "Each side's zone: the scenario's deploy_zone, else the band along its home edge as deep as "
        "its placed units (at most half the table).",
    ),
    "deployment.order": (
        "(scenario; ruling R50)",
        "A roll-off (Grey Areas) decides; the loser places first, then one unit at a time in turn, "
        "each side in its scenario's order.",
    ),
    "deployment.clear": (
        "(scenario; ruling R50)",
        "A unit placed overlaps no unit already placed and touches no enemy (nor stands where its "
        "type may not enter).",
    ),
    "orders": ("(shieldwall)", "The order syntax of the engine; not a rule of the text."),
}


#: How ``scripts/clause_table.py`` (the clause-table library of every rule system) writes
#: docs/rules/one-hour-dark-ages.md: clause ids are common words ("movement", "melee"), so only a
#: quoted, backticked or ``ruleset:``-prefixed id is a citation.
CLAUSE_TABLE: dict[str, object] = {
    "cites": "simple",
    "recursive": False,
    "skip": ["clauses.py", "odds.py", "explain.py", "narrate.py", "drawing.py", "plugin.py"],
    "notes": {
        "terrain.sizes": "not enforced: see ruling R20",
        "army-lists": "the lists are user data (scenario files); see ruling R27",
        "orders": "engine syntax, not a rule",
        "ideas-for-unit-types": "informative: introduces the types of the rows below",
    },
    "header": [
        "# one-hour-dark-ages: clause table",
        "",
        "Every clause of `shared/rules/dark-age-one-hour-d5.txt`, its id (events and errors cite",
        "`{rs}:<id>`), where it is implemented and which tests name it (a test named after",
        "several clauses names the longest). Generated by `{script}`, the clause-table library of",
        "every rule system; `tests/one_hour/test_clause_table.py` fails if the table is stale or a",
        "row names a test that does not exist. Rulings on ambiguities:",
        "[docs/rulings/one-hour-dark-ages.md](../rulings/one-hour-dark-ages.md). The scripted bot's win",
        "rates against the random bot on each scenario and side, with their 95% Wilson intervals and the",
        "command that measures them (`scripts/bot_win_rates.py`): [docs/simulate.md](../simulate.md).",
    ],
}


def rule(clause: str) -> str:
    """The full id of a clause; raises on an unknown one (so every event resolves to the table)."""
    if clause not in CLAUSES:
        raise KeyError(f"unknown one-hour-dark-ages clause {clause!r}")
    return f"{RS}:{clause}"
