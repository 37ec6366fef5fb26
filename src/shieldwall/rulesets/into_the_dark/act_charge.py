"""Charges and the reactions to them (movement.charging, movement.counter-charges,
movement.impetuous-charges, movement.opportunity-charges, movement.evading, combat.opportunity-fire).

A charge is declared (the charger's path is planned and checked), the target reacts (stand,
counter-charge, evade, or fire at the charger), the tests that happen "out of sequence ... even before
movement" are taken (a missile unit resisting the urge to evade, the target of an impetuous charge,
the charger shot at), and then the units move: the charger into contact, or after an evader.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import orders as O
from .charge_plan import heading_towards, plan_charge
from .charging import charge_limit, check_charge, steps_data, steps_from
from .generals import reaction_allowed
from .model import Unit
from .morale import MoraleOutcome
from .morale_rolls import (
    control_test,
    impetuous_ok,
    missile_mods,
    morale_test,
    outcome_tasks,
    warband_test,
)
from .movement import Problem
from .moves import act_problem, bad, fell_back, zoc_length
from .shooting import aim, fire_problem, shoot_now
from .spatial import meets, zone

if TYPE_CHECKING:
    from .state import IntoTheDarkState

__all__ = [
    "declare",
    "reaction_options",
    "charge_react",
    "react",
    "charge_tests",
    "check_charge",  # from charging, for reach
]


def declare(st: IntoTheDarkState, order: O.Charge, opportunity: bool) -> None:
    """A charge order (movement.charging; movement.opportunity-charges when out of sequence)."""
    p = st.pending
    assert p is not None
    c = st.unit(order.unit)
    if opportunity:
        if order.unit != p["unit"] or order.target != p["data"]["mover"]:
            raise bad(
                "movement.opportunity-charges", f"only {p['unit']} may charge now, at {p['data']['mover']}"
            )
    else:
        if c.side != p["side"] or (p["kind"] == "unit" and p["unit"] != c.id):
            raise bad("turn-sequence.movement", f"{c.id} may not act now")
        prob = act_problem(st, c)
        if prob:
            raise bad("movement.charging", f"{c.id}: {prob}")
    t = st.unit(order.target)
    plan = check_charge(st, c, t, order.steps, order.impetuous, opportunity)
    limit = charge_limit(st, c, opportunity)
    impetuous = order.impetuous and warband_test(st, c)
    st.log(
        "charge",
        "movement.opportunity-charges" if opportunity else "movement.charging",
        side=c.side,
        unit=c.id,
        target=t.id,
        edge=plan.edge,
        steps=steps_data(order.steps),
        distance=round(plan.lead.travel + plan.run, 3),
        cost=round(plan.cost, 3),
        allowance=round(limit, 3),
        impetuous=impetuous,
    )
    if not opportunity:
        c.acted = True
        st.active = None
    c.charged = True
    st.charge = {
        "c": c.id,
        "t": t.id,
        "steps": steps_data(order.steps),
        "impetuous": impetuous,
        "zoc": not opportunity,
        "opportunity": opportunity,
        "limit": limit,
        "edge": plan.edge,
        "run": plan.run,
        "reaction": None,
        "fled": None,
        "stopped": False,
        "start": (c.x, c.y, c.heading),
        "t_start": [list(x) for x in t.fp.corners()],
    }
    tasks: list[tuple[Any, ...]] = [("charge-react",), ("charge-tests",), ("charge-move",)]
    if not opportunity:
        tasks.append(("move-phase", c.side))
    st.push(*tasks)


# --- reactions -----------------------------------------------------------------------------------


def reaction_options(st: IntoTheDarkState) -> list[O.Order]:
    # into-the-dark:special-troops.skirmishers.must-evade
    ch = st.charge
    assert ch is not None
    c, t = st.units[ch["c"]], st.units[ch["t"]]
    # into-the-dark:combat.fire-targets.split-among-chargers: a unit already charged is in melee (and
    # has fired at its first charger): no reaction, no fire left to split (docs/rulings 65)
    if not t.on_table or t.routed or st.in_melee(t) or not c.on_table:
        return []
    if t.spec.has("skirmisher"):
        return [O.Evade(t.id)]  # "They must always choose to evade if charged." (special-troops.skirmishers)
    out: list[O.Order] = [O.Stand(t.id)]
    rallying = t.rallying
    # "A unit may not counter charge if opportunity charged while Falling Back" (maneuvers.falling-back)
    no_cc = ch["opportunity"] and fell_back(st, t)
    if t.has_melee and ch["edge"] == "front" and not rallying and not t.faced and not t.evading and not no_cc:
        out.append(O.CounterCharge(t.id))
        if impetuous_ok(t) and ch["run"] >= st.d(4) - 1e-6 and not ch.get("difficult_run"):
            out.append(O.CounterCharge(t.id, True))
    if t.spec.density == "O" or t.has_missiles:
        out.append(O.Evade(t.id))
    # into-the-dark:combat.fire-targets.chargers-first: the charged unit's fire goes at its charger
    if t.has_missiles and not rallying and fire_problem(st, t) is None and aim(st, t, c) is not None:
        z = zone(t, zoc_length(st, t, "missile"))
        try:
            plan = plan_charge(c, t, steps_from(ch["steps"]), st.world())
            path = [*plan.lead.samples, *plan.run_trace.samples]
        except Problem:
            path = [c.fp]
        if any(meets(z, f.corners()) for f in path):
            out.append(O.Fire(t.id, c.id))
    kinds = {O.Stand: "stand", O.Evade: "evade", O.Fire: "fire", O.CounterCharge: "countercharge"}
    obeyed = [o for o in out if reaction_allowed(st, t, c, kinds[type(o)])]
    return obeyed or out


def charge_react(st: IntoTheDarkState) -> None:
    """Task: the charged unit's reaction (a decision if it has a choice)."""
    ch = st.charge
    assert ch is not None
    opts = reaction_options(st)
    t = st.units[ch["t"]]
    if len(opts) <= 1:
        ch["reaction"] = "none" if not opts else ("evade" if isinstance(opts[0], O.Evade) else "stand")
        if opts and isinstance(opts[0], O.Evade):
            st.log(
                "reaction",
                "special-troops.skirmishers",
                side=t.side,
                unit=t.id,
                charger=ch["c"],
                reaction="evade",
                reason="skirmishers must always evade if charged",
            )
        return
    st.ask("react", t.side, t.id, charger=ch["c"], impetuous=ch["impetuous"], edge=ch["edge"])


