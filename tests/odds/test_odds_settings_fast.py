"""The settings fast path (``base.parse_settings`` with a dict whose keys and values are already as
``SetKey.parse`` returns them) against the general path (the same pairs as ``KEY=VALUE`` text), and
the query memo handing its key to ``parse_sets`` only while it computes."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shieldwall.core.errors import ShieldwallError
from shieldwall.odds import into_the_dark as itd
from shieldwall.odds import one_hour
from shieldwall.odds.base import parse_settings

PLUGINS = {"into-the-dark": itd.SET_KEYS, "one-hour-dark-ages": one_hour.PLUGIN.set_keys}


def _values(keys: Any) -> st.SearchStrategy[Any]:
    names = sorted(keys)
    choices = sorted({c for k in keys.values() for c in k.choices})
    key = st.one_of(
        st.sampled_from(names),
        st.sampled_from(names).map(str.upper),
        st.sampled_from(names).map(lambda n: n.replace("-", "_")),
        st.sampled_from(["bogus", "Facing"]),
    )
    value = st.one_of(
        st.sampled_from(choices),
        st.sampled_from(choices).map(str.upper),
        st.integers(-3, 60),
        st.sampled_from(["7", " yes ", "", "maybe"]),
        st.booleans(),
    )
    return st.dictionaries(key, value, max_size=5)


def _outcome(fn: Any) -> Any:
    try:
        return fn()
    except ShieldwallError as exc:
        return (type(exc), str(exc))


@pytest.mark.parametrize("ruleset", sorted(PLUGINS))
@pytest.mark.parametrize("command", ["attack", "morale", "duel", "matrix"])
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_fast_path_equals_the_general_path(ruleset: str, command: str, data: st.DataObject) -> None:
    keys = PLUGINS[ruleset]
    pairs = data.draw(_values(keys))
    fast = _outcome(lambda: parse_settings(keys, pairs, command, ruleset))
    text = [f"{k}={v}" for k, v in pairs.items()]
    slow = _outcome(lambda: parse_settings(keys, text, command, ruleset))
    if isinstance(fast, dict) and isinstance(slow, dict):
        # text loses the type of a value: "7" and 7 parse alike, True is not a choice
        assert fast == slow
    elif not any(isinstance(v, bool) or (isinstance(v, str) and v.strip() != v) for v in pairs.values()):
        assert fast == slow


def test_memo_key_is_used_only_while_computing() -> None:
    p = itd.PLUGIN
    p.clear_memo()
    sets = {"shaken": "yes"}
    a = p.morale("12 CAF average", sets)
    assert a.settings["shaken"] == "yes"
    assert p.__dict__.get("_last_key") is None
    sets["shaken"] = "no"  # the same dict, changed: a new question, parsed afresh
    assert p.parse_sets(sets, "morale")["shaken"] == "no"
    assert p.morale("12 CAF average", sets).settings["shaken"] == "no"
    assert a.settings["shaken"] == "yes"  # earlier results keep their settings
