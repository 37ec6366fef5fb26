"""Every clause of shared/rules/dbm-3.2-amendments.txt, by id (``dbm-3.2:<id>``).

Events, ``IllegalOrder``s and ``DataError``s name one of these; ``docs/rules/dbm-3.2.md`` is
generated from this table (``python scripts/dbm_clause_table.py``) with where each is implemented
and which tests name it. The ids follow the clause inventory in ``shared/specs/dbm-3.2.md``
(its ``dbm:`` prefix is this package's ``dbm-3.2:``), plus the LISTS sentence the inventory missed.
"""

from __future__ import annotations

RS = "dbm-3.2"

#: id -> (section of the amendments, what it says)
CLAUSES: dict[str, tuple[str, str]] = {
    "troops.kn-x": (
        "Knights (X), p.5",
        "Kn(X) count as (S) shot at by Bw/naval or in frontal CC v LH, Sp, Pk, Bw; (I) in frontal CC v Kn except (X), Exp, Wb; otherwise (O).",
    ),
    "troops.cv-s": (
        "Cavalry (S), p.5",
        "Cv(S) definition: bow with lance, or unlanced on protected horses, or with handgun (classification only).",
    ),
    "troops.cv-o": (
        "Cavalry (O), p.5",
        "Cv(O) definition, including halberd or crossbow (classification only).",
    ),
    "troops.bd-x": (
        "Blades (X), p.6",
        "Bd(X) count as (S) in frontal CC v Kn or Cm(S) (a 2nd rank Bd(X) supports, also as S); only support/are supported by Bd(X); (O) in other frontal CC if their list requires a double base; otherwise (F).",
    ),
    "baggage.mobile": ("Baggage, p.9", "Only mobile baggage can move."),
    "fort.corner-angle": (
        "Fortifications",
        "Angles inside corners of continuous fortifications are between 90 and 270 degrees.",
    ),
    "exchange.optional-mount": (
        "Exchanging mounted and foot",
        "Infantry listed as compulsorily mounted are optionally mounted.",
    ),
    "exchange.riderless": (
        "Exchanging mounted and foot",
        "Enemy contacting riderless mounts need not make a permitted contact and may continue after the mounts are removed.",
    ),
    "basing.double-loss": (
        "Element basing, p.10",
        "If one element of a double element is destroyed, a single element of the other's type replaces it in the original position.",
    ),
    "basing.cv-double": (
        "Element basing, p.10",
        "Cavalry required to be double-based with cavalry are optionally double-based; if double-based both are treated and paid for as Cv(O), with the rear-rank AP reduction.",
    ),
    "size.baggage": ("Army size, p.11", "6 baggage elements if 400 AP or less, otherwise 8."),
    "size.assign": (
        "Army size, p.11",
        "Baggage is assigned to one on-table C-in-C's or sub-general's command after deployment; all others before set-up.",
    ),
    "size.el-general": (
        "Army size, p.11",
        "An elephant-mounted general Regular by the list counts as Irregular except for PIP allocation, paid for as Regular.",
    ),
    "cost.bd-ax": ("Element cost", "Reg Bd S8 O6 I4 F6 X7; Irr Bd(I) 3; Reg Ax S4.5 O3.5 I2.5 X3."),
    "terrain.invader": (
        "Terrain choosing, p.12 para 2",
        "The invader may provide one only of: WW, river, road plus steep hills.",
    ),
    "terrain.inv-ww": (
        "Terrain choosing, p.12 para 2",
        "Invader WW: needs 2 naval elements; dice 4-6 unless compulsory for the defender; on failure a non-water option may be chosen.",
    ),
    "terrain.inv-river": (
        "Terrain choosing, p.12 para 2",
        "Invader river long edge to long edge: dice 4-6 unless compulsory; then lies between 250+50d and 600+100d paces from the short edge.",
    ),
    "terrain.inv-road": (
        "Terrain choosing, p.12 para 2",
        "Invader road between central sectors plus 0 or 2-3 FE of steep hills counting as DGo and H(S), not satisfying compulsory terrain.",
    ),
    "terrain.def-total": (
        "Terrain choosing, p.12 para 3",
        "Defender places 2-3 FE including one of each compulsory type not present, these counting half.",
    ),
    "terrain.def-phases": (
        "Terrain choosing, p.12 para 3",
        "Compulsory then optional phases; in each, WW, river and BUA/fields first.",
    ),
    "terrain.def-ww": (
        "Terrain choosing, p.12 para 3",
        "Defender WW: one, none present, with a BUA if his book allows; dice 5-6 unless compulsory.",
    ),
    "terrain.def-river": (
        "Terrain choosing, p.12 para 3",
        "Defender river short edge to opposite: dice 6 unless compulsory; zone die 1 / 2-3 / 4-5 / 6 of four depth quarters from his edge.",
    ),
    "terrain.def-bua": (
        "Terrain choosing, p.12 para 3",
        "Defender BUA: touching a WW, else flank sector or road link; on his rear edge unless he dices 5-6; within 1 sector.",
    ),
    "terrain.def-roads": (
        "Terrain choosing, p.12 para 3",
        "Up to 2 external roads linking a BUA or road, or compulsory; the first compulsory road is 0 FE.",
    ),
    "terrain.inv-area": (
        "Terrain choosing, p.12 para 4",
        "An invader who placed nothing may place 0-1.5 FE of area features of the defender's list (not BUA).",
    ),
    "terrain.position": (
        "Terrain choosing, p.12 para 6",
        "Position die: 1-2 touch an edge or waterway; 3-4 nearest part 100-300 p; 5-6 nothing within 300 p.",
    ),
    "terrain.mixed-going": (
        "Terrain choosing, p.12 para 7",
        "In mixed going an element counts the going that slows cavalry more; for visibility the terrain reducing it less.",
    ),
    "terrain.hill": ("Terrain choosing, p.12 para 8", "A hill is a single feature whatever its slopes."),
    "terrain.ww-extent": (
        "Terrain, p.13 para 2",
        "One WW along a full short edge, 300 to 300+100d paces deep, no more than half deeper than 600 p; it counts 1 FE.",
    ),
    "terrain.fe": ("Terrain, p.13 para 3", "Each (feature of para 3) counts as 1 feature equivalent."),
    "deploy.first": (
        "Deployment, p.15",
        "The first command deployed is the one with most elements, excluding baggage and ambushers.",
    ),
    "deploy.rectangle": (
        "Deployment, p.15",
        "A command's non-baggage elements deploy in a table-parallel rectangle not intersecting or inside another friendly one; touching is allowed.",
    ),
    "deploy.baggage": (
        "Deployment, p.15",
        "After deployment each side assigns all its baggage to one on-table general's command.",
    ),
    "flank.who": (
        "Off-table flank marches",
        "A C-in-C cannot flank march, nor can baggage (baggage no longer arrives last).",
    ),
    "flank.both": (
        "Off-table flank marches",
        "If both sides flank march on one flank, the commands' element totals are compared.",
    ),
    "pip.march-extra": (
        "PIP dicing, p.16",
        "+1 PIP for a group's 4th+ march in a bound, or 3rd if it has Kn/WWg/El (not a general and his double base), Hd or Exp, or non-skirmisher irregulars not in a 1-wide column.",
    ),
    "ally.unreliable-b": (
        "Unreliable allies",
        "An irregular ally of another nation, or any ally in a civil war, changes sides if any of its side's commands become demoralised.",
    ),
    "group.limits": (
        "Group moves, p.17",
        "Group moves cannot line up with enemy within 1 BW, nor mount, dismount, embark or disembark.",
    ),
    "group.formation": (
        "Group moves, p.17",
        "No element ends further to its rear than before a formation change (after any initial 180 degree turn).",
    ),
    "move.lineup-shift": (
        "Movement restrictions, p.18",
        "Within 1 BW of enemy, one sideways shift of up to half a BW if necessary for a later straight-ahead contact; not counted as distance if straight ahead or a group.",
    ),
    "move.simultaneous": (
        "Movement restrictions, p.18",
        "Simultaneous moves to contact only if none could contact without the others moving first and without interpenetration.",
    ),
    "move.conform": (
        "Movement restrictions, p.18",
        "An ungrouped element contacted by the front of a larger straight-ahead group pivots/shifts to face it, with six exceptions; touching friends it only shifts.",
    ),
    "move.legal-contact": (
        "Movement restrictions, p.18",
        "Contact only ending in one of six positions: front-front, front on flank at front corner, front-rear, front corner to front corner facing opposite, side-side, beside a friend on a flank or rear.",
    ),
    "move.flank-rear-start": (
        "Movement restrictions, p.18, Fig 5",
        "Rear contact only starting entirely behind the rear line; flank contact only starting at least partly beyond the side line, any other part behind the rear.",
    ),
    "march.rules": (
        "March moves",
        "No march closer than 200 p to known enemy; 50 p for foot v skirmishers/ungrouped fewer than the front rank, then straight ahead and stopping; no tactical move that bound.",
    ),
    "halts": ("Halts", "Halts and moves are mutually exclusive."),
    "gap.enter": (
        "Moving through gaps, p.20",
        "No entering a gap narrower than 1 element except straight ahead into enemy contact or straight back out of it.",
    ),
    "interpen.hordes": (
        "Moving through friends, p.20",
        "Land troops pass through (I) hordes, destroying them as the interpenetration starts.",
    ),
    "interpen.flee": ("Moving through friends, p.20", "Foot passed through by Kn, Cm(S) or Exp flee."),
    "shoot.who": (
        "Distant shooting, p.21",
        "Art, Bw, WWg(S/O), El(X), Shp(S/O/X), Gal, Bts(S/X) not having marched or fled shoot at one element in range at least partly inside the rectangle 1 BW either side of the front.",
    ),
    "shoot.forbidden": (
        "Distant shooting, p.21",
        "No shooting by or at elements in CC, rear-supporting, in front-to-rear contact with one in CC, or overlapping enemy in CC.",
    ),
    "shoot.aid": (
        "Distant shooting, p.21",
        "A 2nd rank Bw aids shooting: same bow, same command, full front-to-rear contact, same grade (or X front, S/O rear double based), neither in difficult going.",
    ),
    "shoot.choice": (
        "Distant shooting, p.21",
        "Equal-priority targets: the shooter's owner chooses; the bound's player orders shooting; mutual targets are the main shooters.",
    ),
    "cc.support-hit": (
        "Close combat",
        "Flank/rear contact on a double-based or supporting element counts as on the front element.",
    ),
    "cc.overlap": (
        "Close combat",
        "Side contact with only a double base's rear element or only a supporting element is no overlap.",
    ),
    "cc.fort-corner": (
        "Close combat",
        "Assaults on fortification corners: unconformable attackers fight the undefended section; corner pairing rules.",
    ),
    "factor.bw-cm": (
        "Resolving combat, p.22",
        "Bowmen +4 v mounted, +3 v naval, +3 shooting at or shot at by bowmen, +2 v other foot; Camelry +4 v mounted, +3 v naval, +2 v foot.",
    ),
    "rs.general": (
        "Rear support, p.22",
        "Rear support: same command, lined up, same facing, contiguous; not with chariots, difficult going, fortifications, shot at (unless Cv or Kn(I)), touching Exp front, or just into CC v Art(S); Sp(O) cannot support Sp(S).",
    ),
    "rs.deleted": ("Rear support, p.22", "Base rear-support bullets 2, 6, 8, 13 and 14 are deleted."),
    "rs.spears": (
        "Rear support, p.22",
        "+1 for a 2nd rank of spears of the same grade in good going, not v elephants.",
    ),
    "rs.pikes": (
        "Rear support, p.22",
        "Pikes except (X) +1 per 2nd/3rd rank of same grade in good going, not v El; foot v such pikes -1 for a 4th rank.",
    ),
    "rs.pikes-x": (
        "Rear support, p.22",
        "Pk(X) +1 per 2nd/3rd rank of Pk(X) or (I) in good going, not v El.",
    ),
    "rs.psiloi": (
        "Rear support, p.22",
        "Ps(S)/(O) fighting skirmishers +1 for a rank of psiloi of the same or (O) grade.",
    ),
    "tf.demoralised": (
        "Tactical factors, p.22",
        "-2 for an element of a demoralised command other than its general.",
    ),
    "tf.rough": (
        "Tactical factors, p.22",
        "-1 Wb(S/O) and -2 Bd in frontal CC v foot in rough/difficult; -2 Sp, Pk, Hd(O/I), train in CC in rough/difficult or crossing a non-paltry river except by ford/bridge.",
    ),
    "grade.vs-f": (
        "Grading factors, p.23",
        "+1 if not artillery and scored at least 2 more than (F) opponents.",
    ),
    "mrs": (
        "Mitigating rear support, p.23",
        "After grading, the winner's score -1 for each of three rear-support cases (Cv 2nd rank; Ps behind Cv; Ps behind Sp/Pk/Bd/Ax).",
    ),
    "out.kn": (
        "Combat outcome, p.23",
        "Knights beaten: destroyed by El, Exp, LH, Bw(S) contacted this bound, or any enemy in difficult going; else recoil.",
    ),
    "out.sp": (
        "Combat outcome, p.23",
        "Spears beaten: destroyed by El, Kn, Cm(S), Exp in good going, or Wb; v El recoil if a same-grade 2nd rank; else recoil.",
    ),
    "out.pk": (
        "Combat outcome, p.23",
        "Pikes beaten: destroyed by El, Kn, Cm(S), Exp in good going, or Wb; v El recoil with a same-grade 2nd rank (X or I behind X); else recoil.",
    ),
    "out.bd": (
        "Combat outcome, p.23",
        "Blades beaten: destroyed by Kn, Cm(S), Exp in good going, or Wb; Bd(S/O) v Kn/Cm(S) recoil with a Bd(S/O) 2nd rank; else recoil.",
    ),
    "out.wb-support": (
        "Combat outcome, p.23",
        "Wb(S/O) v Kn, Cm(S), El to the front recoil instead if supported by 2nd, 3rd and 4th ranks of Wb(S/O).",
    ),
    "out.hd": (
        "Combat outcome, p.23",
        "Hordes beaten: destroyed by Kn, Cm(S), Exp in good going, or El or Wb, or if (I) in CC; else recoil unless (I).",
    ),
    "destroy.behind": (
        "Destroyed elements, p.24",
        "Friends directly behind within less than min(depth, BW) of the destroyed element's rear, and supporting Ps, are destroyed, unless WWg, baggage, naval, or front Art or Hd(I).",
    ),
    "destroy.flank-shift": (
        "Destroyed elements, p.24",
        "A flank attacker still front-to-side with enemy after removals shifts to conform front corner to front corner with the front-most.",
    ),
    "recoil.friends": (
        "Recoiling elements",
        "A recoiler meeting friends facing the same way passes through if allowed (Ps must), else pushes back (naval pushes naval; land pushes any but El, WWg, baggage, naval).",
    ),
    "recoil.pushback": (
        "Recoiling elements",
        "A pushed-back element blocked by enemy, friends, terrain or fortification destroys the recoiler; blocking enemy may be destroyed or flee; pushed off table is lost.",
    ),
    "flee.skirm-press": (
        "Fleeing elements",
        "Skirmishers fleeing from a press forward flee perpendicularly away from the enemy front.",
    ),
    "pursue.ranks": (
        "Pursuing elements",
        "Contiguous 2nd-4th ranks behind pursuers also pursue if same type or able to rear-support them.",
    ),
    "press.forward": (
        "Pressing forward",
        "An undemoralised foot group whose frontal opponents all fled may press forward straight ahead up to its slowest tactical move.",
    ),
    "storm.pursue": (
        "Storming fortifications",
        "An assaulting winner pursues 1 base depth from the inner edge of the fortification.",
    ),
    "loss.ee": (
        "Losses",
        "Element equivalents: WWg(I) 3; Ps, Hd except (I), Bts(F), Irr Ax(I) half; Exp, Hd(I) 0; all others 1.",
    ),
    "loss.baggage": (
        "Losses",
        "Baggage is not in original EE; losses add to army losses for defeat and tie break only: 2 if destroyed in CC, 1 if lost otherwise, 0 if demoralised.",
    ),
    "demor.flee": (
        "Demoralised commands",
        "Other mobile elements of a demoralised command flee in spontaneous retreat unless in a fort circuit, a tower, or front contact with enemy.",
    ),
    "victory.quarter": (
        "Victory and defeat",
        "No demoralised commands at the end: 1 VP moves from the side with more commands at a quarter EE lost to the side with fewer.",
    ),
    "glossary": (
        "Glossary",
        "Edge contact excludes corner-only; rear support only counts v types it affects; straight ahead/back perpendicular; within = at or closer.",
    ),
    "fig.5": (
        "Figure 5",
        "Flank and rear contacts by starting position (B none; C, D left flank; E rear or right flank; F right flank).",
    ),
    "fig.7": ("Figure 7", "K does not overlap L, and must have moved there before L contacted J."),
    "fig.10b": (
        "Figure 10b",
        "Bowmen range 200 p; the arc of fire; must shoot the target most directly to the front.",
    ),
    "fig.11": (
        "Figure 11a/b",
        "The worked combat: C 9 v I 8; B 10 v E 4, E destroyed; F less than E's depth behind is destroyed.",
    ),
    "fig.12": (
        "Figure 12",
        "A recoil-destroyed A takes B (less than A's depth behind) with it; Y shifts to C's front corner.",
    ),
    "fig.16": (
        "Figure 16a/b",
        "Foot marching near skirmishers: stop at four within 200 p; to 50 p when fewer than the front rank.",
    ),
    "river.wading": (
        "Wading rivers, p.39",
        "Land elements recoiling, pushed back, fleeing or pursuing in or into a river ignore the flow.",
    ),
    "lists.baggage": (
        "All army list books; Allies",
        "Armies have 6 baggage elements if 400 AP or less, otherwise 8; allied contingents have none.",
    ),
    "lists.cv-s-double": (
        "Lists",
        "Cv(S) required to be double-based with Cv(O) as the front rank are downgraded to, and paid for as, Cv(O).",
    ),
}


