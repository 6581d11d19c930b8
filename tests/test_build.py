"""The install the tests run on: compiled with mypyc (unless asked not to), up to date, and equal to pure Python."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from grn import _compiled

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(bool(os.environ.get("GRN_PURE_PYTHON")), reason="GRN_PURE_PYTHON is set: a pure-Python install")
def test_the_hot_modules_run_compiled():
    # The speed figures in the README and the benchmark are for the compiled build,
    # so the tests must run it too.
    assert _compiled.status() == "compiled", _compiled.compiled_modules()


def test_no_compiled_module_is_older_than_its_source():
    assert _compiled.stale() == [], "run `pip install -e .` again: the compiled modules are out of date"


def test_pure_python_gives_the_same_reports(tmp_path):
    # The same sources run uncompiled where no C compiler is at hand: a copy of the
    # package without the extensions must validate every example to the same report.
    shutil.copytree(ROOT / "grn", tmp_path / "grn", ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    shutil.copytree(ROOT / "grammar", tmp_path / "grn" / "grammar")
    shutil.copytree(ROOT / "schemas", tmp_path / "grn" / "schemas")
    examples = sorted(str(p) for p in (ROOT / "examples").glob("**/*.grn"))

    def run(path: str) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "PYTHONPATH": path}
        code = ("import sys, grn._compiled as c; print(c.status(), file=sys.stderr); "
                "from grn.cli.app import main; sys.argv = ['grn', 'validate', '--format', 'json', *sys.argv[1:]]; main()")
        return subprocess.run([sys.executable, "-c", code, *examples], capture_output=True, text=True, env=env,
                              cwd=tmp_path)

    pure = run(str(tmp_path))
    assert pure.stderr.strip().endswith("pure Python"), pure.stderr
    here = run(str(ROOT))
    assert pure.returncode == here.returncode == 0, pure.stderr
    assert pure.stdout == here.stdout
