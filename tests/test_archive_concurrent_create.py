"""Several processes making one archive at the same moment all succeed (issue 45, R345): four real processes
start together on a file that does not exist yet, again and again."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FILES = ["examples/gold-2p.grn", "examples/goldrush-2p.grn", "examples/goldrush-2p.grn"]
TRIALS = 8


def _start(args: list[str]) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, *args], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def test_archive_add_at_once_on_a_new_archive_all_succeed(tmp_path: Path):
    serve = pytest.importorskip("starlette") is not None
    for trial in range(TRIALS):
        db = tmp_path / f"club{trial}.db"
        procs = [_start(["-m", "grn", "archive", "add", str(db), f, "-q"]) for f in FILES]
        if serve:  # grn serve starting on the same new file (its store makes the archive)
            procs.append(_start(["-c", f"from grn.serve.store import Store; Store({str(db)!r})"]))
        for proc in procs:
            out, err = proc.communicate(timeout=120)
            assert proc.returncode == 0, (trial, proc.args, err)
            assert "locked" not in err and "other tables" not in err
        con = sqlite3.connect(db)
        # each file once, its games once, though two processes added the same file at once
        assert con.execute("SELECT count(*) FROM files").fetchone()[0] == 2
        assert con.execute("SELECT count(*) FROM games").fetchone()[0] == 2
        assert con.execute("PRAGMA page_size").fetchone()[0] == 8192
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        con.close()


def test_a_file_with_other_tables_is_still_refused(tmp_path: Path):
    db = tmp_path / "other.db"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE mine (x)")
    con.commit()
    con.close()
    result = subprocess.run([sys.executable, "-m", "grn", "archive", "add", str(db), FILES[0]], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 1 and "the database holds other tables" in result.stderr
