"""The package and its benchmarks type-check: ``mypy grn bench`` (config in pyproject.toml) reports no errors."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_reports_no_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    api = pytest.importorskip("mypy.api", reason="mypy is not installed (pip install -e '.[test]')")
    monkeypatch.chdir(ROOT)  # mypy reads [tool.mypy] from ./pyproject.toml
    stdout, stderr, status = api.run(["grn", "bench"])  # the benches too: a bench that no longer type-checks measures the wrong thing
    assert status == 0, f"mypy found errors:\n{stdout}{stderr}"
    assert "Success: no issues found" in stdout, stdout
