"""Validating the games of a file in several processes, or on a Dask cluster, in file order.

The main process reads a file and cuts it into chunks of whole games (the text
of each game and the line it starts on, or the records of a JSON file); worker
processes parse and validate a chunk and send back the reports.  Results are
taken back in the order the chunks were sent, so a parallel run reports
exactly what a serial run reports, in the same order.

Memory stays bounded: at most ``jobs * IN_FLIGHT`` chunks are out at a time,
each of at most ``CHUNK_GAMES`` games or ``CHUNK_CHARS`` characters, so a file
of any size streams.

* ``jobs > 1``: a :class:`concurrent.futures.ProcessPoolExecutor` on this machine.
* ``scheduler="tcp://host:port"``: a :class:`distributed.Client` of a running
  Dask cluster (``pip install 'grn[dask]'``); the workers need grn installed.

The work done on a chunk is named by ``mode``: ``"validate"`` returns the
reports; ``"index"`` also returns the facts the archive stores
(:func:`grn.archive.facts.game_facts`), so that indexing runs in the workers too.
"""

from __future__ import annotations

import os
from collections import deque
from typing import TYPE_CHECKING
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Iterator, Protocol

from grn.errors import Diagnostic

if TYPE_CHECKING:
    from concurrent.futures import Executor
from grn.notation import Chunk
from grn.record import Record
from grn.validate import GameReport, validate_record

#: A chunk is sent when it holds this many games ...
CHUNK_GAMES = 64
#: ... or this many characters of text, whichever comes first.
CHUNK_CHARS = 512 * 1024
#: Chunks out at a time per worker (enough to keep every worker busy while the main process reads).
IN_FLIGHT = 3
#: Seconds to wait for a Dask scheduler to answer.
CONNECT_TIMEOUT = 10


@dataclass(slots=True)
class GameResult:
    """What validating one game of a file gave.

    ``record`` is kept only when the caller needs it back (a game with a
    ``Match`` tag, which the match checker reads; or ``keep_records``).
    ``text`` is the game's original text (GRN) or its JSON object (JSON form);
    ``facts`` the archive's index rows (mode ``"index"`` only).
    """

    index: int
    report: GameReport
    record: Record | None
    text: str
    fmt: str
    facts: Any = None


@dataclass(slots=True)
class Problem:
    """A problem that stopped reading a file (no such file, not UTF-8, bad JSON)."""

    problem: Diagnostic


Item = GameResult | Problem


@dataclass(frozen=True, slots=True)
class Job:
    """What a worker needs besides the games: the file name reports carry, and how to validate."""

    file: str
    tileset: str | None
    keep_turns: bool
    mode: str
    keep_records: bool


# ---------------------------------------------------------------------------
# Reading a file into units of work (main process)
# ---------------------------------------------------------------------------

def _units(path: str) -> Iterator[tuple[Chunk, int] | Record | Diagnostic]:
    """The games of ``path`` in order: (text, first line, index) for GRN, records for JSON, problems.

    Reading a GRN file only splits it into games (cheap); parsing is left to the
    workers.  Every problem is the one :func:`grn.sources.load` reports.
    """
    from grn import notation, sources

    if path == "-" or sources.is_json(path):
        for item in sources.load(path):
            if item.problem is not None:
                yield item.problem
            elif item.record is not None:
                yield item.record
        return
    try:
        fh = open(path, "rb")
    except OSError:
        # the same one-line problem a serial run gives
        for item in sources.load(path):
            if item.problem is not None:
                yield item.problem
        return
    with fh:
        try:
            for index, chunk in enumerate(notation.split_games(sources.decoded_lines(fh))):
                yield (chunk, index)
        except sources.BadEncoding as exc:
            yield sources.encoding_problem(exc, path)
        except IsADirectoryError:  # pragma: no cover - open() refuses directories first on Linux
            yield Diagnostic("is a directory, not a record file", None, path, code="io")


# ---------------------------------------------------------------------------
# The work on one chunk (worker process, or in-process for a serial run)
# ---------------------------------------------------------------------------

@lru_cache(maxsize=4)
def _tileset(path: str | None) -> Any:
    if path is None:
        return None
    from grn.tiling.tiles import load_tileset

    return load_tileset(path)


