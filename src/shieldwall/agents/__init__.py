"""The standard agent interfaces, for every rule system through its plugin.

* :func:`env`: a battle as a PettingZoo AEC environment, the sides as agents
  (:class:`shieldwall.agents.aec.ShieldwallAEC`);
* :func:`side_env`: one side as a Gymnasium environment against a shieldwall bot
  (:class:`shieldwall.agents.single.SideEnv`).

Both encode orders as actions and views as observations alike
(:mod:`shieldwall.agents.encoding`); ``docs/agents.md`` documents them with examples. They need the
``agents`` extra (``pip install 'shieldwall[agents]'``: PettingZoo and Gymnasium).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from shieldwall.agents.aec import ShieldwallAEC, load
from shieldwall.agents.encoding import MAX_ACTIONS, Encoding, MenuCut
from shieldwall.agents.single import SideEnv
from shieldwall.core.game import Game

__all__ = ["MAX_ACTIONS", "Encoding", "MenuCut", "ShieldwallAEC", "SideEnv", "env", "side_env"]


def env(
    ruleset_or_scenario: str | Path | Game,
    scenario: str | None = None,
    *,
    seed: int | None = None,
    variants: Mapping[str, Any] | None = None,
    max_actions: int = MAX_ACTIONS,
    max_units: int | None = None,
    max_decisions: int | None = None,
    render_mode: str | None = None,
) -> ShieldwallAEC:
    """A PettingZoo AEC environment of a scenario: a built-in name (``<ruleset>/<stem>``), a
    scenario file, a rule system id (its default scenario), or a rule system id and a stem.
    ``variants`` are rule parameters (``--variant``); ``seed`` seeds unseeded resets."""
    game = load(ruleset_or_scenario, scenario, variants)
    return ShieldwallAEC(game, seed, max_actions, max_units, max_decisions, render_mode)


def side_env(
    ruleset_or_scenario: str | Path | Game,
    scenario: str | None = None,
    *,
    side: str | None = None,
    opponent: str | None = None,
    variants: Mapping[str, Any] | None = None,
    max_actions: int = MAX_ACTIONS,
    max_units: int | None = None,
    max_decisions: int | None = None,
    render_mode: str | None = None,
) -> SideEnv:
    """A Gymnasium environment: ``side`` (the first side when None) against the bot ``opponent``
    (the rule system's first bot when None) on a scenario named as for :func:`env`."""
    game = load(ruleset_or_scenario, scenario, variants)
    return SideEnv(game, side, opponent, max_actions, max_units, max_decisions, render_mode)
