"""Validating a file's games in this process, one after another: the reader, then the validator (R462).

What ``grn validate FILE`` does without ``--jobs`` or ``--dask-scheduler``: each game is cut from the file,
read and replayed as it comes, and its result given before the next is read (memory stays flat however many
games the file holds).  The parallel machinery (:mod:`grn.check.batch`, :mod:`grn.check.workers`) runs the same
work on chunks of games in other processes; it shares with this module what a file's games are
(:func:`game_units`) and what validating one gives (:class:`GameResult`, :class:`Problem`), and gives the same
results in the same order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator

from grn.check.validate import GameReport, validate_record
from grn.core.errors import Diagnostic
from grn.core.record import Record
from grn.core.value import Struct
from grn.notation import read as notation
from grn.notation import sources
from grn.notation.read import Chunk, read_chunk
from grn.rules import registry

if TYPE_CHECKING:
    from grn.games.tiling.tiles import TileSet

#: A unit of a file's games: a GRN game's text and its number in the file, or a record read from JSON.
Unit = tuple[Chunk, int] | Record


class GameResult(Struct):
    """What validating one game of a file gave.

    ``record`` is kept only when the caller needs it back (a game with a
    ``Match`` tag, which the match checker reads; or ``keep_records``).
    ``text`` is the game's original text (GRN), or for a game read from JSON what the ``index``
    function made of it (empty without one); ``facts`` what the ``index`` function returned.
    """

    __slots__ = ("index", "report", "record", "text", "fmt", "facts")
    _fields = ("index", "report", "record", "text", "fmt", "facts")

    def __init__(self, index: int, report: GameReport, record: Record | None, text: str, fmt: str,
                 facts: Any = None) -> None:
        self.index = index
        self.report = report
        self.record = record
        self.text = text
        self.fmt = fmt
        self.facts = facts


class Problem(Struct):
    """A problem that stopped reading a file (no such file, not UTF-8, bad JSON)."""

    __slots__ = ("problem",)
    _fields = ("problem",)

    def __init__(self, problem: Diagnostic) -> None:
        self.problem = problem


Item = GameResult | Problem


def game_units(path: str) -> Iterator[Unit | Diagnostic]:
    """The games of ``path`` in order: (text, index) for GRN, records for JSON, and problems in their place.

    Reading a GRN file only cuts it into games (cheap); parsing is left to the
    workers.  Every problem is the one :func:`grn.notation.sources.load` reports.
    """
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


def validate_file(path: str, *, tileset: TileSet | None = None, keep_turns: bool = False) -> Iterator[Item]:
    """The results of the games of ``path`` (``-``: standard input) in file order, each game read and validated in
    this process as it comes, problems in their place: what :class:`grn.check.batch.Validator` gives with one
    job (R462).  A game's record is kept in its result when a check across the file's games needs it."""
    name = "<stdin>" if path == "-" else path
    index = 0
    for unit in game_units(path):
        if isinstance(unit, Diagnostic):
            yield Problem(unit)
            continue
        if isinstance(unit, Record):
            record, text, fmt = unit, "", "json"
        else:
            chunk, number = unit
            record, text, fmt = read_chunk(chunk, file=name, index=number), chunk.text, "grn"
        file = record.diagnostics[0].file if record.diagnostics else name
        report = validate_record(record, file=file, index=index, tileset=tileset, keep_turns=keep_turns)
        keep = registry.known(record.game) and registry.find_ruleset(record.game).in_series(record)
        yield GameResult(index, report, record if keep else None, text, fmt)
        index += 1


__all__ = ["GameResult", "Item", "Problem", "Unit", "game_units", "validate_file"]
