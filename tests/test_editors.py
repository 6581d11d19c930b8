"""The VS Code extension (editors/vscode/): its TextMate grammar in Node, as VS Code runs it.

``npm test`` there tokenizes every example record and a mutated corpus with
vscode-textmate on vscode-oniguruma (``editors/vscode/test/grammar.test.js``);
CI installs the packages with ``npm ci`` (.ci/run).  The manifest points at the
files it ships, and the grammar names the same language as the Pygments lexer.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

VSCODE = Path(__file__).resolve().parent.parent / "editors" / "vscode"


def test_the_grammar_reads_every_example_in_node() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the TextMate grammar test runs in Node (.ci/run installs it)")
    if not (VSCODE / "node_modules" / "vscode-textmate").is_dir():
        pytest.skip("editors/vscode/node_modules is missing: run npm ci in editors/vscode (.ci/run does)")
    run = subprocess.run([node, "--test", "test/"], cwd=VSCODE, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "# fail 0" in run.stdout and "# pass 4" in run.stdout


def test_the_manifest_names_the_files_it_ships() -> None:
    manifest = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    (language,) = manifest["contributes"]["languages"]
    (grammar,) = manifest["contributes"]["grammars"]
    assert language["id"] == grammar["language"] == "grn" and ".grn" in language["extensions"]
    assert (VSCODE / language["configuration"]).is_file()
    assert json.loads((VSCODE / grammar["path"]).read_text(encoding="utf-8"))["scopeName"] == grammar["scopeName"]
    assert (VSCODE / manifest["main"]).is_file()
    config = json.loads((VSCODE / "language-configuration.json").read_text(encoding="utf-8"))
    assert config["comments"] == {"lineComment": ";", "blockComment": ["{", "}"]}
    lock = json.loads((VSCODE / "package-lock.json").read_text(encoding="utf-8"))
    locked = lock["packages"][""]
    assert locked["dependencies"] == manifest["dependencies"]
    assert locked["devDependencies"] == manifest["devDependencies"]