def work(job: Job, games: list[tuple[Chunk, int] | Record], first_index: int,
         tileset: Any = None) -> list[GameResult]:
    """Parse (GRN text) and validate a chunk of games; with ``job.mode == "index"`` also extract facts.

    A module-level function so that process pools and Dask can send it by name.
    """
    from grn import games as registry
    from grn.jsonform import record_to_json
    from grn.notation import read_chunk

    ts = tileset if tileset is not None else _tileset(job.tileset)
    out: list[GameResult] = []
    index = first_index
    for game in games:
        if isinstance(game, Record):
            record = game
            text, fmt = "", "json"
        else:
            chunk, number = game
            text = chunk.text
            record = read_chunk(chunk, file=job.file, index=number)
            fmt = "grn"
        file = record.diagnostics[0].file if record.diagnostics else job.file
        report = validate_record(record, file=file, index=index, tileset=ts, keep_turns=job.keep_turns)
        facts = None
        if job.mode == "index":
            import json

            from grn.archive.facts import game_facts

            if fmt == "json":
                text = json.dumps(record_to_json(record), ensure_ascii=False, separators=(",", ":"))
            facts = game_facts(record, report)
            # the facts hold what the archive keeps of the turns: do not send them twice
            report.turns = []
            report.final_raw_events = ()
        # the record goes back with its report when the game's checks across a file need it
        keep = job.keep_records or (registry.known(record.game) and registry.find_ruleset(record.game).in_series(record))
        out.append(GameResult(index, report, record if keep else None, text, fmt, facts))
        index += 1
    return out


# ---------------------------------------------------------------------------
# Running chunks: serially, in a process pool, or on Dask
# ---------------------------------------------------------------------------

class _Runner(Protocol):
    def submit(self, fn: Callable[..., Any], *args: Any) -> Any: ...

    def result(self, future: Any) -> list[GameResult]: ...

    def close(self) -> None: ...


class _Inline:
    """A serial run: the same work, in this process, at once."""

    def __init__(self, tileset: Any) -> None:
        self.tileset = tileset

    def submit(self, fn: Callable[..., Any], *args: Any) -> Any:
        return fn(*args, tileset=self.tileset)

    def result(self, future: Any) -> list[GameResult]:
        return future  # type: ignore[no-any-return]

    def close(self) -> None:
        pass


class _Pool:
    """A process pool on this machine."""

    def __init__(self, jobs: int) -> None:
        import threading
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor
        from multiprocessing.context import BaseContext

        ctx: BaseContext
        if threading.active_count() == 1 and "fork" in multiprocessing.get_all_start_methods():
            # a command line run: forking copies a process that has grn imported already, at once
            ctx = multiprocessing.get_context("fork")
        else:
            # threads (a Dask client, a test runner's): forking could copy a held lock, so
            # workers start from a fork server that imports grn and builds its parsers once
            ctx = multiprocessing.get_context("forkserver")
            multiprocessing.set_forkserver_preload(["grn.archive.parallel", "grn.archive.facts", "grn.archive._warm"])
        self.executor: Executor = ProcessPoolExecutor(max_workers=jobs, mp_context=ctx)

    def submit(self, fn: Callable[..., Any], *args: Any) -> Any:
        return self.executor.submit(fn, *args)

    def result(self, future: Any) -> list[GameResult]:
        from concurrent.futures import Future

        assert isinstance(future, Future)
        return future.result()  # type: ignore[no-any-return]

    def close(self) -> None:
        self.executor.shutdown(wait=True, cancel_futures=True)


class _Dask:
    """A Dask cluster reached through its scheduler's address."""

    def __init__(self, address: str) -> None:
        try:
            from distributed import Client
        except ImportError:
            raise SchedulerError("--dask-scheduler needs Dask: pip install 'grn[dask]'") from None
        try:
            self.client = Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as exc:
            raise SchedulerError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
        try:
            # every worker builds its parsers now, not on its first chunk (and says early if grn is missing)
            self.client.run(_warm_up)
        except Exception as exc:  # noqa: BLE001 - whatever a worker raised, say it in one line
            self.client.close()
            raise SchedulerError(f"the Dask workers at {address} cannot run grn: {exc}") from None

    def submit(self, fn: Callable[..., Any], *args: Any) -> Any:
        # pure=False: two chunks with equal text are still two pieces of work
        return self.client.submit(fn, *args, pure=False)

    def result(self, future: Any) -> list[GameResult]:
        return future.result()  # type: ignore[no-any-return]

    def close(self) -> None:
        self.client.close()


