"""An open document as the language server sees it: its games, each read and checked once until its text changes.

The diagnostics are exactly those of ``grn validate``: the text is cut into
games by :func:`grn.notation.read.split_games` (through :func:`grn.notation.sources.text_chunks`),
each game read by :func:`grn.notation.read.read_chunk` and replayed by
:func:`grn.check.validate.validate_record`, and the checks across the games of a file
(Gold's matches) made by the ruleset's series checker.  An edit to one game of
a long file re-checks that game only: a game whose text is unchanged keeps its
record and report, and its diagnostics move with it when lines above it were
added or removed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator

from grn.core import registry
from grn.core.errors import Diagnostic, Span
from grn.notation.read import Chunk, read_chunk
from grn.core.record import Record, Turn, Variation
from grn.rules.ruleset import SeriesChecker
from grn.notation.sources import text_chunks
from grn.check.validate import GameReport, validate_record


@dataclass(slots=True)
class Game:
    """One game of the document: its text, where it starts now, and what reading and checking it gave.

    ``record`` and ``report`` were made when the game started on line
    ``read_at``; :attr:`shift` moves their lines to where the game is now.
    """

    text: str
    first_line: int
    index: int
    record: Record
    report: GameReport
    read_at: int
    cacheable: bool = True
    #: while a line of the game does not read (a turn half typed), the problems of the lines before it, found
    #: with that line set aside (R346): the editor shows them, ``grn validate`` reports the syntax error only
    earlier: list[Diagnostic] = field(default_factory=list)

    @property
    def shift(self) -> int:
        """Lines to add to the record's spans to place them in the document as it is now."""
        return self.first_line - self.read_at

    @property
    def last_line(self) -> int:
        """The game's last line (1-based, inclusive)."""
        return self.first_line + max(self.text.count("\n") - (1 if self.text.endswith("\n") else 0), 0)

    def span(self, span: Span | None) -> Span | None:
        """A span of the record, placed in the document as it is now."""
        if span is None or not self.shift:
            return span
        return Span(span.line + self.shift, span.column)

    def diagnostics(self) -> list[Diagnostic]:
        """The game's diagnostics at the lines and game number it has now."""
        out = self.report.diagnostics
        if not self.shift and self.index == self.report.index:
            return list(out)
        return [d.replace(span=self.span(d.span), game=self.index if d.game is not None else None) for d in out]

    def editor_diagnostics(self) -> list[Diagnostic]:
        """:meth:`diagnostics` and, while a line does not read, the problems of the lines before it."""
        return self.diagnostics() + [d.replace(span=self.span(d.span), game=self.index if d.game is not None
                                               else None) for d in self.earlier]

    def turns(self) -> Iterator[tuple[Turn, tuple[tuple[int, int], ...], int]]:
        """Every turn of the game, main line and variations: (turn, the variation steps to its line, the
        number of the turn before it on that line: the position it is played from)."""
        yield from _walk(self.record.turns, (), 0)


def _walk(line: tuple[Turn, ...], steps: tuple[tuple[int, int], ...],
          before: int) -> Iterator[tuple[Turn, tuple[tuple[int, int], ...], int]]:
    for turn in line:
        for k, var in enumerate((e for e in turn.extras if isinstance(e, Variation)), start=1):
            yield from _walk(var.turns, steps + ((turn.number, k),), turn.number - 1)
        yield turn, steps, before
        if turn.number > 0:
            before = turn.number


def address(steps: tuple[tuple[int, int], ...], after: int) -> str:
    """The address (:mod:`grn.rules.position`) of the position after turn ``after`` on the line ``steps`` enter."""
    return "".join(f"{n}({k})" for n, k in steps) + str(after)


class Document:
    """The games of one open document, re-checked game by game as it changes."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.text = ""
        self.games: list[Game] = []
        self.problems: list[Diagnostic] = []  # the file's own: no game, the checks across games
        self._cache: dict[str, Game] = {}
        self._chunks: list[Chunk] = []
        #: how many games the last update read and checked anew (the rest were kept)
        self.checked = 0

    def update(self, text: str) -> None:
        """Take the document's new text: read and check the games whose text changed."""
        self._chunks = chunks_after_edit(self._chunks, self.text, text)
        self.text = text
        cache, fresh = self._cache, {}
        kept: list[Game] = []
        self.checked = 0
        for index, chunk in enumerate(self._chunks):
            old = cache.get(chunk.text) if chunk.problem is None else None
            if old is not None and old.first_line != chunk.first_line and _in_series(old.record):
                old = None  # a match check reads the record's own span: read it again where it is now
            if old is None:
                record = read_chunk(chunk, file=self.name, index=index)
                report = validate_record(record, file=self.name, index=index, keep_turns=False)
                game = Game(chunk.text, chunk.first_line, index, record, report, chunk.first_line,
                            chunk.problem is None, _earlier(chunk, report, self.name, index))
                self.checked += 1
            else:
                game = Game(old.text, chunk.first_line, index, old.record, old.report, old.read_at,
                            earlier=old.earlier)
            kept.append(game)
            if game.cacheable:
                fresh[chunk.text] = game
        self.games = kept
        self._cache = fresh
        self.problems = self._file_problems()

    def _file_problems(self) -> list[Diagnostic]:
        # as grn validate: a file of no game is an error; then the checks across the games of the file
        if not self.games:
            return [Diagnostic("no game found: the file holds no record", None, self.name, code="empty")]
        series: dict[str, SeriesChecker] = {}
        for game in self.games:
            record = game.record
            if registry.known(record.game):
                name = registry.find_ruleset(record.game).name
                if name not in series:
                    series[name] = registry.find_ruleset(name).series_checker()
                series[name].add(record, game.report)
        out: list[Diagnostic] = []
        for checker in series.values():
            out += checker.check(self.name)[0]
        return out

    def diagnostics(self) -> list[Diagnostic]:
        """Every diagnostic of the document, as ``grn validate`` reports them for the same text."""
        out: list[Diagnostic] = []
        for game in self.games:
            out += game.diagnostics()
        return out + self.problems

    def game_at(self, line: int) -> Game | None:
        """The game that holds ``line`` (1-based), or the last game before it."""
        found = None
        for game in self.games:
            if game.first_line > line:
                break
            found = game
        return found


