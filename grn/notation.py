"""Reading GRN text: games one by one, with the Lark grammar in ``grammar/``.

Syntax and meaning stay apart.  The grammar (``envelope.lark`` plus one file
per game that overrides the ``action`` rule) only says what is well formed; a
Lark ``Transformer`` turns what it matched into :mod:`grn.record` values and
engine commands (each game's :mod:`codecs <grn.codec>`), noting words that are well formed but mean nothing (an
unknown feature place, a rotation of 45 degrees) as diagnostics.  No rule of
any game is checked here: that is :mod:`grn.validate`'s job.

Files are read as a stream: :func:`read` splits the text into games at header
tags (outside comments) and parses each game on its own, so a syntax error in
one game does not stop the others and a file of any size is read in constant
memory.
"""

from __future__ import annotations

import io
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import IO, Any, Callable, Iterable, Iterator, cast

from lark import Lark, Token, Transformer
from lark.load_grammar import FromPackageLoader
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from grn import registry
from grn.codec import CommandCodec, read_int
from grn.errors import Diagnostic, Span
from grn.fastread import FastReader
from grn.grammar_cache import load_parser
from grn.record import (
    MARKUP_KINDS, MAX_GAME_CHARS, MAX_LINE_CHARS, MAX_VARIATION_DEPTH, TAG_ORDER, Checkpoint, Comment, Command, Extra, Markup, MarkupText, Nag, Note, Record, Turn, Variation,
)
from grn.ruleset import Ruleset
from grn.value import reduce_dataclass
from grn.writer import quote

#: Lark terminal names of the envelope -> words a player understands (each game's
#: commands add theirs from their codecs: :attr:`grn.codec.CommandCodec.expected`).
EXPECTED_WORDS: dict[str, str] = {
    "TAG_NAME": "a tag name",
    "STRING": 'a quoted "text"',
    "TURN_NUMBER": 'a turn number such as "12."',
    "PLAYER": "the acting player's colour",
    "NAG": "an annotation glyph (! ? !! ?? !? ?! $n)",
    "BRACE_COMMENT": "a {comment}",
    "LINE_COMMENT": "a ; comment",
    "SCORE_ITEM": "a score such as red=12",
    "MARKUP_KIND": "a markup kind (highlight, arrow, label, ghost)",
    "MARKUP_WORD": "a markup argument",
    "LSQB": '"["',
    "RSQB": '"]"',
    "LPAR": '"("',
    "RPAR": '")"',
    "LESSTHAN": '"<"',
    "MORETHAN": '">"',
    "SCORE": '"score"',
    "$END": "the end of the game",
}


def _words(expected: Iterable[str], ruleset: Ruleset) -> str:
    words = {c.terminal: c.expected for c in ruleset.codecs}
    names = sorted({EXPECTED_WORDS.get(e) or words.get(e) or e.lower() for e in expected if not e.startswith("__")})
    if not names:
        return "nothing more"
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " or " + names[-1]


_ESCAPE_RE = re.compile(r"\\(.)")


def unescape(quoted: str) -> str:
    """The text of a quoted GRN string (``\\"`` and ``\\\\`` escapes)."""
    return _ESCAPE_RE.sub(r"\1", quoted[1:-1])


class CommandMaker:
    """Turns an action terminal's word into its engine command with the ruleset's codecs."""

    def __init__(self, codecs: Iterable[CommandCodec]) -> None:
        self.by_terminal: dict[str, CommandCodec] = {c.terminal: c for c in codecs}

    def __call__(self, kind: str, text: str, span: Span, problems: list[tuple[Span, str]]) -> Command:
        """The engine command for one action token (terminal ``kind``, its ``text``).

        Words that are well formed but mean nothing (rotation 45, place ``Q``)
        are noted in ``problems``; the command is still made so nothing is lost.
        """
        codec = self.by_terminal.get(kind)
        if codec is None:  # pragma: no cover - grammar and codecs agree (tests/test_codecs.py)
            raise AssertionError(f"no codec reads the terminal {kind}")
        return codec.read(text, span, problems)


