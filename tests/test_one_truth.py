"""One truth about a record (issue 25, points 2 and 7; ruling R89): render, html, validate and the API
check the same things and say them the same way, whatever the file's encoding."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

import grn
from grn.cli.app import app
from grn.notation.read import parse_game

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()
HEAD = '[Game "goldrush"]\n[Players "Zoë (red), Ben (blue)"]\n\n'
ARROW = HEAD + "1. red 47a@-1,0 <arrow 0,0 1000000000000000000000000000000,1>\n2. blue 61@0,-1:90\n"
ILLEGAL = HEAD + "1. red 47a@-1,0\n2. blue 61@0,-1:90 tent@5,5\n"


def grn_cli(*args: object, stdin: str | None = None):
    return runner.invoke(app, [str(a) for a in args], input=stdin)


def test_render_refuses_markup_that_validate_rejects(tmp_path: Path):
    path = tmp_path / "arrow.grn"
    path.write_text(ARROW, encoding="utf-8")
    checked = grn_cli("validate", path)
    assert checked.exit_code == 1
    drawn = grn_cli("render", path, "--turn", "1", "-o", tmp_path / "a.svg")
    assert drawn.exit_code == 1 and not (tmp_path / "a.svg").exists()
    # the same diagnostic, in the same form: file:line:col, the source line, a caret
    assert checked.stderr.splitlines()[:3] == drawn.stderr.splitlines()[:3]
    assert drawn.stderr.startswith(f"{path}:4:18: error: <arrow>")


def test_html_draws_no_markup_that_validate_rejects(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    import grn.render.markup as mk

    drawn: list[tuple[float, ...]] = []
    real = mk.arrow

    def spy(x1: float, y1: float, x2: float, y2: float, colour: str, **kw: float) -> str:
        drawn.append((x1, y1, x2, y2))
        return real(x1, y1, x2, y2, colour, **kw)

    monkeypatch.setattr(mk, "arrow", spy)
    path = tmp_path / "arrow.grn"
    path.write_text(ARROW.replace("1000000000000000000000000000000,1", "1000000000,1"), encoding="utf-8")
    result = grn_cli("html", path, "-o", tmp_path / "a.html")
    assert result.exit_code == 1 and "<arrow>" in result.stderr  # reported as validate reports it ...
    assert drawn == []  # ... and not drawn
    good = tmp_path / "good.grn"
    good.write_text(HEAD + "1. red 47a@-1,0 <arrow 0,0 -1,0>\n", encoding="utf-8")
    assert grn_cli("html", good, "-o", tmp_path / "g.html").exit_code == 0 and len(drawn) >= 1


def test_render_reports_a_rule_error_as_validate_does(tmp_path: Path):
    path = tmp_path / "bad.grn"
    path.write_text(ILLEGAL, encoding="utf-8")
    checked, drawn = grn_cli("validate", path), grn_cli("render", path, "-o", tmp_path / "b.svg")
    assert drawn.exit_code == 1
    assert drawn.stderr.splitlines() == checked.stderr.splitlines()[:3]
    assert drawn.stderr.startswith(f"{path}:5:20: error: there is no tile at 5,5")


def test_the_api_reports_a_file_that_is_not_utf8_as_a_diagnostic(tmp_path: Path):
    path = tmp_path / "latin1.grn"
    path.write_bytes(HEAD.replace("Zoë", "Zo\xeb").encode("latin-1") + b"1. red 47a@-1,0\n")
    records = list(grn.read(path))
    assert len(records) == 1 and not records[0].ok
    assert records[0].diagnostics[0].one_line() == f"{path}:2:13: error: not UTF-8 text: save the file as UTF-8"
    with pytest.raises(FileNotFoundError):
        list(grn.read(tmp_path / "missing.grn"))


def test_validate_says_how_many_valid_games_are_unfinished(tmp_path: Path):
    path = tmp_path / "short.grn"
    path.write_text(HEAD + "1. red 47a@-1,0\n", encoding="utf-8")
    result = grn_cli("validate", path)
    assert result.exit_code == 0 and result.stdout.strip() == "1 game checked, 1 valid, 1 unfinished: ok"
    done = grn_cli("validate", ROOT / "examples" / "goldrush-2p.grn")
    assert done.stdout.strip() == "1 game checked, 1 valid: ok"


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-16-le"])
def test_a_utf16_file_with_its_mark_is_read(encoding: str, tmp_path: Path):
    path = tmp_path / "notepad.grn"
    bom = {"utf-16": b"", "utf-16-be": b"\xfe\xff", "utf-16-le": b"\xff\xfe"}[encoding]
    path.write_bytes(bom + ILLEGAL.replace("\n", "\r\n").encode(encoding))
    result = grn_cli("validate", path)
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert lines[0].startswith(f"{path}:5:20: error: there is no tile at 5,5")
    assert lines[1] == "    2. blue 61@0,-1:90 tent@5,5"  # the echoed line as text, never UTF-16 bytes
    (record,) = grn.read(path)
    assert record.tag("Players") == "Zoë (red), Ben (blue)"
    assert grn_cli("convert", path, "--to", "json").exit_code == 0


def test_broken_utf16_is_named_as_utf16(tmp_path: Path):
    path = tmp_path / "broken.grn"
    path.write_bytes(b"\xff\xfe" + '[Game "goldrush"]\n'.encode("utf-16-le") + b"\x00\xd8")
    result = grn_cli("validate", path)
    assert result.exit_code == 1 and "UTF-16 text that cannot be decoded" in result.stderr
    assert "\\x" not in result.stderr


def test_an_import_reads_utf16(tmp_path: Path):
    save = (ROOT / "tests" / "data" / "jcz" / "01-road.jcz").read_text(encoding="utf-8")
    path = tmp_path / "notepad.jcz"
    path.write_bytes(save.encode("utf-16"))
    result = grn_cli("import", path)
    assert result.exit_code == 0 and result.stdout.startswith('[Game "carcassonne"]')


def test_an_unclosed_brace_followed_by_many_turns_reads_in_linear_time():
    def seconds(n: int) -> float:
        text = HEAD + "1. red 47a@-1,0 {\n" + "".join(f"{i}. red 47a@-1,{i}\n" for i in range(2, n // 16))
        start = time.perf_counter()
        record = parse_game(text)
        assert not record.ok and "never closed" in record.diagnostics[0].message
        return time.perf_counter() - start

    seconds(10_000)  # the grammar is loaded
    small, big = min(seconds(50_000) for _ in range(2)), min(seconds(200_000) for _ in range(2))
    assert big < 0.5 or big < small * 12, (small, big)  # four times the text: not sixteen times the time
