"""Validating the games of a file in several processes, or on a Dask cluster, in file order.

The main process cuts a file into chunks of whole games; worker processes parse
and validate a chunk and send back the reports.  Results are taken back in the
order the chunks were sent, so a parallel run reports exactly what a serial run
reports, in the same order.  A chunk is one of:

* where its games lie in a GRN file (:class:`FileChunk`: byte offsets and first
  lines, found by :class:`grn.notation.gamespans.SpanReader`): the worker reads them from
  the file itself (R220), so the main process neither splits the file line by
  line nor sends its text;
* the text of each game and the line it starts on (standard input, a file the
  span reader stops in, a caller that wants each game's text back, a Dask
  cluster whose workers cannot see the file);
* the records of a JSON file.

Memory stays bounded: at most ``jobs * IN_FLIGHT`` chunks are out at a time,
each of at most ``CHUNK_GAMES`` games or ``CHUNK_CHARS`` characters, so a file
of any size streams.

* ``jobs > 1``: a :class:`grn.check.workers.ProcessPool` on this machine.
* ``scheduler="tcp://host:port"``: a :class:`grn.check.workers.DaskClient` of a running
  Dask cluster (``pip install 'grn[dask]'``); the workers need grn installed.

A GRN game's text sent to a worker is not sent back: the main process
keeps each chunk until its results come, and puts the text back in them.

``grn validate``, ``grn archive add`` and the recorder (``grn serve``) share
this module.  A caller that wants more from each game than its report (the
archive's index rows) passes an ``index`` function, which the workers run on
each game after validating it (:class:`Job`): this module names no caller.
"""

from __future__ import annotations

import itertools
import os
import threading
from collections import deque
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable, Final, Iterator

from grn.rules import registry
from grn.notation import sources
from grn.core.errors import Diagnostic
from grn.notation.gamespans import GameSpan, SpanReader
from grn.notation.read import Chunk, read_chunk
from grn.core.record import Record
from grn.check.validate import GameReport, validate_record
from grn.core.value import Struct, Value
from grn.check.files import GameResult, Item, Problem
from grn.check.workers import (DaskClient, Inline, ProcessPool, Runner, SchedulerError, Unit, can_fork, cpu_count,
                         game_units)

if TYPE_CHECKING:
    from grn.games.tiling.tiles import TileSet

#: A chunk is sent when it holds this many games ...
CHUNK_GAMES = 64
#: ... or this many characters of text, whichever comes first.
CHUNK_CHARS = 512 * 1024
#: Chunks shrink as a file of known size is read (guided scheduling: a chunk holds about 1 / (GUIDE * workers)
#: of the text not yet sent) so that the workers finish together; a chunk is never smaller than this.
MIN_CHUNK_CHARS = 16 * 1024
GUIDE = 4
#: A chunk of games the workers read from the file holds at most this many games (without each turn's report):
#: few tasks, as each costs the pool or the Dask scheduler something, and results still small.
FILE_CHUNK_GAMES = 256
#: Chunks out at a time per worker (enough to keep every worker busy while the main process reads).
IN_FLIGHT = 3
#: On a Dask cluster chunks read from the file are larger, and fewer (R297): each task costs the scheduler, the
#: workers' event loops and the client some milliseconds of CPU whatever its size, and a worker waits a round trip
#: through the scheduler between two tasks.  At most this many games or characters a chunk, shrinking towards
#: the end of the file by 1 / (DASK_GUIDE * workers) of what is left, never below DASK_MIN_CHUNK_CHARS.
DASK_FILE_CHUNK_GAMES = 512
DASK_CHUNK_CHARS = 1024 * 1024
DASK_MIN_CHUNK_CHARS = 64 * 1024
DASK_GUIDE = 2




