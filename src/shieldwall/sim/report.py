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

#: the columns every battle row needs, and the kind of values each holds
REQUIRED = {"variant": "text", "battle": "integer", "seed": "integer", "winner": "text", "turns": "integer"}

#: what each kind of column is called in an error
KIND_WORDS = {
    "text": "text (a string column)",
    "integer": "whole numbers (an integer column)",
    "number": "numbers (an integer or floating-point column)",
}


def _kind(t: Any) -> str:
    """The kind of values of the Arrow type ``t``: ``text``, ``integer``, ``number`` (floating
    point), or the type's own name for anything else."""
    import pyarrow as pa

    if pa.types.is_dictionary(t):
        t = t.value_type
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        return "text"
    if pa.types.is_integer(t):
        return "integer"
    if pa.types.is_floating(t):
        return "number"
    return str(t)


def _check_kind(path: Path, column: str, kinds: dict[str, str], want: str) -> None:
    """``column`` holds ``want`` values (an integer column also holds ``number`` values), else a
    DataError naming it: DuckDB and the figures would otherwise fail on it with their own errors."""
    have = kinds[column]
    if have == want or (want == "number" and have == "integer"):
        return
    shown = {"text": "text", "integer": "whole numbers", "number": "floating-point numbers"}.get(have, have)
    raise DataError(str(path), column, f"must hold {KIND_WORDS[want]}; this file's holds {shown}")


def _meta_json(path: Path, meta: dict[str, str], key: str, valid: Any, what: str) -> Any:
    """The JSON value of the metadata entry ``key`` (None when the file has none): a DataError
    naming it when it is not JSON or ``valid(value)`` is false."""
    if key not in meta:
        return None
    try:
        value = json.loads(meta[key])
    except json.JSONDecodeError:
        raise DataError(str(path), f"{key} (metadata)", f"not JSON: must be {what}") from None
    if not valid(value):
        raise DataError(str(path), f"{key} (metadata)", f"must be {what}")
    return value


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(x, str) for x in value)


def _meta(path: Path) -> dict[str, Any]:
    """The file's shieldwall metadata, columns and their kinds, checked before any figure is
    worked out: every required column present and of its kind, ``overrides`` text, the metadata
    entries well formed and the loss columns they name present. A file written by ``simulate
    --out`` passes; one copied by another tool (DuckDB's COPY drops the metadata) or edited is
    refused with the column or entry named, never a traceback."""
    import pyarrow.parquet as pq

    try:
        schema = pq.read_schema(str(path))
    except (OSError, ValueError) as exc:
        raise DataError(str(path), "", f"not a readable Parquet file ({exc})") from None
    raw = schema.metadata or {}
    meta = {
        k.decode(errors="replace"): v.decode(errors="replace")
        for k, v in raw.items()
        if k.startswith(b"shieldwall.")
    }
    cols = list(schema.names)
    kinds = {name: _kind(t) for name, t in zip(schema.names, schema.types, strict=True)}
    for need, kind in REQUIRED.items():
        if need not in cols:
            raise DataError(
                str(path), need, "missing column: not a file written by 'shieldwall simulate --out'"
            )
        _check_kind(path, need, kinds, kind)
    if "overrides" in cols:
        _check_kind(path, "overrides", kinds, "text")
    sides = _meta_json(path, meta, "shieldwall.sides", _strings, "a list of side names")
    variants = _meta_json(path, meta, "shieldwall.variants", _strings, "a list of variant names")
    loss_cols = _meta_json(
        path,
        meta,
        "shieldwall.loss_columns",
        lambda v: isinstance(v, list) and all(_strings(c) and len(c) == 3 for c in v),
        "a list of [column, side, unit type] lists",
    )
    seed = meta.get("shieldwall.seed")
    if seed is not None and not seed.strip().lstrip("-").isdigit():
        raise DataError(str(path), "shieldwall.seed (metadata)", f"must be a whole number, not {seed!r}")
    for c, _, _ in loss_cols or []:
        if c not in cols:
            raise DataError(str(path), c, "missing column (named by the file's shieldwall.loss_columns)")
    return {
        "meta": meta,
        "columns": cols,
        "kinds": kinds,
        "sides": sides,
        "variants": variants,
        "loss_columns": [tuple(c) for c in loss_cols] if loss_cols is not None else None,
    }


def _check_nulls(con: Any, path: Path, columns: list[str]) -> None:
    """No row leaves any of ``columns`` empty (null): each battle has a variant, a winner, a
    number of turns and so on; a count, mean or histogram would otherwise fail on the gap, or
    quietly leave the battle out."""
    if not columns:
        return
    row = con.execute(
        "SELECT count(*), "
        + ", ".join(f'count(*) FILTER (WHERE "{_ident(c)}" IS NULL)' for c in columns)
        + " FROM b"
    ).fetchone()
    assert row is not None
    for c, nulls in zip(columns, row[1:], strict=True):
        if nulls:
            raise DataError(
                str(path), c, f"{nulls} of {row[0]} rows are empty (null); every battle needs a value"
            )


