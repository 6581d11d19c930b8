"""A ``--jobs`` beyond any machine's processes is a one-line usage error in every command that takes it, not a
crash in multiprocessing (a semaphore's count is a C int)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GAME = str(ROOT / "examples" / "gold-2p.grn")


@pytest.mark.parametrize("args", [
    ["validate", GAME],
    ["analyse", GAME],
    ["archive", "add", "{db}", GAME],
    ["archive", "index", "{db}"],
    ["archive", "search", "{db}", "--event", "type=ScoreEvent"],
])
def test_a_huge_jobs_value_is_a_usage_error(args, tmp_path):
    db = tmp_path / "club.db"
    if args[:2] != ["archive", "add"] and args[0] == "archive":
        subprocess.run([sys.executable, "-m", "grn", "archive", "add", str(db), GAME], check=True,
                       capture_output=True)
    argv = [a.format(db=db) for a in args] + ["--jobs", "99999999999999999999"]
    run = subprocess.run([sys.executable, "-m", "grn", *argv], capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 2
    assert "Traceback" not in run.stderr
    assert "--jobs must be at most 1024, not 99999999999999999999" in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1
