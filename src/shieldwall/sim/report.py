"""``report``: summarise a simulation's Parquet file with DuckDB and draw PNG plots.

The summary is computed in SQL over the file (one row per battle), so it also works on files
too large for memory and on files written by other runs; intervals are the same Wilson and paired
intervals the simulator prints.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from shieldwall.core.errors import DataError
from shieldwall.sim.stats import Z95, wilson


def _meta(path: Path) -> dict[str, Any]:
    import pyarrow.parquet as pq

    try:
        schema = pq.read_schema(str(path))
    except (OSError, ValueError) as exc:
        raise DataError(str(path), "", f"not a readable Parquet file ({exc})") from None
    raw = schema.metadata or {}
    meta = {k.decode(): v.decode() for k, v in raw.items() if k.startswith(b"shieldwall.")}
    cols = list(schema.names)
    for need in ("variant", "battle", "seed", "winner", "turns"):
        if need not in cols:
            raise DataError(
                str(path), need, "missing column: not a file written by 'shieldwall simulate --out'"
            )
    return {"meta": meta, "columns": cols}


def summarise(path: Path) -> dict[str, Any]:
    """Per-variant figures and paired differences against the first variant (the baseline)."""
    import duckdb

    path = Path(path)
    info = _meta(path)
    meta, cols = info["meta"], info["columns"]
    con = duckdb.connect()
    quoted = "'" + str(path).replace("'", "''") + "'"
    con.execute(f"CREATE VIEW b AS SELECT * FROM read_parquet({quoted})")
    if "shieldwall.sides" in meta:
        sides: list[str] = json.loads(meta["shieldwall.sides"])
    else:
        sides = [
            r[0]
            for r in con.execute("SELECT DISTINCT winner FROM b WHERE winner <> 'draw' ORDER BY 1").fetchall()
        ]
    present = [
        r[0]
        for r in con.execute(
            "SELECT variant FROM b GROUP BY variant ORDER BY min(battle), variant"
        ).fetchall()
    ]
    order: list[str] = json.loads(meta.get("shieldwall.variants", "[]"))
    variants = [v for v in order if v in present] + [v for v in present if v not in order]
    if "shieldwall.loss_columns" in meta:
        loss_cols = [tuple(c) for c in json.loads(meta["shieldwall.loss_columns"])]
    else:
        loss_cols = [
            (c, "", c) for c in cols if c.startswith("lost_") and c not in {f"lost_{s}" for s in sides}
        ]
    out_variants: list[dict[str, Any]] = []
    for v in variants:
        wins_sql = ", ".join("count(*) FILTER (WHERE winner = ?)" for _ in sides)
        row = con.execute(
            f"SELECT count(*), {wins_sql}, count(*) FILTER (WHERE winner = 'draw'), avg(turns), "
            "stddev_samp(turns), min(turns), max(turns) FROM b WHERE variant = ?",
            [*sides, v],
        ).fetchone()
        assert row is not None
        n = int(row[0])
        wins = {s: int(row[1 + i]) for i, s in enumerate(sides)}
        draws = int(row[1 + len(sides)])
        mean_t, sd_t, min_t, max_t = row[2 + len(sides) :]
        hist = {
            str(t): int(c)
            for t, c in con.execute(
                "SELECT turns, count(*) FROM b WHERE variant = ? GROUP BY turns ORDER BY turns", [v]
            ).fetchall()
        }
        mean_losses: dict[str, dict[str, float]] = {s: {} for s in sides}
        units_lost: dict[str, float] = {}
        if loss_cols or any(f"lost_{s}" in cols for s in sides):
            names = [c for c, _, _ in loss_cols] + [f"lost_{s}" for s in sides if f"lost_{s}" in cols]
            avgs = con.execute(
                "SELECT " + ", ".join(f'avg("{c}")' for c in names) + " FROM b WHERE variant = ?", [v]
            ).fetchone()
            assert avgs is not None
            got = dict(zip(names, avgs, strict=True))
            for c, side, utype in loss_cols:
                mean_losses.setdefault(side, {})[utype] = float(got[c])
            units_lost = {s: float(got[f"lost_{s}"]) for s in sides if f"lost_{s}" in got}
        overrides = con.execute("SELECT any_value(overrides) FROM b WHERE variant = ?", [v]).fetchone()
        out_variants.append(
            {
                "variant": v,
                "overrides": json.loads(overrides[0]) if overrides and overrides[0] else {},
                "battles": n,
                "wins": wins,
                "draws": draws,
                "win_rate": {s: wins[s] / n if n else 0.0 for s in sides},
                "ci95": {s: list(wilson(wins[s], n)) for s in sides},
                "mean_turns": float(mean_t) if mean_t is not None else 0.0,
                "sd_turns": float(sd_t) if sd_t is not None else 0.0,
                "min_turns": min_t,
                "max_turns": max_t,
                "turns_histogram": hist,
                "mean_units_lost": units_lost,
                "mean_losses": mean_losses,
            }
        )
    differences: list[dict[str, Any]] = []
    if len(variants) > 1:
        base = variants[0]
        for v in variants[1:]:
            d: dict[str, Any] = {"variant": v, "baseline": base, "win_rate": {}}
            for s in sides:
                r = con.execute(
                    "SELECT count(*), avg(dv), stddev_samp(dv), count(*) FILTER (WHERE dv > 0), "
                    "count(*) FILTER (WHERE dv < 0) FROM (SELECT (x.winner = ?)::INT - (y.winner = ?)::INT "
                    "AS dv FROM b x JOIN b y ON x.battle = y.battle AND x.seed = y.seed "
                    "WHERE x.variant = ? AND y.variant = ?)",
                    [s, s, v, base],
                ).fetchone()
                assert r is not None
                n, mean, sd = int(r[0]), float(r[1] or 0.0), float(r[2] or 0.0)
                half = Z95 * sd / math.sqrt(n) if n else math.inf
                d["win_rate"][s] = {
                    "pairs": n,
                    "diff": mean,
                    "ci95": [max(-1.0, mean - half), min(1.0, mean + half)],
                    "higher": int(r[3]),
                    "lower": int(r[4]),
                }
            r = con.execute(
                "SELECT count(*), avg(dv), stddev_samp(dv), count(*) FILTER (WHERE dv > 0), "
                "count(*) FILTER (WHERE dv < 0) FROM (SELECT x.turns - y.turns AS dv FROM b x JOIN b y "
                "ON x.battle = y.battle AND x.seed = y.seed WHERE x.variant = ? AND y.variant = ?)",
                [v, base],
            ).fetchone()
            assert r is not None
            n, mean, sd = int(r[0]), float(r[1] or 0.0), float(r[2] or 0.0)
            half = Z95 * sd / math.sqrt(n) if n else math.inf
            d["mean_turns"] = {
                "pairs": n,
                "diff": mean,
                "ci95": [mean - half, mean + half],
                "higher": int(r[3]),
                "lower": int(r[4]),
            }
            differences.append(d)
    total = con.execute("SELECT count(*) FROM b").fetchone()
    con.close()
    return {
        "file": str(path),
        "scenario": meta.get("shieldwall.scenario_name", meta.get("shieldwall.scenario")),
        "scenario_file": meta.get("shieldwall.scenario"),
        "seed": int(meta["shieldwall.seed"]) if "shieldwall.seed" in meta else None,
        "red": meta.get("shieldwall.red"),
        "blue": meta.get("shieldwall.blue"),
        "sides": sides,
        "rows": int(total[0]) if total else 0,
        "variants": out_variants,
        "differences": differences,
    }


def plot(summary: dict[str, Any], out_dir: Path, stem: str) -> list[Path]:
    """Write ``<stem>-winrate.png`` (win rate with 95% intervals per variant and side) and
    ``<stem>-turns.png`` (turns histogram per variant)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out_dir.mkdir(parents=True, exist_ok=True)
    variants = summary["variants"]
    sides = summary["sides"]
    colours = {"red": "#b22222", "blue": "#1f4e9c"}
    paths: list[Path] = []

    fig, ax = plt.subplots(figsize=(max(5.0, 1.6 * len(variants) + 2), 4.0))
    width = 0.8 / max(1, len(sides))
    for j, s in enumerate(sides):
        xs = [i + (j - (len(sides) - 1) / 2) * width for i in range(len(variants))]
        ys = [v["win_rate"][s] for v in variants]
        lo = [v["win_rate"][s] - v["ci95"][s][0] for v in variants]
        hi = [v["ci95"][s][1] - v["win_rate"][s] for v in variants]
        ax.bar(xs, ys, width, yerr=[lo, hi], capsize=4, label=s, color=colours.get(s), alpha=0.85)
    ax.set_xticks(range(len(variants)))
    ax.set_xticklabels([v["variant"] for v in variants], rotation=15, ha="right")
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% Wilson interval)")
    ax.set_title(
        f"{summary.get('scenario') or ''}: {summary.get('red')} (red) v {summary.get('blue')} (blue)"
    )
    ax.legend()
    fig.tight_layout()
    p = out_dir / f"{stem}-winrate.png"
    fig.savefig(p, dpi=100)
    plt.close(fig)
    paths.append(p)

    fig, ax = plt.subplots(figsize=(6.0, 4.0))
    hists = [{int(k): c for k, c in v["turns_histogram"].items()} for v in variants]
    all_turns = sorted({t for h in hists for t in h})
    bw = 0.8 / max(1, len(variants))
    for i, (v, h) in enumerate(zip(variants, hists, strict=True)):
        xs = [t + (i - (len(variants) - 1) / 2) * bw for t in all_turns]
        ax.bar(xs, [h.get(t, 0) for t in all_turns], bw, label=v["variant"])
    if all_turns:
        ax.set_xticks(all_turns)
        ax.set_xlim(min(all_turns) - 0.6, max(all_turns) + 0.6)
    ax.set_xlabel("turns (the battle ended on this turn)")
    ax.set_ylabel("battles")
    ax.set_title("Battle length")
    ax.legend()
    fig.tight_layout()
    p = out_dir / f"{stem}-turns.png"
    fig.savefig(p, dpi=100)
    plt.close(fig)
    paths.append(p)
    return paths