class FileRef(Value):
    """A file the workers read themselves, as the main process saw it (a worker checks it sees the same one)."""

    __slots__ = ("path", "size", "mtime_ns")
    _fields = ("path", "size", "mtime_ns")

    def __init__(self, path: str, size: int, mtime_ns: int) -> None:
        self.path: Final = path
        self.size: Final = size
        self.mtime_ns: Final = mtime_ns

    def _key(self) -> tuple[object, ...]:
        return (self.path, self.size, self.mtime_ns)

    @classmethod
    def of(cls, path: str) -> "FileRef":
        """The file at ``path`` as it is now (``OSError`` if there is none)."""
        st = os.stat(path)
        return cls(path, st.st_size, st.st_mtime_ns)

    def seen(self) -> bool:
        """Whether this process sees the same file: the same size and modification time at the same path."""
        try:
            return FileRef.of(self.path) == self
        except OSError:
            return False


class FileChunk(Value):
    """Games of a GRN file that a worker reads from the file, one after another: where each starts (a byte
    offset) and on which line, and where the last ends.  Plain numbers: they cost little to send."""

    __slots__ = ("file", "starts", "end", "lines")
    _fields = ("file", "starts", "end", "lines")

    def __init__(self, file: FileRef, starts: tuple[int, ...], end: int, lines: tuple[int, ...]) -> None:
        self.file: Final = file
        self.starts: Final = starts
        self.end: Final = end
        self.lines: Final = lines

    def _key(self) -> tuple[object, ...]:
        return (self.file, self.starts, self.end, self.lines)

    @classmethod
    def of(cls, file: FileRef, spans: list[GameSpan]) -> "FileChunk":
        """The chunk of consecutive ``spans``."""
        return cls(file, tuple(s.start for s in spans), spans[-1].end, tuple(s.first_line for s in spans))

    def __len__(self) -> int:
        return len(self.starts)

    def after(self, skip: int) -> "FileChunk":
        """The chunk without its first ``skip`` games."""
        return FileChunk(self.file, self.starts[skip:], self.end, self.lines[skip:])


class FileChanged(Exception):
    """A worker found the file other than the main process saw it (changed while read, or not shared)."""


#: What a caller may run on each validated game in the workers: given the record, its report, the
#: format read ("grn" or "json") and the game's observer (see ``ObserveFn``; None without one), it returns
#: the game's text to keep for a JSON game (None for a GRN game, whose text the main process has) and the
#: facts to send back.  A module-level function, sent by name.
IndexFn = Callable[[Record, GameReport, str, Any], tuple[str | None, Any]]
#: What makes a game's :class:`grn.check.validate.TurnObserver` before it is replayed (the record given), so that
#: an index function gets the turns' events without a report a turn.  A module-level function.
ObserveFn = Callable[[Record], Any]


class Job(Value):
    """What a worker needs besides the games: the file name reports carry, how to validate, what to index.

    ``slim``: the caller reads of a report only its diagnostics and whether the game is complete (validate's
    text report): a game read from the file comes back with no more (R222).
    """

    __slots__ = ("file", "tileset", "keep_turns", "keep_records", "index", "observe", "slim")
    _fields = ("file", "tileset", "keep_turns", "keep_records", "index", "observe", "slim")

    def __init__(self, file: str, tileset: str | None, keep_turns: bool, keep_records: bool,
                 index: IndexFn | None = None, observe: ObserveFn | None = None, slim: bool = False) -> None:
        self.file: Final = file
        self.tileset: Final = tileset
        self.keep_turns: Final = keep_turns
        self.keep_records: Final = keep_records
        self.index: Final = index
        self.observe: Final = observe
        self.slim: Final = slim

    def _key(self) -> tuple[object, ...]:
        return (self.file, self.tileset, self.keep_turns, self.keep_records, self.index, self.observe, self.slim)


# ---------------------------------------------------------------------------
# The work on one chunk (worker process, or in-process for a serial run)
# ---------------------------------------------------------------------------

@lru_cache(maxsize=4)
def _tileset(path: str | None) -> TileSet | None:
    if path is None:
        return None
    from grn.games.tiling.tiles import load_tileset

    return load_tileset(path)


