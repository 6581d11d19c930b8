"""Writing records back as canonical GRN text (what ``grn fmt`` prints).

The canonical form: the known tags first in :data:`grn.core.record.TAG_ORDER`, the
others in the order written; a blank line; the notes before the first turn on
one line; then one line per turn of the main line, its extras in the order
they were written, variations in parentheses on the same line.  A ``;``
comment ends its line and what follows continues on the next line, indented.
"""

from __future__ import annotations

from typing import Iterable

from grn.rules import registry
from grn.rules.ruleset import Ruleset

from grn.core.record import (
    MAX_LINE_CHARS, TAG_ORDER, Checkpoint, Command, Comment, Extra, Markup, MarkupText, Nag, Note, Record, Turn,
    Variation,
)

_NEWLINE = "\n"


def quote(text: str) -> str:
    """``text`` as a GRN quoted string (backslash and double quote escaped)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def command_text(cmd: Command, ruleset: Ruleset | None = None) -> str:
    """The canonical spelling of one engine command (of ``ruleset``'s game, else of any known game)."""
    codec = ruleset.codec_for(cmd) if ruleset is not None else None
    if codec is None:
        codec = next((c for r in registry.rulesets() if (c := r.codec_for(cmd)) is not None), None)
        if codec is None:
            raise TypeError(f"not a command of a known game: {cmd!r}")
    return codec.write(cmd)


def _note_pieces(note: Note | Extra, ruleset: Ruleset | None = None) -> list[str]:
    if isinstance(note, Comment):
        return [(";" + note.text + _NEWLINE) if note.line else "{" + note.text + "}"]
    if isinstance(note, Nag):
        return [note.glyph]
    if isinstance(note, Checkpoint):
        return ["score " + " ".join(f"{who}={pts}" for who, pts in note.scores)]
    if isinstance(note, Markup):
        args = [quote(a.text) if isinstance(a, MarkupText) else a for a in note.args]
        return ["<" + " ".join([note.kind, *args]) + ">"]
    if isinstance(note, Variation):
        pieces = ["("]
        for n in note.intro:
            pieces += _note_pieces(n, ruleset)
        for t in note.turns:
            pieces += _turn_pieces(t, ruleset)
        pieces.append(")")
        return pieces
    raise TypeError(f"not a note: {note!r}")


def _turn_pieces(turn: Turn, ruleset: Ruleset | None = None) -> list[str]:
    pieces = [f"{turn.number}.", turn.player]
    pieces += [command_text(a, ruleset) for a in turn.actions]
    for extra in turn.extras:
        pieces += _note_pieces(extra, ruleset)
    return pieces


def _join(pieces: Iterable[str]) -> str:
    """Join pieces with single spaces; a ``;`` comment ends the line.

    A piece that would carry its line past the reader's limit (:data:`~grn.notation.read.MAX_LINE_CHARS`)
    starts a line of its own: the grammar takes a line break wherever it takes a space, so the text
    still reads back as the same record (R68).
    """
    out: list[str] = []
    fresh = True  # at the start of a line
    width = 0  # characters on the line so far
    for p in pieces:
        head = p.split("\n", 1)[0]  # what of the piece goes on this line
        if p == ")" and out and not fresh:
            sep = ""
        elif fresh:
            sep = "" if not out else "  "
        elif out and out[-1].endswith("("):
            sep = ""
        else:
            sep = " "
        if out and not fresh and width + len(sep) + len(head) > MAX_LINE_CHARS:
            sep = "\n  " if 2 + len(head) <= MAX_LINE_CHARS else "\n"
        elif fresh and out and 2 + len(head) > MAX_LINE_CHARS:
            sep = ""  # no indent where it would pass the limit
        text = sep + p
        out.append(text)
        last = text.rfind("\n")
        width = len(text) - last - 1 if last >= 0 else width + len(text)
        fresh = p.endswith(_NEWLINE)
    text = "".join(out)
    return text[:-1] if text.endswith(_NEWLINE) else text


def tag_order(tags: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """Tags in canonical order: the known ones first, then the rest as written."""
    items = list(tags)
    rank = {name: i for i, name in enumerate(TAG_ORDER)}
    known = sorted((t for t in items if t[0] in rank), key=lambda t: rank[t[0]])
    return known + [t for t in items if t[0] not in rank]


def turn_line(turn: Turn, ruleset: Ruleset | None = None) -> str:
    """One main-line turn as :func:`write_record` writes its line, without the line break after it."""
    return _join(_turn_pieces(turn, ruleset))


def write_record(record: Record) -> str:
    """One game as canonical GRN text, ending with a newline."""
    ruleset = registry.find_ruleset(record.game) if registry.known(record.game) else None
    lines = [f"[{name} {quote(value)}]" for name, value in tag_order(record.tags)]
    if lines:
        lines.append("")
    if record.intro:
        pieces: list[str] = []
        for note in record.intro:
            pieces += _note_pieces(note, ruleset)
        lines.append(_join(pieces))
    for turn in record.turns:
        lines.append(turn_line(turn, ruleset))
    if not record.turns and not record.intro and lines and lines[-1] == "":
        lines.pop()
    return "\n".join(lines) + "\n"


def write_records(records: Iterable[Record]) -> str:
    """Several games as canonical GRN text, separated by blank lines."""
    return "\n".join(write_record(r) for r in records)
