"""The records shown in the README and the notation spec are legal, canonical games."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from grn.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", ROOT / "docs" / "notation.md"]
BLOCKS = [(doc.name, i, block) for doc in DOCS
          for i, block in enumerate(re.findall(r"```\n(\[Game .*?)\n```", doc.read_text(encoding="utf-8"), re.S))]


def test_the_docs_show_records():
    assert {name for name, _, _ in BLOCKS} == {"README.md", "notation.md"}


@pytest.mark.parametrize("name, index, block", BLOCKS, ids=[f"{n}-{i}" for n, i, _ in BLOCKS])
def test_doc_record_validates_and_is_canonical(tmp_path, name, index, block):
    path = tmp_path / "doc.grn"
    path.write_text(block + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(app, ["fmt", "--check", str(path)])
    assert result.exit_code == 0, result.output
