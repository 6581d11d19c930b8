"""Reading a game with Lark: the grammar's own parser, for every game the fast reader declines.

The grammar (``envelope.lark`` plus one file per game that overrides the
``action`` rule) only says what is well formed; a Lark ``Transformer`` turns
what it matched into :mod:`grn.core.record` values and engine commands (each game's
:mod:`codecs <grn.rules.codec>`), noting words that are well formed but mean nothing
(an unknown feature place, a rotation of 45 degrees) as problems.  A syntax
error becomes one diagnostic in the player's words (what was found, what was
expected), at the file, line and column Lark found it.

:mod:`grn.notation.read` imports this module only when :mod:`grn.notation.fastread` declines
a game (a variation, a turn over several lines, a syntax error...) or when the
fast reader's terminal table is not cached yet: importing Lark costs about a
third of a small file's ``grn validate`` (docs/performance.md, "Start-up, round
seven").
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable, cast

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.load_grammar import FromPackageLoader

from grn.rules.codec import CommandCodec, read_int
from grn.core.errors import Diagnostic, Span
from grn.notation.fastread import Terminal, TerminalTable, caret, unescape
from grn.notation.grammar_cache import GRAMMAR_PACKAGES, load_parser
from grn.core.record import (Checkpoint, Comment, Command, Extra, Markup, MarkupText, Nag, Note, Turn, Variation,
                        markup_problem)
from grn.rules.ruleset import Ruleset

#: Lark terminal names of the envelope -> words a player understands (each game's
#: commands add theirs from their codecs: :attr:`grn.rules.codec.CommandCodec.expected`).
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
        problem = markup_problem(kind, len(args))
        if problem is not None:
            self._problem(kind_tok, problem)
        return Markup(kind, tuple(args), self._span(kind_tok))

    # -- actions -------------------------------------------------------
    def action(self, items: list) -> Command:
        tok: Token = items[0]
        return self.make_command(tok.type, str(tok), self._span(tok), self.problems)



@lru_cache(maxsize=None)
def _parser(ruleset: Ruleset) -> tuple[Lark, _Builder]:
    """The LALR parser of a game's grammar (its file imports ``grammar/envelope.lark``)."""
    builder = _Builder(CommandMaker(ruleset.codecs))
    # the analysed grammar is kept per user as checked JSON, never as a pickle (grn.notation.grammar_cache)
    parser = load_parser(ruleset.grammar_text(), import_paths=[FromPackageLoader(p) for p in GRAMMAR_PACKAGES], parser="lalr",
                         transformer=builder, propagate_positions=False, maybe_placeholders=False)
    return parser, builder


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
                      source_line=caret(text, line, column))


def _end_position(text: str) -> tuple[int, int]:
    stripped = text.rstrip()
    line = stripped.count("\n") + 1
    column = len(stripped) - (stripped.rfind("\n") + 1) + 1
    return line, column


def terminal_table(ruleset: Ruleset) -> TerminalTable:
    """The terminals of a game's grammar as its parser has them, for the fast reader."""
    parser = _parser(ruleset)[0]
    terminals = tuple(Terminal(t.name, t.pattern.to_regexp(), t.priority, t.pattern.max_width, len(t.pattern.value))
                      for t in parser.terminals)
    actions = tuple(dict.fromkeys(sym.name for r in parser.rules if r.origin.name == "action" for sym in r.expansion))
    return TerminalTable(terminals, actions)


def read_text(text: str, ruleset: Ruleset, *, file: str | None, first_line: int,
              index: int) -> tuple[tuple[tuple[str, str], ...], tuple[Turn, ...], tuple[Note, ...], tuple[Span, ...],
                                   list[tuple[Span, str]]] | Diagnostic:
    """Lark's reading of one game: ``(tags, turns, intro, tag spans, problems)``, or its syntax error."""
    parser, builder = _parser(ruleset)
    builder.offset = first_line - 1
    builder.problems = []
    try:
        # the transformer's start() returns (tags, intro, turns), not the Tree lark's types promise
        tags, intro, turns = cast("tuple[tuple[tuple[str, tuple[str, str], Span], ...], tuple[Note, ...], "
                                  "tuple[Turn, ...]]", parser.parse(text))
    except UnexpectedInput as exc:
        return _syntax_diagnostic(exc, text, file, first_line, index, ruleset)
    return tuple(t[1] for t in tags), turns, intro, tuple(t[2] for t in tags), builder.problems
