"""``grn validate --jobs N`` and ``--dask-scheduler``: the same reports as a serial run, byte for byte.

The files hold valid and invalid games of both rulesets, a Gold match, a JSON
file, a file that stops being UTF-8 half-way, a file with comments in every game
and a missing file, so that every
kind of report goes through the workers.  Chunks are made small so that a
file is cut into many chunks that come back out of order.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from concurrent.futures import Future
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st
from typer.testing import CliRunner

from grn.check import batch
from grn.notation import gamespans
from grn.notation import read as notation
from grn.core.errors import Diagnostic
from grn.check.validate import GameReport
from grn.cli.app import app
from grn.check import workers
from grn.check.workers import Inline

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
    monkeypatch.setattr(batch, "DASK_FILE_CHUNK_GAMES", 3)  # (and on Dask)


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
        # the console script, in a process of its own (one thread: it can fork the helper of R241, on in the
        # first run, off by default: R298), with small chunks, so that the helper and the cluster may share the
        # first file (however the start-up goes)
        for first, head in ((files[5], True), (files[0], False)):
            code = (f"import sys, grn.check.batch; grn.check.batch.DASK_MIN_CHUNK_CHARS = 2000; grn.check.batch.HEAD_START = {head}; "
                    "sys.argv = ['grn'] + sys.argv[1:]; from grn.cli.launch import main; main()")
            order = [first] + [f for f in files if f != first]
            done = subprocess.run([sys.executable, "-c", code, "validate", "--format", "json", "--dask-scheduler",
                                   cluster.scheduler_address, *order], capture_output=True, text=True, check=False)
            alone = _validate(["--format", "json", *order])
            assert (done.returncode, done.stdout, done.stderr) == alone
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


class _Recording:
    """A runner that runs each unit at once, here, and notes which file games it was given."""

    def __init__(self, log: list[tuple[str, str]], name: str) -> None:
        self.log, self.name = log, name

    def submit(self, fn, *args):  # type: ignore[no-untyped-def]
        self.log.append((self.name, type(args[1]).__name__))
        return fn(*args)

    def result(self, future):  # type: ignore[no-untyped-def]
        return future

    def close(self) -> None:
        self.log.append((self.name, "closed"))


class _Helper(_Recording):
    """The local helper of a head start, running here: its futures are done at once."""

    def submit(self, fn, *args):  # type: ignore[no-untyped-def]
        future: Future[object] = Future()
        future.set_result(super().submit(fn, *args))
        return future

    def result(self, future):  # type: ignore[no-untyped-def]
        return future.result()


def _head_start(monkeypatch: pytest.MonkeyPatch, log: list[tuple[str, str]], sees: bool = True,
                reachable: bool = True, connect_after: int = 2) -> None:
    """A Dask client that connects (or not) to a cluster of runners that run here, once the helper (which runs
    here too) has been given ``connect_after`` chunks."""

    class Cluster(_Recording, workers.DaskClient):
        def __init__(self, address: str, warm_up: object = None) -> None:
            deadline = time.monotonic() + 10
            while sum(who == "helper" for who, _ in log) < connect_after and time.monotonic() < deadline:
                time.sleep(0.001)  # the start-up, while the main process feeds the helper
            if not reachable:
                raise workers.SchedulerError(f"cannot reach the Dask scheduler at {address}: refused")
            _Recording.__init__(self, log, "dask")
            self.workers = 2

        def everywhere(self, fn, *args):  # type: ignore[no-untyped-def]
            return [fn(*args), sees]

    monkeypatch.setattr(batch, "DaskClient", Cluster)
    monkeypatch.setattr(batch, "ProcessPool", lambda jobs, preload: _Helper(log, "helper"))
    monkeypatch.setattr(batch, "can_fork", lambda: True)
    monkeypatch.setattr(batch, "HEAD_START", True)  # off by default (R298), still there to be measured
    monkeypatch.setattr(batch, "HEAD_START_WORKERS", 1000)  # chunks of MIN_CHUNK_CHARS
    monkeypatch.setattr(batch, "MIN_CHUNK_CHARS", 2000)  # a game or two: the helper gets a few of many
    monkeypatch.setattr(batch, "DASK_MIN_CHUNK_CHARS", 2000)


def _reports(items: list[batch.Item]) -> list[object]:
    return [r.report.to_json() if isinstance(r, batch.GameResult) else r.problem.message for r in items]


def test_a_dask_run_starts_in_a_local_worker_while_the_client_connects(
        files: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """R241: the first chunks of the first file go to a local worker before the client connects, the rest to the
    cluster; the reports are the serial run's, in order, and the helper ends with the run."""
    log: list[tuple[str, str]] = []
    _head_start(monkeypatch, log)
    commented = files[5]
    serial = _reports(list(batch.Validator(texts=False).run(commented)))
    with batch.Validator(scheduler="tcp://here:1", texts=False, head_start=commented) as v:
        assert [who for who, _ in log] == ["helper"] * len(log) and log  # before the client connected
        got = _reports(list(v.run(commented)))
        again = _reports(list(v.run(commented)))  # a second run of the file goes to the cluster alone
    assert got == serial and again == serial
    sent = [who for who, kind in log if kind == "FileChunk"]
    helper = sent.count("helper")  # two, or one more if the main process fed it as the client connected
    assert helper >= 2 and sent[:helper] == ["helper"] * helper and len(sent) > helper
    assert ("helper", "closed") in log and ("dask", "closed") in log


