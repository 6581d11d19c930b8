"""Reading GRN text: games one by one, with the Lark grammar in ``grammar/``.

Syntax and meaning stay apart.  The grammar (``envelope.lark`` plus one file
per game that overrides the ``action`` rule) only says what is well formed;
the readers turn what it matched into :mod:`grn.core.record` values and engine
commands (each game's :mod:`codecs <grn.rules.codec>`), noting words that are well
formed but mean nothing (an unknown feature place, a rotation of 45 degrees)
as diagnostics.  No rule of any game is checked here: that is
:mod:`grn.check.validate`'s job.

Two readers give the same records: :mod:`grn.notation.fastread` reads the common
shapes with the grammar's terminal regexes (kept by :mod:`grn.notation.grammar_cache`,
so no Lark is imported), and :mod:`grn.notation.larkread`, Lark's parser, reads every
game the fast reader declines and reports syntax errors.

Files are read as a stream: :func:`read` splits the text into games at header
tags (outside comments) and parses each game on its own, so a syntax error in
one game does not stop the others and a file of any size is read in constant
memory.
"""

from __future__ import annotations

import io
import os
import re
from functools import lru_cache
from pathlib import Path
from typing import IO, Any, Callable, Final, Iterable, Iterator

from grn.notation import grammar_cache
from grn.core import registry
from grn.core.errors import Diagnostic, Span
from grn.notation.fastread import FastReader, TerminalTable, caret, unescape
from grn.core.record import MAX_GAME_CHARS, MAX_LINE_CHARS, MAX_VARIATION_DEPTH, TAG_ORDER, Record
from grn.rules.ruleset import Ruleset
from grn.core.value import Value
from grn.notation.writer import quote

# ---------------------------------------------------------------------------
# Splitting a stream into games
# ---------------------------------------------------------------------------

class Chunk(Value):
    """The text of one game and the line it starts on.

    ``problem`` says why the game's text was not kept (a line or a game
    longer than GRN allows), with the line it concerns.
    """

    __slots__ = ("text", "first_line", "problem")
    _fields = ("text", "first_line", "problem")

    def __init__(self, text: str, first_line: int, problem: tuple[int, str] | None = None) -> None:
        self.text: Final = text
        self.first_line: Final = first_line
        self.problem: Final = problem

    def _key(self) -> tuple[object, ...]:
        return (self.text, self.first_line, self.problem)


# MAX_LINE_CHARS and MAX_GAME_CHARS, the limits of a line and of a game, live in grn.core.record (the
# writer keeps to them too) and are imported above.


#: Stands for a line longer than :data:`MAX_LINE_CHARS`, whose text is not kept (told apart by identity).
LONG_LINE = "\x00a line too long\x00"


def bounded_lines(readline: Callable[[int], Any], empty: Any, most: int = MAX_LINE_CHARS) -> Iterator[Any]:
    """The lines ``readline`` gives, each at most ``most`` long: a longer one is skipped in pieces and
    given as :data:`LONG_LINE` (``empty``: what readline returns at the end)."""
    newline = "\n" if isinstance(empty, str) else b"\n"
    # the marker as a local: a compiled module looks another module's name up in a dict each time
    long_line = LONG_LINE
    while True:
        line = readline(most + 1)
        if line == empty:
            return
        if len(line) > most and not line.endswith(newline):
            while True:  # the rest of the line, piece by piece
                rest = readline(most)
                if rest == empty or rest.endswith(newline):
                    break
            yield long_line
            continue
        yield line


_SCAN_RE = re.compile(r'\{|\}|"(?:[^"\\\n]|\\.)*"|;|"')
#: The same past a quote that no quote closes on its line: no later quote of the line can open a string (R370).
_SCAN_NO_STRING_RE = re.compile(r'[{};]')


def _scan(line: str, in_brace: bool) -> bool:
    """Whether a brace comment is still open after ``line``.

    Linear in the line (R370): a quote its line never closes is passed over once, and the rest of the line is
    searched for braces and ``;`` alone (every later quote would fail the same way), where a search that tried
    each quote again read the rest of the line once a quote.
    """
    if not in_brace and "{" not in line:
        return False
    pos = 0
    scan = _SCAN_RE
    while True:
        if in_brace:
            end = line.find("}", pos)
            if end < 0:
                return True
            in_brace = False
            pos = end + 1
            continue
        m = scan.search(line, pos)
        if m is None:
            return False
        tok = m.group()
        if tok == "{":
            in_brace = True
        elif tok == ";":
            return False
        elif tok == '"':
            scan = _SCAN_NO_STRING_RE  # a quote not closed on this line: a string nowhere after it
        pos = m.end()


