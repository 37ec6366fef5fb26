"""Attacks more than one part of the one-hour-dark-ages rules makes, and the end of a move.

* ``melee_attack``: one unit's melee attack ("Melee"): in the Melee phase, as the free attack of
  "Fall Back!" and as the last attack of "Force Morale";
* ``shot_problem``: whether a unit may shoot at a target now ("Shooting", "Moving Shots"), asked
  by the Shooting phase, the menus and the web page's reach;
* ``moving_shot_targets`` and ``after_move``: a javelin unit that has moved or charged short may
  make its Moving Shot, else its activation ends.

Below the order handlers (``act_*``) and ``morale``, above ``act_common``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from shieldwall.core.crossings import in_front_arc
from shieldwall.rulesets.one_hour import spatial as S
from shieldwall.rulesets.one_hour import terrain_checks as TC
from shieldwall.rulesets.one_hour.act_common import bad, sight, terrain_clause
from shieldwall.rulesets.one_hour.clauses import rule
from shieldwall.rulesets.one_hour.combat import AttackSituation
from shieldwall.rulesets.one_hour.model import Unit

if TYPE_CHECKING:
    from shieldwall.rulesets.one_hour.state import OneHourState

# --- Melee ------------------------------------------------------------------------------------


def melee_attack(st: OneHourState, u: Unit, t: Unit) -> None:
    """ "Melee": one-sided; roll 1D5 (+1 Warriors, -1 javelin units, -2 bows); terrain, shieldwall,
    flank/rear doubling, the 1/4 cap."""
    facing = None
    for _, _, f_t in S.contacts(u, [t]):
        facing = f_t
    if facing is None:
        raise bad("melee.front-only", f"{u.id} is not in contact with {t.id}")
    mod, cites = st.attack_modifier(u, "melee")
    terrain = TC.defending_feature(t, u, st.terrain, "melee")
    sit = AttackSituation(
        "melee",
        st.die,
        mod,
        S.facing_class(facing),  # type: ignore[arg-type]
        terrain is not None,
        t.profile.shieldwall,
        (),
        tuple(cites),
    )
    face_, hits = sit.roll(st.rng)
    t.hits += hits
    if t.hits >= 5:
        t.reached_five = True
    checked = [rule("melee"), rule("melee.front-only")]
    if terrain:
        checked.append(rule(terrain_clause(terrain)))
    st.log(
        "melee",
        "melee.dice",
        side=u.side,
        unit=u.id,
        target=t.id,
        terrain=terrain,
        target_hits=t.hits,
        checked=checked,
        **sit.breakdown(face_),
    )


# --- Shooting and Moving Shots ----------------------------------------------------------------


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
    seen, sampled = sight(st, u, t, facing)  # LOS.facing_in_clear_view(u, t, st.live(), st.terrain, facing)
    if seen != sampled:
        return f"shooting.los-facing: no clear Line of Sight to {t.id}'s entire {facing} facing"
    rng = float(st.params["bow_range"] if p.missile == "bow" else st.params["javelin_range"])
    if S.distance_between(u, t) > rng + float(st.params["grey_margin"]):
        return f'shooting.range: {t.id} is beyond {rng:g}"'
    return None


def moving_shot_targets(st: OneHourState, u: Unit) -> list[Unit]:
    if u.profile.missile != "javelin" or u.moving_shot:
        return []
    # only targets within range may be shot (the last check of ``shot_problem``)
    rng = float(st.params["javelin_range"]) + float(st.params["grey_margin"])
    return [t for t in S.enemies_within(u, st.live(), rng) if shot_problem(st, u, t, moving=True) is None]


def after_move(st: OneHourState, u: Unit) -> None:
    """The end of a unit's move: a javelin unit with a target left may make its Moving Shot
    ("Moving Shots": before or after moving), else its activation ends."""
    if u.profile.missile == "javelin" and not u.moving_shot and moving_shot_targets(st, u):
        st.step = "after-shot"
    else:
        st.finish_activation()
