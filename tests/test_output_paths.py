"""Output paths (issue 25, point 1; rulings R80-R84): every command that writes goes through grn.core.output.

A missing folder or a folder named as the file is one line and exit 2; a full
disk is one line and exit 1; a regular file is replaced whole or not at all; a
FIFO or a symbolic link is written into, never replaced; a drawing made beside
its input replaces no file the user did not name.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from grn.cli.app import app
from grn.core.output import OutputError, beside_input, check_target, output_folder, write_text, writing

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "examples" / "goldrush-2p.grn"
CARC = sorted((ROOT / "examples" / "carcassonne").glob("*.grn"))[0]
runner = CliRunner()
HAS_FULL = os.path.exists("/dev/full")


def run(*args: str, stdin: str | None = None):
    return runner.invoke(app, [str(a) for a in args], input=stdin)


def _writers(out: str) -> list[list[str]]:
    """Every command that writes a file, each with -o OUT."""
    return [
        ["render", str(GAME), "-o", out],
        ["html", str(GAME), "-o", out],
        ["convert", str(GAME), "--to", "json", "-o", out],
        ["selfplay", "--seed", "3", "-o", out],
        ["tiles", "-o", out],
        ["export", str(CARC), "--to", "jcz", "-o", out],
        ["import", str(ROOT / "tests" / "data" / "jcz" / _a_jcz()), "-o", out],
        ["analyse", str(ROOT / "examples" / "gold-2p.grn"), "--playouts", "2", "-o", out],
    ]


def _a_jcz() -> str:
    return sorted(p.name for p in (ROOT / "tests" / "data" / "jcz").glob("*.jcz"))[0]


def _one_line(result) -> str:
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    return lines[0]


@pytest.mark.parametrize("index", range(8))
def test_a_missing_folder_is_one_line_and_a_usage_error(index: int, tmp_path: Path):
    out = tmp_path / "nosuch" / "x.out"
    result = run(*_writers(str(out))[index])
    line = _one_line(result)
    assert result.exit_code == 2
    assert line.startswith(f"{out}: error: no folder '{out.parent}'")
    assert not out.parent.exists()  # R80: no folder made


@pytest.mark.parametrize("index", range(8))
def test_a_folder_named_as_the_file_is_one_line(index: int, tmp_path: Path):
    result = run(*_writers(str(tmp_path))[index])
    assert result.exit_code == 2 and "is a folder" in _one_line(result)


@pytest.mark.skipif(not HAS_FULL, reason="no /dev/full on this system")
@pytest.mark.parametrize("index", range(8))
def test_a_full_disk_is_one_line(index: int):
    result = run(*_writers("/dev/full")[index])
    assert result.exit_code == 1
    assert _one_line(result) == "/dev/full: error: cannot write: no space left on the device"
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)  # the device is still a device


def test_archive_commands_use_the_same_paths(tmp_path: Path):
    db = tmp_path / "a.db"
    assert run("archive", "add", db, GAME, "-q").exit_code == 0
    for args in (["archive", "search", db, "-o"], ["archive", "export", db, "--to", "grn", "-o"]):
        result = run(*args, tmp_path / "nosuch" / "x")
        assert result.exit_code == 2 and "no folder" in _one_line(result)
        if HAS_FULL:
            result = run(*args, "/dev/full")
            assert result.exit_code == 1 and "no space left" in _one_line(result)
    result = run("archive", "stats", db, "--svg", tmp_path / "nosuch" / "charts")
    assert result.exit_code == 2 and "no folder" in _one_line(result) and "players" not in result.stdout


def test_the_folder_a_command_fills_is_made_but_not_one_above_it(tmp_path: Path):
    assert run("site", GAME, "-o", tmp_path / "public").exit_code == 0
    assert (tmp_path / "public" / "games" / "1.html").is_file()
    result = run("site", GAME, "-o", tmp_path / "a" / "b")
    assert result.exit_code == 2 and "no folder" in _one_line(result) and not (tmp_path / "a").exists()
    (tmp_path / "file").write_text("x")
    with pytest.raises(OutputError, match="is a file"):
        output_folder(tmp_path / "file")


def test_a_fifo_is_written_into_not_replaced(tmp_path: Path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    result = run("convert", GAME, "--to", "json", "-o", fifo)
    reader.join(30)
    assert result.exit_code == 0, result.output
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert got and got[0].startswith(b'{\n "grn": ')


def test_a_symlink_is_written_through_not_replaced(tmp_path: Path):
    (tmp_path / "real.json").write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to("real.json")
    assert run("convert", GAME, "--to", "json", "-o", link).exit_code == 0
    assert link.is_symlink() and (tmp_path / "real.json").read_text().startswith('{\n "grn": ')


def test_a_regular_file_is_replaced_whole_or_not_at_all(tmp_path: Path):
    target = tmp_path / "out.grn"
    target.write_text("the old file\n")
    target.chmod(0o640)
    with pytest.raises(KeyboardInterrupt):
        with writing(target) as out:
            out.write("half of the new")
            raise KeyboardInterrupt  # Ctrl-C half-way
    assert target.read_text() == "the old file\n" and os.listdir(tmp_path) == ["out.grn"]
    write_text(target, "the new file\n")
    assert target.read_text() == "the new file\n" and os.listdir(tmp_path) == ["out.grn"]
    assert stat.S_IMODE(target.stat().st_mode) == 0o640  # the old file's permissions are kept


def test_a_convert_that_fails_leaves_the_old_file(tmp_path: Path):
    target = tmp_path / "out.json"
    target.write_text("keep me")
    bad = GAME.read_text(encoding="utf-8") + "\n\n" + '[Game "goldrush"]\n\n1. red @@\n'
    result = run("convert", "-", "--to", "json", "-o", target, stdin=bad)
    assert result.exit_code == 1 and target.read_text() == "keep me"
    assert sorted(os.listdir(tmp_path)) == ["out.json"]


def test_an_interrupted_process_leaves_the_old_file_or_the_new(tmp_path: Path):
    """A real process killed while writing: the target holds the old text or the whole new one."""
    target = tmp_path / "many.grn"
    target.write_text("old\n")
    code = ("import sys, time; from pathlib import Path; from grn.core.output import writing\n"
            "with writing(Path(sys.argv[1])) as out:\n"
            "    out.write('new ' * 1000); out.flush(); print('half', flush=True); time.sleep(60)\n")
    proc = subprocess.Popen([sys.executable, "-c", code, str(target)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline() == "half\n"
    proc.kill()
    proc.wait(30)
    assert target.read_text() == "old\n"


def test_render_takes_the_format_from_the_extension(tmp_path: Path):
    try:
        import cairosvg  # type: ignore[import-not-found]  # noqa: F401
        has_cairo = True
    except ImportError:
        has_cairo = False
    png = tmp_path / "x.png"
    result = run("render", GAME, "-o", png)
    if has_cairo:
        assert result.exit_code == 0 and png.read_bytes().startswith(b"\x89PNG")
    else:
        assert result.exit_code == 1 and "needs cairosvg" in result.stderr and not png.exists()
    for name, says in (("x.jpg", "not JPG"), ("x.pdf", "not PDF")):
        result = run("render", GAME, "-o", tmp_path / name)
        assert result.exit_code == 2 and says in _one_line(result) and not (tmp_path / name).exists()
    result = run("render", GAME, "--format", "png", "-o", tmp_path / "x.svg")
    assert result.exit_code == 2 and "must agree" in _one_line(result)


@pytest.mark.parametrize("width", ["-5", "0", "10000000"])
def test_render_refuses_a_width_that_is_no_picture(width: str, tmp_path: Path):
    result = run("render", GAME, "--width", width, "-o", tmp_path / "x.svg")
    assert result.exit_code == 2 and "--width must be 1 to" in _one_line(result)
    assert not (tmp_path / "x.svg").exists()


def _on_a_terminal(args: list[str], cwd: Path) -> tuple[int, str]:
    import pty

    master, slave = pty.openpty()
    try:
        done = subprocess.run([sys.executable, "-m", "grn", *args], stdout=slave, stderr=subprocess.PIPE,
                              cwd=cwd, text=True, timeout=120, env={**os.environ, "COLUMNS": "200"})
    finally:
        os.close(slave)
        os.close(master)
    return done.returncode, done.stderr


def test_a_drawing_beside_its_input_replaces_no_file(tmp_path: Path):
    game = tmp_path / "club.grn"
    game.write_text(GAME.read_text(encoding="utf-8"), encoding="utf-8")
    mine = tmp_path / "club.svg"
    mine.write_text("my own drawing")
    code, said = _on_a_terminal(["render", str(game)], tmp_path)
    assert code == 2 and mine.read_text() == "my own drawing"
    assert f"{mine}: error: exists" in said and "-o FILE" in said and "--force" in said
    code, said = _on_a_terminal(["render", str(game), "--force"], tmp_path)
    assert code == 0 and mine.read_text().startswith("<svg") and f"wrote {mine}" in said
    (tmp_path / "club.html").write_text("my page")
    code, said = _on_a_terminal(["html", str(game)], tmp_path)
    assert code == 2 and (tmp_path / "club.html").read_text() == "my page"


def test_the_api_in_short(tmp_path: Path):
    check_target(None)
    check_target(Path("-"))
    with pytest.raises(OutputError) as info:
        check_target(tmp_path / "no" / "x.svg")
    assert info.value.exit_code == 2 and info.value.line().startswith(f"{tmp_path / 'no' / 'x.svg'}: error: no folder")
    (tmp_path / "x.svg").write_text("mine")
    with pytest.raises(OutputError, match="exists"):
        beside_input(str(tmp_path / "x.grn"), "x.svg")
    assert beside_input(str(tmp_path / "x.grn"), "x.svg", force=True) == tmp_path / "x.svg"


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a file to another user")
def test_root_replacing_another_users_file_leaves_it_theirs(tmp_path: Path):
    target = tmp_path / "theirs.grn"
    target.write_text("old")
    os.chown(target, 4321, 4321)
    write_text(target, "new")
    assert target.read_text() == "new" and (target.stat().st_uid, target.stat().st_gid) == (4321, 4321)


def test_selfplay_of_no_games_is_a_usage_error():
    """`selfplay --games -3` wrote nothing and said nothing (exit 0): a count below one is a usage error."""
    result = run("selfplay", "--games", "-3")
    assert result.exit_code == 2 and "--games" in result.output