def _check_overrides(con: Any, path: Path) -> None:
    """Each row's ``overrides`` (the variant's rule parameters) is a JSON object, or empty."""
    cur = con.execute("SELECT DISTINCT overrides FROM b WHERE overrides IS NOT NULL AND overrides <> ''")
    while batch := cur.fetchmany(1000):
        for (text,) in batch:
            try:
                value = json.loads(text)
            except json.JSONDecodeError:
                value = None
            if not isinstance(value, dict):
                shown = text if len(text) <= 40 else text[:40] + "..."
                raise DataError(
                    str(path), "overrides", f"{shown!r} is not a JSON object (the variant's rule parameters)"
                )


def _ident(column: str) -> str:
    """``column`` for use inside a double-quoted SQL identifier."""
    return column.replace('"', '""')


def summarise(path: Path) -> dict[str, Any]:
    """Per-variant figures and paired differences against the first variant (the baseline). A
    file whose columns or metadata are not those ``simulate --out`` writes is a DataError naming
    the column (``_meta``, ``_check_nulls``, ``_check_overrides``), before any figure."""
    import duckdb

    path = Path(path)
    info = _meta(path)
    con = duckdb.connect()
    try:
        return _summarise(con, path, info)
    except duckdb.Error as exc:  # a file the checks let through that DuckDB still cannot read
        raise DataError(str(path), "", f"cannot be summarised: {str(exc).splitlines()[0]}") from None
    finally:
        con.close()


def _summarise(con: Any, path: Path, info: dict[str, Any]) -> dict[str, Any]:
    """``summarise`` on the open DuckDB connection ``con``."""
    meta, cols, kinds = info["meta"], info["columns"], info["kinds"]
    quoted = "'" + str(path).replace("'", "''") + "'"
    con.execute(f"CREATE VIEW b AS SELECT * FROM read_parquet({quoted})")
    _check_nulls(con, path, list(REQUIRED))
    if "overrides" in cols:
        _check_overrides(con, path)
    if info["sides"] is not None:
        sides: list[str] = info["sides"]
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
    order: list[str] = info["variants"] or []
    variants = [v for v in order if v in present] + [v for v in present if v not in order]
    if info["loss_columns"] is not None:
        loss_cols: list[tuple[str, str, str]] = info["loss_columns"]
    else:
        loss_cols = [
            (c, "", c) for c in cols if c.startswith("lost_") and c not in {f"lost_{s}" for s in sides}
        ]
    names = [c for c, _, _ in loss_cols] + [f"lost_{s}" for s in sides if f"lost_{s}" in cols]
    for c in names:
        _check_kind(path, c, kinds, "number")
    _check_nulls(con, path, names)
    out_variants: list[dict[str, Any]] = []
    for v in variants:
        figures = [
            "count(*)",
            *("count(*) FILTER (WHERE winner = ?)" for _ in sides),
            "count(*) FILTER (WHERE winner = 'draw')",
            "avg(turns)",
            "stddev_samp(turns)",
            "min(turns)",
            "max(turns)",
        ]
        row = con.execute(
            f"SELECT {', '.join(figures)} FROM b WHERE variant = ?",
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
        if names:
            avgs = con.execute(
                "SELECT " + ", ".join(f'avg("{_ident(c)}")' for c in names) + " FROM b WHERE variant = ?", [v]
            ).fetchone()
            assert avgs is not None
            got = dict(zip(names, avgs, strict=True))
            for c, side, utype in loss_cols:
                mean_losses.setdefault(side, {})[utype] = float(got[c])
            units_lost = {s: float(got[f"lost_{s}"]) for s in sides if f"lost_{s}" in got}
        overrides = (
            con.execute("SELECT any_value(overrides) FROM b WHERE variant = ?", [v]).fetchone()
            if "overrides" in cols
            else None
        )
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


def _plain_legend(ax: Any) -> None:
    """The axes' legend, its labels (sides, variants: data) shown as they are, not as mathtext;
    none when nothing is labelled (a file of draws only has no side to show)."""
    if not ax.get_legend_handles_labels()[0]:
        return
    for text in ax.legend().get_texts():
        text.set_parse_math(False)


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
    # names are data: shown as they are, never read as mathtext ($...$), whose errors stop the plot
    ax.set_xticklabels([v["variant"] for v in variants], rotation=15, ha="right", parse_math=False)
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% Wilson interval)")
    ax.set_title(
        f"{summary.get('scenario') or ''}: {summary.get('red')} (red) v {summary.get('blue')} (blue)",
        parse_math=False,
    )
    _plain_legend(ax)
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
    _plain_legend(ax)
    fig.tight_layout()
    p = out_dir / f"{stem}-turns.png"
    fig.savefig(p, dpi=100)
    plt.close(fig)
    paths.append(p)
    return paths