def split_games(lines: Iterable[str]) -> Iterator[Chunk]:
    """Split GRN text into games: a header tag after movetext starts a new game."""
    buf: list[str] = []
    first = 1
    lineno = 0
    in_moves = False
    in_brace = False
    size = 0
    problem: tuple[int, str] | None = None
    # looked up once, not a line (module globals: a dict look-up each time in a compiled loop)
    long_line = LONG_LINE
    most = MAX_GAME_CHARS
    for line in lines:
        lineno += 1
        if lineno == 1 and line.startswith("\ufeff"):
            line = line[1:]  # a UTF-8 byte-order mark is not part of the text
        if line is long_line and problem is None:
            problem = (lineno, f"line {lineno} is longer than {MAX_LINE_CHARS:,} characters, the most a GRN line "
                               "may hold: the game is not read")
        stripped = line.lstrip()
        if not in_brace and stripped.startswith("["):
            if in_moves:
                yield Chunk("".join(buf), first, problem)
                buf, first, in_moves, size, problem = [], lineno, False, 0, None
            elif not buf:
                first = lineno
            buf.append(line)
            size += len(line)
            continue
        if not buf:
            first = lineno
        size += len(line)
        if size > most and problem is None:
            problem = (lineno, f"the game is longer than {MAX_GAME_CHARS:,} characters by line {lineno}, the most "
                               "a GRN game may hold: it is not read")
        if problem is None:
            buf.append(line)  # past a problem the game is not kept: memory stays bounded
        elif buf and buf[-1] != "":
            buf = [part for part in buf if part.lstrip().startswith("[")] + [""]  # keep its tags, for reports
        if stripped:
            in_moves = True
        in_brace = _scan(line, in_brace)
    if (buf and any(part.strip() for part in buf)) or problem is not None:
        yield Chunk("".join(buf), first, problem)


# ---------------------------------------------------------------------------
# Parsing one game
# ---------------------------------------------------------------------------

# any case: a [game "gold"] is read with Gold's grammar, and its spelling reported (_tag_case_problems)
# one header tag as the grammar reads it (white space, form feeds and line ends between its parts and between tags)
_TAG_RE = re.compile(r'[ \t\f\r\n]*\[[ \t\f\r\n]*([A-Za-z][A-Za-z0-9_]*)[ \t\f\r\n]*"((?:[^"\\\n]|\\.)*)"[ \t\f\r\n]*\]')
#: Known tag names by their lower case, to say how a tag written in another case is spelt.
_KNOWN_TAGS = {name.lower(): name for name in TAG_ORDER}


def _tag_case_problems(tags: Iterable[tuple[str, str]], spans: Iterable[Span | None]) -> list[tuple[Span, str]]:
    """A known tag written in another case ([game "gold"]): tag names are case-sensitive."""
    out = []
    for (name, value), span in zip(tags, spans):
        known = _KNOWN_TAGS.get(name.lower())
        if known is not None and known != name and span is not None:
            out.append((span, f"tag names are case-sensitive: write [{known} {quote(value)}], not [{name} ...]"))
    return out


def _game_tag(text: str) -> re.Match[str] | None:
    """The first Game tag of the header (group 2 its value), however the tags share or split lines.

    Tags are read one after another from the start, as the grammar reads them, so the tag found is the
    one the record holds: never one quoted inside another tag's value or a comment after the header.
    """
    pos = 0
    while True:
        m = _TAG_RE.match(text, pos)
        if m is None:
            break
        if m.group(1).lower() == "game":
            return m
        pos = m.end()
    # a broken tag (a syntax error of its own) ends the header for the grammar, but a Game tag on a later
    # header line still says whose grammar reads the moves, so that their errors are the game's own
    while pos < len(text):
        end = text.find("\n", pos)
        end = len(text) if end < 0 else end
        stripped = text[pos:end].strip()
        if stripped and not stripped.startswith("["):
            return None
        at = pos
        while (m := _TAG_RE.match(text, at, end)) is not None:
            if m.group(1).lower() == "game":
                return m
            at = m.end()
        pos = end + 1
    return None


