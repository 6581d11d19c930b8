"""The console script's start-up without the garbage collector's walks (R319)."""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path

import pytest

from grn.cli import launch

ROOT = Path(__file__).resolve().parent.parent

_RUN = """
import gc, sys
from grn.cli.launch import run
sys.argv = ["grn", *sys.argv[1:]]
try:
    run()
except SystemExit as exc:
    code = exc.code
print(code, gc.get_freeze_count(), gc.isenabled(), gc.get_threshold()[0])
"""


def own_process(*args: str) -> tuple[str, int, bool, int]:
    done = subprocess.run([sys.executable, "-c", _RUN, *args], capture_output=True, text=True, cwd=ROOT, check=True)
    code, frozen, enabled, young = done.stdout.strip().rpartition("\n")[2].split()
    return code, int(frozen), enabled == "True", int(young)


@pytest.mark.parametrize("args", [("validate", "examples/gold-2p.grn"),  # the light path (R190)
                                  ("validate", "--format", "json", "examples/gold-2p.grn"),  # through typer
                                  ("--version",)])
def test_the_command_runs_with_its_imports_frozen_and_the_collector_on(args: tuple[str, ...]) -> None:
    code, frozen, enabled, young = own_process(*args)
    assert code in ("0", "None")
    assert enabled  # the command itself runs with the collector, as any Python program
    assert frozen > 10_000  # what the imports made: grn's modules, the reader, typer where it is used
    assert young == launch.YOUNG_THRESHOLD  # collected less often than Python's 700 (R322)


def test_a_host_that_calls_main_keeps_its_collector_as_it_was(monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    # a test, a notebook or a program calling grn.cli.launch.main(): nothing of theirs is frozen
    before = gc.get_freeze_count()
    monkeypatch.setattr(sys, "argv", ["grn", "validate", str(ROOT / "examples" / "gold-2p.grn")])
    with pytest.raises(SystemExit):
        launch.main()
    capsys.readouterr()
    assert gc.isenabled()
    assert gc.get_freeze_count() == before
    assert gc.get_threshold()[0] != launch.YOUNG_THRESHOLD  # nor is its collector tuned