def rule(clause: str) -> str:
    """The full clause id ``dbm-3.2:<clause>`` (KeyError for an unknown clause)."""
    if clause not in CLAUSES:
        raise KeyError(f"unknown {RS} clause {clause!r}")
    return f"{RS}:{clause}"


#: how scripts/clause_table.py writes docs/rules/dbm-3.2.md (the shared clause-table library)
CLAUSE_TABLE: dict[str, object] = {
    "cites": "simple",
    "data_files": False,
    "notes": {
        "troops.cv-s": "classification only: the army list gives the grade (inventory item 2, D)",
        "troops.cv-o": "classification only: the army list gives the grade (inventory item 2, D)",
    },
    "missing": "**not yet**",
    "status": "rules",
    "header": (
        "# dbm-3.2: clause table",
        "",
        "Every clause of `shared/rules/dbm-3.2-amendments.txt` (DBM 3.1 of 2005 amended as 3.2, 2011),",
        "its id (events and errors cite `{rs}:<id>`), where it is implemented and which tests name it.",
        "Generated by `python scripts/clause_table.py dbm-3.2`; `tests/dbm/test_dbm_clause_table.py`",
        "fails if it is stale. Rulings: [docs/rulings/dbm-3.2.md](../rulings/dbm-3.2.md). The base values",
        "the amendments do not give are user data ([docs/dbm-data.md](../dbm-data.md)); the package's",
        "sample set is **illustrative data: not the published DBM tables**: tests that need a base",
        "value pass with it.",
    ),
}