#: How many lines that do not read are set aside to find the problems before the first of them.
SET_ASIDE = 3


def _earlier(chunk: Chunk, report: GameReport, name: str, index: int) -> list[Diagnostic]:
    """The problems of the lines before a game's first line that does not read, found by reading the game with
    that line (and up to :data:`SET_ASIDE` more that do not read) left blank: a turn half typed hides nothing
    above it (R346)."""
    first = _syntax_line(report)
    if first is None or chunk.problem is not None:
        return []
    lines = chunk.text.split("\n")
    line: int | None = first
    for _ in range(SET_ASIDE):
        if line is None or not 0 <= line - chunk.first_line < len(lines):
            break
        lines[line - chunk.first_line] = ""
        record = read_chunk(Chunk("\n".join(lines), chunk.first_line, None), file=name, index=index)
        again = validate_record(record, file=name, index=index, keep_turns=False)
        line = _syntax_line(again)
        if line is None:
            return [d for d in again.diagnostics if d.span is not None and d.span.line < first]
    return []


def _syntax_line(report: GameReport) -> int | None:
    return next((d.span.line for d in report.diagnostics if d.code == "syntax" and d.span is not None), None)


def _common_prefix(a: str, b: str) -> int:
    """The length of the longest common prefix of ``a`` and ``b`` (a binary search of C-speed slice compares)."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        mid = (low + high + 1) // 2
        if a[:mid] == b[:mid]:
            low = mid
        else:
            high = mid - 1
    return low


def _common_suffix(a: str, b: str, most: int) -> int:
    """The length of the longest common suffix of ``a`` and ``b``, at most ``most``."""
    low, high = 0, min(len(a), len(b), most)
    while low < high:
        mid = (low + high + 1) // 2
        if a[len(a) - mid:] == b[len(b) - mid:]:
            low = mid
        else:
            high = mid - 1
    return low


def chunks_after_edit(old: list[Chunk], old_text: str, text: str) -> list[Chunk]:
    """The games of ``text`` as :func:`grn.notation.sources.text_chunks` cuts them, cutting again only around the edit
    that turned ``old_text`` (cut into ``old``) into ``text``.

    A game starts at a header tag line after movetext, which only the lines before it decide; so the cut is
    the same as before up to the game before the first changed line, and again from the first game start
    after the last changed line that was a game start before too (the state of the cutter is the same at
    every game start).  A game too long to keep says its line in its message: then the whole text is cut.
    """
    if not old or any(c.problem is not None for c in old):
        return list(text_chunks(text))
    prefix = _common_prefix(old_text, text)
    suffix = _common_suffix(old_text, text, min(len(old_text), len(text)) - prefix)
    first_changed = text.count("\n", 0, prefix) + 1
    # the game before the one holding the first changed line: its end may move
    at = max(0, sum(1 for c in old if c.first_line <= first_changed) - 2)
    start_line = old[at].first_line if at else 1
    offset = 0
    if start_line > 1:
        offset = _line_offset(text, start_line)
    delta = text.count("\n") - old_text.count("\n")
    # lines from here on are the same as before (in the new text's numbering)
    same_from = text.count("\n", 0, len(text) - suffix) + 2
    old_starts = {c.first_line: i for i, c in enumerate(old)}
    out = old[:at]
    for chunk in text_chunks(text[offset:]):
        if chunk.problem is not None:
            return list(text_chunks(text))
        line = chunk.first_line + start_line - 1
        back = old_starts.get(line - delta)
        if line >= same_from and back is not None and back >= at:
            return out + [Chunk(c.text, c.first_line + delta, c.problem) for c in old[back:]]
        out.append(Chunk(chunk.text, line, None))
    return out


def _line_offset(text: str, line: int) -> int:
    """Where 1-based ``line`` of ``text`` starts."""
    return len(text) - len(text.split("\n", line - 1)[-1])


def _in_series(record: Record) -> bool:
    return registry.known(record.game) and registry.find_ruleset(record.game).in_series(record)


__all__ = ["Document", "Game", "address"]