@lru_cache(maxsize=None)
def _fast_reader(ruleset: Ruleset) -> FastReader:
    """The fast reader of a game, from the terminal table the grammar cache keeps (made by Lark once)."""
    grammar = ruleset.grammar_text()
    table: TerminalTable | None = None
    doc = grammar_cache.load_terminals(grammar, grammar_cache.GRAMMAR_PACKAGES)
    if doc is not None:
        try:
            table = TerminalTable.from_json(doc)
        except ValueError:
            table = None
    if table is None:
        # Lark (an optional heavy dependency of this path: a third of a small file's validate) is imported
        # only when the table is not cached yet, or, below, when the fast reader declines a game
        from grn.notation import larkread

        table = larkread.terminal_table(ruleset)
        grammar_cache.save_terminals(grammar, grammar_cache.GRAMMAR_PACKAGES, table.to_json())
    return FastReader(table, {c.terminal: c.read for c in ruleset.codecs}, unescape)


def read_chunk(chunk: Chunk, *, file: str | None = None, index: int = 0) -> Record:
    """The record of one game :func:`split_games` cut out (a game too long to keep is its error)."""
    if chunk.problem is not None:
        line, message = chunk.problem
        return Record(_header_tags(chunk.text), (), (), Span(chunk.first_line, 1),
                      (Diagnostic(message, Span(line, 1), file, code="too-long", game=index),))
    return parse_game(chunk.text, file=file, first_line=chunk.first_line, index=index)


def parse_game(text: str, *, file: str | None = None, first_line: int = 1, index: int = 0,
               fast: bool = True) -> Record:
    """Parse the text of one game into a :class:`Record`.

    Problems are not raised: they are in ``record.diagnostics`` with their file,
    line and column.  ``first_line`` is the line of ``text`` in its file.
    ``fast=False`` makes Lark read the game even when :mod:`grn.notation.fastread` could.
    """
    m = _game_tag(text)
    diags: list[Diagnostic] = []
    try:
        ruleset = registry.find_ruleset(m.group(2) if m else None)
    except registry.UnknownGame as exc:
        assert m is not None
        line = first_line + text.count("\n", 0, m.start(2))
        diags.append(Diagnostic(str(exc), Span(line, 1), file, code="unknown-game", game=index,
                                source_line=caret(text, line - first_line + 1, 1)))
        # read on with the default game's grammar: its syntax errors are reported too
        ruleset = registry.find_ruleset(None)
    if text.count("(") > MAX_VARIATION_DEPTH:  # fewer cannot nest too deep: no scan for most games
        deep = _too_deep(text)
        if deep is not None:
            line, column = deep
            diags.append(Diagnostic(f"variations nest more than {MAX_VARIATION_DEPTH} deep here: GRN allows at most "
                                    f"{MAX_VARIATION_DEPTH} variations one inside another", Span(line + first_line - 1,
                                                                                               column),
                                    file, code="syntax", game=index, source_line=caret(text, line, column)))
            return Record(_header_tags(text), (), (), Span(first_line, 1), tuple(diags))
    if fast and not diags:
        problems: list[tuple[Span, str]] = []
        got = _fast_reader(ruleset).read(text, first_line, problems)
        if got is not None:
            problems += _tag_case_problems(got[0], got[2])
            _note_problems(problems, text, first_line, file, index, diags)
            return Record(tuple(got[0]), tuple(got[1]), tuple(got[3]), Span(first_line, 1), tuple(diags),
                          tuple(got[2]))
    from grn.notation import larkread  # Lark, only for a game the fast reader declined (see _fast_reader)

    got_lark = larkread.read_text(text, ruleset, file=file, first_line=first_line, index=index)
    if isinstance(got_lark, Diagnostic):
        diags.append(got_lark)
        # Keep what the header said so that reports can name the game.
        return Record(_header_tags(text), (), (), Span(first_line, 1), tuple(diags))
    tag_items, turns, intro, tag_spans, lark_problems = got_lark
    _note_problems(lark_problems + _tag_case_problems(tag_items, tag_spans), text, first_line, file, index, diags)
    return Record(tag_items, turns, intro, Span(first_line, 1), tuple(diags), tag_spans)


def _note_problems(problems: list[tuple[Span, str]], text: str, first_line: int, file: str | None, index: int,
                   diags: list[Diagnostic]) -> None:
    """The problems of meaning of a game as diagnostics, each with its source line.

    The text is cut into lines once a game, not once a problem (R371): a line of 100,000 words that mean nothing
    is 100,000 problems, and cutting the whole game for each was quadratic.  Problems of one line share its text.
    """
    if not problems:
        return
    rows = text.split("\n")
    count = len(rows)
    for span, message in problems:
        row = span.line - first_line  # 0-based in the game's text
        # as caret() has it: lines end at "\n" only, a CR before it is no part of the line shown
        source = rows[row].rstrip("\r") if 0 <= row < count else ""
        diags.append(Diagnostic(message, span, file, code="meaning", game=index, source_line=source))


