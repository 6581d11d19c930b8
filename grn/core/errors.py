"""Source positions and diagnostics, shared by every layer.

Problems are collected as :class:`Diagnostic` values with the place they come
from and reported together, rather than raised one exception at a time.
"""

from __future__ import annotations

from typing import Final, Literal

from mypy_extensions import mypyc_attr

from grn.core.value import Value

Severity = Literal["error", "warning", "info"]


class Span(Value):
    """Where something was written: 1-based line and column (of its first character).

    Spans order by line, then column, so problems can be listed in text order.
    """

    __slots__ = ("line", "column")
    _fields = ("line", "column")

    def __init__(self, line: int, column: int) -> None:
        self.line: Final = line
        self.column: Final = column

    def _key(self) -> tuple[object, ...]:
        return (self.line, self.column)

    def __lt__(self, other: Span) -> bool:
        return (self.line, self.column) < (other.line, other.column)

    def __repr__(self) -> str:
        return f"<Span {self.line}:{self.column}>"


class Diagnostic(Value):
    """One problem found in a record.

    ``rule`` says in plain words which rule was broken, ``section`` where it
    stands in the rules (seed file and heading), ``hint`` what would have been
    legal.  ``turn`` and ``player`` place it in the game.  ``notes``: lines
    that explain the problem, shown under it (a wrong checkpoint: what the turn
    scored).
    """

    __slots__ = ("message", "span", "file", "severity", "code", "game", "turn", "player", "rule", "section",
                 "hint", "source_line", "notes")
    _fields = ("message", "span", "file", "severity", "code", "game", "turn", "player", "rule", "section",
               "hint", "source_line", "notes")

    def __init__(self, message: str, span: Span | None = None, file: str | None = None,
                 severity: Severity = "error", code: str = "error", game: int | None = None,
                 turn: int | None = None, player: str | None = None, rule: str | None = None,
                 section: str | None = None, hint: str | None = None, source_line: str | None = None,
                 notes: tuple[str, ...] = ()) -> None:
        self.message: Final = message
        self.span: Final = span
        self.file: Final = file
        self.severity: Final = severity
        self.code: Final = code
        self.game: Final = game
        self.turn: Final = turn
        self.player: Final = player
        self.rule: Final = rule
        self.section: Final = section
        self.hint: Final = hint
        self.source_line: Final = source_line
        self.notes: Final = notes

    def _key(self) -> tuple[object, ...]:
        return (self.message, self.span, self.file, self.severity, self.code, self.game, self.turn, self.player,
                self.rule, self.section, self.hint, self.source_line, self.notes)

    def location(self) -> str:
        """``file:line:col`` (the parts that are known)."""
        parts = [self.file or "<input>"]
        if self.span is not None:
            parts += [str(self.span.line), str(self.span.column)]
        return ":".join(parts)

    def one_line(self) -> str:
        """The diagnostic as the one-line message the CLI prints."""
        text = f"{self.location()}: {self.severity}: {self.message}"
        if self.turn is not None:
            who = f" ({self.player})" if self.player else ""
            text += f" [turn {self.turn}{who}]"
        if self.rule:
            text += f" -- rule: {self.rule}"
        if self.section:
            text += f" ({self.section})"
        if self.hint:
            text += f"; {self.hint}"
        return text

    def to_json(self) -> dict[str, object]:
        """A plain dict for ``--format json`` reports."""
        out: dict[str, object] = {
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "file": self.file,
        }
        if self.span is not None:
            out["line"] = self.span.line
            out["column"] = self.span.column
        if self.game is not None:
            out["game"] = self.game + 1  # games are numbered from 1, as --game numbers them
        for key in ("turn", "player", "rule", "section", "hint"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        if self.notes:
            out["notes"] = list(self.notes)
        return out


def no_game(path: str) -> Diagnostic:
    """The problem of a file that holds no game (empty, or only blank lines): ``grn validate`` and
    ``grn archive add`` both refuse it (R328)."""
    return Diagnostic("no game found: the file holds no record", None, "<stdin>" if path == "-" else path,
                      code="empty")


# Other modules (the Gold engine, which is not compiled) subclass these, together with ValueError.
@mypyc_attr(allow_interpreted_subclasses=True)
class GrnError(Exception):
    """Base class of the errors grn raises for bad input (never for its own bugs)."""


@mypyc_attr(allow_interpreted_subclasses=True)
class IllegalAction(GrnError):
    """A rules engine refuses a command.

    Engines raise it with the rule in plain words, the section of the rules it
    comes from and, when it can say, what would have been legal; the validator
    turns it into a :class:`Diagnostic` at the command's span.
    """

    def __init__(self, message: str, *, rule: str | None = None, section: str | None = None,
                 hint: str | None = None, span: Span | None = None, code: str = "illegal") -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule
        self.section = section
        self.hint = hint
        self.span = span
        self.code = code
