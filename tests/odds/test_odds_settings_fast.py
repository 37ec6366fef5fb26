"""The settings fast path (``settings.parse_settings`` with a dict whose keys and values are already as
``SetKey.parse`` returns them, and the plug-ins' memoised copy of it) against the general path (the
same pairs as ``KEY=VALUE`` text), the settings handed to a query's computation (read-only, with the
pairs given), and a settings dict changed after a query parsed afresh."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shieldwall.core.errors import ShieldwallError
from shieldwall.odds.settings import parse_settings, sets_key
from shieldwall.rulesets.into_the_dark import odds as itd
from shieldwall.rulesets.one_hour import odds as one_hour

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
@settings(max_examples=150)
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


@pytest.mark.parametrize("ruleset", sorted(PLUGINS))
@pytest.mark.parametrize("command", ["attack", "morale", "duel", "matrix"])
@settings(max_examples=150)
@given(data=st.data())
def test_memoised_settings_equal_the_general_path(ruleset: str, command: str, data: st.DataObject) -> None:
    """``OddsPlugin._settings`` (the fast path inline, memoised) gives what ``parse_settings`` gives
    for the same pairs as text, read-only, and the pairs given; errors alike."""
    plugin = itd.PLUGIN if ruleset == "into-the-dark" else one_hour.PLUGIN
    if command not in plugin.commands:
        return
    keys = PLUGINS[ruleset]
    pairs = data.draw(_values(keys))
    if any(isinstance(v, bool) or (isinstance(v, str) and v.strip() != v) for v in pairs.values()):
        return  # text loses the type of a value (see above)
    plugin.clear_memo()
    keyed = sets_key(pairs)
    assert keyed is not None
    memoised = _outcome(lambda: plugin._settings(command, *keyed))
    slow = _outcome(lambda: parse_settings(keys, [f"{k}={v}" for k, v in pairs.items()], command, ruleset))
    if not isinstance(slow, dict):
        assert memoised == slow
        return
    read, given = memoised
    assert dict(read) == slow
    with pytest.raises(TypeError):
        read["mode"] = "x"  # type: ignore[index]
    defaults = parse_settings(keys, None, command, ruleset)
    # every setting that differs from its default is given, as parsed; the rest given are defaults
    assert {(k, v) for k, v in slow.items() if defaults[k] != v} <= given <= set(slow.items())


def test_memo_reparses_a_changed_dict() -> None:
    p = itd.PLUGIN
    p.clear_memo()
    sets = {"shaken": "yes"}
    a = p.morale("12 CAF average", sets)
    assert a.settings["shaken"] == "yes"
    assert p.morale("12 CAF average", dict(sets)) is a  # the same question: the memoised answer
    sets["shaken"] = "no"  # the same dict, changed: a new question, parsed afresh
    assert p.parse_sets(sets, "morale")["shaken"] == "no"
    assert p.morale("12 CAF average", sets).settings["shaken"] == "no"
    assert a.settings["shaken"] == "yes"  # earlier results keep their settings
