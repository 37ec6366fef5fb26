"""Clause ids of Into the Dark: ``into-the-dark:<section>.<clause>``.

Every rule the code applies cites one of these ids (in a docstring, and in the ``rule`` field of
every breakdown or event dict it produces). Each id is a row of ``docs/rules/into-the-dark.md``,
whose summary column is the summary here (``scripts/itd_clause_table.py`` writes it);
``tests/into_the_dark/test_itd_docs.py`` checks that the two agree. The package carries the
summaries, so an installed copy (the web app's clause table) needs no ``docs/``.
"""

from __future__ import annotations

RS = "into-the-dark"

#: clause id (without the ruleset prefix) -> (the heading of the text it reads, a one-line summary).
CLAUSES: dict[str, tuple[str, str]] = {
    # Introduction
    "intro.scale": (
        "Introduction (figure scale, 15mm halves ranges)",
        "Written for 25/30mm figures; for 15mm halve all ranges or use cm. All distances in the data are inches for 25mm.",
    ),
    # PART I - GAME PREPARATION
    "troops.the-troops": (
        "The Troops",
        "Armies modelled on a historical one; an Order of Battle lists units, statistics, sizes and costs.",
    ),
    "troops.choosing-your-army": (
        "Choosing Your Army",
        "Agree on army size; a points maximum (1000 quick, 2000 large).",
    ),
    "troops.basing": (
        "Basing",
        "Optional standard bases: WRG 60 or 75mm with 3 or 4 figures; GW 20 or 25mm per figure.",
    ),
    "troops.unit-organisation": (
        "Unit Organisation",
        "Figures grouped in units in base contact, never split; unit names unique.",
    ),
    "troops.unit-organisation.mixed": (
        "Unit Organisation: mixed units",
        "Troop types may be mixed in a unit (army `mixed`): points per type; the unit moves at the speed of the slowest (ruling 76).",
    ),
    "troops.unit-organisation.mixed-missiles": (
        "Unit Organisation: mixed units, missile fire",
        "Giving or receiving missile fire, a mixed unit uses the values of its majority troop type (ruling 76).",
    ),
    "troops.unit-organisation.mixed-melee": (
        "Unit Organisation: mixed units, melee",
        "In melee the figures in contact with the enemy give a mixed unit's attack and defence values, on whatever edge they touch it; the forecast of a charge reads the same figures (rulings 76, 78).",
    ),
    "troops.troop-quality": (
        "Troop Quality",
        "Quality level 5 fanatic, 4 elite, 3 average, 2 levy: fighting ability, morale level and basic cost per figure.",
    ),
    "troops.troop-types": (
        "Troop Types",
        "Melee, missile or cross-trained troops; three-letter code density / armour / foot-mounted.",
    ),
    "troops.density": (
        "Troop Types: 1) Density",
        "C close, L loose, O open order; base sizes per density; no point cost.",
    ),
    "troops.armour": (
        "Troop Types: 2) Armour",
        "U/P/A/M/E cost 0/1/2/3/4 per figure; shields assumed unless stated; encased slowed.",
    ),
    "troops.category": ("Troop Types: 3) Category", "F foot, M mounted; mounted cost doubled."),
    "troops.point-costs": ("Point Cost of Troops", "Purpose of points: fair encounter battles."),
    "troops.troop-cost": (
        "Point Cost of Troops: Troop Cost",
        "Quality level + armour cost, doubled if mounted.",
    ),
    "troops.weapon-cost": (
        "Point Cost of Troops: weapons and cross-training",
        "First weapon free; cross-trained doubles the troop cost.",
    ),
    "troops.unit-cost": (
        "Point Cost of Troops: Unit Cost",
        "Troop cost × figures + quality × 10 command; army value = sum of units.",
    ),
    "troops.cost-examples": (
        "Point Cost of Troops: Examples",
        "Town Militia CUF levy 12 = 44; Knight LMM fanatic 12 = 242; Combat Archer LPF elite cross-trained 12 = 160.",
    ),
    # PART II - BASIC RULES
    "setup.equipment": ("Setup", "d6s, a ruler, markers and two armies."),
    "setup.gaming-area": (
        "Gaming Area",
        "Table size and terrain come from the scenario (the text's placing by agreement - one places, the other picks a side - is left to the scenario's author).",
    ),
    "setup.deployment": (
        "Deployment",
        "Roll off; the low roller places first; foot units alternately, then mounted units.",
    ),
    "setup.deployment.zone": (
        "Deployment: zone",
        'Units deploy within 1/4 of the table width of their own edge and 12" of the side edges.',
    ),
    "setup.formations": ("Formations", "Best formation two ranks deep, back rank as wide as the front."),
    "setup.zone-of-control": (
        "Zone of Control",
        "ZOC straight ahead: melee half normal move (opportunity charge), missile close range (opportunity fire).",
    ),
    "turn-sequence.sequence-of-play": (
        "Turn Sequence: Sequence of Play",
        "Rallys, initiative, movement, combat (missile then melee), morale; fire and combat simultaneous.",
    ),
    "turn-sequence.rallys": (
        "Sequence of Play 1. Rallys",
        "Rally attempts first; routers failing to rally move at once.",
    ),
    "turn-sequence.initiative": (
        "Sequence of Play 2. Initiative",
        "Both roll a d6; the winner moves first or passes; ties roll again.",
    ),
    "turn-sequence.initiative.consecutive": (
        "2. Initiative: consecutive wins",
        "-1 on the roll for each consecutive turn the side has won the initiative.",
    ),
    "turn-sequence.movement": (
        "Sequence of Play 3. Movement",
        "Initiative side moves, then the other; counter-charges, evades, opportunity charges out of sequence.",
    ),
    "turn-sequence.combat": ("Sequence of Play 4. Combat", "Missile fire, then melee."),
    "turn-sequence.morale": ("Sequence of Play 5. Morale Tests", "Morale tests at the end of the turn."),
    "turn-sequence.end-of-battle": (
        "End of the battle (not given by the text: scenario turn limit, ruling)",
        "The text gives none: the battle ends at the scenario turn limit or when a side has no unit left able to fight; the turn-limit winner is the engine's own count, and its result says so (rulings 39, 74).",
    ),
    "movement.movement": (
        "Movement",
        "Straight moves and forward wheels up to max, or about face; all figures facing one way; rallied units do not move.",
    ),
    "movement.movement.rallied-do-not-move": (
        "Movement: rallied units",
        "Troops that rallied or moved during the rally phase may not move during the movement phase.",
    ),
    "movement.movement.forward-only": (
        "Movement: straight forward moves and forward wheels",
        "All movement is straight forward moves and/or forward wheels up to the maximum move, or an about face: no backward or slanted moves.",
    ),
    "movement.movement.all-figures-one-way": (
        "Movement: all figures facing one way",
        "A unit cannot move unless all its figures are facing the same direction.",
    ),
    "movement.distances": (
        "Distances",
        'Max move and rout/evade dice: CF 6" 3d6, LF/OF 8" 3d6, CM 8" 4d6, LM 12" 4d6, OM 16" 5d6.',
    ),
    "movement.encased": ("Distances: SPECIAL encased limit", 'Encased foot 4" 2d6, encased mounted 8" 3d6.'),
    "movement.turning": (
        "Turns & Wheels: Turning",
        "About face uses half a turn (whole turn if disordered); no left/right turns.",
    ),
    "movement.wheeling": (
        "Turns & Wheels: Wheeling",
        "Forward wheels measured on the outside; no backward or centre wheels.",
    ),
    "movement.charging": (
        "Charges & Evades: Charging",
        "A move to contact is a charge, at normal move; chargers may stop or go on if the target runs.",
    ),
    "movement.charging.contact-only-by-a-charge": (
        "Charging: a move to contact is a charge",
        "Any move that intends to contact the enemy, straight ahead or not, is a charge: no other move may end in contact with an enemy.",
    ),
    "movement.charging.same-distance": (
        "Charging: distance",
        "A charge is the same distance as a normal move (what is left of it in the movement sequence).",
    ),
    "movement.charging.target-runs": (
        "Charging: the target runs away",
        "If the target runs away before contact the chargers may stop at its original position or continue up to their maximum move: unless they catch it, the charging side chooses (stop / continue); a continuing charger goes on straight ahead, stopping at terrain, units and short of any enemy (ruling 79).",
    ),
    "movement.counter-charges": (
        "Charges & Evades: Counter-Charges",
        "Melee troops charged frontally may counter-charge; meet about halfway.",
    ),
    "movement.impetuous-charges": (
        "Charges & Evades: Impetuous Charges",
        'Cavalry charging with the last 4" straight are impetuous: double dice in the first round of melee; the target tests morale.',
    ),
    "movement.impetuous-charges.disorder": (
        "Impetuous Charges: disorder",
        "Units charging or counter-charging an impetuous unit are disordered on contact unless impetuous themselves.",
    ),
    "movement.impetuous-charges.not-through-disordering-terrain": (
        "Impetuous Charges: terrain",
        "No impetuous charge into or through disordering terrain.",
    ),
    "movement.opportunity-charges": (
        "Charges & Evades: Opportunity Charges",
        "Out-of-sequence charges into the ZOC, may be impetuous.",
    ),
    "movement.evading": (
        "Charges & Evades: Evading",
        "Open order and missile troops charged may evade, by their rout/evade dice.",
    ),
    "movement.evading.caught": (
        "Evading: caught",
        "Evaders the charger reaches are caught and attacked in the back.",
    ),
    "movement.disorder": (
        "Disorder",
        "Disorder: a disordered unit is at -1 on morale and control tests (its causes are in the rules that give it).",
    ),
    "movement.disorder.wheels": (
        "Disorder: wheeling",
        "A disordered unit wheels at half speed.",
    ),
    "movement.disorder.counts-only-the-front-rank": (
        "Disorder: in melee",
        "A disordered unit counts only its front rank in melee.",
    ),
    "movement.frontage-changes": (
        "Miscellaneous: Frontage Changes",
        "Expand/contract 8 figures per turn (4 per half); half rate disordered or in melee.",
    ),
    "movement.interpenetration": (
        "Miscellaneous: Interpenetration",
        "Never through enemy units, nor through friends in melee or routing.",
    ),
    "movement.interpenetration.friends-disorder": (
        "Interpenetration: through friends",
        "Open order foot pass through friends (and friends through them) freely; otherwise friends count as disordering terrain.",
    ),
    "movement.interpenetration.both-moving": (
        "Interpenetration: both moving",
        "If both units are moving, both moves are halved and both units become disordered.",
    ),
    "terrain.terrain": ("Terrain", "Terrain pieces for the table."),
    "terrain.disordering": (
        "Disordering Terrain",
        "Steep slopes, open woods, brush, rough, buildings, shallow streams, linear obstacles, friends disorder close foot and all mounted; mounted at half speed.",
    ),
    "terrain.restrictive": (
        "Restrictive Terrain (dense woods, swamps, deep streams)",
        "Dense woods and swamps: foot disordered, at half speed; no mounted.",
    ),
    "terrain.restrictive.deep-stream": (
        "Restrictive Terrain: deep streams",
        "Deep streams disorder all troops; foot cross at half speed, mounted at quarter speed.",
    ),
    "terrain.deep-water": (
        "Restrictive Terrain: deep water",
        "Deep water may not be entered under normal circumstances.",
    ),
    "terrain.deep-water.driven-back": (
        "Restrictive Terrain: forced into deep water",
        "A unit driven back or routing into deep water: unarmoured or protected cavalry swim at quarter speed; unarmoured infantry and armoured cavalry lose half (rounded up) and swim; all others drown.",
    ),
    "terrain.deep-water.a-swimming-unit": (
        "Restrictive Terrain: swimming",
        "A unit in deep water swims on at quarter speed.",
    ),
    "terrain.roads": ("Roads", '2" wide; cancel disordering terrain for units in column entirely on them.'),
    "combat.ranks": (
        "Combat: first two ranks, figures facing an enemy",
        "The first two ranks fight, only figures directly facing an enemy.",
    ),
    "combat.dice": (
        "Combat: one d6 per four figures, per unit, rounded down",
        "One d6 per four figures fighting, rounded down; per attacking unit, no fractions carried between units.",
    ),
    "combat.to-hit": (
        "Combat: each die that equals or beats the armour level with modifiers",
        "Each die equal to or above the armour number with modifiers is one casualty.",
    ),
    "combat.natural-rolls": (
        "Combat: natural 1 always misses, 6 always hits",
        "A natural 1 always misses, a natural 6 always hits.",
    ),
    "combat.armour": ("Armour", "Hit on U 3+, P 4+, A 5+, M 6+, E 7+ (or natural 6)."),
    "combat.missile-fire": (
        "Missile Fire",
        "Missile fire comes after all movement; fire is simultaneous.",
    ),
    "combat.missile-fire.foot-moving": (
        "Missile Fire: moving and firing",
        "Foot moving more than half their maximum move may not fire; mounted may move their full move and fire.",
    ),
    "combat.missile-fire.not-when": (
        "Missile Fire: who may not fire",
        "No fire by units charging, in melee, pursuing, or interpenetrating or being interpenetrated.",
    ),
    "combat.missile-fire.front-rank": (
        "Missile Fire: range from the front rank",
        "Range is measured from the front rank; the second rank uses the range of the figure in front of it.",
    ),
    "combat.long-range": (
        "Missile Fire: long range halves the dice",
        "Long range halves the dice: 1 d6 per 8 figures.",
    ),
    "combat.long-range.partial-range": (
        "Missile Fire: partly in range",
        "A unit may fire with some figures at close and some at long range (fractions pooled: ruling).",
    ),
    "combat.fire-targets": (
        "Missile Fire: choice of target",
        "Shoot first at chargers; concentrate on one target; split evenly among several chargers.",
    ),
    "combat.fire-targets.chargers-first": (
        "Missile Fire: choice of target, chargers first",
        "If possible a unit shoots first at any enemies charging it: its fire at a charger is taken when the charge is declared (ruling 65).",
    ),
    "combat.fire-targets.one-target": (
        "Missile Fire: choice of target, concentrate",
        "A unit concentrates its fire on one target; figures that cannot hit it may shoot at another in arc, concentrating as much as possible.",
    ),
    "combat.fire-targets.split-among-chargers": (
        "Missile Fire: choice of target, several chargers",
        "Fire split evenly among all units charging it: with moves in sequence a unit is charged by one unit at a time, and one that fired or is in melee has no fire left to split (ruling 65).",
    ),
    "combat.target-eligibilities": (
        "Target Eligibilities",
        "A target must be in line of sight: units, dense woods and hills between block it.",
    ),
    "combat.target-eligibilities.no-firing-over-units": (
        "Target Eligibilities: firing over units",
        "No firing over units unless the firer or the target is on elevated terrain.",
    ),
    "combat.target-eligibilities.foot-fire-straight-ahead": (
        "Target Eligibilities: direction of fire",
        "Foot fire only straight ahead; mounted in any one direction.",
    ),
    "combat.target-eligibilities.troops-in-melee": (
        "Target Eligibilities: units in melee",
        "Troops in melee are not targets (figures not involved in it may be).",
    ),
    "combat.opportunity-fire": (
        "Opportunity Fire",
        "Missile ZOC = close range; the normal fire out of sequence; charged units shot at take a morale test before contact.",
    ),
    "combat.opportunity-fire.zone": (
        "Opportunity Fire: the missile zone of control",
        "Missile troops have a ZOC equal to their close range, straight ahead, and may opportunity fire on any enemy unit moving in it.",
    ),
    "combat.opportunity-fire.once-a-turn": (
        "Opportunity Fire: not twice a turn",
        "Opportunity fire is the unit's regular fire out of sequence: a unit that has fired may not fire again that turn.",
    ),
    "combat.opportunity-fire.at-chargers": (
        "Opportunity Fire: at chargers",
        "Missile troops charged may opportunity fire at the chargers, who then take a morale test before contact.",
    ),
    "combat.missile-weapons": (
        "Missile Weapons",
        "Foot bow (incl. light crossbow), mounted bow: no shields unless cross-trained and not while firing; sling and javelin keep shields.",
    ),
    "combat.missile-weapons.bows-no-shields": (
        "Missile Weapons: foot and mounted bows",
        "Foot bow (incl. light crossbow) and mounted bow troops have no shields unless cross trained.",
    ),
    "combat.missile-weapons.cross-trained-bow": (
        "Missile Weapons: cross-trained bows firing",
        "Cross-trained bow troops have shields but cannot use them while firing.",
    ),
    "combat.missile-weapons.sling-and-javelins-keep-shields": (
        "Missile Weapons: slings and javelins",
        "Sling and javelin troops have shields and can use them even while firing.",
    ),
    "combat.missile-ranges": (
        "Missile Weapons: Ranges",
        "Close/long: foot bow 6/18, mounted bow 6/12, sling 6/12, javelin 6/–.",
    ),
    "combat.missile-modifiers": (
        "Missile Weapons: Modifiers",
        "Target open foot −2; loose foot or open mounted −1; shieldless or hit from rear +1; light cover −1; heavy cover −2.",
    ),
    "combat.melee": (
        "Melee",
        "Simultaneous; figures in contact and facing, or in the second rank behind; no overlaps; missile troops penalised.",
    ),
    "combat.melee.simultaneous": (
        "Melee: simultaneous",
        "All melee combat is simultaneous: every unit strikes with the figures it had before the melee; casualties are removed together.",
    ),
    "combat.melee.no-overlapping": (
        "Melee: no overlaps",
        "NO extra overlapping figures are counted: a rank behind counts only figures directly behind those in contact.",
    ),
    "combat.flanks-and-rear": (
        "Flanks & Rear",
        "Flanked = at least 4 enemy figures on a flank or the rear with no figures facing them; flank/rear attackers then roll double dice (combat.double-dice).",
    ),
    "combat.flanks-and-rear.pinned": (
        "Flanks & Rear: pinned",
        "A unit attacked in flank or rear is pinned; it may turn to face next turn.",
    ),
    "combat.melee-weapons": (
        "Melee Weapons",
        "All basic hand weapons equivalent; exceptions in the optional rules.",
    ),
    "combat.shields": (
        "Melee Weapons: Shields",
        "All melee troops have shields.",
    ),
    "combat.shields.not-counted-from-rear": (
        "Melee Weapons: shields from the rear",
        "Shields are not counted when attacked from the rear.",
    ),
    "combat.melee-modifiers": (
        "Melee Weapons: Modifiers",
        "Charging/counter-charging +1; steady fanatics +1; peasants or non-cross-trained missile troops −1; enemy shieldless +1; enemy uphill −1; enemy defending obstacle −1.",
    ),
    "combat.melee-modifiers.charging": (
        "Melee Weapons: Modifiers, charging",
        "Attacking unit charging or counter-charging: +1.",
    ),
    "combat.melee-modifiers.steady-fanatics": (
        "Melee Weapons: Modifiers, steady fanatics",
        "Attacking unit steady fanatics (quality 5): +1.",
    ),
    "combat.melee-modifiers.peasants": (
        "Melee Weapons: Modifiers, peasants",
        "Attacking unit peasants: −1.",
    ),
    "combat.melee-modifiers.missile-troops": (
        "Melee Weapons: Modifiers, missile troops",
        "Attacking unit missile troops, unless cross trained: −1 (peasant missile troops −1 once: ruling).",
    ),
    "combat.melee-modifiers.enemy-shieldless": (
        "Melee Weapons: Modifiers, enemy without shields",
        "Enemy unit without shields or unable to use them: +1.",
    ),
    "combat.melee-modifiers.enemy-uphill": (
        "Melee Weapons: Modifiers, enemy uphill",
        "Enemy unit uphill of the attacking unit: −1.",
    ),
    "combat.melee-modifiers.enemy-obstacle": (
        "Melee Weapons: Modifiers, enemy behind an obstacle",
        "Enemy unit defending an obstacle (fence, ditch): −1, across the side it defends.",
    ),
    "combat.double-dice": (
        "Melee: impetuous and flank/rear double the dice (cumulative)",
        "Impetuous or flank/rear: 1 d6 per 2 figures; both together: 1 per figure.",
    ),
    "combat.combat-results": (
        "Combat Results",
        "Both sides test morale after melee; combat continues unless one is driven back or routs.",
    ),
    "combat.driven-back": (
        "Driven Back",
        'A unit driven back moves back 4" facing the enemy.',
    ),
    "combat.driven-back.pushes": (
        "Driven Back: friends behind",
        "Friends in the way are pushed back; close order friends may refuse, and the driven unit then routs.",
    ),
    "combat.driven-back.blocked": (
        "Driven Back: blocked",
        'A unit that cannot move back the full 4" routs instead.',
    ),
    "combat.rout": (
        "Rout",
        "Routers move by their rout dice away from the enemy, later toward their own edge, shaken and disordered; surrounded units surrender.",
    ),
    "combat.rout.moves-away": (
        "Rout: the rout move",
        "A routing unit rolls the rout dice of its troop type and at once moves that total away, finishing with its back to the enemy.",
    ),
    "combat.rout.shaken-and-disordered": (
        "Rout: routers shaken and disordered",
        "Routers are shaken and disordered.",
    ),
    "combat.rout.first-move": (
        "Rout: the first rout move",
        "The first rout move is straight away from the enemy(s) that broke the unit.",
    ),
    "combat.rout.later-moves": (
        "Rout: later rout moves",
        "On subsequent turns routers move towards their own base edge by the shortest route.",
    ),
    "combat.rout.off-table": (
        "Rout: off the table",
        "A unit that routs off the table is gone for the rest of the game.",
    ),
    "combat.rout.surrender": (
        "Rout: surrounded units surrender",
        'A routing unit hemmed in by enemies (or terrain it may not enter) so that it cannot get 1" away surrenders: it is destroyed.',
    ),
    "combat.rout.loose-order": (
        "Rout: routers are loose order",
        "Routers count as loose order for all purposes.",
    ),
    "combat.rout.friends-gaps": (
        "Rout: meeting friends, gaps",
        "Routers meeting friends pass through any gap at least 3 figures wide: a router finds its way as a column 3 figures wide on its line of flight, and a friend clear of that column is not passed through (ruling 77).",
    ),
    "combat.rout.friends-interpenetrate": (
        "Rout: meeting friends, interpenetration",
        "With no such gap a router interpenetrates the friend under the rules of interpenetration: never through a friend that is routing or in melee (it stops short of it); a mounted router passes a friend as disordering terrain, at half speed. The both-moving rule (both moves halved, both disordered) is not applied to a rout move.",
    ),
    "combat.rout.friends-test": (
        "Rout: meeting friends, the friend's morale test",
        "A friend a router has passed through takes a morale test at once (morale.test-triggers.interpenetrated).",
    ),
    "combat.rout.friends-refuse": (
        "Rout: meeting friends, refusing",
        "Only close order troops may refuse to be passed through: the friend's side is asked; a friend that refuses stops the router short of it.",
    ),
    "combat.pursuit": (
        "Pursuit",
        'Follow-up 4" or pursuit at a normal move, then disordered; a pursuit into a new enemy becomes a charge; fanatics must rally to stop.',
    ),
    "combat.pursuit.resisted": (
        "Pursuit: resisting",
        "A unit may try not to pursue or follow up: a control test (failure: disordered).",
    ),
    "combat.bonus-round": (
        "Pursuit: bonus round of melee",
        "Pursuers keeping up get a bonus round at 1 d6 per figure eligible.",
    ),
    "combat.rallying": (
        "Rallying",
        "Rally attempts are made in the rally phase; units in melee may not rally; a unit attempting to rally does nothing else.",
    ),
    "combat.rallying.shaken": (
        "Rallying: shaken",
        "A shaken unit rallies to steady by a control test; failing it does not disorder.",
    ),
    "combat.rallying.from-disorder": (
        "Rallying: disorder",
        "Rallying from disorder takes the whole turn.",
    ),
    "combat.rallying.routers": (
        "Rallying: routers",
        "A routing unit rallies by a morale test: passed, it faces the enemy; failed, it routs on.",
    ),
    "combat.rallying.evaders": (
        "Rallying: evaders",
        "Evaders rally automatically and turn to face.",
    ),
    "morale.morale": ("Morale", "Morale = lowest quality in the unit and its status."),
    "morale.morale-levels": ("Morale Levels", "5 fanatic, 4 elite, 3 average, 2 levy, 1 peasant."),
    "morale.morale-states": (
        "Morale States",
        "Steady, shaken (−1 to tests, fanatics lose +1), routed; disordered in addition.",
    ),
    "morale.morale-tests": (
        "Morale Tests",
        "Roll the morale level or less with adjustments on a d6; one test per event; routers test only to rally.",
    ),
    "morale.test-triggers": (
        "Morale Tests: events that require a test",
        'Interpenetrated by routers, impetuous charge, missile fire, melee, friends routing within 6", friends destroyed, or fanatics routing (each turn they rout or still rout), within 12".',
    ),
    "morale.test-triggers.interpenetrated": (
        "Morale Tests: interpenetrated by routers",
        "A unit interpenetrated by a routing friendly unit tests at once.",
    ),
    "morale.test-triggers.impetuous-charge": (
        "Morale Tests: receiving an impetuous charge",
        "A unit receiving an impetuous charge tests at once, unless counter-charging impetuously itself.",
    ),
    "morale.test-triggers.missile-fire": (
        "Morale Tests: receiving missile fire",
        "A unit receiving missile fire, during a charge (at once) or in normal firing, tests, whether casualties resulted or not.",
    ),
    "morale.test-triggers.melee": (
        "Morale Tests: being in melee",
        "A unit in melee tests, whether casualties resulted or not (in the order of morale.melee-test-order).",
    ),
    "morale.test-triggers.friend-routed": (
        'Morale Tests: friends routing within 6"',
        'A test for each friendly unit routed this turn that began its rout within 6" (except routing open order troops).',
    ),
    "morale.test-triggers.friend-destroyed": (
        'Morale Tests: friends destroyed within 12"',
        'A test for each friendly unit destroyed this turn within 12".',
    ),
    "morale.test-triggers.fanatic": (
        'Morale Tests: fanatics routing within 12"',
        'A test for each friendly fanatic (quality 5) unit routing within 12" (each turn it routs or still routs: ruling 72).',
    ),
    "morale.melee-test-order": (
        "Morale Tests: losers of a melee test first",
        "After a melee the losers (most casualties received) test first; winners test only if still in contact.",
    ),
    "morale.melee-test-order.ties": (
        "Morale Tests: ties",
        "On equal casualties both sides test at the same time.",
    ),
    "morale.modifiers": (
        "Morale Tests: Modifiers",
        "Shaken −1, disordered −1, −1 per 25% casualties, flanked −3, outnumber ×2 +1, long range missile only +1, fewer firers +1, deeper ranks −1, supported +1, friends routing −1 each, unsupported −2, uphill +1, cover +1.",
    ),
    "morale.modifiers.shaken": (
        "Morale Tests: Modifiers, unit shaken",
        "Unit currently shaken: −1.",
    ),
    "morale.modifiers.disordered": (
        "Morale Tests: Modifiers, unit disordered",
        "Unit currently disordered: −1.",
    ),
    "morale.modifiers.casualties": (
        "Morale Tests: Modifiers, casualties",
        "−1 for each full 25% casualties from the original strength.",
    ),
    "morale.modifiers.flanked": (
        "Morale Tests: Modifiers, unit flanked",
        "Unit flanked by enemy in melee: −3.",
    ),
    "morale.modifiers.outnumber": (
        "Morale Tests: Modifiers, numbers: outnumber",
        "Outnumbering its melee opponents by double or more: +1.",
    ),
    "morale.modifiers.long-range-only": (
        "Morale Tests: Modifiers, numbers: long range only",
        "Receiving long range missile fire only: +1.",
    ),
    "morale.modifiers.fewer-firers": (
        "Morale Tests: Modifiers, numbers: fewer firers",
        "Receiving missile fire from fewer enemy than its own numbers: +1.",
    ),
    "morale.modifiers.deeper-ranks": (
        "Morale Tests: Modifiers, deeper ranks",
        "Opposing unit in melee has more complete ranks: −1.",
    ),
    "morale.modifiers.supported": (
        "Morale Tests: Modifiers, unit supported",
        'Unrouted friends within 3" of both flanks, or 6" of the rear facing the same way and behind its centre: +1.',
    ),
    "morale.modifiers.friends-routing": (
        "Morale Tests: Modifiers, friends routing",
        '−1 for each friendly unit routing within 12".',
    ),
    "morale.modifiers.unsupported": (
        "Morale Tests: Modifiers, unit unsupported",
        'No unrouted friendly troops in sight within 12": −2.',
    ),
    "morale.modifiers.uphill": (
        "Morale Tests: Modifiers, unit is uphill",
        "Uphill of all enemy within sight: +1.",
    ),
    "morale.modifiers.in-cover": (
        "Morale Tests: Modifiers, unit in cover",
        "Completely in or behind cover for missile fire, defending an obstacle in melee, or behind the front lines unable to see the enemy: +1.",
    ),
    "morale.results": (
        "Morale Tests: Result",
        "Not over: passed; over by 1 shaken; 2–3 driven back; 4+ routed.",
    ),
    "morale.control-tests": (
        "Control Tests",
        "Same roll with relevant modifiers: pass = perform, fail = disordered; severity does not matter.",
    ),
    # PART III - OPTIONAL RULES
    "special-troops.special-troops": (
        "Special Troops",
        "Troops needing changes to the basic rules (army file options).",
    ),
    "special-troops.champions": (
        "Champions",
        "A champion is one figure, always open order, costing 10 times a figure, with no command; he cannot flank a unit.",
    ),
    "special-troops.champions.two-hits": (
        "Champions: hits",
        "Two hits kill a champion on foot, three mounted (the first removes the mount).",
    ),
    "special-troops.champions.two-dice": (
        "Champions: dice",
        "A champion rolls 2 d6, 1 when wounded; never doubled.",
    ),
    "special-troops.champions.join": (
        "Champions: joining and leaving",
        "A champion may join a unit within his move and leave it again (ruling 73).",
    ),
    "special-troops.champions.targeted": (
        "Champions: declared dice",
        "Up to 2 enemy dice may be declared at a champion.",
    ),
    "special-troops.warbands": (
        "Warbands",
        "Foot units, free; may charge impetuously after a control test, then disordered.",
    ),
    "special-troops.skirmishers": (
        "Skirmishers",
        "Skirmishers: open order missile units, free.",
    ),
    "special-troops.skirmishers.must-evade": (
        "Skirmishers: charged",
        "Skirmishers must always evade if charged.",
    ),
    "special-troops.skirmishers.back-up": (
        "Skirmishers: moving back",
        "Skirmishers may move backwards at half speed without turning, and fire.",
    ),
    "special-troops.peasants": ("Peasants", "Quality 1, morale peasant; always −1 in melee."),
    "special-troops.chariots": (
        "Chariots",
        "Named in the contents but not defined by the text — not implemented.",
    ),
    "swat.swat": (
        "SWAT (Peasant class units may not use SWAT)",
        "Special weapons and tactics; Peasant class units may not use SWAT.",
    ),
    "swat.longbow": (
        "Longbow",
        "Longbow: x1.5 cost; foot bowmen only, never cross-trained.",
    ),
    "swat.longbow.close": (
        "Longbow: ranges",
        'Longbow ranges 8"/24"; +1 at close range.',
    ),
    "swat.polearm": (
        "Polearm",
        "Polearm: free; +1 in all melee.",
    ),
    "swat.polearm.gives-opponent-shieldless": (
        "Polearm: shields",
        "Opponents of polearms get the +1 for a shieldless enemy in melee; shields count as normal out of melee.",
    ),
    "swat.crossbow": (
        "Crossbow",
        "Crossbow: free; light crossbows use the bow rules.",
    ),
    "swat.crossbow.heavy": (
        "Crossbow: heavy",
        'Heavy crossbows: 6"/24", +1 at close range, may not move and fire.',
    ),
    "swat.pike": (
        "Pike",
        "Pike: x1.5 cost; never cross-trained nor missile troops.",
    ),
    "swat.pike.four-ranks": (
        "Pike: ranks",
        "Four ranks of pikes fight.",
    ),
    "swat.pike.shieldless": (
        "Pike: shields",
        "Only pikes and flank or rear attackers get the +1 for a shieldless enemy against pikes.",
    ),
    "swat.shieldwall": (
        "Shieldwall",
        "Close order foot with large shields may form a shieldwall, at +1 point per figure.",
    ),
    "swat.shieldwall.formed": (
        "Shieldwall: forming",
        'Formed instead of moving; in shieldwall a unit moves at most 4".',
    ),
    "swat.shieldwall.minus-one": (
        "Shieldwall: in melee",
        "Frontal melee opponents of a shieldwall are at -1.",
    ),
    "swat.shieldwall.morale": (
        "Shieldwall: morale",
        "+1 on morale tests in shieldwall.",
    ),
    "swat.shieldwall.not-when-disordered": (
        "Shieldwall: disorder",
        "A disordered unit may not be in shieldwall.",
    ),
    "swat.wedge": ("Wedge", "Named in the contents but not defined by the text — not implemented."),
    "swat.hedgehog": ("Hedgehog", "Named in the contents but not defined by the text — not implemented."),
    "command.command-and-control": (
        "Command & Control",
        "Limited control; generals deploy and start the advance.",
    ),
    "command.combat-preferences": (
        "Combat Preferences",
        "Mounted prefer to charge, foot to stand, missile troops to stop and shoot and evade; always followed unless ordered.",
    ),
    "command.generals": (
        "Generals",
        "At least one general, one of them commanding; each rated poor 1, average 2 or good 3.",
    ),
    "command.generals.figure": (
        "Generals: a figure",
        "A general on the table is a figure treated as LMM (or LMF), moving on his own; he adds nothing in combat.",
    ),
    "command.generals.join": (
        "Generals: joining units",
        "Generals may join and leave units (not across water or through an enemy).",
    ),
    "command.generals.points": (
        "Generals: points",
        "A general costs 25 points per rating level.",
    ),
    "command.generals.caught-alone": (
        "Generals: hits",
        "One hit removes a general, leading a unit or caught alone.",
    ),
    "command.general-leading": (
        "Generals: leading a unit",
        "A general who has joined and leads a unit frees it of its preferences and orders, and negates negative morale modifiers up to his rating.",
    ),
    "command.general-leading.dice-declared": (
        "Generals: leading, declared dice",
        "While he is in the front rank, up to 2 enemy dice may be declared at a leading general; one hit removes him.",
    ),
    "command.command-actions": (
        "Generals: command actions",
        'Rating = actions per turn, for a general not joined to a unit: new orders (1), order units within 12" of his figure against preferences.',
    ),
    "command.champion-generals": (
        "Generals: generals may be champions",
        "A champion may be a general: champion cost plus the rating points.",
    ),
    "command.divisions": (
        "Divisions",
        "All units grouped in divisions, each under a general (about 4 or 5 units).",
    ),
    "command.orders": (
        "Orders (Attack, Hold, Fall Back)",
        "All generals begin with orders chosen by the player: Attack, Hold or Fall Back; units obey their division general's orders.",
    ),
    "command.orders.attack": (
        "Orders: Attack",
        "Attack: beyond charge range a unit advances towards the enemy at half speed or more; within it, it follows its preferences.",
    ),
    "command.orders.hold": (
        "Orders: Hold",
        "Hold: no movement except wheeling or turning.",
    ),
    "command.orders.fall-back": (
        "Orders: Fall Back",
        "Fall Back: move away from all enemy at half speed or more; no charges.",
    ),
    "command.orders.reactions": (
        "Orders: when charged",
        "When charged: Attack - counter-charge (foot charged by mounted hold); Hold - foot do not counter-charge; Fall Back - no counter-charge, missile troops evade.",
    ),
    "command.new-orders": (
        "New Orders",
        "New orders cost 1 action each; the commanding general may change his own (still 1 action).",
    ),
    "command.new-orders.subordinate": (
        "New Orders: to a subordinate",
        'To a subordinate within 24": a d6 at most the sum of both ratings, at once, else next turn.',
    ),
    "maneuvers.difficult-maneuvers": (
        "Difficult Maneuvers",
        "Pass a control test to perform; fail: not performed and disordered.",
    ),
    "maneuvers.turning": ("Difficult Maneuvers: Turning", "Turn left/right into column with a whole turn."),
    "maneuvers.falling-back": (
        "Difficult Maneuvers: Falling Back",
        "Back up at half speed facing the enemy; no counter-charge when opportunity charged.",
    ),
    "maneuvers.careful-movement": (
        "Difficult Maneuvers: Careful Movement",
        "Half speed through disordering terrain, then a control test to avoid disorder.",
    ),
    "maneuvers.break-off": (
        "Difficult Maneuvers: Break Off",
        "Break Off: cavalry, missile and open order troops in melee last turn leave it by their evade dice after a control test.",
    ),
    "maneuvers.break-off.caught": (
        "Break Off: pursued",
        "The enemy pursues as if the unit routed; caught, it is attacked in the back and may not fight back.",
    ),
    "concealed-deployment.playing-cards": (
        "Concealed Deployment: Playing Cards",
        "Units deployed as face-down playing cards, revealed after deployment.",
    ),
    "concealed-deployment.dummies": ("Concealed Deployment: dummy cards", "Agreed number of dummy cards."),
    "misc.scouting": ("Scouting", "Named in the contents but not defined by the text — not implemented."),
    "misc.army-lists": (
        "Army Lists",
        'Named in the contents but not defined by the text — not implemented ("soon found at the end of these rules"). Example armies are in `scenarios/into-the-dark/armies/`.',
    ),
}


def cite(clause: str) -> str:
    """The full clause id ``into-the-dark:<clause>``; an unknown clause is a programming error."""
    if clause not in CLAUSES:
        raise KeyError(f"unknown into-the-dark clause {clause!r}")
    return f"{RS}:{clause}"
