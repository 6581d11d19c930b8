"""``grn validate FILE`` reads each game straight through the reader and the validator in its own process
(R462): the same report, the same messages and the same exit code as the parallel machinery gives."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from grn.check.batch import Validator
from grn.check.files import GameResult, Problem, validate_file

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"

ILLEGAL = """[Game "goldrush"]
[Players "Ada (red), Bo (yellow)"]

1. red 17@0,1:90 tent@0,0
2. yellow 17@0,1
3. red 08@1,1
"""
BROKEN = """[Game "goldrush"]
[Players "Ada (red), Bo (yellow)"]

1. red 17@0,1:90 {never closed
"""


def files(tmp_path: Path) -> dict[str, list[str]]:
    """Command lines' files: examples of every game, a match (a check across games), an illegal move, a syntax
    error, bytes that are not UTF-8, no game at all, no such file, a folder, a JSON file."""
    (tmp_path / "illegal.grn").write_text(ILLEGAL)
    (tmp_path / "broken.grn").write_text(BROKEN)
    (tmp_path / "latin1.grn").write_bytes(ILLEGAL.replace("Ada", "Ad\xe9").encode("latin-1"))
    (tmp_path / "empty.grn").write_text("\n")
    json_file = tmp_path / "games.json"
    out = subprocess.run([sys.executable, "-m", "grn", "convert", str(EXAMPLES / "goldrush-2p.grn"), "--to", "json", "-o",
                          str(json_file)], capture_output=True, text=True, cwd=ROOT)
    both = [str(EXAMPLES / "goldrush-2p.grn"), str(EXAMPLES / "gold-2p.grn")]
    cases = {
        "one": [str(EXAMPLES / "goldrush-2p.grn")],
        "several": both + [str(EXAMPLES / "carcassonne" / "carcassonne-2p.grn")],
        "match": [str(EXAMPLES / "gold-3p-match.grn")],
        "illegal": [str(tmp_path / "illegal.grn")],
        "broken": [str(tmp_path / "broken.grn"), str(EXAMPLES / "goldrush-2p.grn")],
        "latin1": [str(tmp_path / "latin1.grn")],
        "empty": [str(tmp_path / "empty.grn")],
        "missing": [str(tmp_path / "nothing.grn"), str(tmp_path)],
    }
    assert out.returncode == 0, out.stderr
    cases["json"] = [str(json_file)]
    return cases


def grn(*args: str) -> tuple[int, str, str]:
    """``grn ARGS`` as a user runs it (the console script's entry point)."""
    done = subprocess.run([sys.executable, "-c", "from grn.cli.launch import run; run()", *args],
                          capture_output=True, text=True, cwd=ROOT)
    return done.returncode, done.stdout, done.stderr


#: The cases the other report formats run: every kind of outcome once (valid games of all three, an illegal move,
#: a syntax error beside a valid file, files that cannot be read); the plain format runs every case.
FORMAT_CASES = ("several", "illegal", "broken", "missing")


@pytest.mark.parametrize("options", [[], ["--format", "json"], ["--explain"]])
def test_one_process_says_what_the_workers_say(tmp_path, options):
    """Every case in the plain format, every kind of outcome in the others: the same output, messages and exit
    code in this process as with ``--jobs 2`` (the worker processes of the parallel machinery)."""
    for name, paths in files(tmp_path).items():
        if options and name not in FORMAT_CASES:
            continue
        direct = grn("validate", *options, *paths)
        pooled = grn("validate", "--jobs", "2", *options, *paths)
        assert direct == pooled, name
        assert direct[0] in (0, 1), (name, direct)


def test_a_file_gives_the_results_a_one_job_validator_gives(tmp_path):
    """In the API: :func:`validate_file` gives, game by game, the results ``Validator(jobs=1)`` gives."""
    for name, paths in files(tmp_path).items():
        for path in paths:
            with Validator(jobs=1, keep_turns=True, texts=True) as validator:
                batch = list(validator.run(path))
            direct = list(validate_file(path, keep_turns=True))
            assert [type(r) for r in direct] == [type(r) for r in batch], name
            for d, b in zip(direct, batch):
                if isinstance(d, Problem):
                    assert d == b, name
                else:
                    assert isinstance(d, GameResult) and isinstance(b, GameResult)
                    assert (d.index, d.report, d.record, d.text, d.fmt) == (b.index, b.report, b.record, b.text,
                                                                          b.fmt), name
