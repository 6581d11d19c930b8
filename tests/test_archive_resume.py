"""A killed ``grn archive add`` leaves a usable archive, and running it again completes it.

The add runs in its own process and is killed (SIGKILL: no clean-up at all)
once it has committed some batches of a large file.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from grn.cli.app import app

runner = CliRunner()


def _rows(db: Path) -> list[tuple[object, ...]]:
    con = sqlite3.connect(db)
    rows = con.execute("SELECT file_index, text, valid, dedup FROM games ORDER BY file_index").fetchall()
    con.close()
    return rows


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_killed_add_resumes(tmp_path: Path) -> None:
    games = runner.invoke(app, ["selfplay", "--players", "2", "--seed", "70", "--games", "20"]).stdout
    parts = games.split('[Round "')
    # 600 games: the 20 self-played ones again and again, each with its own Round tag
    big = []
    for i in range(30):
        big.append(parts[0] + "".join(f'[Round "{i}-' + p for p in parts[1:]))
    (tmp_path / "big.grn").write_text("\n".join(big), encoding="utf-8")
    db = tmp_path / "a.db"
    cmd = [sys.executable, "-m", "grn", "archive", "add", "--batch", "20", "-q", str(db), str(tmp_path / "big.grn")]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    done = 0
    while time.monotonic() < deadline and proc.poll() is None:
        if db.exists():
            try:
                con = sqlite3.connect(db, timeout=0.1)
                row = con.execute("SELECT done FROM files").fetchone()
                con.close()
                done = row[0] if row else 0
            except sqlite3.OperationalError:
                done = 0
            if done >= 60:
                break
        time.sleep(0.005)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL, "the add finished before it could be killed"
    # usable: consistent, searchable, and it holds whole batches only
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    stopped_at = con.execute("SELECT done, complete FROM files").fetchone()
    con.close()
    assert stopped_at[1] == 0 and stopped_at[0] % 20 == 0 and 0 < stopped_at[0] < 600
    count = runner.invoke(app, ["archive", "search", str(db), "--count"])
    assert count.exit_code == 0 and count.stdout.strip() == str(stopped_at[0])
    # a re-run completes it, and the archive is what an uninterrupted add makes
    again = runner.invoke(app, ["archive", "add", "--batch", "20", "-q", str(db), str(tmp_path / "big.grn")])
    assert again.exit_code == 0, again.output
    clean = tmp_path / "clean.db"
    assert runner.invoke(app, ["archive", "add", "-q", str(clean), str(tmp_path / "big.grn")]).exit_code == 0
    assert _rows(db) == _rows(clean)
    assert len(_rows(db)) == 600
