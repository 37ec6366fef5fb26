"""Shooting in one-hour-dark-ages ("Shooting", "Moving Shots", "Missile Supply")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from shieldwall.core.geometry import (
    in_front_arc,
)
from shieldwall.rulesets.one_hour import spatial as S
from shieldwall.rulesets.one_hour.act_common import bad_from, sight, terrain_clause
from shieldwall.rulesets.one_hour.clauses import rule
from shieldwall.rulesets.one_hour.combat import AttackSituation
from shieldwall.rulesets.one_hour.model import Unit

if TYPE_CHECKING:
    from shieldwall.rulesets.one_hour.state import OneHourState

# --- Shooting ---------------------------------------------------------------------------------


def shot_problem(st: OneHourState, u: Unit, t: Unit, moving: bool) -> str | None:
    """Why ``u`` may not shoot at ``t`` now ("Shooting", "Moving Shots"), or None."""
    p = u.profile
    if p.missile is None:
        return "shooting: only Skirmishers and javelin Units shoot"
    if st.params["missile_supply"]:
        if u.out_of_missiles:
            return "missile-supply: the Unit has used the last of its missiles"
    elif u.shots_used >= int(st.params["shots"]):
        return f"shooting.three-shots: the Unit has used its {st.params['shots']} shots"
    if st.in_melee(u):
        return "shooting: a Unit in melee fights, it does not shoot"
    if moving:
        if u.moving_shot:
            return "moving-shots: one Moving Shot per Movement Phase"
    else:
        if u.shot:
            return "shooting: the Unit has already shot this phase"
        if p.missile == "bow" and u.moved:
            return "shooting.bows-moved: Bows may not shoot if they moved during the Movement Phase"
        if p.missile == "javelin" and u.moving_shot:
            return "shooting.javelins-moving-shot: Javelins may not shoot after a Moving Shot"
    arc = float(st.params["arc"])
    if not in_front_arc(u.fp, t.fp.corners(), arc):
        return f"shooting.arc: the target is not within {arc:g} degrees of the front"
    facing = t.fp.facing_of(u.fp.front_centre)
    seen, sampled = sight(st, u, t, facing)  # S.facing_in_clear_view(u, t, st.live(), st.terrain, facing)
    if seen != sampled:
        return f"shooting.los-facing: no clear Line of Sight to {t.id}'s entire {facing} facing"
    rng = float(st.params["bow_range"] if p.missile == "bow" else st.params["javelin_range"])
    if S.distance_between(u, t) > rng + float(st.params["grey_margin"]):
        return f'shooting.range: {t.id} is beyond {rng:g}"'
    return None


def shoot(st: OneHourState, u: Unit, t: Unit, moving: bool) -> None:
    prob = shot_problem(st, u, t, moving)
    if prob:
        raise bad_from(prob)
    rng = float(st.params["bow_range"] if u.profile.missile == "bow" else st.params["javelin_range"])
    if moving:
        u.moving_shot = True
    else:
        u.shot = True
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
        S.defending_feature(t, u, st.terrain, "shoot") is not None,
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
    terrain = S.defending_feature(t, u, st.terrain, "shoot")
    if terrain:
        checked.append(rule(terrain_clause(terrain)))
    terrain = S.defending_feature(t, u, st.terrain, "shoot")
    t.hits += hits
    if t.hits >= 5:
        t.reached_five = True
    if st.params["missile_supply"]:
        if face_ == 5:
            u.out_of_missiles = True
    else:
        u.shots_used += 1
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
