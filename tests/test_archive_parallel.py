"""``grn validate --jobs N`` and ``--dask-scheduler``: the same reports as a serial run, byte for byte.

The files hold valid and invalid games of both rulesets, a Gold match, a JSON
file, a file that stops being UTF-8 half-way, a file with comments in every game
and a missing file, so that every
kind of report goes through the workers.  Chunks are made small so that a
file is cut into many chunks that come back out of order.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from grn import batch, gamespans, notation
from grn.cli import app
from grn import workers
from grn.workers import Inline

runner = CliRunner()


def _selfplay(*args: str) -> str:
    result = runner.invoke(app, ["selfplay", *args])
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    d = tmp_path_factory.mktemp("par")
    a = _selfplay("--players", "3", "--seed", "10", "--games", "12")
    # one illegal move and one wrong checkpoint, in games 3 and 7
    games = a.split("\n[Game ")
    games[2] = games[2].replace("3. ", "3. blue ", 1)
    games[6] = games[6].replace("score ", "score red=99 ", 1)
    (d / "a.grn").write_text("\n[Game ".join(games), encoding="utf-8")
    (d / "b.grn").write_text(_selfplay("--game", "gold", "--players", "2", "--seed", "3", "--games", "9"),
                             encoding="utf-8")
    # a Gold match: the match checker needs those records back from the workers
    match = _selfplay("--game", "gold", "--players", "2", "--seed", "40", "--games", "2")
    match = match.replace('[Round "40"]', '[Match "m"]\n[Round "1"]').replace('[Round "41"]', '[Match "m"]\n[Round "2"]')
    (d / "match.grn").write_text(match, encoding="utf-8")
    conv = runner.invoke(app, ["convert", str(d / "b.grn"), "--to", "json"])
    assert conv.exit_code == 0
    (d / "c.json").write_text(conv.stdout, encoding="utf-8")
    bad = _selfplay("--players", "2", "--seed", "5", "--games", "3").encode("utf-8")
    cut = bad.index(b"[Game", 10)
    (d / "bad.grn").write_bytes(bad[:cut + 200] + b"\xff\xfe" + bad[cut + 200:])
    # comments in every game (R240: the workers still read the games from the file): a brace comment over
    # lines that hides a tag line, a ; comment with a brace, a brace in a quoted label, a commented example
    commented = [game.replace("\n2. ", '\n{a note\n[Event "hidden"]\n} 2. ', 1).replace("\n4. ", "\n; {\n4. ", 1)
                 for game in games]
    example = (Path(__file__).parent / "data" / "bga-361578832.grn").read_text(encoding="utf-8")
    (d / "commented.grn").write_text(example + "\n[Game ".join(commented) + "\n" + example, encoding="utf-8")
    return [str(d / n) for n in ("a.grn", "b.grn", "match.grn", "c.json", "bad.grn", "commented.grn")] + [
        str(d / "missing.grn")]


@pytest.fixture(autouse=True)
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batch, "CHUNK_GAMES", 2)  # main process only: workers get chunks of 2 games
    monkeypatch.setattr(batch, "FILE_CHUNK_GAMES", 3)  # (3 when they read the games from the file)


def _validate(args: list[str]) -> tuple[int, str, str]:
    result = runner.invoke(app, ["validate", *args])
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("fmt", ["json", "text"])
def test_jobs_2_reports_equal_serial(files: list[str], fmt: str) -> None:
    serial = _validate(["--format", fmt, *files])
    assert serial[0] == 1  # the files hold errors: the exit code says so in both runs
    two = _validate(["--format", fmt, "--jobs", "2", *files])
    assert two == serial
    if fmt == "json":
        doc = json.loads(serial[1])
        assert doc["summary"]["invalid"] == 4  # games 3 and 7 of a.grn, and again in commented.grn
        assert len(doc["files"][5]["games"]) == 14
        assert any(f["matches"] for f in doc["files"])  # the match was checked


def test_explain_through_workers(files: list[str]) -> None:
    assert _validate(["--explain", "--jobs", "2", files[0]]) == _validate(["--explain", files[0]])


def test_dask_local_cluster_reports_equal_serial(files: list[str]) -> None:
    distributed = pytest.importorskip("distributed")
    serial = _validate(["--format", "json", *files])
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        dask = _validate(["--format", "json", "--dask-scheduler", cluster.scheduler_address, *files])
    assert dask == serial


def test_bad_jobs_and_unreachable_scheduler(files: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(workers, "CONNECT_TIMEOUT", 1)
    code, _, err = _validate(["--jobs", "0", files[0]])
    assert code == 2 and "--jobs must be 1 or more" in err
    code, _, err = _validate(["--dask-scheduler", "tcp://127.0.0.1:9", files[0]])
    assert code == 1 and "cannot reach the Dask scheduler" in err and "Traceback" not in err


def test_chunks_stay_bounded(tmp_path: Path) -> None:
    """Streaming: the main process never has more than jobs * IN_FLIGHT chunks out."""
    path = tmp_path / "many.grn"
    path.write_text(_selfplay("--players", "2", "--seed", "1", "--games", "30"), encoding="utf-8")
    seen = []

    class Counting(Inline):
        def __init__(self) -> None:
            super().__init__(tileset=None)
            self.out = 0

        def submit(self, fn, *args):  # type: ignore[no-untyped-def]
            self.out += 1
            seen.append(self.out)
            return super().submit(fn, *args)

        def result(self, future):  # type: ignore[no-untyped-def]
            self.out -= 1
            return super().result(future)

    v = batch.Validator()
    v.runner = Counting()
    v.jobs = 2
    results = list(v.run(str(path)))
    assert [r.index for r in results if isinstance(r, batch.GameResult)] == list(range(30))
    assert max(seen) <= 2 * batch.IN_FLIGHT


def _archive_rows(db: Path) -> list[tuple[object, ...]]:
    import sqlite3

    from grn.archive.db import register

    con = sqlite3.connect(db)
    register(con)
    out = []
    for table, order in (("games", "id"), ("seats", "game_id, seat"), ("actions", "game_id, turn, seq"),
                         ("events", "game_id, turn, seq"), ("points", "game_id, player, feature")):
        out.append((table, con.execute(f"SELECT * FROM {table} ORDER BY {order}").fetchall()))
    con.close()
    return out


def test_archive_add_in_workers_equals_serial(files: list[str], tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    readable = files[:4]
    serial = runner.invoke(app, ["archive", "add", "-q", str(tmp_path / "s.db"), *readable])
    assert serial.exit_code == 0, serial.output
    two = runner.invoke(app, ["archive", "add", "-q", "--jobs", "2", str(tmp_path / "p.db"), *readable])
    assert two.exit_code == 0, two.output
    assert _archive_rows(tmp_path / "p.db") == _archive_rows(tmp_path / "s.db")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        dask = runner.invoke(app, ["archive", "add", "-q", "--dask-scheduler", cluster.scheduler_address,
                                   str(tmp_path / "d.db"), *readable])
    assert dask.exit_code == 0, dask.output
    assert _archive_rows(tmp_path / "d.db") == _archive_rows(tmp_path / "s.db")


def _spans_file(tmp_path: Path, games: int = 6) -> Path:
    path = tmp_path / "spans.grn"
    path.write_text(_selfplay("--players", "2", "--seed", "7", "--games", str(games)), encoding="utf-8")
    return path


def test_workers_read_their_games_from_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """R220, R240: validate sends the workers where the games lie, not their text, comments or not; a line
    longer than GRN allows midway sends the rest of the file as text; the reports are the serial run's."""
    monkeypatch.setattr(gamespans, "BLOCK", 256)  # the comment and the long line are not in the first block
    path = _spans_file(tmp_path)
    text = path.read_text(encoding="utf-8")
    third = text.index("[Game", text.index("[Game", text.index("[Game") + 1) + 1)
    braced = tmp_path / "braced.grn"
    # a comment over several lines, one of them a tag line it hides, and a ; comment with a brace
    braced.write_text(text[:third] + '{a comment\n[Event "hidden"]\n}\n; {not one\n' + text[third:],
                      encoding="utf-8")
    long = tmp_path / "long.grn"
    long.write_text(text[:third] + "{" + "x" * notation.MAX_LINE_CHARS + "}\n" + text[third:], encoding="utf-8")
    sent: list[str] = []

    class Spying:  # a pool of workers that runs each unit at once, here
        def submit(self, fn, *args):  # type: ignore[no-untyped-def]
            sent.append(type(args[1]).__name__)
            return fn(*args)

        def result(self, future):  # type: ignore[no-untyped-def]
            return future

        def close(self) -> None:
            pass

    for file, kinds in ((path, {"FileChunk"}), (braced, {"FileChunk"}), (long, {"FileChunk", "list"})):
        sent.clear()
        v = batch.Validator(texts=False)
        v.runner = Spying()
        got = [(r.index, r.report.to_json()) for r in v.run(str(file)) if isinstance(r, batch.GameResult)]
        serial = [(r.index, r.report.to_json()) for r in batch.Validator().run(str(file))
                  if isinstance(r, batch.GameResult)]
        assert got == serial and len(got) == 6
        assert set(sent) == kinds


