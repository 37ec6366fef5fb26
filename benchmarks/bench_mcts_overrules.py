#!/usr/bin/env python3
"""Where the search overrules the scripted bot, and whether it should have: play one battle and,
at every decision where ``mcts`` played another order than its prior (the scripted bot's), print
the search's own estimate of the gain (mean, standard error, pairs) beside two independent ones:

* *same model*: ``--pairs`` fresh pairs of the duel's own playouts (the pair's battle and dice, the
  order, then the rollout policy for the rollout's decisions, the two aligned to one point of the
  game, scored as the search scores them);
* *full* (``--full K``): K fresh pairs played to the battle's end, the searching side by its
  scripted bot, the other by ``--opponent``, scored +1 / 0 / -1 (a gain is in [-2, 2]).

An overrule the same model does not confirm is noise in the search; one the full game does not
confirm is the model's (the rollout's horizon and leaf score).

    python benchmarks/bench_mcts_overrules.py one-hour-dark-ages/coed-celyddon --seed 1 \\
        --red random --blue mcts:16 --pairs 48
"""

from __future__ import annotations

import argparse
import math
from typing import Any

from shieldwall.ai.base import bot_seed, make_bot
from shieldwall.ai.mcts import MCTSBot, outcome
from shieldwall.core.game import State
from shieldwall.io.scenarios import load_game


def estimate(
    judge: MCTSBot, state: State, side: str, prior: str, other: str, pairs: int, opponent: str | None
) -> tuple[float, float, int, int]:
    """(mean gain, its standard error, pairs gaining, pairs losing) of ``other`` over ``prior``;
    ``opponent`` None: the duel's rollout, else played to the end against that bot."""
    judge._policy(state)
    gains: list[float] = []
    for _ in range(pairs):
        seeds = judge._seeds()
        values: list[float] = []
        runs = []
        for text in (prior, other):
            run = judge._begin(state, side, seeds)
            sim = run.sim
            by_text = {str(o): o for o in sim.legal_orders()}
            if text not in by_text:
                break
            sim.apply(by_text[text])
            if opponent is None:  # the duel's own model: rolled on, aligned, scored as it scores
                runs.append(run)
                continue
            policy = run.policy
            assert policy is not None
            them = make_bot(opponent, seeds[2] % 2**32, sim.game.info.id)
            while not sim.is_terminal():
                d = sim.decision()
                assert d is not None
                sim.apply((policy if d.side == side else them).choose(sim))
            values.append(outcome(sim)[side])
        if len(runs) == 2:
            values = [v.get(side, 0.0) for v in judge._finish(runs)]
        if len(values) == 2:
            gains.append(values[1] - values[0])
    n = len(gains)
    mean = sum(gains) / n if n else 0.0
    var = sum((g - mean) ** 2 for g in gains) / (n - 1) if n > 1 else 0.0
    return mean, math.sqrt(var / n) if n else 0.0, sum(g > 0 for g in gains), sum(g < 0 for g in gains)


def _search_estimate(bot: MCTSBot, order: str) -> str:
    """The search's own gain estimate of the order it played over its prior: with sequential
    halving, the fresh confirming pairs that decided it (``last_confirm``: the rounds' pairs chose
    the survivor, and a menu of two orders has no rounds); else the root node's pairs."""
    if bot.last_confirm:
        gains = [g for _, g in bot.last_confirm]
        n = len(gains)
        mean = sum(gains) / n
        var = sum((g - mean) ** 2 for g in gains) / (n - 1) if n > 1 else 0.0
        return f"{mean:+.3f} / {math.sqrt(var / n):.3f} / {n} (halving's confirming pairs)"
    assert bot.last_root is not None
    c = bot.last_root.children[order]
    return f"{c.mean_gain():+.3f} / {c.gain_error():.3f} / {c.paired}"


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("scenario")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--red", default="scripted")
    ap.add_argument("--blue", default="mcts:16")
    ap.add_argument("--pairs", type=int, default=48, help="fresh pairs of the same model an overrule")
    ap.add_argument("--full", type=int, default=0, help="fresh pairs played to the end an overrule")
    ap.add_argument("--opponent", default="scripted", help="with --full: the other side's bot")
    args = ap.parse_args()
    game = load_game(args.scenario)
    rid = game.info.id
    bots: dict[str, Any] = {
        s: make_bot(b, bot_seed(args.seed, i), rid)
        for i, (s, b) in enumerate(zip(game.info.sides, (args.red, args.blue), strict=True))
    }
    judge = make_bot("mcts:1", 999, rid)
    assert isinstance(judge, MCTSBot)
    state = game.new_state(args.seed)
    searched = 0
    overruled = 0
    while not state.is_terminal():
        d = state.decision()
        assert d is not None
        bot = bots[d.side]
        before = state.copy()
        order = bot.choose(state)
        if isinstance(bot, MCTSBot) and bot.last_playouts:
            searched += 1
            if bot.last_overruled and bot.last_root is not None and bot._prior is not None:
                m, se, up, down = estimate(judge, before, d.side, bot._prior, str(order), args.pairs, None)
                line = (
                    f"decision {searched}: {bot._prior!r} -> {str(order)!r}: search "
                    f"{_search_estimate(bot, str(order))} | same model {m:+.3f} / {se:.3f} (+{up} -{down})"
                )
                if args.full:
                    fm, fse, fu, fd = estimate(
                        judge, before, d.side, bot._prior, str(order), args.full, args.opponent
                    )
                    line += f" | full {fm:+.3f} / {fse:.3f} (+{fu} -{fd})"
                overruled += 1
                print(line, flush=True)
        state.apply(order)
    result = state.result()
    assert result is not None
    print(f"result: {result.winner or 'draw'}, {result.reason}; {searched} searched, {overruled} overruled")


if __name__ == "__main__":
    main()
