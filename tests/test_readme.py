"""The README's two commands, as a new user runs them (the install steps are CI's job)."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _commands() -> list[str]:
    return re.findall(r"```sh\n(.*?)\n```", README, re.S)


def test_readme_starts_with_two_commands():
    main, tests = _commands()[:2]
    assert README.index(main) < README.index(tests) < README.index("## ")
    assert "pip install" in main and "grn validate examples/" in main and "grn render" in main
    assert "pip install" in tests and "pytest" in tests


def test_ci_runs_the_readme_test_command():
    out = subprocess.run(
        ["bash", "-c", "sed -n '/<!-- test-command -->/,/^```$/p' README.md | sed -n '/^```sh$/,/^```$/p' "
                       "| sed '1d;$d'"], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == _commands()[1]


def test_main_command_validates_and_draws(tmp_path):
    main = _commands()[0]
    steps = [s.strip() for s in main.split("&&")]
    steps = [s for s in steps if "venv" not in s.split()[0:3] and "pip install" not in s]
    assert len(steps) == 2, steps
    for step in steps:
        words = shlex.split(step)
        assert words[0] == ".venv/bin/grn"
        args = words[1:]
        if "-o" in args:
            args[args.index("-o") + 1] = str(tmp_path / "out.svg")
        if args[0] == "validate":  # every example, Carcassonne's folder too (issue 22)
            assert {"examples/*.grn", "examples/carcassonne/*.grn"} <= set(args[1:])
            args = ["validate", *sorted(str(p) for pattern in args[1:] for p in ROOT.glob(pattern))]
            assert any("carcassonne" in a for a in args)
        result = subprocess.run([sys.executable, "-m", "grn", *args], cwd=ROOT, capture_output=True, text=True)
        assert result.returncode == 0, result.stdout + result.stderr
    ET.parse(tmp_path / "out.svg")
