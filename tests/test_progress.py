"""R357: long commands show a progress bar with the time left on a terminal, and nothing of it when piped."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("rich", reason="the progress bar is drawn with rich")

COMMANDS = {
    "analyse": ["analyse", "examples/gold-2p.grn", "--playouts", "4"],
    "arena": ["arena", "greedy", "random", "--game", "gold", "--deals", "2"],
    "selfplay": ["selfplay", "--game", "gold", "--games", "3"],
    "archive add": ["archive", "add", "{db}", "examples/gold-2p.grn", "examples/goldrush-2p.grn"],
}


def run(args: list[str], *, terminal: bool) -> tuple[str, str]:
    """The command's standard output (a pipe) and standard error (a terminal, or a pipe)."""
    command = [sys.executable, "-m", "grn", *args]
    env = {**os.environ, "COLUMNS": "100", "TERM": "xterm"}
    if not terminal:
        done = subprocess.run(command, capture_output=True, text=True, timeout=300, env=env)
        return done.stdout, done.stderr
    master, slave = pty.openpty()
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=slave, env=env)
    os.close(slave)
    seen = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the command closed the terminal: it has ended
            break
        if not chunk:
            break
        seen += chunk
    out = proc.stdout.read().decode() if proc.stdout else ""
    proc.wait(timeout=300)
    os.close(master)
    return out, seen.decode(errors="replace")


@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_bar_with_the_time_left_on_a_terminal_and_none_when_piped(name: str, tmp_path: Path) -> None:
    args = [a.replace("{db}", str(tmp_path / f"{name[:4]}.db")) for a in COMMANDS[name]]
    out, err = run(args, terminal=True)
    assert " left " in err and "━" in err, err[-500:]
    assert "━" not in out  # the bar never reaches what a script reads
    args = [a.replace("{db}", str(tmp_path / f"{name[:4]}-piped.db")) for a in COMMANDS[name]]
    piped_out, piped_err = run(args, terminal=False)
    assert "━" not in piped_err and " left " not in piped_err
    assert piped_out == out or name in ("archive add",)