def work(job: Job, games: list[tuple[Chunk, int] | Record], first_index: int,
         tileset: TileSet | None = None) -> list[GameResult]:
    """Parse (GRN text) and validate a chunk of games; with ``job.index`` also index each game.

    A module-level function so that process pools and Dask can send it by name.
    """
    ts = tileset if tileset is not None else _tileset(job.tileset)
    out: list[GameResult] = []
    index = first_index
    for game in games:
        if isinstance(game, Record):
            record = game
            text, fmt = "", "json"
        else:
            chunk, number = game
            text = ""  # the main process has the text: it is not sent back (Validator.run puts it back)
            record = read_chunk(chunk, file=job.file, index=number)
            fmt = "grn"
        file = record.diagnostics[0].file if record.diagnostics else job.file
        observer = job.observe(record) if job.observe is not None else None
        report = validate_record(record, file=file, index=index, tileset=ts, keep_turns=job.keep_turns,
                                 observer=observer)
        facts = None
        if job.index is not None:
            kept, facts = job.index(record, report, fmt, observer)
            if kept is not None:
                text = kept
        # the record goes back with its report when the game's checks across a file need it
        keep = job.keep_records or (registry.known(record.game) and registry.find_ruleset(record.game).in_series(record))
        out.append(GameResult(index, report, record if keep else None, text, fmt, facts))
        index += 1
    return out


def file_units(chunk: FileChunk, first_index: int) -> list[tuple[Chunk, int] | Record]:
    """The games of ``chunk`` read from the file: their bytes read at once and each game's text cut from them,
    as :func:`grn.notation.read.split_games` cuts it (the main process found the spans).  Raises
    :class:`FileChanged` when the file is not the one the main process saw (R221)."""
    if not chunk.file.seen():
        raise FileChanged(chunk.file.path)
    base = chunk.starts[0]
    with open(chunk.file.path, "rb") as fh:
        fh.seek(base)
        data = fh.read(chunk.end - base)
    games: list[tuple[Chunk, int] | Record] = []
    ends = chunk.starts[1:] + (chunk.end,)
    for n, (start, end, line) in enumerate(zip(chunk.starts, ends, chunk.lines)):
        text = data[start - base:end - base].decode("utf-8")
        if start == 0 and text.startswith("\ufeff"):
            text = text[1:]  # split_games drops a UTF-8 byte-order mark
        games.append((Chunk(text, line), first_index + n))
    return games


def work_file(job: Job, chunk: FileChunk, first_index: int,
              tileset: TileSet | None = None) -> list[GameResult] | SlimResults:
    """:func:`work` on games the worker reads from the file itself (R220, :func:`file_units`); for validate's
    text report (``job.slim``) the results packed (:class:`SlimResults`, R222, R296)."""
    results = work(job, file_units(chunk, first_index), first_index, tileset)
    return SlimResults.of(job.file, results) if job.slim else results


class SlimResults(Value):
    """A chunk's results for validate's text report, packed (R296): of each game only what the report reads
    (R222), as a few numbers a game, not two objects.  :meth:`expand` gives the results back.

    ``kinds`` numbers each game's name in ``names``; ``complete`` and ``turns`` are per game; ``diagnostics``
    and ``files`` only for the games that have any (or whose report names another file than ``file``);
    ``whole`` the results that go back as they are (a record kept for a check across games, facts), each
    holding its place in the others (kind -1).
    """

    __slots__ = ("file", "first", "names", "kinds", "complete", "turns", "diagnostics", "files", "whole")
    _fields = ("file", "first", "names", "kinds", "complete", "turns", "diagnostics", "files", "whole")

    def __init__(self, file: str, first: int, names: tuple[str, ...], kinds: tuple[int, ...], complete: bytes,
                 turns: tuple[int, ...], diagnostics: dict[int, list[Diagnostic]], files: dict[int, str | None],
                 whole: dict[int, GameResult]) -> None:
        self.file: Final = file
        self.first: Final = first
        self.names: Final = names
        self.kinds: Final = kinds
        self.complete: Final = complete
        self.turns: Final = turns
        self.diagnostics: Final = diagnostics
        self.files: Final = files
        self.whole: Final = whole

    def _key(self) -> tuple[object, ...]:
        return (self.file, self.first, self.names, self.kinds, self.complete, self.turns, self.diagnostics,
                self.files, self.whole)

    @classmethod
    def of(cls, file: str, results: list[GameResult]) -> "SlimResults":
        """``results`` (of consecutive games, each of format "grn" with no text) packed."""
        names: dict[str, int] = {}
        kinds: list[int] = []
        turns: list[int] = []
        diagnostics: dict[int, list[Diagnostic]] = {}
        files: dict[int, str | None] = {}
        whole: dict[int, GameResult] = {}
        for n, result in enumerate(results):
            report = result.report
            if result.record is not None or result.facts is not None or result.text or result.fmt != "grn":
                whole[n] = result  # sent once, as it is: a place held below
                kinds.append(-1)
                turns.append(0)
                continue
            if report.diagnostics:
                diagnostics[n] = report.diagnostics
            if report.file != file:
                files[n] = report.file
            kinds.append(names.setdefault(report.game, len(names)))
            turns.append(report.turns_played)
        return cls(file, results[0].index if results else 0, tuple(names), tuple(kinds),
                   bytes(r.report.complete for r in results), tuple(turns), diagnostics, files, whole)

    def __len__(self) -> int:
        return len(self.kinds)

    def expand(self) -> list[GameResult]:
        """The results, each game's report holding its diagnostics, completeness and turns played."""
        out: list[GameResult] = []
        for n, kind in enumerate(self.kinds):
            kept = self.whole.get(n)
            if kept is not None:
                out.append(kept)
                continue
            index = self.first + n
            report = GameReport(index, self.files.get(n, self.file), self.names[kind], (),
                                self.diagnostics.get(n, []), complete=bool(self.complete[n]),
                                turns_played=self.turns[n])
            out.append(GameResult(index, report, None, "", "grn"))
        return out


