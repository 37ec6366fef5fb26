"""Statistics of a simulation: win rates with Wilson intervals, and paired differences between
rule variants played on the same seeds (common random numbers).

Everything here is streaming: a summary keeps counts and sums, never the rows.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

#: The two-sided 95% normal quantile.
Z95 = 1.959963984540054


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for ``k`` successes in ``n`` trials (``(0, 1)`` when ``n == 0``).

    Centre ``(p + z^2/2n) / (1 + z^2/n)``, half-width ``z/(1 + z^2/n) * sqrt(p(1-p)/n + z^2/4n^2)``.
    Unlike the normal (Wald) interval it stays inside [0, 1] and is sensible at 0 or n wins.
    """
    if n <= 0:
        return (0.0, 1.0)
    if not 0 <= k <= n:
        raise ValueError(f"k must be between 0 and n, got k={k}, n={n}")
    p = k / n
    z2 = z * z
    den = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / den
    half = z / den * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class PairedDiff:
    """Mean of per-seed differences ``x_variant - x_baseline`` with a normal 95% interval.

    With common random numbers the two battles of a pair share their seed, so most of the chance
    cancels: the interval ``mean +- z * s / sqrt(n)`` uses the sample standard deviation ``s`` of
    the per-seed differences. For a win indicator this is the paired (McNemar-style) interval:
    only discordant seeds (one variant wins, the other does not) contribute.
    """

    n: int = 0
    total: float = 0.0
    total_sq: float = 0.0
    up: int = 0  # pairs where the variant's value is larger
    down: int = 0  # pairs where it is smaller

    def add(self, baseline: float, variant: float) -> None:
        d = variant - baseline
        self.n += 1
        self.total += d
        self.total_sq += d * d
        if d > 0:
            self.up += 1
        elif d < 0:
            self.down += 1

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else 0.0

    @property
    def sd(self) -> float:
        if self.n < 2:
            return 0.0
        var = (self.total_sq - self.n * self.mean**2) / (self.n - 1)
        return math.sqrt(max(0.0, var))

    def ci95(self, z: float = Z95, bound: float | None = None) -> tuple[float, float]:
        """``mean +- z * sd / sqrt(n)``, clipped to ``[-bound, bound]`` when given (a difference of
        two rates lies within [-1, 1])."""
        if self.n == 0:
            return (-math.inf, math.inf) if bound is None else (-bound, bound)
        half = z * self.sd / math.sqrt(self.n)
        lo, hi = self.mean - half, self.mean + half
        if bound is not None:
            lo, hi = max(-bound, lo), min(bound, hi)
        return (lo, hi)

    def to_dict(self, bound: float | None = None) -> dict[str, Any]:
        lo, hi = self.ci95(bound=bound)
        return {
            "pairs": self.n,
            "diff": self.mean,
            "ci95": [lo, hi],
            "higher": self.up,
            "lower": self.down,
        }


@dataclass
class Summary:
    """Running totals of one variant's battles."""

    variant: str
    overrides: Mapping[str, Any]
    sides: tuple[str, ...]
    #: (column, side, unit type) of the per-type loss columns
    loss_columns: tuple[tuple[str, str, str], ...]
    battles: int = 0
    wins: Counter[str] = field(default_factory=Counter)
    draws: int = 0
    turns: Counter[int] = field(default_factory=Counter)
    turns_total: int = 0
    turns_sq: int = 0
    decisions_total: int = 0
    losses: Counter[str] = field(default_factory=Counter)

    def add(self, row: Mapping[str, Any]) -> None:
        self.battles += 1
        w = row["winner"]
        if w in self.sides:
            self.wins[w] += 1
        else:
            self.draws += 1
        t = int(row["turns"])
        self.turns[t] += 1
        self.turns_total += t
        self.turns_sq += t * t
        self.decisions_total += int(row.get("decisions", 0))
        for side in self.sides:
            self.losses[f"lost_{side}"] += int(row.get(f"lost_{side}", 0))
        for col, _, _ in self.loss_columns:
            self.losses[col] += int(row.get(col, 0))

    @property
    def mean_turns(self) -> float:
        return self.turns_total / self.battles if self.battles else 0.0

    @property
    def sd_turns(self) -> float:
        n = self.battles
        if n < 2:
            return 0.0
        return math.sqrt(max(0.0, (self.turns_sq - n * self.mean_turns**2) / (n - 1)))

    def win_rate(self, side: str) -> float:
        return self.wins[side] / self.battles if self.battles else 0.0

    def to_dict(self) -> dict[str, Any]:
        n = self.battles
        per = 1.0 / n if n else 0.0
        mean_losses: dict[str, dict[str, float]] = {s: {} for s in self.sides}
        for col, side, utype in self.loss_columns:
            mean_losses.setdefault(side, {})[utype] = self.losses[col] * per
        return {
            "variant": self.variant,
            "overrides": dict(self.overrides),
            "battles": n,
            "wins": {s: self.wins[s] for s in self.sides},
            "draws": self.draws,
            "win_rate": {s: self.win_rate(s) for s in self.sides},
            "ci95": {s: list(wilson(self.wins[s], n)) for s in self.sides},
            "draw_rate": self.draws * per,
            "draw_ci95": list(wilson(self.draws, n)),
            "mean_turns": self.mean_turns,
            "sd_turns": self.sd_turns,
            "turns_histogram": {str(k): v for k, v in sorted(self.turns.items())},
            "mean_units_lost": {s: self.losses[f"lost_{s}"] * per for s in self.sides},
            "mean_losses": mean_losses,
            "mean_decisions": self.decisions_total * per,
        }


class Comparison:
    """Paired differences of every variant against the baseline, fed row by row.

    Rows of the same battle index (same seed) are matched up as they arrive; only battles still
    waiting for one of their variants are held.
    """

    def __init__(self, variants: Sequence[str], sides: Sequence[str]) -> None:
        self.variants = list(variants)
        self.baseline = self.variants[0]
        self.sides = tuple(sides)
        self._pending: dict[int, dict[str, tuple[str, int]]] = {}
        self.wins: dict[tuple[str, str], PairedDiff] = {
            (v, s): PairedDiff() for v in self.variants[1:] for s in self.sides
        }
        self.turns: dict[str, PairedDiff] = {v: PairedDiff() for v in self.variants[1:]}

    def add(self, row: Mapping[str, Any]) -> None:
        if len(self.variants) < 2:
            return
        got = self._pending.setdefault(int(row["battle"]), {})
        got[str(row["variant"])] = (str(row["winner"]), int(row["turns"]))
        if len(got) < len(self.variants):
            return
        del self._pending[int(row["battle"])]
        bw, bt = got[self.baseline]
        for v in self.variants[1:]:
            vw, vt = got[v]
            for s in self.sides:
                self.wins[(v, s)].add(float(bw == s), float(vw == s))
            self.turns[v].add(float(bt), float(vt))

    @property
    def pending(self) -> int:
        return len(self._pending)

    def to_list(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for v in self.variants[1:]:
            out.append(
                {
                    "variant": v,
                    "baseline": self.baseline,
                    "win_rate": {s: self.wins[(v, s)].to_dict(bound=1.0) for s in self.sides},
                    "mean_turns": self.turns[v].to_dict(),
                }
            )
        return out
