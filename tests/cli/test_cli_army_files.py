"""``army cost`` reads an army file as the core reads data files: a fifo would have blocked the
command for ever (its size is 0, so the size check let it through to ``read_text``), and DBM's
own reader took a file of any size. Found by an exploratory test of the command line."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from shieldwall.cli import run
from shieldwall.core.datafiles import MAX_FILE_BYTES
from shieldwall.core.errors import DataError


def _run_with_timeout(args: list[str], seconds: float = 30.0) -> int:
    out: list[int] = []
    t = threading.Thread(target=lambda: out.append(run(args)), daemon=True)
    t.start()
    t.join(seconds)
    assert out, f"{args} did not return within {seconds} s"
    return out[0]


def test_army_cost_refuses_a_fifo_and_a_huge_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "army.toml"
    os.mkfifo(fifo)
    assert _run_with_timeout(["army", "cost", str(fifo)]) == 2
    assert "not a regular file" in capsys.readouterr().err
    big = tmp_path / "big.toml"
    big.write_text("#" * 3_000_000, encoding="utf-8")
    assert _run_with_timeout(["army", "cost", str(big)]) == 2
    assert "larger than" in capsys.readouterr().err


def test_dbm_reads_a_user_s_data_file_within_the_core_limit(tmp_path: Path) -> None:
    from shieldwall.rulesets.dbm.tables import load_order_of_battle

    big = tmp_path / "oob.toml"
    big.write_text("#" * (MAX_FILE_BYTES + 10), encoding="utf-8")
    with pytest.raises(DataError, match="larger than"):
        load_order_of_battle(big, str(big))
