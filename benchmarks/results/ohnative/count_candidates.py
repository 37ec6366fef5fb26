"""Count the move menu's work per move decision (docs/performance.md, "One-Hour: eighth slice").

    SHIELDWALL_PURE=1 PYTHONPATH=src .venv/bin/python benchmarks/results/ohnative/count_candidates.py

Plays bryn-glas, scripted v scripted, seeds 0-4, with ``menus.best_move``, ``move_candidates`` and
``_advance_steps`` wrapped: per call of ``best_move``, the candidates made, the advances worked out
(each a ``spatial.max_advance``) and the checks made before one passes.
"""

from __future__ import annotations

import statistics
from typing import Any

from shieldwall.io.scenarios import load_game
from shieldwall.match import play
from shieldwall.rulesets.one_hour import menus

made: list[int] = []
advances: list[int] = []
checks: list[int] = []
now = {"advances": 0, "checks": 0}
_move_candidates = menus.move_candidates
_advance_steps = menus._advance_steps
_best_move = menus.best_move


def counted_advance(*args: Any) -> Any:
    now["advances"] += 1
    return _advance_steps(*args)


def counted_check(c: menus.Candidate) -> menus.Candidate:
    def check() -> Any:
        now["checks"] += 1
        return c.check()

    return menus.Candidate(c.variants, check)


def counted_candidates(st: Any) -> list[menus.Candidate]:
    out = _move_candidates(st)
    made.append(len(out))
    return [counted_check(c) for c in out]


def counted_best(st: Any, score: Any) -> Any:
    now["advances"] = now["checks"] = 0
    got = _best_move(st, score)
    advances.append(now["advances"])
    checks.append(now["checks"])
    return got


menus.move_candidates = counted_candidates  # type: ignore[assignment]
menus._advance_steps = counted_advance  # type: ignore[assignment]
menus.best_move = counted_best  # type: ignore[assignment]
game = load_game("bryn-glas")
for seed in range(5):
    play(game, seed, "scripted", "scripted")
n = len(checks)
print(
    f"best_move calls {n}; candidates a call: mean {statistics.mean(made[:n]):.1f}; "
    f"advances (max_advance) a call: mean {statistics.mean(advances):.1f}; checks a call: mean "
    f"{statistics.mean(checks):.2f}, median {statistics.median(checks)}; one check in "
    f"{sum(c == 1 for c in checks)}/{n}"
)
