"""``grn analyse --jobs N`` and ``--dask-scheduler``: one game's turns spread over workers, the same analysis.

A turn's analysis depends only on its position and the seed, so however the
turns are spread (one a unit of work) the output is byte for byte a serial
run's.  The Dask path runs on a local cluster of two worker processes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import grn
import grn.cli.app
from grn import games
from grn.cli.analyse import Turns
from grn.analysis.judge import analyse
from grn.core.record import Record
from grn.rules.selfplay import to_record
from grn.check import workers
from grn.check.workers import ProcessPool

runner = CliRunner()


def _record(game: str, seed: int, turns: int) -> Record:
    record = to_record(games.find_ruleset(game).selfplay(2, seed))
    return record.replace(turns=record.turns[:turns],
                               tags=tuple((k, v) for k, v in record.tags if k != "Result"))


@pytest.fixture(scope="module")
def two_games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("analyse") / "two.grn"
    path.write_text(grn.write_record(_record("goldrush", 3, 7)) + "\n" + grn.write_record(_record("gold", 4, 6)),
                    encoding="utf-8")
    return path


def _analyse(args: list[str]) -> tuple[int, str]:
    result = runner.invoke(grn.cli.app.app, ["analyse", *args])
    return result.exit_code, result.output


def test_dask_local_cluster_gives_the_serial_analysis(two_games: Path) -> None:
    distributed = pytest.importorskip("distributed", reason="the dask extra is not installed")
    args = ["--format", "json", "--playouts", "8", "--seed", "11", str(two_games)]
    serial = _analyse(args)
    assert serial[0] == 0, serial[1]
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        dask = _analyse(["--dask-scheduler", cluster.scheduler_address, *args])
        # a second run on the same (warm) workers: a worker's cached replay of the last run is not reused
        again = _analyse(["--dask-scheduler", cluster.scheduler_address, *args])
    assert dask == serial and again == serial
    assert [len(g["turns"]) for g in json.loads(serial[1])["games"]] == [7, 6]


def test_jobs_two_spreads_one_games_turns_one_a_unit() -> None:
    record = _record("goldrush", 5, 6)
    serial = analyse(record, playouts=8, seed=2)
    units: list[list[int]] = []

    class Counting(Turns):
        def __call__(self, record, groups, settings):  # type: ignore[no-untyped-def]
            units.extend(groups)
            return super().__call__(record, groups, settings)

    pool = ProcessPool(2, ("grn.analysis.judge",))
    try:
        spread = analyse(record, playouts=8, seed=2, runner=Counting(pool), parts=2)
    finally:
        pool.close()
    assert spread == serial
    assert units == [[t.turn] for t in serial.turns]  # every turn of the one game is a unit of its own


def test_unreachable_scheduler_is_one_line(two_games: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(workers, "CONNECT_TIMEOUT", 1)
    code, out = _analyse(["--dask-scheduler", "tcp://127.0.0.1:9", "--playouts", "4", str(two_games)])
    assert code == 1 and "grn analyse: error: cannot reach the Dask scheduler" in out and "Traceback" not in out


def test_a_file_of_many_games_streams(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Memory stays flat: while a game is analysed, the games before it are gone (text and record)."""
    import gc

    import grn.analysis.judge
    from grn.notation.read import Chunk

    path = tmp_path / "many.grn"
    path.write_text("\n".join(grn.write_record(_record("goldrush", seed, 1)) for seed in range(12)), encoding="utf-8")
    alive: list[tuple[int, int]] = []
    real = grn.analysis.judge.analyse

    def count() -> tuple[int, int]:
        gc.collect()
        objects = gc.get_objects()
        return sum(isinstance(o, Record) for o in objects), sum(isinstance(o, Chunk) for o in objects)

    before = count()  # what other tests left alive in this process

    def counting(record: Record, **options: object) -> object:
        now = count()
        alive.append((now[0] - before[0], now[1] - before[1]))
        return real(record, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(grn.analysis.judge, "analyse", counting)
    code, out = _analyse(["--playouts", "1", "--format", "json", str(path)])
    assert code == 0, out
    assert len(json.loads(out)["games"]) == len(alive) == 12
    # the game being analysed (its record, its text) and at most one read ahead: never the file's twelve
    assert max(r for r, _ in alive) <= 2 and max(c for _, c in alive) <= 2, alive