def _header_tags(text: str) -> tuple[tuple[str, str], ...]:
    """The tags of a game that could not be read (so that reports can name the game)."""
    return tuple((m.group(1), unescape(m.group(2))) for m in re.finditer(
        r'^[ \t]*\[([A-Za-z][A-Za-z0-9_]*)[ \t]+("(?:[^"\\\n]|\\.)*")[ \t]*\]', text, re.M))


#: The tokens the depth scan reads: a brace comment, a quoted string, a ``;`` comment, a parenthesis; or a ``{`` or
#: a quote alone, one nothing closes (R370).  The variants leave out what can no longer be closed after such a one.
_NESTING_RE = re.compile(r'\{[^}]*\}|"(?:[^"\\\n]|\\.)*"|;[^\n]*|[()]|[{"]')
_NESTING_NO_BRACE_RE = re.compile(r'"(?:[^"\\\n]|\\.)*"|;[^\n]*|[()"]')
_NESTING_NO_STRING_RE = re.compile(r'\{[^}]*\}|;[^\n]*|[(){]')
_NESTING_NEITHER_RE = re.compile(r';[^\n]*|[()]')


def _too_deep(text: str) -> tuple[int, int] | None:
    """Line and column (1-based, in ``text``) of the first variation nested deeper than allowed, if any.

    Linear in the text (R370): a ``{`` with no ``}`` after it means no later ``{`` closes either, and a quote its
    line never closes means no later quote of that line opens a string, so each is tried once and the search
    goes on without it (the rest of the text, the rest of the line), where trying each again read the rest of
    the text once a ``{``.
    """
    depth = 0
    pos = 0
    braces = True  # False past a { that no } follows
    strings = True  # False on the rest of a line past a quote the line does not close
    line_end = -1  # that line's end
    while True:
        if not strings and pos > line_end:
            strings = True  # a brace comment took the search past that line
        if strings:
            rx = _NESTING_RE if braces else _NESTING_NO_BRACE_RE
        else:
            rx = _NESTING_NO_STRING_RE if braces else _NESTING_NEITHER_RE
        m = rx.search(text, pos)
        if not strings and (m is None or m.start() > line_end):
            strings = True  # quotes open strings again from the next line
            pos = line_end  # (not past: nothing before it was taken)
            continue
        if m is None:
            return None
        token = m.group()
        if token == "(":
            depth += 1
            if depth > MAX_VARIATION_DEPTH:
                start = m.start()
                line = text.count("\n", 0, start) + 1
                return line, start - (text.rfind("\n", 0, start) + 1) + 1
        elif token == ")":
            depth -= 1
        elif token == "{":
            braces = False
        elif token == '"':
            strings = False
            line_end = text.find("\n", m.end())
            if line_end < 0:
                line_end = len(text)
        pos = m.end()


# ---------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------

def _open_lines(source: str | os.PathLike[str] | Iterable[str]) -> tuple[Iterable[str], str, IO[str] | None]:
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        # lines end at "\n" (a CR before it stays, and a lone CR is no line end), as the grammar counts them
        handle = open(path, encoding="utf-8", newline="\n")
        return bounded_lines(handle.readline, ""), str(source), handle
    name = getattr(source, "name", None)
    return source, (name if isinstance(name, str) else "<stream>"), None


def read(source: str | os.PathLike[str] | Iterable[str], *, file: str | None = None) -> Iterator[Record]:
    """Yield the games of a GRN file (a path, an open text file or any iterable of lines) one by one.

    Reading is lazy: a file of any size is read game by game.  Problems are in
    each record's ``diagnostics``; nothing is raised for bad input (an
    unreadable path raises ``OSError``).
    """
    lines, name, handle = _open_lines(source)
    name = file or name
    try:
        for index, chunk in enumerate(split_games(lines)):
            yield read_chunk(chunk, file=name, index=index)
    finally:
        if handle is not None:
            handle.close()


def parse(text: str, *, file: str | None = None) -> list[Record]:
    """All the games of GRN ``text``."""
    return list(read(io.StringIO(text), file=file or "<string>"))


def read_game(handle: IO[str], *, file: str | None = None) -> Record | None:
    """The next game of an open GRN file, or ``None`` at its end (like ``chess.pgn.read_game``)."""
    it = getattr(handle, "_grn_games", None)
    if it is None:
        it = read(handle, file=file)
        try:
            handle._grn_games = it  # type: ignore[attr-defined]
        except AttributeError:  # pragma: no cover - exotic handles
            pass
    return next(it, None)
