"""``simulate``: play a scenario many times under one or more rule variants and summarise.

Variant syntax (``--variant``): one *set* of overrides is ``KEY=VALUE[,KEY=VALUE...]``, e.g.
``dice=d6,hit_limit=12``. Each ``--variant`` adds one set; the baseline (the scenario as it is) is
always played too, first. Every variant plays the same battle seeds (common random numbers), so
their differences are measured pair by pair.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shieldwall.core.errors import ShieldwallError
from shieldwall.core.game import Game
from shieldwall.sim.runner import Batch, Setup, loss_columns
from shieldwall.sim.seeds import battle_seeds
from shieldwall.sim.stats import Comparison, Summary

BASELINE = "baseline"
#: rows buffered before a Parquet row group is written
ROW_GROUP = 4096


class VariantError(ShieldwallError, ValueError):
    """A ``--variant`` that cannot be read."""


def parse_variant(text: str) -> dict[str, str]:
    """``"dice=d6, hit_limit=12"`` -> ``{"dice": "d6", "hit_limit": "12"}`` (values still text)."""
    out: dict[str, str] = {}
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        k, eq, v = part.partition("=")
        k, v = k.strip(), v.strip()
        if not eq or not k or not v:
            raise VariantError(
                f"cannot read variant {text!r}: expected KEY=VALUE[,KEY=VALUE...], e.g. dice=d6,hit_limit=12"
            )
        if k in out:
            raise VariantError(f"variant {text!r} sets {k!r} twice")
        out[k] = v
    if not out:
        raise VariantError(f"empty variant {text!r}: expected KEY=VALUE[,KEY=VALUE...]")
    return out


def variant_label(overrides: Mapping[str, Any]) -> str:
    return ",".join(f"{k}={_fmt(v)}" for k, v in overrides.items()) or BASELINE


def _fmt(v: Any) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)


def parameter_help(game_cls: type[Game]) -> str:
    """The declared parameters of a rule system, one per line, for error messages and --help."""
    lines = []
    for p in game_cls.parameters.values():
        choices = f" ({'|'.join(map(str, p.choices))})" if p.choices else ""
        lines.append(f"  {p.name}={_fmt(p.default)}{choices}: {p.doc}")
    return "\n".join(lines)


@dataclass
class SimConfig:
    scenario: str | None = None
    battles: int = 100
    seed: int = 0
    workers: int | None = None
    backend: str = "local"
    red: str = "scripted"
    blue: str = "scripted"
    variants: Sequence[str] = ()
    out: Path | None = None
    address: str | None = None
    batch_size: int | None = None


@dataclass
class SimResult:
    config: SimConfig
    scenario: str
    ruleset: str
    sides: tuple[str, ...]
    summaries: list[Summary]
    comparison: Comparison
    seconds: float
    workers: int
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def total_battles(self) -> int:
        return sum(s.battles for s in self.summaries)

    @property
    def battles_per_second(self) -> float:
        return self.total_battles / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        """The ``--json`` object: the baseline's figures at the top level, every variant in
        ``variants`` and the paired differences in ``differences``."""
        c = self.config
        base = self.summaries[0].to_dict()
        out: dict[str, Any] = {
            "scenario": self.scenario,
            "ruleset": self.ruleset,
            "seed": c.seed,
            "red": c.red,
            "blue": c.blue,
            "backend": c.backend,
            "workers": self.workers,
        }
        out.update(base)
        out.update(
            {
                "total_battles": self.total_battles,
                "seconds": self.seconds,
                "battles_per_second": self.battles_per_second,
                "variants": [s.to_dict() for s in self.summaries],
                "differences": self.comparison.to_list(),
            }
        )
        if c.out is not None:
            out["out"] = str(c.out)
        if self.extra.get("data_label"):  # e.g. that the rule system's tables are an illustrative sample
            out["data_label"] = str(self.extra["data_label"])
        return out


def prepare(config: SimConfig) -> tuple[Game, list[Setup]]:
    """Load the scenario, validate every variant against the rule system's declared parameters and
    build one ``Setup`` per variant (the baseline first)."""
    from shieldwall.ai.base import check_bot
    from shieldwall.core.datafiles import read_toml
    from shieldwall.core.errors import UnknownName
    from shieldwall.io.scenarios import display_name, game_from_data, resolve

    if config.battles < 1:
        raise VariantError("--battles must be at least 1")
    path = resolve(config.scenario)
    data = read_toml(path)
    file = display_name(path)
    base = game_from_data(data, file)
    cls = type(base)
    for b in (config.red, config.blue):
        check_bot(b, cls.info.id)  # a listed name, or the search bot with a budget (mcts:200)
    sets: list[dict[str, Any]] = [{}]
    for text in config.variants:
        raw = parse_variant(text)
        try:
            parsed = cls.check_params(raw)
        except UnknownName as exc:
            if exc.kind == "parameter":
                raise UnknownName(
                    f"rule parameter for {cls.info.id} (see 'shieldwall simulate --help')",
                    exc.name,
                    exc.choices,
                ) from None
            raise
        except ValueError as exc:
            raise VariantError(str(exc)) from None
        if parsed in sets:
            raise VariantError(f"variant {text!r} is given twice")
        sets.append(parsed)
    games = [base] + [game_from_data(data, file, s) for s in sets[1:]]
    # a variant whose values are the baseline's (the defaults, or the scenario's own) plays the
    # baseline again: refused, as a repeat is ("--variant dice=d5" was accepted)
    for i in range(1, len(games)):
        same = next((j for j in range(i) if dict(games[j].params) == dict(games[i].params)), None)
        if same is not None:
            what = "the baseline" if same == 0 else f"variant {config.variants[same - 1]!r}"
            raise VariantError(f"variant {config.variants[i - 1]!r} plays the same rules as {what}")
    cols = loss_columns(games)
    setups = [
        Setup(
            file, data, s, variant_label(s), config.red, config.blue, tuple(cls.info.sides), cols
        ).with_key()
        for s in sets
    ]
    return base, setups


def plan(
    setups: Sequence[Setup], seed: int, battles: int, batch_size: int, taper: int = 0
) -> Iterator[Batch]:
    """Batches chunk by chunk of seeds; within a chunk, one batch per variant (same seeds).
    ``taper``: the number of workers, if the last chunks are to shrink (each at most the battles
    left over twice that number), so that a run's last batches end close together."""
    start = 0
    while start < battles:
        left = battles - start
        size = min(batch_size, -(-left // (2 * taper))) if taper > 0 else min(batch_size, left)
        items = tuple(battle_seeds(seed, size, start))
        for s in setups:
            yield Batch(s, items)
        start += size


#: batches per worker the default batch size aims at: the last batches of a run leave workers idle
#: while one finishes, so the more (and shorter) they are, the less of a run that tail is (with 4
#: a worker, 200 One-Hour battles on 2 workers ran 1.51x one worker; with 16, 1.77x: bench_sim.py)
BATCHES_PER_WORKER = 16


def default_batch_size(battles: int, variants: int, workers: int) -> int:
    """Small enough that every worker gets many batches (``BATCHES_PER_WORKER``), large enough to
    amortise the hand-off (at most 25 battles); the rows never depend on it."""
    per = -(-battles * variants // max(1, workers * BATCHES_PER_WORKER))
    return max(1, min(25, -(-per // variants)))


def run(config: SimConfig, progress: Callable[[int, int], None] | None = None) -> SimResult:
    """Run a simulation; ``progress(done, total)`` is called after each batch."""
    from shieldwall.sim.backends import default_workers, run_batches

    game, setups = prepare(config)
    workers = config.workers or (default_workers() if config.backend == "local" else 0)
    bsize = config.batch_size or default_batch_size(config.battles, len(setups), max(workers, 1))
    summaries = [Summary(s.variant, s.overrides, s.sides, s.loss_columns) for s in setups]
    by_name = {s.variant: summ for s, summ in zip(setups, summaries, strict=True)}
    comparison = Comparison([s.variant for s in setups], setups[0].sides)
    writer = ParquetSink(config.out, setups, config, game.scenario_name) if config.out is not None else None
    total = config.battles * len(setups)
    done = 0
    t0 = time.perf_counter()
    rank = {s.variant: i for i, s in enumerate(setups)}
    try:
        chunk: list[dict[str, Any]] = []
        pending = 0
        for rows in run_batches(
            # the default batches shrink at the end of a run on several workers (the rows never
            # depend on it)
            plan(
                setups, config.seed, config.battles, bsize, 0 if config.batch_size or workers < 2 else workers
            ),
            config.backend,
            workers or None,
            config.address,
            setups,
        ):
            chunk.extend(rows)
            pending += 1
            done += len(rows)
            if pending == len(setups):
                # a chunk of seeds is complete for every variant: emit it battle by battle, so the
                # order of the rows does not depend on the batch size either
                chunk.sort(key=lambda r: (r["battle"], rank[r["variant"]]))
                for row in chunk:
                    by_name[row["variant"]].add(row)
                    comparison.add(row)
                if writer is not None:
                    writer.write(chunk)
                chunk, pending = [], 0
            if progress is not None:
                progress(done, total)
    finally:
        if writer is not None:
            writer.close()
    seconds = time.perf_counter() - t0
    return SimResult(
        config,
        game.scenario_name,
        game.info.id,
        setups[0].sides,
        summaries,
        comparison,
        seconds,
        workers,
        {"data_label": label} if (label := game.new_state(0).view().get("label")) else {},
    )


class ParquetSink:
    """Rows to a Parquet file, a row group at a time (memory stays flat)."""

    def __init__(
        self, path: Path, setups: Sequence[Setup], config: SimConfig, scenario_name: str = ""
    ) -> None:
        import json

        import pyarrow as pa
        import pyarrow.parquet as pq

        s0 = setups[0]
        fields = [
            pa.field("variant", pa.string()),
            pa.field("overrides", pa.string()),
            pa.field("battle", pa.int64()),
            pa.field("seed", pa.int64()),
            pa.field("winner", pa.string()),
            pa.field("reason", pa.string()),
            pa.field("turns", pa.int32()),
            pa.field("decisions", pa.int32()),
            pa.field("events", pa.int32()),
        ]
        fields += [pa.field(f"lost_{side}", pa.int32()) for side in s0.sides]
        fields += [pa.field(col, pa.int32()) for col, _, _ in s0.loss_columns]
        meta = {
            "shieldwall.scenario": s0.scenario_file,
            "shieldwall.scenario_name": scenario_name or s0.scenario_file,
            "shieldwall.seed": str(config.seed),
            "shieldwall.red": config.red,
            "shieldwall.blue": config.blue,
            "shieldwall.sides": json.dumps(list(s0.sides)),
            "shieldwall.variants": json.dumps([s.variant for s in setups]),
            "shieldwall.loss_columns": json.dumps([list(c) for c in s0.loss_columns]),
        }
        self.schema = pa.schema(fields, metadata=meta)
        self._overrides = {s.variant: json.dumps(dict(s.overrides), sort_keys=True) for s in setups}
        self._pa = pa
        path.parent.mkdir(parents=True, exist_ok=True)
        self._writer = pq.ParquetWriter(str(path), self.schema)
        self._buf: list[dict[str, Any]] = []

    def write(self, rows: Sequence[dict[str, Any]]) -> None:
        for r in rows:
            self._buf.append({**r, "overrides": self._overrides[r["variant"]]})
        if len(self._buf) >= ROW_GROUP:
            self._flush()

    def _flush(self) -> None:
        if self._buf:
            table = self._pa.Table.from_pylist(self._buf, schema=self.schema)
            self._writer.write_table(table)
            self._buf = []

    def close(self) -> None:
        self._flush()
        self._writer.close()