class _Builder(Transformer):  # type: ignore[type-arg]
    """Turns what the grammar matched into record values (used inline by LALR)."""

    def __init__(self, make_command: CommandMaker) -> None:
        super().__init__()
        self.offset = 0
        self.problems: list[tuple[Span, str]] = []
        self.make_command = make_command

    # -- helpers -------------------------------------------------------
    def _span(self, tok: Token) -> Span:
        # lark types Token.line/column as Optional; its lexer always sets them
        return Span((tok.line or 1) + self.offset, tok.column or 1)

    def _problem(self, tok: Token, message: str) -> None:
        self.problems.append((self._span(tok), message))

    # -- envelope ------------------------------------------------------
    def start(self, items: list) -> tuple:
        tags = tuple(i for i in items if isinstance(i, tuple) and len(i) == 3 and i[0] == "tag")
        intro = next(i for i in items if isinstance(i, list))
        turns = tuple(i for i in items if isinstance(i, Turn))
        return (tags, tuple(intro), turns)

    def tag(self, items: list) -> tuple:
        open_, name, value, close = items
        for tok in (name, value, close):
            if tok.line != open_.line:
                # the game splitter and the Game tag are read line by line
                self._problem(tok, f'a tag stands on one line: write [{name} {value}] on line {open_.line + self.offset}')
                break
        return ("tag", (str(name), unescape(str(value))), self._span(name))

    def intro(self, items: list) -> list:
        return items

    def turn(self, items: list) -> Turn:
        num, player = items[0], items[1]
        actions: list[Command] = []
        extras: list[Extra] = []
        for item in items[2:]:
            if isinstance(item, Token):  # an annotation glyph
                extras.append(Nag(str(item), self._span(item)))
            elif isinstance(item, (Comment, Checkpoint, Markup, Variation)):
                extras.append(item)
            else:
                actions.append(item)
        return Turn(read_int(num[:-1], self._span(num), self.problems, "a turn number"), str(player), tuple(actions),
                    tuple(extras), self._span(num))

    def variation(self, items: list) -> Variation:
        intro = items[0]
        turns = tuple(items[1:])
        span = turns[0].span if turns else None
        return Variation(turns, tuple(intro), span)

    def comment(self, items: list) -> Comment:
        tok = items[0]
        text = str(tok)
        if text.startswith("{"):
            return Comment(text[1:-1], False, self._span(tok))
        return Comment(text[1:].rstrip("\r"), True, self._span(tok))

    def checkpoint(self, items: list) -> Checkpoint:
        scores = []
        for tok in items[1:]:
            who, _, pts = str(tok).partition("=")
            scores.append((who, read_int(pts, self._span(tok), self.problems, "a score")))
        return Checkpoint(tuple(scores), self._span(items[0]))  # the span of "score"

    def markup(self, items: list) -> Markup:
        kind_tok = items[0]
        kind = str(kind_tok)
        args: list[str | MarkupText] = []
        for tok in items[1:]:
            if tok.type == "STRING":
                args.append(MarkupText(unescape(str(tok))))
            else:
                args.append(str(tok))
        if kind not in MARKUP_KINDS:
            self._problem(kind_tok, f"unknown markup <{kind}>: use highlight, arrow, label or ghost")
        else:
            low, high = MARKUP_KINDS[kind]
            if not low <= len(args) <= high:
                want = str(low) if low == high else f"{low} to {high}"
                self._problem(kind_tok, f"<{kind}> takes {want} arguments, not {len(args)}")
        return Markup(kind, tuple(args), self._span(kind_tok))

    # -- actions -------------------------------------------------------
    def action(self, items: list) -> Command:
        tok: Token = items[0]
        return self.make_command(tok.type, str(tok), self._span(tok), self.problems)



@lru_cache(maxsize=None)
def _parser(ruleset: Ruleset) -> tuple[Lark, _Builder]:
    """The LALR parser of a game's grammar (its file imports ``grammar/envelope.lark``)."""
    builder = _Builder(CommandMaker(ruleset.codecs))
    # the analysed grammar is kept per user as checked JSON, never as a pickle (grn.grammar_cache)
    parser = load_parser(ruleset.grammar_text(), import_paths=[FromPackageLoader("grn.grammar")], parser="lalr",
                         transformer=builder, propagate_positions=False, maybe_placeholders=False)
    return parser, builder


