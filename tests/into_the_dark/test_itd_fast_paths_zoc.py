"""The zone-of-control fast paths (issue 16) against their references: the opportunity task asking
only whether some opportunity charge or fire is open (``act_zoc.opportunity_possible``, through
``charging.any_charge``), and a path's positions tested against a zone only when their circles reach
it (``act_zoc.path_meets``; in the task, ``act_zoc.samples_meet``, which builds only those positions'
footprints)."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shieldwall.core.geometry import Footprint
from shieldwall.core.reference import reference_path
from shieldwall.io.scenarios import load_game
from shieldwall.match import play
from shieldwall.rulesets.into_the_dark import act_zoc, charging, menus
from shieldwall.rulesets.into_the_dark.model import Unit
from shieldwall.rulesets.into_the_dark.spatial import corridor, meets_reference
from shieldwall.rulesets.into_the_dark.state import IntoTheDarkState

BATTLES = (
    ("into-the-dark/senlac", 1000, "scripted", "random"),
    ("into-the-dark/wye-fords", 1001, "random", "scripted"),
)


@pytest.mark.python_sources
def test_zone_of_control_fast_paths_answer_as_their_references_in_seeded_battles(monkeypatch: Any) -> None:
    """At every opportunity task of seeded battles (the scripted general's look-aheads included),
    ``opportunity_possible`` says what the whole menu of options says; ``any_charge`` says whether
    ``charge_orders`` lists a charge, at every charge menu; and at every zone of control checked,
    ``samples_meet`` answers what testing every position answers (its reference path)."""
    real_possible = act_zoc.opportunity_possible
    real_any = charging.any_charge
    real_orders = charging.charge_orders
    real_meets = act_zoc.samples_meet
    # the general plays each move it weighs on a copy (as it did before ``ends_of_moves``): every
    # look-ahead runs the zone-of-control task
    monkeypatch.setattr(IntoTheDarkState, "ends_of_moves", lambda self, uid, orders: None)
    seen = {"open": 0, "closed": 0, "charges": 0, "none": 0, "meets": 0, "apart": 0}

    def possible(s: IntoTheDarkState, e: Unit, m: Unit) -> bool:
        got = real_possible(s, e, m)
        assert got == bool(act_zoc.opportunity_options(s, e, m)), (e.id, m.id)
        seen["open" if got else "closed"] += 1
        return got

    def menu(s: IntoTheDarkState, c: Unit, enemies: Any, opportunity: bool = False) -> Any:
        enemies = list(enemies)
        out = real_orders(s, c, enemies, opportunity)
        assert real_any(s, c, enemies, opportunity) == bool(out), (c.id, [e.id for e in enemies])
        seen["charges" if out else "none"] += 1
        return out

    def meets(z: Any, samples: Any, fps: Any) -> bool:
        got = real_meets(z, samples, fps)
        assert all(f == Footprint(*samples[i]) for i, f in fps.items())
        assert real_meets(z, samples, {}) == got  # (whatever footprints were built before)
        with reference_path():
            assert real_meets(z, samples, {}) == got
            assert act_zoc.path_meets(z, [Footprint(*s) for s in samples]) == got
        seen["meets" if got else "apart"] += 1
        return got

    monkeypatch.setattr(act_zoc, "samples_meet", meets)
    # every enemy's zones tested, as before the big-battle filter (``within_reach``, whose own
    # check is in test_itd_fast_paths_scale.py): here ``samples_meet`` meets every zone
    monkeypatch.setattr(act_zoc, "within_reach", lambda s, es, samples: es)
    monkeypatch.setattr(act_zoc, "opportunity_possible", possible)
    monkeypatch.setattr(act_zoc, "charge_orders", menu)
    monkeypatch.setattr(menus, "charge_orders", menu)
    for scenario, seed, red, blue in BATTLES:
        play(load_game(scenario), seed, red, blue)
    assert seen["open"] > 20 and seen["closed"] > 5, seen
    assert seen["charges"] > 30 and seen["none"] > 100, seen
    assert seen["meets"] > 20 and seen["apart"] > 500, seen


def _corner_at(q: tuple[float, float], u: tuple[float, float], w: float, d: float, k: int) -> Footprint:
    """A footprint whose corner ``k`` stands at ``q`` and whose centre lies beyond it along ``u``
    (a unit vector): its circumscribed circle touches ``q`` from the far side, where the bound of
    ``path_meets`` is tight."""
    r = 0.5 * math.hypot(w, d)
    cx, cy = Footprint(0.0, 0.0, 0.0, w, d).corners()[k]
    c1x, c1y = Footprint(0.0, 0.0, 1.0, w, d).corners()[k]
    a0 = math.atan2(cy, cx)
    turn = math.degrees(math.atan2(c1y, c1x) - a0)
    turn = (turn + 180.0) % 360.0 - 180.0  # the corner's angle per degree of heading (+1 or -1)
    want = math.atan2(-u[1], -u[0])
    heading = math.degrees(want - a0) / turn
    return Footprint(q[0] + r * u[0], q[1] + r * u[1], heading % 360.0, w, d)


def _zone_and_path(spec: dict[str, Any]) -> tuple[Any, list[Footprint]]:
    base = Footprint(spec["x"], spec["y"], spec["h"], spec["w"], spec["d"])
    z = corridor(base, "front", spec["length"])
    zx, zy = sum(p[0] for p in z) / len(z), sum(p[1] for p in z) / len(z)
    fps = []
    for i, (push, w, d, k) in enumerate(spec["moves"]):
        px, py = z[i % len(z)]
        ln = math.hypot(px - zx, py - zy) or 1.0
        u = ((px - zx) / ln, (py - zy) / ln)  # out from the zone's centre through its corner
        fps.append(_corner_at((px + push * u[0], py + push * u[1]), u, w, d, k))
    return z, fps


_moves = st.tuples(
    st.sampled_from([-0.3, -1e-3, -1e-4, -1e-6, -1e-9, 0.0, 1e-9, 1e-7, 1e-5, 1e-3, 0.3])
    | st.floats(-1.0, 1.0),
    st.floats(0.2, 6.0),
    st.floats(0.2, 3.0),
    st.integers(0, 3),
)


@settings(max_examples=150, deadline=None)
@given(
    st.fixed_dictionaries(
        {
            "x": st.floats(0.0, 48.0),
            "y": st.floats(0.0, 48.0),
            "h": st.floats(0.0, 360.0),
            "w": st.floats(0.5, 8.0),
            "d": st.floats(0.5, 3.0),
            "length": st.sampled_from([0.0, 1.0, 3.0]) | st.floats(0.0, 8.0),
            "moves": st.lists(_moves, min_size=1, max_size=24),
        }
    )
)
def test_path_meets_is_any_position_meeting_the_zone(spec: dict[str, Any]) -> None:
    """Positions whose corner stands just outside, on or just inside a corner of a zone, their centres
    beyond it (where the bound of ``path_meets`` is tight): ``path_meets`` answers what testing every
    position does, for the path and for each position alone; so does ``samples_meet`` given the
    positions as numbers (as the zone-of-control task gets them)."""
    z, fps = _zone_and_path(spec)
    want = any(meets_reference(z, f.corners()) for f in fps)
    assert act_zoc.path_meets(z, fps) == want
    samples = [(f.x, f.y, f.heading, f.frontage, f.depth) for f in fps]
    assert act_zoc.samples_meet(z, samples, {}) == want
    for f, s in zip(fps, samples, strict=True):
        assert act_zoc.path_meets(z, [f]) == meets_reference(z, f.corners())
        assert act_zoc.samples_meet(z, [s], {}) == meets_reference(z, f.corners())
