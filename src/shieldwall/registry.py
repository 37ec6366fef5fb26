"""Finding the rule systems: every :class:`~shieldwall.plugin.RuleSystem` registered under the
entry-point group ``shieldwall.rulesets`` (the built-in ones too, in ``pyproject.toml``).

The host layers look rule systems up here by id and never import a rule-system package
themselves. A broken plugin (an entry point that does not import, a value that is not a
``RuleSystem``, two plugins with one id) is reported by name, never as a traceback.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from importlib.metadata import entry_points
from typing import Any

from shieldwall.core.errors import UnknownName
from shieldwall.plugin import PluginError, RuleSystem

GROUP = "shieldwall.rulesets"

_CACHE: dict[str, RuleSystem] | None = None
_EXTRA: dict[str, RuleSystem] = {}
#: the discovered and registered plugins in display order, built once (narration and the web look a
#: rule system up for every event); forgotten when the set changes (``refresh``, ``registered``)
_ORDERED: dict[str, RuleSystem] | None = None


def _discover() -> dict[str, RuleSystem]:
    found: dict[str, RuleSystem] = {}
    for ep in entry_points(group=GROUP):
        try:
            value = ep.load()
        except Exception as exc:  # any failure of a third-party plugin's import is reported by name
            raise PluginError(f"rule-system plugin {ep.name!r} ({ep.value}) does not load: {exc}") from exc
        if not isinstance(value, RuleSystem):
            raise PluginError(
                f"rule-system plugin {ep.name!r} ({ep.value}) is a {type(value).__name__}, not a RuleSystem"
            )
        if value.id in found and found[value.id] is not value:
            raise PluginError(f"two rule-system plugins have the id {value.id!r}")
        found[value.id] = value
    return found


def _ordered() -> dict[str, RuleSystem]:
    global _CACHE, _ORDERED
    if _ORDERED is None:
        if _CACHE is None:
            _CACHE = _discover()
        merged = {**_CACHE, **_EXTRA}
        _ORDERED = dict(sorted(merged.items(), key=lambda kv: (kv[1].order, kv[0])))
    return _ORDERED


def systems() -> dict[str, RuleSystem]:
    """Every rule system, by id, in display order (``RuleSystem.order``, then id)."""
    return dict(_ordered())


def ids() -> list[str]:
    return list(systems())


def get(ruleset_id: str) -> RuleSystem:
    """The rule system with this id (``UnknownName`` listing the valid ones)."""
    found = _ordered()
    if ruleset_id not in found:
        raise UnknownName("rule system", ruleset_id, list(found))
    return found[ruleset_id]


def find(ruleset_id: Any) -> RuleSystem | None:
    """The rule system with this id, or None (for input that may name none)."""
    return _ordered().get(ruleset_id) if isinstance(ruleset_id, str) else None


def game_class(ruleset_id: str) -> Any:
    """The ``Game`` subclass of a rule system."""
    return get(ruleset_id).game_class()


def default() -> RuleSystem:
    """The first rule system in display order that has a default scenario."""
    for rs in systems().values():
        if rs.default_scenario:
            return rs
    raise PluginError("no rule system with a default scenario is installed")


@contextmanager
def registered(*plugins: RuleSystem) -> Iterator[None]:
    """Register plugins for the duration of a ``with`` block (tests, embedding applications)."""
    global _ORDERED
    saved = dict(_EXTRA)
    for p in plugins:
        _EXTRA[p.id] = p
    _ORDERED = None
    try:
        yield
    finally:
        _EXTRA.clear()
        _EXTRA.update(saved)
        _ORDERED = None


def refresh() -> None:
    """Forget the discovered plugins (after installing one at run time)."""
    global _CACHE, _ORDERED
    _CACHE = _ORDERED = None