def test_a_file_changed_under_the_workers_is_a_problem_in_its_place(tmp_path: Path) -> None:
    path = _spans_file(tmp_path, 2)
    file = batch.FileRef.of(str(path))
    with open(path, "rb") as fh:
        chunk = batch.FileChunk.of(file, list(batch.SpanReader(fh)))
    job = batch.Job(str(path), None, False, False)
    assert len(batch.work_file(job, chunk, 0)) == 2
    path.write_text(path.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    with pytest.raises(batch.FileChanged):
        batch.work_file(job, chunk, 0)

    class Changing:
        def submit(self, fn, *args):  # type: ignore[no-untyped-def]
            path.write_text(path.read_text(encoding="utf-8") + "\n", encoding="utf-8")
            return fn(*args)

        def result(self, future):  # type: ignore[no-untyped-def]
            return future

        def close(self) -> None:
            pass

    v = batch.Validator(texts=False)
    v.runner = Changing()
    items = list(v.run(str(path)))
    assert isinstance(items[-1], batch.Problem) and "changed while it was read" in items[-1].problem.message


def test_a_cluster_that_cannot_see_the_file_gets_its_text(tmp_path: Path) -> None:
    """R221: the workers read the file only when every one of them sees it as the main process does."""
    path = _spans_file(tmp_path, 2)

    class Cluster(workers.DaskClient):
        def __init__(self, sees: bool) -> None:
            self.sees = sees

        def everywhere(self, fn, *args):  # type: ignore[no-untyped-def]
            return [fn(*args), self.sees]

    v = batch.Validator(texts=False)
    v.runner = Cluster(True)
    assert v._readable(str(path)) == batch.FileRef.of(str(path.resolve()))
    v.runner = Cluster(False)
    assert v._readable(str(path)) is None
    assert batch.Validator(texts=True, jobs=1)._readable(str(path)) is None