def sees_file(file: FileRef) -> bool:
    """Run on each Dask worker: whether it can read the file itself (a local cluster, a shared file system)."""
    return file.seen()


# ---------------------------------------------------------------------------
# Running chunks: serially, in a process pool, or on Dask
# ---------------------------------------------------------------------------

#: What the process pool's fork server imports once: the reader and the rules, warmed up.
PRELOAD = ("grn.check.batch", "grn.check._warm")


def _warm_up() -> None:
    """Run on each Dask worker once: import grn and build its parsers."""
    import grn.check._warm  # noqa: F401


def workers_of(jobs: int, scheduler: str | None) -> int:
    """How many workers a run has (``IN_FLIGHT`` chunks out for each); a connected Dask client counts its
    cluster's threads instead (:attr:`grn.check.workers.DaskClient.workers`)."""
    if scheduler is None:
        return max(1, jobs)
    return max(2, jobs) * 2


def _file_size(path: str) -> int | None:
    try:
        return None if path == "-" else os.path.getsize(path)
    except OSError:
        return None


class Sizes(Value):
    """How large chunks read from the file are: at most ``games`` games and ``chars`` characters, shrinking
    towards the end of the file to 1 / (``guide`` * workers) of what is left, never below ``least`` characters."""

    __slots__ = ("games", "chars", "least", "guide")
    _fields = ("games", "chars", "least", "guide")

    def __init__(self, games: int, chars: int, least: int, guide: int) -> None:
        self.games: Final = games
        self.chars: Final = chars
        self.least: Final = least
        self.guide: Final = guide

    def _key(self) -> tuple[object, ...]:
        return (self.games, self.chars, self.least, self.guide)

    @classmethod
    def pool(cls, games: int) -> "Sizes":
        """The sizes for a process pool (and the text path everywhere), ``games`` at most."""
        return cls(games, CHUNK_CHARS, MIN_CHUNK_CHARS, GUIDE)

    @classmethod
    def dask(cls, games: int) -> "Sizes":
        """The sizes for a Dask cluster, ``games`` at most: fewer, larger tasks (R297)."""
        return cls(games, DASK_CHUNK_CHARS, DASK_MIN_CHUNK_CHARS, DASK_GUIDE)