def test_a_head_start_keeps_problems_in_their_place_and_text_for_a_blind_cluster(
        files: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """R241 with R221: a missing first file is reported in its place; a cluster that cannot see the file gets
    the text of the games the helper did not validate."""
    log: list[tuple[str, str]] = []
    _head_start(monkeypatch, log, sees=False)
    missing, commented = files[-1], files[5]
    with batch.Validator(scheduler="tcp://here:1", texts=False, head_start=missing) as v:
        items = list(v.run(missing))
    assert len(items) == 1 and isinstance(items[0], batch.Problem) and "missing.grn" in items[0].problem.file
    log.clear()
    with batch.Validator(scheduler="tcp://here:1", texts=False, head_start=commented) as v:
        got = _reports(list(v.run(commented)))
    assert got == _reports(list(batch.Validator(texts=False).run(commented)))
    assert {kind for who, kind in log if who == "helper" and kind != "closed"} == {"FileChunk"}
    assert {kind for who, kind in log if who == "dask" and kind != "closed"} == {"list"}


def test_an_unreachable_scheduler_after_a_head_start_prints_nothing_else(
        files: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """R241: the helper's results are printed only once the client is connected: a scheduler that cannot be
    reached is the one-line error it was, with no report before it, and the helper is stopped."""
    log: list[tuple[str, str]] = []
    _head_start(monkeypatch, log, reachable=False)
    from grn.cli.validate import validate

    with pytest.raises(SystemExit) as stop:
        validate([files[0]], dask_scheduler="tcp://127.0.0.1:9")
    out, err = capsys.readouterr()
    assert stop.value.code == 1 and out == ""
    assert err.strip() == "grn validate: error: cannot reach the Dask scheduler at tcp://127.0.0.1:9: refused"
    assert ("helper", "FileChunk") in log and log[-1] == ("helper", "closed")


def test_slim_results_give_back_what_the_text_report_reads(files: list[str]) -> None:
    """R296 with R222: for validate's text report a chunk's results travel packed, a few numbers a game; expanded
    they hold each game's diagnostics, completeness and turns (a game kept for a match check goes back whole),
    and they weigh less than a tenth of the results they stand for."""
    import pickle

    for path in (files[0], files[2], files[5]):  # invalid games; a Gold match (records kept); comments
        file = batch.FileRef.of(path)
        with open(path, "rb") as fh:
            chunk = batch.FileChunk.of(file, list(batch.SpanReader(fh)))
        full = batch.work_file(batch.Job(path, None, False, False), chunk, 5)
        packed = batch.work_file(batch.Job(path, None, False, False, slim=True), chunk, 5)
        assert isinstance(full, list) and isinstance(packed, batch.SlimResults)
        back = pickle.loads(pickle.dumps(packed)).expand()
        assert len(back) == len(full) == len(packed) and [r.index for r in back] == list(range(5, 5 + len(full)))
        for slim, whole in zip(back, full):
            assert (slim.report.index, slim.report.file, slim.report.game, slim.report.diagnostics,
                    slim.report.complete, slim.report.turns_played, slim.report.valid) == (
                whole.report.index, whole.report.file, whole.report.game, whole.report.diagnostics,
                whole.report.complete, whole.report.turns_played, whole.report.valid)
            assert (slim.record is None) == (whole.record is None)
            if whole.record is not None:  # a record kept for the check across games: its report whole too
                assert slim.report.to_json() == whole.report.to_json()
        if path == files[0]:
            assert any(not r.report.valid for r in back) and any(r.report.valid for r in back)
            assert len(pickle.dumps(packed)) < len(pickle.dumps(full)) / 10
        if path == files[2]:
            assert all(r.record is not None for r in back)


def test_dask_gets_fewer_larger_chunks_that_still_shrink_at_the_end(tmp_path: Path) -> None:
    """R297: on Dask the spans go in chunks of up to 512 games or 1 MiB, shrinking to a 1/(2 * workers) share of
    what is left and no less than 64 KiB: fewer tasks than a pool's, every game once and in order."""
    one = _spans_file(tmp_path).read_text(encoding="utf-8")
    path = tmp_path / "big.grn"
    path.write_text("\n".join([one] * 400), encoding="utf-8")  # 2,400 games, about 3 MB
    file = batch.FileRef.of(str(path))
    with open(path, "rb") as fh:
        games = [s.start for s in batch.SpanReader(fh)]
    size = path.stat().st_size
    counts = {}
    for name, sizes in (("pool", batch.Sizes.pool(256)), ("dask", batch.Sizes.dask(512))):
        chunks = list(batch._chunks(str(path), 2, file, sizes))
        assert all(isinstance(c, batch.FileChunk) for c in chunks)
        assert [s for c in chunks for s in c.starts] == games  # every game once, in order
        widths = [c.end - c.starts[0] for c in chunks]
        assert max(widths) <= sizes.chars + 4096 and max(len(c) for c in chunks) <= sizes.games
        assert widths[-2] < widths[0] / 2  # guided: the chunks shrink towards the end of the file
        counts[name] = len(chunks)
    assert counts["dask"] * 3 < counts["pool"] * 2, counts
    assert counts["dask"] <= 2 + size // (64 * 1024), counts


_games = st.sampled_from(["goldrush", "gold", "carcassonne", "no such game"])
_diagnostic = st.builds(lambda m, sev: Diagnostic(m, None, "f.grn", severity=sev),
                        st.text(max_size=8), st.sampled_from(["error", "warning"]))


@st.composite
def _results(draw: st.DrawFn) -> list[batch.GameResult]:
    first = draw(st.integers(0, 10_000))
    out = []
    for n in range(draw(st.integers(0, 12))):
        report = GameReport(first + n, draw(st.sampled_from(["f.grn", "other.grn", None])), draw(_games), (),
                            draw(st.lists(_diagnostic, max_size=3)), complete=draw(st.booleans()),
                            turns_played=draw(st.integers(0, 300)))
        whole = draw(st.booleans()) and draw(st.booleans())
        out.append(batch.GameResult(first + n, report, None, "", "grn", facts=("kept",) if whole else None))
    return out


@given(_results())
@settings(max_examples=100, deadline=None)
def test_slim_results_round_trip_any_chunk(results: list[batch.GameResult]) -> None:
    """R296: whatever a chunk's games gave (games of any kind, diagnostics or none, another file, results that go
    back whole), the packed results expand, after pickling, into results that read the same."""
    import pickle

    back = pickle.loads(pickle.dumps(batch.SlimResults.of("f.grn", results))).expand()
    assert len(back) == len(results)
    for got, want in zip(back, results):
        assert (got.index, got.report.index, got.report.file, got.report.game, got.report.diagnostics,
                got.report.complete, got.report.turns_played, got.facts) == (
            want.index, want.report.index, want.report.file, want.report.game, want.report.diagnostics,
            want.report.complete, want.report.turns_played, want.facts)


@pytest.mark.parametrize("code, status, err", [(None, 0, ""), (3, 3, ""), ("grn: stopped", 1, "grn: stopped\n")])
def test_dask_validate_ends_without_teardown_output_flushed(code: object, status: int, err: str) -> None:
    """R299: ``grn validate --dask-scheduler`` ends with ``os._exit``; what it printed is flushed first,
    and its exit status is the one ``SystemExit`` would have given."""
    script = (f"import sys; from grn.cli.launch import _end_now; sys.stdout.write('report' * 5000); _end_now({code!r})")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (status, "report" * 5000, err)
