#!/usr/bin/env python3
"""A small, honest strength sample of a bot against another on one scenario.

    python scripts/mcts_bench.py one-hour-dark-ages/bryn-glas mcts:16 random -n 10

Plays ``n`` battles, seeds 0 to n-1, the bot under test red in the even seeds and blue in the odd
ones (both sides of the scenario), and prints its wins, draws and losses with a 95% Wilson interval
for its share of the decisive battles won. Not a benchmark command yet (issue 22): a sample for
docs/agents.md.
"""

from __future__ import annotations

import argparse
import math
import time

from shieldwall.io.scenarios import load_game
from shieldwall.match import play


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion ``wins / n``."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("scenario")
    ap.add_argument("bot")
    ap.add_argument("opponent")
    ap.add_argument("-n", type=int, default=10)
    ap.add_argument("--first-seed", type=int, default=0)
    args = ap.parse_args()
    game = load_game(args.scenario)
    sides = game.info.sides
    won = drawn = lost = 0
    start = time.monotonic()
    for seed in range(args.first_seed, args.first_seed + args.n):
        mine = sides[seed % 2]
        red, blue = (args.bot, args.opponent) if mine == sides[0] else (args.opponent, args.bot)
        result = play(game, seed, red, blue).state.result()
        assert result is not None
        if result.winner is None:
            drawn += 1
        elif result.winner == mine:
            won += 1
        else:
            lost += 1
        print(f"seed {seed}: {args.bot} as {mine}: {result.winner or 'draw'} ({result.reason})", flush=True)
    lo, hi = wilson(won, won + lost)
    print(
        f"{args.bot} v {args.opponent} on {args.scenario}: {won} won, {drawn} drawn, {lost} lost of "
        f"{args.n}; decisive won {won}/{won + lost}, 95% interval {lo:.0%} to {hi:.0%} "
        f"({time.monotonic() - start:.0f} s)"
    )


if __name__ == "__main__":
    main()
