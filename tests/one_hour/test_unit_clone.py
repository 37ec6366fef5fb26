"""``Unit.clone`` (issue 16: its fields are set past the owner hook, ``__setattr__``): a clone
holds every field of its unit (its own ``extra``, no owner), and cloning an owned unit while an
order is journalled tells its state nothing: no journal entry, no version moved. Once owned, the
clone's changes are told to its new owner as before."""

from __future__ import annotations

import copy
import pickle
from dataclasses import fields

from shieldwall.io.scenarios import load_game
from shieldwall.rulesets.one_hour.model import Unit
from shieldwall.rulesets.one_hour.state import OneHourState


def _state() -> OneHourState:
    state = load_game("one-hour-dark-ages/bryn-glas").new_state(3)
    assert isinstance(state, OneHourState)
    return state


def test_a_clone_holds_every_field_but_the_owner_and_tells_no_state() -> None:
    state = _state()
    u = next(iter(state.units.values()))
    u.extra["probe"] = [1]
    assert u.owner is state
    journal: list[tuple[Unit, str, object]] = []
    state._journal = journal
    versions = (state._units_version, state._geo_version, list(state._geo_changed))
    c = u.clone()
    assert journal == [] and (state._units_version, state._geo_version, list(state._geo_changed)) == versions
    for f in fields(Unit):
        if f.name == "owner_ref":
            assert c.owner is None
        elif f.name == "extra":
            assert c.extra == u.extra and c.extra is not u.extra
        else:
            assert getattr(c, f.name) is getattr(u, f.name), f.name
    c.hits += 1  # unowned: nothing told
    assert journal == [] and state._units_version == versions[0]
    c.owner = state
    before = state._units_version
    c.hits += 1  # owned: told as any unit of the state
    assert journal[-1] == (c, "hits", u.hits + 1) and state._units_version > before
    state._journal = None


def test_a_copied_state_owns_clones_of_its_units() -> None:
    state = _state()
    new = state.copy()
    assert isinstance(new, OneHourState)
    for k, u in state.units.items():
        c = new.units[k]
        assert c is not u and c.owner is new and u.owner is state
        assert [getattr(c, f.name) for f in fields(Unit) if f.name != "owner_ref"] == [
            getattr(u, f.name) for f in fields(Unit) if f.name != "owner_ref"
        ]


def test_a_deep_copied_state_owns_copies_of_its_units_and_a_unit_pickles() -> None:
    """A deep copy of a state holds copies of its units, owned by the copy, equal field by field,
    their changes told to the copy; an unowned unit comes back from a pickle equal, with its own
    ``extra``. (A unit made a compiled native class could do neither without a ``__reduce__``:
    docs/performance.md, "One-Hour: eighth slice"; the general's copy test deep-copies a state.)"""
    state = _state()
    new = copy.deepcopy(state)
    for k, u in state.units.items():
        c = new.units[k]
        assert c is not u and c.owner is new and u.owner is state
        assert [getattr(c, f.name) for f in fields(Unit) if f.name != "owner_ref"] == [
            getattr(u, f.name) for f in fields(Unit) if f.name != "owner_ref"
        ]
    c = next(iter(new.units.values()))
    before = (new._units_version, state._units_version)
    c.hits += 1
    assert new._units_version == before[0] + 1 and state._units_version == before[1]
    u = next(iter(state.units.values())).clone()
    u.extra["probe"] = [1]
    back = pickle.loads(pickle.dumps(u))
    assert back == u and back.owner is None and back.extra is not u.extra


def test_a_pickled_state_owns_its_units() -> None:
    """A state back from a pickle owns its units (the owner is among a unit's constructor's
    arguments, ``Unit.__reduce__``: compiled, the class is native), and their changes are told to
    it, not to the state pickled."""
    state = _state()
    back = pickle.loads(pickle.dumps(state))
    assert all(u.owner is back for u in back.units.values())
    assert all(u.owner is state for u in state.units.values())
    u = next(iter(back.units.values()))
    before = (back._units_version, state._units_version)
    u.hits += 1
    assert (back._units_version, state._units_version) == (before[0] + 1, before[1])
