"""Where the games of a GRN file lie, by byte offset, found over whole blocks of the file.

:func:`grn.notation.read.split_games` cuts a file into games line by line, a loop of
Python over every line.  A parallel run (:mod:`grn.check.batch`) needs only where each
game starts: the workers read their games from the file themselves.
:class:`SpanReader` finds the same games with a few regular expressions and
string searches over blocks of half a megabyte, at C speed (R220, R240):

* a game starts at a tag line (its first character other than white space is
  ``[``) after a line of movetext (a line that is neither blank nor a tag line),
  as :func:`~grn.notation.read.split_games` has it;
* a line that starts inside a brace comment is movetext, never a tag line: the
  reader finds the brace comments as ``split_games`` does (a ``{`` on a line that
  is not a tag line, outside a quoted string and before a ``;`` line comment,
  opens one; the next ``}``, on any later line, closes it) and blanks out the
  ``[`` inside them, so that its tag-line search does not see them;
* every block must decode as UTF-8 and hold no line longer than
  :data:`~grn.core.record.MAX_LINE_CHARS` and no game longer than :data:`~grn.core.record.MAX_GAME_CHARS`.

At the first block that breaks a condition the reader stops, with every game it
gave exact (each one ends in a block it read), and says so (:attr:`SpanReader.stopped`):
the caller reads the rest of the file line by line, as before.  Tests hold the
reader to :func:`~grn.notation.read.split_games` on generated text, comments included
(tests/test_gamespans.py).
"""

from __future__ import annotations

import re
from typing import BinaryIO, Final, Iterator

from grn.core.record import MAX_GAME_CHARS, MAX_LINE_CHARS
from grn.core.value import Value

#: Bytes read at a time, then to the end of the line.  No more than a line may hold, so that only a block's
#: last line (the one the block ends inside) can be longer than GRN allows.
BLOCK = min(1 << 19, MAX_LINE_CHARS)

# White space is what ``str.isspace`` says (``line.lstrip()`` in split_games); ``\s`` of ``re`` is the same set.
#: Tag lines one after another, after a line end: one match for a game's header, so that the loop of Python
#: runs once a header, not once a tag.
_TAG_RUN = re.compile(r"\n[^\S\n]*\[[^\n]*(?:\n[^\S\n]*\[[^\n]*)*")
#: The same at the start of a block.
_TAG_RUN_START = re.compile(r"[^\S\n]*\[[^\n]*(?:\n[^\S\n]*\[[^\n]*)*")
#: Any character that is not white space: a line that holds one is not blank.
_INK = re.compile(r"\S")
#: What ``split_games`` looks at on a line outside a brace comment (grn.notation.read's ``_scan``): a brace, a quoted
#: string (on one line; a ``{`` inside it opens nothing) and a ``;`` line comment (the rest of the line is its text).
_SCAN = re.compile(r'\{|\}|"(?:[^"\\\n]|\\.)*"|;|"')
#: The same past a quote its line never closes: no later quote of the line opens a string (R370, as ``_scan``).
_SCAN_NO_STRING = re.compile(r'[{};]')


def brace_comments(text: str, begin: int, open_: bool) -> tuple[list[tuple[int, int]], bool]:
    """The brace comments of a block of whole lines, as ``split_games`` reads them, and whether one is still
    open at the block's end.

    ``begin`` is where the block's first line begins (after a byte-order mark), ``open_`` whether a comment
    opened in an earlier block is still open there.  Each comment is ``(brace, close)``: the offset of its
    ``{`` (-1 for one opened earlier) and of its ``}`` (the block's length for one still open).  A line that
    starts after a comment's ``{`` and at or before its ``}`` starts inside it.
    """
    found: list[tuple[int, int]] = []
    pos = begin
    fresh = True  # ``pos`` is where a line begins (not just after a ``}``)
    if open_:
        close = text.find("}")
        if close < 0:
            return [(-1, len(text))], True
        found.append((-1, close))
        pos, fresh = close + 1, False
    # Each line is read once however many braces it holds (R372): its end is remembered for the braces after
    # the first (a line of 200,000 "{}" looked for its start and its end once a brace), and so is a quote it
    # never closes (every later quote of the line fails the same way).
    eol = -1  # the end of the line of the last brace looked at
    no_strings = -1  # the end of a line past a quote that line never closes
    while True:
        brace = text.find("{", pos)
        if brace < 0:
            return found, False
        # the brace's line start, looked for back to ``pos`` only: ``pos`` is a line start when ``fresh``
        newline = text.rfind("\n", pos, brace)
        start = newline + 1 if newline >= 0 else pos
        if brace > eol:
            eol = text.find("\n", brace)
            if eol < 0:
                eol = len(text)
        if fresh or start > pos:
            # the brace's line begins outside a comment (at ``pos`` or after it): a tag line is not scanned at all
            scan = max(start, begin)
            ink = _INK.search(text, scan)
            if ink is not None and text[ink.start()] == "[":
                if eol == len(text):
                    return found, False
                pos, fresh = eol + 1, True
                continue
        else:
            scan = pos  # on the line a comment closed on, after its ``}``
        end = eol
        search = _SCAN_NO_STRING.search if no_strings == end else _SCAN.search
        while True:
            m = search(text, scan, end)
            if m is not None and m.group() == '"':
                search = _SCAN_NO_STRING.search  # a quote not closed on its line: a string nowhere after it
                no_strings = end
                scan = m.end()
                continue
            if m is None or m.group() == ";":
                pos, fresh = end + 1, True  # the rest of the line opens nothing
                break
            scan = m.end()
            if m.group() == "{":
                close = text.find("}", scan)
                if close < 0:
                    found.append((m.start(), len(text)))
                    return found, True
                found.append((m.start(), close))
                pos, fresh = close + 1, False
                break
        if pos > len(text):
            return found, False


