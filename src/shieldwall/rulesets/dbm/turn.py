"""One bound: PIP dice per command, demoralised commands' flight, the mover's PIP-paid moves, then
distant shooting and close combat, with losses booked to commands in element equivalents.

Clauses: dbm-3.2:pip.march-extra (costs and surcharge), dbm-3.2:march.rules (a marched element makes
no tactical move and shoots not), dbm-3.2:demor.flee, dbm-3.2:shoot.who, dbm-3.2:shoot.choice (the
bound's player orders shooting: by id here, ruling R33), dbm-3.2:fig.11 (close combat),
dbm-3.2:loss.ee, dbm-3.2:loss.baggage, dbm-3.2:terrain.mixed-going, dbm-3.2:cc.support-hit,
dbm-3.2:shoot.aid (a 2nd rank of bowmen aids the front rank's shooting instead of shooting: R37).
An element fighting nobody to its front fights the enemy on its flank or rear, (O) for Kn(X)
(ruling R16); a flank or rear contact gives the user's flank/rear tactical factors.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shieldwall.core.dice import D6
from shieldwall.core.reference import REFERENCE
from shieldwall.rulesets.dbm.advance import apply_plan
from shieldwall.rulesets.dbm.aftermath import Aftermath, after_combat, press_forward, press_groups
from shieldwall.rulesets.dbm.clauses import rule
from shieldwall.rulesets.dbm.combat import score_pair
from shieldwall.rulesets.dbm.command import must_flee_demoralised, pip_cost
from shieldwall.rulesets.dbm.dismount import dismount
from shieldwall.rulesets.dbm.elements import Element
from shieldwall.rulesets.dbm.flank import arrivals
from shieldwall.rulesets.dbm.fortassault import (
    corner_defence,
    fight_section,
    flanker_recoils,
    plan_fort_fights,
)
from shieldwall.rulesets.dbm.fortgeom import defended_fort
from shieldwall.rulesets.dbm.geom import TOL, ahead, distance, edge_overlap
from shieldwall.rulesets.dbm.melee import close_combat, fighter, front_engaged, ranks_behind
from shieldwall.rulesets.dbm.menu import Option, all_options, going_at, group_of, movers, one_option
from shieldwall.rulesets.dbm.orders import Order
from shieldwall.rulesets.dbm.outmoves import destroy, flee, recoil
from shieldwall.rulesets.dbm.shooting import aids, targets

if TYPE_CHECKING:
    from shieldwall.rulesets.dbm.state import DbmState

Event = dict[str, Any]


class Bound:
    # (``side`` has a default: a copy or an unpickling calls the compiled class with no argument)
    def __init__(self, side: str = "") -> None:
        self.side = side
        self.pips: dict[str, int] = {}
        self.moved: set[str] = set()
        self.marched: set[str] = set()
        self.march_count: dict[str, int] = {}
        self.shifted: set[str] = set()  # moved with a line-up shift: not entirely straight ahead
        self.after = Aftermath()
        self.press: dict[str, list[str]] = {}
        self._cache: tuple[int, dict[str, Option]] | None = None
        self._one: tuple[int, dict[str, Option | None]] | None = None
        self._groups: tuple[int, dict[str, list[str]]] | None = None
        #: ``menu._listing``'s commands and their elements' commands, until the next event
        self._listing: tuple[int, dict[str, None], dict[str, list[str]]] | None = None

    def copy(self) -> Bound:
        """A copy for a copy of the state (``DbmState.copy``): its own sets, dicts and lists, and
        its own memos of the menu (kept: they hold for the copy, at the same event count, until
        either state's next event), sharing the options in them, which nothing changes once made
        (a plan is finished by ``advance.plan_advance`` before it is kept). Before, the state
        deep-copied the bound: every kept plan, footprint by footprint."""
        new = Bound(self.side)  # (compiled, a class's __new__ runs its __init__)
        new.pips = dict(self.pips)
        new.moved, new.marched, new.shifted = set(self.moved), set(self.marched), set(self.shifted)
        new.march_count = dict(self.march_count)
        a = self.after
        new.after = Aftermath(
            set(a.pursued),
            {k: list(v) for k, v in a.fled_from.items()},
            {k: list(v) for k, v in a.fought.items()},
        )
        new.press = {k: list(v) for k, v in self.press.items()}
        new._cache = None if self._cache is None else (self._cache[0], dict(self._cache[1]))
        new._one = None if self._one is None else (self._one[0], dict(self._one[1]))
        new._groups = (
            None
            if self._groups is None
            else (self._groups[0], {k: list(v) for k, v in self._groups[1].items()})
        )
        new._listing = (
            None
            if self._listing is None
            else (
                self._listing[0],
                dict(self._listing[1]),
                {k: list(v) for k, v in self._listing[2].items()},
            )
        )
        return new

    # --- start ------------------------------------------------------------------------------------
    def begin(self, st: DbmState) -> list[Event]:
        ev: list[Event] = []
        own = sorted(k for k, c in st.commands.items() if c.side == self.side)
        faces = D6.roll_n(st.rng, len(own))
        self.pips = dict(zip(own, faces, strict=True))
        ev.append({"kind": "pip-dice", "faces": faces, "commands": own, "rule": rule("pip.march-extra")})
        ev += arrivals(st, self.side, self.pips)
        for k in own:
            if not st.commands[k].demoralised:
                continue
            for eid in sorted(st.commands[k].elements):
                e = st.board.el.get(eid)
                if e is None or (e.general and e.command == k):
                    continue
                if must_flee_demoralised(e.mobile, False, False, front_engaged(st.board, e) is not None):
                    got = flee(st.board, eid)
                    ev += [{**g, "rule": rule("demor.flee")} if g["kind"] == "flee" else g for g in got]
                    self._book(st, got)
        return ev

    # --- the menu ---------------------------------------------------------------------------------
    def options(self, st: DbmState) -> dict[str, Option]:
        """What each order would do (the plans), by its text (kept until the next event)."""
        if REFERENCE.on:
            return all_options(self, st)
        if self._cache is not None and self._cache[0] == len(st.events):
            return self._cache[1]
        out = all_options(self, st)
        self._cache = (len(st.events), out)
        return out

    def option(self, st: DbmState, text: str) -> Option | None:
        """What the order ``text`` would do (None: not on the menu), computing that order only (kept
        until the next event)."""
        if REFERENCE.on:  # the reference: the whole menu worked out, this order looked up in it
            return all_options(self, st).get(text)
        if self._cache is not None and self._cache[0] == len(st.events):
            return self._cache[1].get(text)
        if self._one is None or self._one[0] != len(st.events):
            self._one = (len(st.events), {})
        if text not in self._one[1]:
            self._one[1][text] = one_option(self, st, text)
        return self._one[1][text]

    def menu(self, st: DbmState) -> list[Order]:
        return [Order(*k.split(" ", 1)) for k in self.options(st)]

    # --- doing ------------------------------------------------------------------------------------
    def do(self, st: DbmState, o: Order) -> list[Event]:
        got = self.option(st, str(o))
        assert got is not None  # the state checked the order is on the menu
        what, cmd, plan = got
        ev: list[Event] = []
        if what == "march":
            ids = group_of(self, st, cmd)
            n = self.march_count.get(cmd, 0) + 1
            cost = pip_cost(st.tables, "march_move", movers(st, ids), n)
            self.march_count[cmd] = n
            for i in ids:
                st.board.move(i, ahead(st.board.el[i].fp, plan))
            self.marched |= set(ids)
            ev.append(
                {
                    "kind": "march",
                    "command": cmd,
                    "ids": ids,
                    "paces": round(plan, 3),
                    "pips": cost,
                    "march_no": n,
                    "rule": rule("march.rules"),
                }
            )
        elif what == "dismount":
            cost = pip_cost(st.tables, "dismount", [])
            ev += dismount(st, plan)
            self.moved.add(plan)
            ev.append(
                {
                    "kind": "pips-spent",
                    "command": cmd,
                    "pips": cost,
                    "order": str(o),
                    "rule": rule("pip.march-extra"),
                }
            )
        else:
            action = "group_move" if what == "advance" else "tactical_move"
            cost = pip_cost(st.tables, action, movers(st, plan.ids))
            ev += apply_plan(st.board, plan)
            self.moved |= set(plan.ids)
            if plan.shift:
                self.shifted |= set(plan.ids)
            ev.append(
                {
                    "kind": "pips-spent",
                    "command": cmd,
                    "pips": cost,
                    "order": str(o),
                    "rule": rule("pip.march-extra"),
                }
            )
            self._book(st, ev)
        self.pips[cmd] -= cost
        return ev

    # --- shooting and close combat ----------------------------------------------------------------
    def _book(self, st: DbmState, ev: list[Event]) -> None:
        for e in ev:
            if e.get("kind") in ("destroyed", "lost") and e.get("id") and not e.get("booked"):
                st.lose(str(e["id"]), bool(e.get("cc", False)))
                e["booked"] = True

    def _edge_hits(self, st: DbmState, e: Element) -> tuple[list[str], list[str]]:
        """Enemy whose front edges touch e's flank edges, and its rear edge."""
        flank, rear = [], []
        for o in st.board.near(e.fp.corners(), 0.0, exclude=(e.id,)):  # touching, enemy only
            if o.side == e.side or distance(e.fp, o.fp) > TOL:
                continue
            if any(edge_overlap(o.fp, "front", e.fp, s) > 0 for s in ("left", "right")):
                flank.append(o.id)
            if edge_overlap(o.fp, "front", e.fp, "rear") > 0:
                rear.append(o.id)
        return flank, rear

    def _extra(self, st: DbmState, e: Element) -> dict[str, Any]:
        going, river = going_at(st, e)
        cmd = st.commands.get(e.command)
        flank, rear = self._edge_hits(st, e)
        # dbm-3.2:cc.support-hit: a flank or rear contact on a rear-supporting element counts on the
        # front element it supports
        for r in ranks_behind(st.board, e):
            f2, r2 = self._edge_hits(st, r)
            flank += f2 + r2
        return {
            "defending_fort": defended_fort(st.forts, e) is not None,
            "going": going,
            "crossing_river": river,
            "demoralised_command": bool(cmd and cmd.demoralised),
            "flank_contact": bool(flank),
            "rear_contact": bool(rear),
        }

    def _aid(self, st: DbmState, s: Element) -> Element | None:
        """dbm-3.2:shoot.aid: the 2nd rank of bowmen aiding ``s``'s shooting, if any."""
        if s.code != "Bw":
            return None
        behind = ranks_behind(st.board, s, 1)
        if not behind or behind[0].id in self.marched:
            return None
        difficult = [x.id for x in (s, behind[0]) if going_at(st, x)[0] == "difficult"]
        return behind[0] if aids(st.board, s, behind[0], difficult) else None

    def finish(self, st: DbmState) -> list[Event]:
        ev: list[Event] = corner_defence(st, self.moved) if st.forts else []
        own = sorted(i for i, e in st.board.el.items() if e.side == self.side)
        aid_of = {i: a for i in own if (a := self._aid(st, st.board.el[i])) is not None}
        aiding = {a.id for a in aid_of.values()}  # a rank that aids does not shoot too (ruling R37)
        for sid in own:
            s = st.board.el.get(sid)
            if s is None or sid in aiding:
                continue
            ts = targets(st.board, s, marched_or_fled=self.marched)
            if not ts:
                continue
            t = ts[0]
            aider = aid_of.get(sid)
            fa = fighter(st.board, s, aided=aider is not None, **self._extra(st, s))
            fb = fighter(st.board, t, **self._extra(st, t))
            da, db = D6.roll(st.rng), D6.roll(st.rng)
            r = score_pair(st.tables, fa, fb, "shooting", da, db)
            res = r["result"]
            ev.append(
                {
                    "kind": "shooting",
                    "a": sid,
                    "b": t.id,
                    "dice": [da, db],
                    "totals": {sid: r["a"].total, t.id: r["b"].total},
                    "result": res,
                    "rule": rule("shoot.who"),
                    **({"aided_by": aider.id, "aid_rule": rule("shoot.aid")} if aider is not None else {}),
                }
            )
            if res is not None and res["loser"] == "b":  # only the target suffers (ruling R33)
                sub = self._outcome(st, t.id, res["result"], cc=False)
                self._book(st, sub)
                ev += sub
        pairs = []
        seen: set[str] = set()
        for aid in sorted(st.board.el):
            a = st.board.el[aid]
            b = front_engaged(st.board, a)
            if b is not None and aid not in seen and b.id not in seen:
                first, second = (a, b) if a.side == self.side else (b, a)
                pairs.append((first.id, second.id))
                seen |= {aid, b.id}
        # elements not in frontal combat fight the enemy on their flank or rear (not to their front)
        flankers: list[tuple[str, str]] = []
        for bid in sorted(st.board.el):
            b = st.board.el[bid]
            if bid in seen:
                continue
            flank, rear = self._edge_hits(st, b)
            attackers = sorted(x for x in flank + rear if x not in seen)
            if attackers:
                flankers.append((attackers[0], bid))
                seen |= {attackers[0], bid}
        plan = plan_fort_fights(st, pairs, seen)
        for aid, bid in pairs + flankers:
            if aid not in st.board.el or bid not in st.board.el:
                continue
            da, db = D6.roll(st.rng), D6.roll(st.rng)
            extra = {aid: self._extra(st, st.board.el[aid]), bid: self._extra(st, st.board.el[bid])}
            if (aid, bid) in flankers:
                extra[bid]["frontal"] = False
            extra[aid]["moved_into_contact_this_bound"] = aid in self.moved
            # dbm-3.2:cc.fort-corner: a defender assaulted from the other side of a corner too
            corner_d = next((x for x in (aid, bid) if x in plan.flanked), None)
            if corner_d is not None:
                extra[corner_d]["flank_contact"] = True
            forts = {x: defended_fort(st.forts, st.board.el[x]) for x in (aid, bid)}
            spared = frozenset((corner_d,)) if corner_d is not None else frozenset()
            sub = close_combat(st.board, aid, bid, da, db, extra, spared)
            if any(forts.values()):
                sub[0]["defending_fort"] = sorted(x for x, f in forts.items() if f)
            if corner_d is not None:
                sub[0]["corner_flanker"] = plan.flanked[corner_d]
            sub += after_combat(st.board, sub[0], (aid, bid) not in flankers, self.after, forts)
            res = sub[0].get("result")
            if corner_d is not None and res is not None:
                lost = aid if res["loser"] == "a" else bid
                flanker = plan.flanked[corner_d]
                if lost != corner_d and flanker in st.board.el:
                    sub += flanker_recoils(st, flanker)
            self._book(st, sub)
            ev += sub
        for main, i, fl in plan.sections:
            if main in st.board.el:
                sub = fight_section(st, main, i, fl, self.after)
                self._book(st, sub)
                ev += sub
        self.press = press_groups(st, self.side, self.after, self.shifted)
        return ev

    # --- pressing forward (dbm-3.2:press.forward), after all combats of the bound -----------------
    def press_menu(self) -> list[Order]:
        return [Order("press", k) for k in sorted(self.press)]

    def do_press(self, st: DbmState, o: Order) -> list[Event]:
        ids = self.press.pop(str(o.arg))
        ev = press_forward(st.board, ids)
        self._book(st, ev)
        done = set(ids)
        self.press = {
            k: v
            for k, v in press_groups(st, self.side, self.after, self.shifted).items()
            if k in self.press and not done & set(v)
        }
        return ev

    def _outcome(self, st: DbmState, eid: str, result: str, cc: bool) -> list[Event]:
        if result == "destroyed":
            return destroy(st.board, eid, why="shot", cc=cc)
        if result == "recoil":
            return recoil(st.board, eid)
        if result == "flee":
            return flee(st.board, eid)
        return []
