"""The Ray backend against a real local Ray instance: same rows as the local backend."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest

from shieldwall.sim.simulate import SimConfig, run

pytestmark = pytest.mark.ray


def test_ray_backend_equals_local_backend(short_scenario: str, tmp_path: Path) -> None:
    pytest.importorskip("ray")
    import ray

    common = dict(battles=6, seed=11, red="random", blue="random", variants=["dice=d6"], batch_size=2)
    local = run(SimConfig(short_scenario, workers=2, backend="local", out=tmp_path / "l.parquet", **common))  # type: ignore[arg-type]
    assert not ray.is_initialized()
    remote = run(SimConfig(short_scenario, workers=2, backend="ray", out=tmp_path / "r.parquet", **common))  # type: ignore[arg-type]
    assert not ray.is_initialized()  # the backend shut down the instance it started
    assert (
        pq.read_table(tmp_path / "l.parquet").to_pylist() == pq.read_table(tmp_path / "r.parquet").to_pylist()
    )
    a, b = local.to_dict(), remote.to_dict()
    for key in ("wins", "draws", "win_rate", "ci95", "mean_turns", "variants", "differences"):
        assert a[key] == b[key]
    assert b["backend"] == "ray"
