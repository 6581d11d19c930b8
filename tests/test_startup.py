"""What ``grn validate FILE`` loads at start-up, and that its light path (R190) says what typer's path says."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from grn.cli import launch
from grn.cli import validate as validate_cli
from grn.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "rulebook-railroad-3.grn"

#: sys.argv for grn.cli.launch, then the exit code and every module loaded, as the console script runs it
_LIST_MODULES = """
import sys
from grn.cli.launch import main
sys.argv = ["grn", *sys.argv[1:]]
try:
    main()
except SystemExit as exc:
    code = exc.code
print(code, " ".join(sorted(sys.modules)))
"""

#: What checking a file needs none of: the command-line framework and grn's other commands (and the bots they load).
NOT_FOR_VALIDATE = ("typer", "click", "rich", "grn.cli.app", "grn.cli.analyse", "grn.cli.arena", "grn.archive.cli",
                    "grn.serve", "grn.bots", "grn.lsp", "grn.render")


def modules_of(*args: str) -> tuple[str, set[str]]:
    done = subprocess.run([sys.executable, "-c", _LIST_MODULES, *args], capture_output=True, text=True, cwd=ROOT,
                          check=True)
    code, _, names = done.stdout.strip().rpartition("\n")[2].partition(" ")
    return code, set(names.split())


def loaded(modules: set[str], prefix: str) -> list[str]:
    return sorted(m for m in modules if m == prefix or m.startswith(prefix + "."))


def test_validate_of_a_file_loads_neither_typer_nor_the_other_commands():
    code, modules = modules_of("validate", str(EXAMPLE))
    assert code == "0"
    assert "grn.cli.validate" in modules and "grn.games.goldrush" in modules
    for prefix in NOT_FOR_VALIDATE:
        assert not loaded(modules, prefix), f"grn validate FILE imports {loaded(modules, prefix)}"


def test_an_option_goes_through_typer():
    code, modules = modules_of("validate", "--format", "json", str(EXAMPLE))
    assert code == "0"
    assert "typer" in modules and "grn.cli.app" in modules


@pytest.mark.parametrize("args, fast", [
    (["a.grn"], True),
    (["a.grn", "b.json", "-"], True),
    ([], False),  # typer says a FILES argument is missing
    (["--jobs", "2", "a.grn"], False),
    (["a.grn", "-j2"], False),
    (["-h"], False),
    (["--", "-odd-name.grn"], False),
])
def test_only_file_operands_take_the_light_path(args: list[str], fast: bool):
    assert validate_cli.fast_path(args) is fast


def _not_typer() -> None:
    raise AssertionError("the light path went through typer")


BAD_MOVE = EXAMPLE.read_text(encoding="utf-8").replace("47b@1,0:180", "47b@5,5:180")
BAD_SCORE = EXAMPLE.read_text(encoding="utf-8").replace("blue=3", "blue=4")


@pytest.mark.parametrize("files", [
    {"ok.grn": EXAMPLE.read_text(encoding="utf-8")},
    {"move.grn": BAD_MOVE},
    {"ok.grn": EXAMPLE.read_text(encoding="utf-8"), "score.grn": BAD_SCORE},
    {"empty.grn": ""},
    {"syntax.grn": '[Game "goldrush"]\n\n0. blue 47a@@\n'},
    {"missing.grn": None},
])
def test_the_light_path_reports_what_typer_reports(files: dict[str, str | None], tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch):
    paths = []
    for name, text in files.items():
        path = tmp_path / name
        if text is not None:
            path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    typer_run = CliRunner().invoke(app, ["validate", *paths])
    monkeypatch.setattr(sys, "argv", ["grn", "validate", *paths])
    monkeypatch.setattr("grn.cli.app.main", _not_typer)
    with pytest.raises(SystemExit) as ended:
        launch.main()
    light = capsys.readouterr()
    assert ended.value.code == typer_run.exit_code
    assert (light.out, light.err) == (typer_run.stdout, typer_run.stderr)
    assert typer_run.exit_code == (0 if all(n == "ok.grn" for n in files) else 1)
    if typer_run.exit_code:
        assert light.err  # each problem is said, with its file
        assert str(tmp_path) in light.err


def test_the_light_path_reads_standard_input(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch):
    import io

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(BAD_SCORE.encode("utf-8"))))
    monkeypatch.setattr(sys, "argv", ["grn", "validate", "-"])
    monkeypatch.setattr("grn.cli.app.main", _not_typer)
    with pytest.raises(SystemExit) as ended:
        launch.main()
    assert ended.value.code == 1
    assert capsys.readouterr().err.startswith("<stdin>:")


def test_help_shows_the_defaults_the_light_path_uses():
    shown = CliRunner().invoke(app, ["validate", "--help"])
    assert shown.exit_code == 0
    assert "[default: text]" in shown.stdout and "[default: 1]" in shown.stdout
    defaults = validate_cli.validate.__defaults__
    assert defaults == ("text", False, None, 1, None)


_LIST_MODULES_CLI = _LIST_MODULES.replace("from grn.cli.launch import main", "from grn.cli.app import main")


def test_other_commands_load_archive_serve_and_the_bots_only_when_asked_for(tmp_path: Path):
    done = subprocess.run([sys.executable, "-c", _LIST_MODULES_CLI, "fmt", "--check", str(EXAMPLE)],
                          capture_output=True, text=True, cwd=ROOT, check=True)
    code, _, names = done.stdout.strip().rpartition("\n")[2].partition(" ")
    modules = set(names.split())
    assert code == "0" and "typer" in modules
    for prefix in ("grn.bots", "grn.serve", "grn.archive.cli", "grn.cli.analyse", "grn.cli.arena", "sqlite3"):
        assert not loaded(modules, prefix), f"grn fmt imports {loaded(modules, prefix)}"


def test_the_lazy_commands_are_listed_and_run():
    runner = CliRunner()
    listed = runner.invoke(app, ["--help"])
    assert listed.exit_code == 0
    for name in ("serve", "analyse", "arena", "archive"):
        assert f" {name} " in listed.stdout
    archive = runner.invoke(app, ["archive", "--help"])
    assert archive.exit_code == 0 and " add " in archive.stdout and " search " in archive.stdout
    wrong = runner.invoke(app, ["arena", "greedy"])  # a usage error of a lazy command is typer's, exit 2
    assert wrong.exit_code == 2
