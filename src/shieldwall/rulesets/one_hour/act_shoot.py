"""Shooting in one-hour-dark-ages ("Shooting", "Moving Shots", "Missile Supply").

Whether a unit may shoot now (``shot_problem``) is in ``attacks``, below: the menus and the end
of a move ask it too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from shieldwall.rulesets.one_hour import orders as O
from shieldwall.rulesets.one_hour import spatial as S
from shieldwall.rulesets.one_hour import terrain_checks as TC
from shieldwall.rulesets.one_hour.act_common import _active, _enemy, _own, bad, bad_from, terrain_clause
from shieldwall.rulesets.one_hour.attacks import shot_problem
from shieldwall.rulesets.one_hour.clauses import rule
from shieldwall.rulesets.one_hour.combat import AttackSituation
from shieldwall.rulesets.one_hour.model import Unit

if TYPE_CHECKING:
    from shieldwall.rulesets.one_hour.state import OneHourState

# --- Shooting ---------------------------------------------------------------------------------


def shoot_order(st: OneHourState, order: O.Shoot) -> None:
    """A shot of the Shooting phase by a unit of the side playing."""
    u = _own(st, order.unit)
    shoot(st, u, _enemy(st, order.target), moving=False)


def moving_shot(st: OneHourState, order: O.MovingShot) -> None:
    """ "Moving Shots": the unit being moved, with javelins, shoots once before or after its move."""
    u = _active(st, order.unit)
    if u.profile.missile != "javelin":
        raise bad("moving-shots", "only Units with javelins may perform a Moving Shot")
    if u.moving_shot:
        raise bad("moving-shots", f"{u.id} has already made its Moving Shot")
    shoot(st, u, _enemy(st, order.target), moving=True)
    if st.step == "after-shot":
        st.finish_activation()


def skip(st: OneHourState, order: O.Skip) -> None:
    """No Moving Shot after the move: the activation ends."""
    _active(st, order.unit)
    st.finish_activation()


def shoot(st: OneHourState, u: Unit, t: Unit, moving: bool) -> None:
    prob = shot_problem(st, u, t, moving)
    if prob:
        raise bad_from(prob)
    rng = float(st.params["bow_range"] if u.profile.missile == "bow" else st.params["javelin_range"])
    if moving:
        u.set_moving_shot(True)
    else:
        u.set_shot(True)
    if not st.close_call(S.distance_between(u, t), rng, u.side, "shooting.range", f"range {u.id}->{t.id}"):
        st.log("shot-out-of-range", "grey-areas", unit=u.id, target=t.id)
        return
    facing = t.fp.facing_of(u.fp.front_centre)
    mod, cites = st.attack_modifier(u, "shoot")
    sit = AttackSituation(
        "shoot",
        st.die,
        mod,
        S.facing_class(facing),  # type: ignore[arg-type]
        TC.defending_feature(t, u, st.terrain, "shoot") is not None,
        t.profile.shieldwall,
        (),
        tuple(cites),
    )
    face_, hits = sit.roll(st.rng)
    data = sit.breakdown(face_)
    # the clauses this shot was checked against (see shot_problem)
    checked = [
        rule(c)
        for c in (
            "shooting",
            "shooting.arc",
            "line-of-sight.required",
            "shooting.los-facing",
            "shooting.range",
        )
    ]
    checked.append(rule("missile-supply" if st.params["missile_supply"] else "shooting.three-shots"))
    if not moving:
        checked.append(
            rule("shooting.bows-moved" if u.profile.missile == "bow" else "shooting.javelins-moving-shot")
        )
    if st.in_melee(t):
        checked.append(rule("shooting.into-melee"))
    terrain = TC.defending_feature(t, u, st.terrain, "shoot")
    if terrain:
        checked.append(rule(terrain_clause(terrain)))
    terrain = TC.defending_feature(t, u, st.terrain, "shoot")
    t.set_hits(t.hits + hits)
    if t.hits >= 5:
        t.set_reached_five(True)
    if st.params["missile_supply"]:
        if face_ == 5:
            u.set_out_of_missiles(True)
    else:
        u.set_shots_used(u.shots_used + 1)
    st.log(
        "shot",
        "moving-shots" if moving else "shooting.dice",
        unit=u.id,
        target=t.id,
        weapon=u.profile.missile,
        terrain=terrain,
        target_hits=t.hits,
        in_melee=st.in_melee(t),
        checked=checked,
        **data,
    )
    if st.params["missile_supply"] and face_ == 5:
        st.log("out-of-missiles", "missile-supply", unit=u.id)