def _warm_up() -> None:
    """Run on each Dask worker once: import grn and build its parsers."""
    import grn.archive._warm  # noqa: F401


class SchedulerError(Exception):
    """The Dask scheduler cannot be used (not installed, not reachable)."""


def workers_of(jobs: int, scheduler: str | None) -> int:
    """How many chunks may be out at a time."""
    if scheduler is None:
        return max(1, jobs)
    return max(2, jobs) * 2


def _chunks(path: str) -> Iterator[list[tuple[Chunk, int] | Record] | Diagnostic]:
    """Group the games of ``path`` into chunks; problems pass through in their place."""
    batch: list[tuple[Chunk, int] | Record] = []
    size = 0
    for unit in _units(path):
        if isinstance(unit, Diagnostic):
            if batch:
                yield batch
                batch, size = [], 0
            yield unit
            continue
        batch.append(unit)
        size += len(unit[0].text) if isinstance(unit, tuple) else 2000
        if len(batch) >= CHUNK_GAMES or size >= CHUNK_CHARS:
            yield batch
            batch, size = [], 0
    if batch:
        yield batch


class Validator:
    """Validates files game by game, serially, in ``jobs`` processes, or on a Dask cluster.

    Use as a context manager; :meth:`run` yields one :class:`GameResult` per
    game (or a :class:`Problem`) in file order, whatever runs the work.
    """

    def __init__(self, *, jobs: int = 1, scheduler: str | None = None, tileset: Any = None,
                 tileset_path: str | None = None, keep_turns: bool = False, mode: str = "validate",
                 keep_records: bool = False) -> None:
        self.jobs = jobs
        self.scheduler = scheduler
        self.tileset_path = tileset_path
        self.keep_turns = keep_turns
        self.mode = mode
        self.keep_records = keep_records
        self.runner: _Runner
        if scheduler is not None:
            self.runner = _Dask(scheduler)
        elif jobs > 1:
            self.runner = _Pool(jobs)
        else:
            self.runner = _Inline(tileset)

    def __enter__(self) -> "Validator":
        return self

    def __exit__(self, *exc: object) -> None:
        self.runner.close()

    def run(self, path: str, *, skip: int = 0) -> Iterator[Item]:
        """Yield the results of the games of ``path`` in order (the first ``skip`` games are not validated)."""
        name = "<stdin>" if path == "-" else path
        job = Job(name, self.tileset_path, self.keep_turns, self.mode, self.keep_records)
        pending: deque[Any] = deque()
        limit = workers_of(self.jobs, self.scheduler) * IN_FLIGHT
        index = 0
        for chunk in _chunks(path):
            if isinstance(chunk, Diagnostic):
                # a problem ends what can be read: first drain the games before it
                while pending:
                    yield from self.runner.result(pending.popleft())
                yield Problem(chunk)
                continue
            first = index
            index += len(chunk)
            if first + len(chunk) <= skip:
                continue
            if first < skip:
                chunk, first = chunk[skip - first:], skip
            pending.append(self.runner.submit(work, job, chunk, first))
            while len(pending) >= limit:
                yield from self.runner.result(pending.popleft())
        while pending:
            yield from self.runner.result(pending.popleft())


def cpu_count() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def start_validator(ctx: Any, jobs: int, scheduler: str | None, tileset: Any, tileset_path: Any, *,
                    keep_turns: bool, command: str = "grn validate", mode: str = "validate") -> Validator:
    """A :class:`Validator` for a command, closed with the command's click context; exits on bad options.

    ``ctx`` is the command's ``typer.Context``: the worker processes (or the
    Dask client) end when the command does.
    """
    import sys

    import typer

    if jobs < 1:
        print(f"{command}: --jobs must be 1 or more, not {jobs}", file=sys.stderr)
        raise typer.Exit(2)
    try:
        validator = Validator(jobs=jobs, scheduler=scheduler, tileset=tileset,
                              tileset_path=None if tileset_path is None else str(tileset_path),
                              keep_turns=keep_turns, mode=mode)
    except SchedulerError as exc:
        print(f"{command}: error: {exc}", file=sys.stderr)
        raise typer.Exit(1)
    ctx.call_on_close(validator.runner.close)
    return validator