def _chunks(path: str, workers: int | Callable[[], int] = 1, file: FileRef | None = None,
            sizes: Sizes | None = None) -> Iterator[list[Unit] | FileChunk | Diagnostic]:
    """Group the games of ``path`` into chunks for ``workers`` workers; problems pass through in their place.

    With more than one worker and a file of known size the chunks shrink towards the end of the file, so
    that no worker is left with a long last chunk while the others wait (the wall time of a parallel run).
    With ``file`` (the workers can read it) the chunks are spans of the file as far as
    :class:`~grn.notation.gamespans.SpanReader` reads it (as large as ``sizes`` says), then the text of the rest.
    ``workers`` may be a function, asked at each chunk (a Dask client counts its cluster's threads once connected).
    ``sizes``: how large the spans' chunks are (without: a pool's, of ``CHUNK_GAMES``).
    """
    total = _file_size(path) if callable(workers) or workers > 1 else None
    sent = 0
    span_sizes = sizes if sizes is not None else Sizes.pool(CHUNK_GAMES)
    text_sizes = Sizes.pool(CHUNK_GAMES)

    def target(of: Sizes) -> int:
        if total is None:
            return of.chars
        count = workers() if callable(workers) else workers
        return max(of.least, min(of.chars, (total - sent) // (of.guide * count)))

    done = 0  # games given as spans
    if file is not None:
        try:
            fh = open(path, "rb")
        except OSError:
            fh = None  # the text path says what is wrong, in its place
        if fh is not None:
            with fh:
                reader = SpanReader(fh)
                spans: list[GameSpan] = []
                want = target(span_sizes)
                for span in reader:
                    spans.append(span)
                    if len(spans) >= span_sizes.games or span.end - spans[0].start >= want:
                        yield FileChunk.of(file, spans)
                        sent += span.end - spans[0].start
                        done += len(spans)
                        spans = []
                        want = target(span_sizes)
                if spans:
                    yield FileChunk.of(file, spans)
                    done += len(spans)
                if not reader.stopped:
                    return
    batch: list[Unit] = []
    size = 0
    want = target(text_sizes)
    for unit in game_units(path):
        if isinstance(unit, Diagnostic):
            if batch:
                yield batch
                batch, size = [], 0
            yield unit
            continue
        if done:  # read as spans already: only counted here (the file is cut line by line from its start)
            done -= 1
            continue
        batch.append(unit)
        size += len(unit[0].text) if isinstance(unit, tuple) else 2000
        if len(batch) >= text_sizes.games or size >= want:
            yield batch
            sent += size
            batch, size = [], 0
            want = target(text_sizes)
    if batch:
        yield batch


#: True: while a Dask client starts (importing ``distributed``, about half a CPU second, and connecting: the
#: cluster can be sent nothing before), the first file's first chunks are validated by one local worker process
#: forked first, one small chunk at a time for as long as the start-up lasts (R241); their results are printed only
#: once the client is connected.  Off (R298): on two cores the helper, its pool's threads and the client's
#: start-up compete for the cores and the client's interpreter lock, and cost more than the helper wins; the
#: bench measures both.
HEAD_START = False
#: Chunks a head start sends the helper are sized as if for this many workers: small (down to MIN_CHUNK_CHARS),
#: so that the helper stops soon after the client has connected.
HEAD_START_WORKERS = 16
#: How often (seconds) the main process looks whether the helper wants another chunk while the client starts.
HEAD_START_POLL = 0.005


class _Run(Struct):
    """One file being validated: its chunks not sent yet, the chunks out (with the runner each went to) and
    how many games were met; kept from a Dask client's head start (R241) to :meth:`Validator.run`.
    ``as_text``: the file's games as spans are read by the main process and sent as text (a cluster that
    cannot see it)."""

    __slots__ = ("path", "job", "chunks", "pending", "index", "as_text")
    _fields = ("path", "job", "chunks", "pending", "index", "as_text")

    def __init__(self, path: str, job: Job, chunks: Iterator[list[Unit] | FileChunk | Diagnostic],
                 pending: deque[tuple[Runner, Any, list[Unit] | FileChunk]], index: int = 0,
                 as_text: bool = False) -> None:
        self.path = path
        self.job = job
        self.chunks = chunks
        self.pending = pending
        self.index = index
        self.as_text = as_text


class Validator:
    """Validates files game by game, serially, in ``jobs`` processes, or on a Dask cluster.

    Use as a context manager; :meth:`run` yields one :class:`GameResult` per
    game (or a :class:`Problem`) in file order, whatever runs the work.

    ``head_start``: the first file to be run on Dask (``scheduler``); its first chunks are validated by a
    local worker process while the client starts (R241), when this process can fork.
    """

    def __init__(self, *, jobs: int = 1, scheduler: str | None = None, tileset: TileSet | None = None,
                 tileset_path: str | None = None, keep_turns: bool = False, index: IndexFn | None = None,
                 keep_records: bool = False, preload: tuple[str, ...] = (), texts: bool = True,
                 slim: bool = False, observe: ObserveFn | None = None, head_start: str | None = None) -> None:
        self.jobs = jobs
        self.scheduler = scheduler
        self.tileset_path = tileset_path
        self.keep_turns = keep_turns
        self.index = index
        self.keep_records = keep_records
        #: whether each GRN game's text comes back in its result (the archive keeps it; validate does not:
        #: then the workers read a file's games from the file themselves, R220)
        self.texts = texts
        self.slim = slim
        self.observe = observe
        #: the local worker of a Dask client's head start (R241), and the run it began
        self.helper: ProcessPool | None = None
        self._begun: _Run | None = None
        self._head = False  # a head start is on: its chunks are small
        self.runner: Runner
        if scheduler is not None:
            if head_start is not None and HEAD_START and can_fork():
                # forked now, before the client's threads start; the client starts while it works
                self.helper = ProcessPool(1, PRELOAD + preload)
                self._head = True
                self.runner = self._connect_with_head_start(scheduler, head_start)
                self._begun_sees_file()
            else:
                self.runner = DaskClient(scheduler, _warm_up)
        elif jobs > 1:
            # ``preload``: the modules the caller's index function needs, imported once by the fork server
            self.runner = ProcessPool(jobs, PRELOAD + preload)
        else:
            self.runner = Inline(tileset=tileset)

    def __enter__(self) -> "Validator":
        return self

    def __exit__(self, *exc: object) -> None:
        if self.helper is not None:
            self.helper.close()
        self.runner.close()

    def _local_file(self, path: str) -> FileRef | None:
        """The file, when workers are to read its games themselves and this machine's can (R220)."""
        if self.texts or path == "-" or sources.is_json(path):
            return None
        try:
            return FileRef.of(os.path.abspath(path))  # a Dask worker runs in another folder
        except OSError:
            return None  # the text path reports it in its place

    def _readable(self, path: str) -> FileRef | None:
        """The file, when the workers are to read its games themselves: a GRN file they see as this process
        does (on Dask, every worker is asked: a remote cluster needs the file at the same path)."""
        if isinstance(self.runner, Inline):
            return None
        file = self._local_file(path)
        if file is not None and isinstance(self.runner, DaskClient) and not all(self.runner.everywhere(sees_file,
                                                                                                     file)):
            return None
        return file

    def _seen_by_runner(self, path: str) -> bool:
        """Whether the Dask workers see the file of a run begun before they were asked (R221)."""
        file = self._local_file(path)
        return file is None or not isinstance(self.runner, DaskClient) or all(self.runner.everywhere(sees_file, file))

    def _workers(self) -> int:
        """How many units can run at once: on Dask, the cluster's threads once connected (chunks sized for them,
        few tasks: each costs the scheduler and the client)."""
        if self._head:
            return HEAD_START_WORKERS  # small chunks for the helper of a head start (R241)
        runner = getattr(self, "runner", None)
        if isinstance(runner, DaskClient):
            return runner.workers
        return workers_of(self.jobs, self.scheduler)

    def _open(self, path: str, file: FileRef | None, serial: bool) -> _Run:
        name = "<stdin>" if path == "-" else path
        job = Job(name, self.tileset_path, self.keep_turns, self.keep_records, self.index, self.observe,
                  self.slim)
        # each turn's report makes a game's result large: then chunks of as few games as text chunks
        large = self.keep_turns or self.keep_records
        if self.scheduler is not None:
            sizes = Sizes.dask(CHUNK_GAMES if large else DASK_FILE_CHUNK_GAMES)
        else:
            sizes = Sizes.pool(CHUNK_GAMES if large else FILE_CHUNK_GAMES)
        return _Run(path, job, _chunks(path, 1 if serial else self._workers, file, sizes), deque())

    def _connect_with_head_start(self, scheduler: str, path: str) -> DaskClient:
        """Connect to the Dask scheduler in a thread while the local helper validates the first chunks of
        ``path``, one at a time, for as long as that takes (R241); the run goes on in :meth:`run`."""
        assert self.helper is not None
        helper = self.helper
        begun = self._begun = self._open(path, self._local_file(path), serial=False)
        chunks = begun.chunks
        out: list[Any] = []  # the helper's chunk not done yet

        def feed() -> bool:
            """Send the helper the next chunk; False when there is none (a problem is left for run())."""
            for chunk in chunks:
                if isinstance(chunk, Diagnostic):
                    begun.chunks = itertools.chain([chunk], chunks)  # reported in its place by run()
                    return False
                self._send(begun, chunk, 0, helper)
                out[:] = [begun.pending[-1][1]]
                return True
            return False

        more = feed()  # forks the helper, before any thread is started
        connected: list[DaskClient | BaseException] = []

        def connect() -> None:
            try:
                connected.append(DaskClient(scheduler, _warm_up))
            except BaseException as exc:  # noqa: BLE001 - raised again in the main thread, as without a head start
                connected.append(exc)

        thread = threading.Thread(target=connect, name="grn-dask-connect", daemon=True)
        thread.start()
        while thread.is_alive():
            if more and out[0].done():
                more = feed()
            thread.join(HEAD_START_POLL)
        self._head = False
        result = connected[0]
        if isinstance(result, BaseException):
            helper.close()
            raise result
        return result

    def _begun_sees_file(self) -> None:
        """A cluster that cannot see the file of the run begun gets the text of its games not sent yet (R221)."""
        if self._begun is not None:
            self._begun.as_text = not self._seen_by_runner(self._begun.path)

    def _send(self, run: _Run, chunk: list[Unit] | FileChunk, skip: int, runner: Runner) -> None:
        """Submit ``chunk`` (the games from ``run.index`` on) to ``runner``, less those before game ``skip``."""
        first = run.index
        run.index += len(chunk)
        if first + len(chunk) <= skip:
            return
        if isinstance(chunk, FileChunk):
            if first < skip:
                chunk, first = chunk.after(skip - first), skip
            if run.as_text:  # the cluster cannot read the file: its text goes (R221)
                chunk = file_units(chunk, first)
            else:
                run.pending.append((runner, runner.submit(work_file, run.job, chunk, first), chunk))
                return
        if first < skip:
            chunk, first = chunk[skip - first:], skip
        run.pending.append((runner, runner.submit(work, run.job, chunk, first), chunk))

    def run(self, path: str, *, skip: int = 0) -> Iterator[Item]:
        """Yield the results of the games of ``path`` in order (the first ``skip`` games are not validated)."""
        begun, self._begun = self._begun, None
        if begun is not None and begun.path == path and not skip:
            current = begun  # its first chunks are out already, with the local helper (R241)
        else:
            current = self._open(path, self._readable(path), isinstance(self.runner, Inline))
        pending = current.pending
        # (the helper's chunks of a head start come on top: the cluster's workers are not kept waiting behind them)
        limit = self._workers() * IN_FLIGHT + len(pending)
        try:
            for chunk in current.chunks:
                if isinstance(chunk, Diagnostic):
                    # a problem ends what can be read: first drain the games before it
                    while pending:
                        yield from self._results(pending.popleft())
                    yield Problem(chunk)
                    continue
                self._send(current, chunk, skip, self.runner)
                while len(pending) >= limit:
                    yield from self._results(pending.popleft())
            while pending:
                yield from self._results(pending.popleft())
        except FileChanged:
            yield Problem(Diagnostic("the file changed while it was read: validate it again", None,
                                     current.job.file, code="io"))

    def _results(self, sent: tuple[Runner, Any, list[Unit] | FileChunk]) -> list[GameResult]:
        """A chunk's results, each GRN game with its text again (kept here, not sent back and forth)."""
        runner, future, chunk = sent
        got: list[GameResult] | SlimResults = runner.result(future)
        results = got.expand() if isinstance(got, SlimResults) else got
        if not isinstance(chunk, FileChunk):
            for result, unit in zip(results, chunk):
                if isinstance(unit, tuple):
                    result.text = unit[0].text
        return results