# ---------------------------------------------------------------------------
# Splitting a stream into games
# ---------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Chunk:
    """The text of one game and the line it starts on.

    ``problem`` says why the game's text was not kept (a line or a game
    longer than GRN allows), with the line it concerns.
    """

    text: str
    first_line: int
    problem: tuple[int, str] | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        # pickle (process pools, Dask): a compiled dataclass is rebuilt from its fields
        return reduce_dataclass(self)


# MAX_LINE_CHARS and MAX_GAME_CHARS, the limits of a line and of a game, live in grn.record (the
# writer keeps to them too) and are imported above.


#: Stands for a line longer than :data:`MAX_LINE_CHARS`, whose text is not kept (told apart by identity).
LONG_LINE = "\x00a line too long\x00"


def bounded_lines(readline: Callable[[int], Any], empty: Any) -> Iterator[Any]:
    """The lines ``readline`` gives, each at most :data:`MAX_LINE_CHARS` long: a longer one is skipped
    in pieces and given as :data:`LONG_LINE` (``empty``: what readline returns at the end)."""
    newline = "\n" if isinstance(empty, str) else b"\n"
    while True:
        line = readline(MAX_LINE_CHARS + 1)
        if line == empty:
            return
        if len(line) > MAX_LINE_CHARS and not line.endswith(newline):
            while True:  # the rest of the line, piece by piece
                rest = readline(MAX_LINE_CHARS)
                if rest == empty or rest.endswith(newline):
                    break
            yield LONG_LINE
            continue
        yield line


_SCAN_RE = re.compile(r'\{|\}|"(?:[^"\\\n]|\\.)*"|;')


def _scan(line: str, in_brace: bool) -> bool:
    """Whether a brace comment is still open after ``line``."""
    if not in_brace and "{" not in line:
        return False
    pos = 0
    while True:
        if in_brace:
            end = line.find("}", pos)
            if end < 0:
                return True
            in_brace = False
            pos = end + 1
            continue
        m = _SCAN_RE.search(line, pos)
        if m is None:
            return False
        tok = m.group()
        if tok == "{":
            in_brace = True
        elif tok == ";":
            return False
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
    for line in lines:
        lineno += 1
        if lineno == 1 and line.startswith("\ufeff"):
            line = line[1:]  # a UTF-8 byte-order mark is not part of the text
        if line is LONG_LINE and problem is None:
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
        if size > MAX_GAME_CHARS and problem is None:
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


def _caret(text: str, line: int, column: int) -> str:
    """The source line ``line`` of ``text`` (1-based), for the caret display."""
    # lines end at "\n" only, as the grammar counts them (not at a form feed, U+2028 or a lone CR)
    lines = text.split("\n")
    return lines[line - 1].rstrip("\r") if 0 < line <= len(lines) else ""


