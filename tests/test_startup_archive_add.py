"""``grn archive add [-q] DB FILE ...`` runs without typer (R325), says what typer's path says, and starts
without ``dataclasses``."""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from grn.cli import launch
from grn.archive import add_cli
from grn.cli.app import app
from tests.test_startup import loaded, modules_of

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "rulebook-railroad-3.grn"
GAMES = ROOT / "examples" / "goldrush-2p.grn"

#: What adding files to an archive needs none of: the command-line framework, grn's other commands, and
#: dataclasses (the archive's own types are grn's Struct and Value classes, R325).
NOT_FOR_ADD = ("typer", "click", "rich", "grn.cli.app", "grn.archive.cli", "grn.archive.search", "grn.serve", "grn.bots",
               "grn.lsp", "grn.render", "dataclasses", "inspect")


def test_add_loads_neither_typer_nor_dataclasses(tmp_path: Path) -> None:
    code, modules = modules_of("archive", "add", "-q", str(tmp_path / "a.db"), str(EXAMPLE), str(GAMES))
    assert code == "0"
    assert "grn.archive.add_cli" in modules and "grn.archive.db" in modules and "sqlite3" in modules
    for prefix in NOT_FOR_ADD:
        assert not loaded(modules, prefix), f"grn archive add imports {loaded(modules, prefix)}"
    con = sqlite3.connect(tmp_path / "a.db")
    assert con.execute("SELECT count(*) FROM games").fetchone()[0] > 1
    con.close()


def test_another_option_goes_through_typer(tmp_path: Path) -> None:
    code, modules = modules_of("archive", "add", "--batch", "10", str(tmp_path / "a.db"), str(EXAMPLE))
    assert code == "0"
    assert "typer" in modules and "grn.archive.cli" in modules


@pytest.mark.parametrize("args, fast", [
    (["a.db", "a.grn"], True),
    (["a.db", "a.grn", "b.json", "-"], True),
    (["-q", "a.db", "a.grn"], True),
    (["a.db", "--quiet", "a.grn"], True),
    (["a.db"], False),  # typer says a FILES argument is missing
    (["-q", "a.db"], False),
    ([], False),
    (["--jobs", "2", "a.db", "a.grn"], False),
    (["a.db", "a.grn", "--per-turn"], False),
    (["a.db", "a.grn", "-j2"], False),
    (["-h"], False),
    (["--", "a.db", "-odd-name.grn"], False),
])
def test_only_files_and_quiet_take_the_light_path(args: list[str], fast: bool) -> None:
    assert add_cli.fast_path(args) is fast


def _not_typer() -> None:
    raise AssertionError("the light path went through typer")


BAD_MOVE = EXAMPLE.read_text(encoding="utf-8").replace("47b@1,0:180", "47b@5,5:180")


@pytest.mark.parametrize("case", ["new", "again", "invalid", "missing", "not an archive", "a directory", "quiet"])
def test_the_light_path_says_what_typer_says(case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    bad = tmp_path / "bad.grn"
    bad.write_text(BAD_MOVE, encoding="utf-8")
    files = {"new": [str(EXAMPLE), str(GAMES)], "again": [str(EXAMPLE)], "invalid": [str(bad)],
             "missing": [str(tmp_path / "none.grn"), str(EXAMPLE)], "not an archive": [str(EXAMPLE)],
             "a directory": [str(EXAMPLE)], "quiet": [str(bad), str(tmp_path / "none.grn")]}[case]
    options = ["-q"] if case == "quiet" else []
    outcomes = []
    for way in ("typer", "light"):
        db = tmp_path / way / "a.db"
        db.parent.mkdir()
        if case == "again":
            assert CliRunner().invoke(app, ["archive", "add", "-q", str(db), *files]).exit_code == 0
        elif case == "not an archive":
            db.write_text("not a database", encoding="utf-8")
        elif case == "a directory":
            db.mkdir()
        args = ["archive", "add", *options, str(db), *files]
        if way == "typer":
            done = CliRunner().invoke(app, args)
            outcomes.append((done.exit_code, done.stdout, done.stderr.replace(str(db), "DB")))
        else:
            monkeypatch.setattr(sys, "argv", ["grn", *args])
            monkeypatch.setattr("grn.cli.app.main", _not_typer)
            with pytest.raises(SystemExit) as ended:
                launch.main()
            said = capsys.readouterr()
            outcomes.append((ended.value.code, said.out, said.err.replace(str(db), "DB")))
    assert outcomes[0] == outcomes[1]
    code, out, err = outcomes[1]
    assert code == {"new": 0, "again": 0, "invalid": 0, "missing": 1, "not an archive": 1, "a directory": 1,
                    "quiet": 1}[case]
    assert (out == "") is (case in ("quiet", "not an archive", "a directory"))
    if code:
        assert err


def test_help_shows_the_defaults_the_light_path_uses() -> None:
    shown = CliRunner().invoke(app, ["archive", "add", "--help"])
    assert shown.exit_code == 0
    assert "--per-turn" in shown.stdout and "[default: 5000]" in shown.stdout
    assert add_cli.add.__defaults__ == (1, None, None, False, 5000, False)
