"""The regression guard of the write path (bench/core.py), small: CI fails only when the hand
path, the simulation or a device read grows past twice its recorded ratio to the floor.

It runs the benchmark as its own process, against a fresh database of the kind the suite
runs on, with production settings: the ratios it compares were recorded that way
(bench/core.json), and a test database's transactions would not be the floor's.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from bench import core

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_the_write_path_and_the_reads_stay_within_twice_their_recorded_ratio_to_the_floor():
    db = "postgres" if connection.vendor == "postgresql" else "sqlite"
    assert core.recorded(f"{db} small"), "no ratios recorded for this database"
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    env = {
        k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE")
    }
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "bench.core",
            "--db",
            db,
            "--size",
            "small",
            "--name",
            f"snowman_core_guard_{worker}",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_guard_fails_a_ratio_past_twice_its_record_and_nothing_less():
    was = {"hand": 5.0, "simulate": 5000.0}
    assert core.regressions({"hand": 9.9, "simulate": 9000.0}, was) == []
    (found,) = core.regressions({"hand": 10.5, "simulate": 9000.0}, was)
    assert found.startswith("hand: 10.5×")