@lru_cache(maxsize=None)
def _fast_reader(ruleset: Ruleset) -> FastReader:
    parser, builder = _parser(ruleset)
    return FastReader(parser, {t: c.read for t, c in builder.make_command.by_terminal.items()}, unescape)


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
    ``fast=False`` makes Lark read the game even when :mod:`grn.fastread` could.
    """
    m = _game_tag(text)
    diags: list[Diagnostic] = []
    try:
        ruleset = registry.find_ruleset(m.group(2) if m else None)
    except registry.UnknownGame as exc:
        assert m is not None
        line = first_line + text.count("\n", 0, m.start(2))
        diags.append(Diagnostic(str(exc), Span(line, 1), file, code="unknown-game", game=index,
                                source_line=_caret(text, line - first_line + 1, 1)))
        # read on with the default game's grammar: its syntax errors are reported too
        ruleset = registry.find_ruleset(None)
    if text.count("(") > MAX_VARIATION_DEPTH:  # fewer cannot nest too deep: no scan for most games
        deep = _too_deep(text)
        if deep is not None:
            line, column = deep
            diags.append(Diagnostic(f"variations nest more than {MAX_VARIATION_DEPTH} deep here: GRN allows at most "
                                    f"{MAX_VARIATION_DEPTH} variations one inside another", Span(line + first_line - 1,
                                                                                               column),
                                    file, code="syntax", game=index, source_line=_caret(text, line, column)))
            return Record(_header_tags(text), (), (), Span(first_line, 1), tuple(diags))
    if fast and not diags:
        problems: list[tuple[Span, str]] = []
        got = _fast_reader(ruleset).read(text, first_line, problems)
        if got is not None:
            problems += _tag_case_problems(got[0], got[2])
            for span, message in problems:
                diags.append(Diagnostic(message, span, file, code="meaning", game=index,
                                        source_line=_caret(text, span.line - first_line + 1, span.column)))
            return Record(tuple(got[0]), tuple(got[1]), (), Span(first_line, 1), tuple(diags), tuple(got[2]))
    parser, builder = _parser(ruleset)
    builder.offset = first_line - 1
    builder.problems = []
    try:
        # the transformer's start() returns (tags, intro, turns), not the Tree lark's types promise
        tags, intro, turns = cast("tuple[tuple[tuple[str, tuple[str, str], Span], ...], tuple[Note, ...], "
                                  "tuple[Turn, ...]]", parser.parse(text))
    except UnexpectedInput as exc:
        diags.append(_syntax_diagnostic(exc, text, file, first_line, index, ruleset))
        # Keep what the header said so that reports can name the game.
        return Record(_header_tags(text), (), (), Span(first_line, 1), tuple(diags))
    for span, message in builder.problems + _tag_case_problems((t[1] for t in tags), (t[2] for t in tags)):
        diags.append(Diagnostic(message, span, file, code="meaning", game=index,
                                source_line=_caret(text, span.line - first_line + 1, span.column)))
    tag_items = tuple(t[1] for t in tags)
    return Record(tag_items, turns, intro, Span(first_line, 1), tuple(diags), tuple(t[2] for t in tags))


def _header_tags(text: str) -> tuple[tuple[str, str], ...]:
    """The tags of a game that could not be read (so that reports can name the game)."""
    return tuple((m.group(1), unescape(m.group(2))) for m in re.finditer(
        r'^[ \t]*\[([A-Za-z][A-Za-z0-9_]*)[ \t]+("(?:[^"\\\n]|\\.)*")[ \t]*\]', text, re.M))


_NESTING_RE = re.compile(r'\{[^}]*\}|"(?:[^"\\\n]|\\.)*"|;[^\n]*|[()]')


def _too_deep(text: str) -> tuple[int, int] | None:
    """Line and column (1-based, in ``text``) of the first variation nested deeper than allowed, if any."""
    depth = 0
    for m in _NESTING_RE.finditer(text):
        token = m.group()
        if token == "(":
            depth += 1
            if depth > MAX_VARIATION_DEPTH:
                start = m.start()
                line = text.count("\n", 0, start) + 1
                return line, start - (text.rfind("\n", 0, start) + 1) + 1
        elif token == ")":
            depth -= 1
    return None


def _syntax_diagnostic(exc: UnexpectedInput, text: str, file: str | None, first_line: int,
                       index: int, ruleset: Ruleset) -> Diagnostic:
    line = getattr(exc, "line", 1) or 1
    column = getattr(exc, "column", 1) or 1
    # lark declares pos_in_stream = None at class level; UnexpectedCharacters sets an int
    pos: int = getattr(exc, "pos_in_stream", None) or 0
    if isinstance(exc, UnexpectedCharacters):
        char = text[pos] if pos < len(text) else ""
        found = f"unexpected character {char!r}"
        expected = exc.allowed or set()
    elif isinstance(exc, UnexpectedToken):
        tok = exc.token
        if tok.type == "$END":
            found = "the game ends too early"
            line, column = _end_position(text)
        else:
            found = f"unexpected {str(tok)!r}"
        expected = exc.expected or set()
    elif isinstance(exc, UnexpectedEOF):
        found = "the game ends too early"
        line, column = _end_position(text)
        expected = set(exc.expected or [])
    else:  # pragma: no cover - Lark raises only the three above
        found, expected = str(exc), set()
    if isinstance(exc, UnexpectedCharacters) and text[pos:pos + 1] == "{":
        found = "a { comment that is never closed"
    message = f"syntax error: {found}; expected {_words(expected, ruleset)}"
    return Diagnostic(message, Span(line + first_line - 1, column), file, code="syntax", game=index,
                      source_line=_caret(text, line, column))


def _end_position(text: str) -> tuple[int, int]:
    stripped = text.rstrip()
    line = stripped.count("\n") + 1
    column = len(stripped) - (stripped.rfind("\n") + 1) + 1
    return line, column


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