def _blank_tags(text: str, comments: list[tuple[int, int]]) -> str:
    """``text`` with every ``[`` inside a brace comment replaced by ``x`` (one byte, not white space), so that
    no line starting inside a comment looks like a tag line; offsets, line ends and blank lines are unchanged."""
    parts: list[str] = []
    at = 0
    for brace, close in comments:
        inside = text[brace + 1:close]
        if "[" in inside:
            parts.append(text[at:brace + 1])
            parts.append(inside.replace("[", "x"))
            at = close
    if not parts:
        return text
    parts.append(text[at:])
    return "".join(parts)


class GameSpan(Value):
    """One game of a file: its bytes ``start:end`` and the line it starts on."""

    __slots__ = ("start", "end", "first_line")
    _fields = ("start", "end", "first_line")

    def __init__(self, start: int, end: int, first_line: int) -> None:
        self.start: Final = start
        self.end: Final = end
        self.first_line: Final = first_line

    def _key(self) -> tuple[object, ...]:
        return (self.start, self.end, self.first_line)


class SpanReader:
    """The games of a GRN file (a binary file object at its start), as spans, in order.

    Iterate once.  When the iteration ends, :attr:`stopped` says whether the reader
    stopped before the end of the file at something it does not read (then the
    games it gave are the file's first ones, and the rest is to be read line by line).
    """

    def __init__(self, raw: BinaryIO) -> None:
        self.raw = raw
        #: True when the reader gave up before the end of the file (see the module's docstring)
        self.stopped = False

    def __repr__(self) -> str:
        return f"SpanReader(stopped={self.stopped})"

    def __iter__(self) -> Iterator[GameSpan]:
        raw = self.raw
        pos = 0  # byte offset of the block
        line = 1  # line number of the block's first line
        start, first = 0, 1  # the game being read: its first byte and line
        in_brace = False  # a brace comment is open at the block's start
        in_moves = False  # a line of movetext was met since the game started
        inked = False  # the game holds a character other than white space
        while True:
            data = raw.read(BLOCK)
            if not data:
                break
            if not data.endswith(b"\n"):
                data += raw.readline(MAX_LINE_CHARS + 1)
            # only the last line can be longer than the limit: every other one lies inside the first BLOCK bytes
            last = data.rfind(b"\n", 0, len(data) - 1) + 1
            if len(data) - last - data.endswith(b"\n") > MAX_LINE_CHARS:
                self.stopped = True
                return
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                self.stopped = True
                return
            begin = 1 if pos == 0 and text.startswith("\ufeff") else 0  # split_games drops a byte-order mark
            ascii_ = text.isascii()
            if in_brace or "{" in text:
                comments, in_brace = brace_comments(text, begin, in_brace)
                text = _blank_tags(text, comments)
            # where the line count and the byte offset were last taken (character offset, line, byte offset)
            at, at_line, at_byte = 0, line, pos
            gap = begin  # where the text after the last tag line begins
            m = _TAG_RUN_START.match(text, begin)
            runs = [(m.start(), m.end())] if m else []
            for run in _TAG_RUN.finditer(text, begin):
                runs.append((run.start() + 1, run.end()))
            for here, after in runs:
                # a tag line after a line of movetext starts a game (split_games)
                if not in_moves and _INK.search(text, gap, here) is not None:
                    in_moves = True
                if in_moves:
                    at_line += text.count("\n", at, here)
                    at_byte += (here - at) if ascii_ else len(text[at:here].encode("utf-8"))
                    at = here
                    if at_byte - start > MAX_GAME_CHARS:
                        self.stopped = True
                        return
                    yield GameSpan(start, at_byte, first)
                    start, first, in_moves = at_byte, at_line, False
                inked = True
                gap = after
            if not in_moves and _INK.search(text, gap) is not None:
                in_moves = True
            inked = inked or in_moves
            pos += len(data)
            line = at_line + text.count("\n", at)  # the lines before ``at`` are counted already
        if inked:
            if pos - start > MAX_GAME_CHARS:
                self.stopped = True
                return
            yield GameSpan(start, pos, first)


__all__ = ["GameSpan", "SpanReader", "BLOCK", "brace_comments"]