def react(st: IntoTheDarkState, order: O.Order) -> None:
    ch = st.charge
    assert ch is not None and st.pending is not None
    if order not in reaction_options(st):
        raise bad("movement.charging", f"'{order}' is not a reaction open to {ch['t']} now")
    kind = {
        O.Stand: "stand",
        O.Evade: "evade",
        O.Fire: "fire",
    }.get(type(order))
    t = st.units[ch["t"]]
    if isinstance(order, O.CounterCharge):
        imp = order.impetuous and warband_test(st, t)
        kind = "countercharge-impetuous" if imp else "countercharge"
    ch["reaction"] = kind
    st.log("reaction", _reaction_clause(kind or ""), side=t.side, unit=t.id, charger=ch["c"], reaction=kind)


def _reaction_clause(kind: str) -> str:
    if kind.startswith("countercharge"):
        return "movement.counter-charges"
    if kind == "evade":
        return "movement.evading"
    if kind == "fire":
        return "combat.opportunity-fire"
    return "movement.charging"


def charge_tests(st: IntoTheDarkState) -> None:
    """Task: the tests taken before contact, in the order of "Morale Tests": a missile unit resisting
    evading (a control test), the target of an impetuous charge, the charger shot at."""
    ch = st.charge
    assert ch is not None
    c, t = st.units[ch["c"]], st.units[ch["t"]]
    r = ch["reaction"]
    tasks: list[tuple[Any, ...]] = []
    # "missile troops, that are not cross-trained, trying to resist evading when charged" (control test)
    if t.on_table and t.missile_only and r in ("stand", "fire") and not t.routed:
        ok = control_test(st, t, "missile troops resisting the urge to evade", "movement.evading")
        if not ok:
            r = ch["reaction"] = "evade"
            if not t.disordered:
                t.disordered = True
                t.shieldwall = False
            st.log("forced-evade", "movement.evading", side=t.side, unit=t.id, disordered=True)
    # into-the-dark:morale.test-triggers.impetuous-charge: "receiving an impetuous charge unless
    # counter-charging impetuously themselves"
    if ch["impetuous"] and t.on_table and not t.routed and r not in ("evade", "countercharge-impetuous"):
        out = morale_test(st, t, f"receiving an impetuous charge from {c.id}", "movement.impetuous-charges")
        if out in (MoraleOutcome.DRIVEN_BACK, MoraleOutcome.ROUTED):
            ch["fled"] = "driven" if out == MoraleOutcome.DRIVEN_BACK else "routed"
        tasks += outcome_tasks(st, t, out, (c.id,), False)
        if out == MoraleOutcome.DRIVEN_BACK:
            # away from the charger, still facing it
            tasks[-1] = ("driven-back", t.id, *_away(c, t), (c.id,), (), ())
    # into-the-dark:combat.opportunity-fire.at-chargers: fire at the chargers, who "then must take a
    # morale test (before contact)"
    if r == "fire" and t.on_table and not t.routed and ch["fled"] is None and c.on_table:
        st.log(
            "opportunity-fire", "combat.opportunity-fire", side=t.side, unit=t.id, target=c.id, at="charger"
        )
        shoot_now(st, t, c, "combat.opportunity-fire", test_later=False)
        if c.on_table:
            rec = {"figures": 0, "long_only": True, "firers": [t.id], "cover": False}
            for e in st.events[::-1]:
                if e.kind == "fire" and e.data.get("unit") == t.id:
                    rec["figures"] += e.data.get("close", 0) + e.data.get("long", 0)
                    rec["long_only"] = rec["long_only"] and not e.data.get("close", 0)
                    break
            # into-the-dark:morale.test-triggers.missile-fire (during a charge, at once)
            out = morale_test(
                st,
                c,
                f"received missile fire while charging {t.id}",
                "morale.test-triggers",
                missile_mods(st, c, rec),
            )
            if out in (MoraleOutcome.DRIVEN_BACK, MoraleOutcome.ROUTED):
                ch["stopped"] = True
            tasks += outcome_tasks(st, c, out, (t.id,), False)
        else:
            ch["stopped"] = True
    st.push(*tasks)


def _away(c: Unit, t: Unit) -> tuple[float, float]:
    from shieldwall.core.geometry import heading_vector

    return heading_vector(heading_towards(c.fp.centre, t.fp.centre))
