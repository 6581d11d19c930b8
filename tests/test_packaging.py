"""The wheel carries what the installed package loads at run time."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_wheel_carries_grammar_schemas_and_data(tmp_path):
    src = tmp_path / "src"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(".venv", ".git", "*.egg-info", "build", "__pycache__",
                                                             "*.so"))
    # Pure Python: compiling takes a minute and a half, and the contents checked here are the same.
    env = {**os.environ, "GRN_PURE_PYTHON": "1"}
    out = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                          "-w", str(tmp_path / "dist"), str(src)], capture_output=True, text=True, env=env)
    if out.returncode != 0 and "setuptools" in out.stderr.lower():
        pytest.skip("setuptools is not installed in this environment: cannot build the wheel offline")
    assert out.returncode == 0, out.stderr
    (wheel,) = (tmp_path / "dist").glob("grn-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in ("grn/grammar/envelope.lark", "grn/grammar/goldrush.lark", "grn/grammar/gold.lark",
                 "grn/schemas/record.schema.json", "grn/schemas/report.schema.json",
                 "grn/schemas/tileset.schema.json", "grn/schemas/cards.schema.json",
                 "grn/data/tilesets/goldrush.json", "grn/data/cards/gold.json",
                 "grn/render/__init__.py", "grn/selfplay/__init__.py", "grn/cli.py"):
        assert name in names, name
    entry = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("entry_points.txt"))).decode()
    assert "grn = grn.cli:main" in entry


def test_without_a_c_compiler_the_wheel_is_pure_python(tmp_path):
    # The build checks for a working compiler first and says so when there is none,
    # rather than failing half way (a half-compiled package would not import).
    src = tmp_path / "src"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(".venv", ".git", "*.egg-info", "build", "__pycache__",
                                                             "*.so"))
    env = {k: v for k, v in os.environ.items() if k != "GRN_PURE_PYTHON"}
    env["CC"] = "/bin/false"
    out = subprocess.run([sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "--no-build-isolation",
                          "-w", str(tmp_path / "dist"), str(src)], capture_output=True, text=True, env=env)
    if out.returncode != 0 and "setuptools" in out.stderr.lower():
        pytest.skip("setuptools is not installed in this environment: cannot build the wheel offline")
    assert out.returncode == 0, out.stderr
    assert "grn: cannot compile C extensions here" in out.stdout + out.stderr
    (wheel,) = (tmp_path / "dist").glob("grn-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "grn/board.py" in names and not [n for n in names if n.endswith(".so")]
