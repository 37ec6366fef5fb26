"""The bots a game on the table may have: a bot of the rule system, or the search bot within the
server's bounds (``bot_problem``; docs/security.md)."""

from __future__ import annotations

from shieldwall.ai.base import bot_names, check_bot
from shieldwall.ai.mcts import MCTSBot, default_spec
from shieldwall.ai.search_spec import END_COST, ROLLOUT_DECISIONS, parse, rollout_cost, settle
from shieldwall.core.errors import ShieldwallError

#: the largest search a game on the table may ask of the server, per decision: at most
#: MAX_BOT_PLAYOUTS playouts, and playouts times the rollout horizon at most MAX_BOT_ROLLOUT
#: decisions (``search_spec.rollout_cost``: a rollout to the battle's end counts ``END_COST``), so
#: ``mcts:2000`` (the 10-decision horizon) and ``mcts:200:hend`` are the largest of their kinds;
#: aligning the playouts adds at most ``search_spec.ALIGN_SHARE`` times the horizon's decisions a
#: playout, so a decision plays at most (1 + ALIGN_SHARE) * MAX_BOT_ROLLOUT rollout decisions
MAX_BOT_PLAYOUTS = 2000
MAX_BOT_ROLLOUT = MAX_BOT_PLAYOUTS * ROLLOUT_DECISIONS


def bot_problem(name: str, ruleset: str) -> str | None:
    """Why ``name`` is not a bot the table takes for the rule system, or None when it is. A bot of
    the rule system (a listed name), or the search bot with a spec in the grammar the command
    line takes (``shieldwall.ai.search_spec``: ``mcts:500``, ``mcts:500:mix0.7``, ``mcts:64:hend:sh``)
    over the rule system's default options, within the table's bounds: a playout budget (a time
    budget would not replay) of at most ``MAX_BOT_PLAYOUTS``, and at most ``MAX_BOT_ROLLOUT``
    rollout decisions. Plain ``mcts`` (the rule system's default options) is bounded the same way.
    ``""`` for a name that is no bot at all (the caller lists the valid ones)."""
    base, colon, spec = name.partition(":")
    listed = bot_names(ruleset)
    if base != MCTSBot.name or base not in listed:
        return None if name in listed else ""
    if colon and not spec.strip():
        return f"opponent {name!r}: nothing after the colon (mcts:N for N playouts)"
    try:
        settings = settle(parse(spec), default_spec(ruleset))
    except ShieldwallError as exc:
        return f"opponent {name!r}: {exc}"
    if settings.playouts is None:
        return (
            f"opponent {name!r}: the table takes a number of playouts (mcts:N), "
            "not a time budget (it would not replay)"
        )
    if settings.playouts > MAX_BOT_PLAYOUTS or rollout_cost(settings) > MAX_BOT_ROLLOUT:
        return (
            f"opponent {name!r}: too much search for the table: at most {MAX_BOT_PLAYOUTS} "
            f"playouts a decision, and playouts times the rollout horizon at most {MAX_BOT_ROLLOUT} "
            f"(a rollout to the battle's end counts {END_COST}: "
            f"mcts:{MAX_BOT_ROLLOUT // END_COST}:hend at most)"
        )
    try:
        check_bot(name, ruleset)
    except ShieldwallError as exc:
        return f"opponent {name!r}: {exc}"
    return None
