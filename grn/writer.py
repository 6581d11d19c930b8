"""Writing records back as canonical GRN text (what ``grn fmt`` prints).

The canonical form: the known tags first in :data:`grn.record.TAG_ORDER`, the
others in the order written; a blank line; the notes before the first turn on
one line; then one line per turn of the main line, its extras in the order
they were written, variations in parentheses on the same line.  A ``;``
comment ends its line and what follows continues on the next line, indented.
"""

from __future__ import annotations

from typing import Iterable

from grn.commands import (
    Command, DiscardTile, FlipCard, Mine, PlaceCowboy, PlaceTent, PlaceTile, RevealTokens,
    card_text,
)
from grn.record import (
    TAG_ORDER, Checkpoint, Comment, Extra, Markup, MarkupText, Nag, Note, Record, Turn, Variation,
)

_NEWLINE = "\n"


def quote(text: str) -> str:
    """``text`` as a GRN quoted string (backslash and double quote escaped)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def command_text(cmd: Command) -> str:
    """The canonical spelling of one engine command."""
    if isinstance(cmd, PlaceTile):
        rot = f":{cmd.rotation}" if cmd.rotation else ""
        return f"{cmd.tile}@{cmd.x},{cmd.y}{rot}"
    if isinstance(cmd, PlaceCowboy):
        return f"+{cmd.location}"
    if isinstance(cmd, PlaceTent):
        loc = f":{cmd.location}" if cmd.location else ""
        return f"tent@{cmd.x},{cmd.y}{loc}"
    if isinstance(cmd, Mine):
        return "mine" if cmd.value is None else f"mine={cmd.value}"
    if isinstance(cmd, RevealTokens):
        return "tokens=" + ",".join("?" if v is None else str(v) for v in cmd.values)
    if isinstance(cmd, DiscardTile):
        return f"discard {cmd.tile}"
    if isinstance(cmd, FlipCard):
        return f"{cmd.pos}={card_text(cmd.face)}"
    raise TypeError(f"not a command: {cmd!r}")


def _note_pieces(note: Note | Extra) -> list[str]:
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
            pieces += _note_pieces(n)
        for t in note.turns:
            pieces += _turn_pieces(t)
        pieces.append(")")
        return pieces
    raise TypeError(f"not a note: {note!r}")


def _turn_pieces(turn: Turn) -> list[str]:
    pieces = [f"{turn.number}.", turn.player]
    pieces += [command_text(a) for a in turn.actions]
    for extra in turn.extras:
        pieces += _note_pieces(extra)
    return pieces


def _join(pieces: Iterable[str]) -> str:
    """Join pieces with single spaces; a ``;`` comment ends the line."""
    out: list[str] = []
    fresh = True  # at the start of a line
    for p in pieces:
        if p == ")" and out and not fresh:
            out.append(p)
        elif fresh:
            out.append(p if not out else "  " + p)
        elif out and out[-1].endswith("("):
            out.append(p)
        else:
            out.append(" " + p)
        fresh = p.endswith(_NEWLINE)
    text = "".join(out)
    return text[:-1] if text.endswith(_NEWLINE) else text


def tag_order(tags: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """Tags in canonical order: the known ones first, then the rest as written."""
    items = list(tags)
    rank = {name: i for i, name in enumerate(TAG_ORDER)}
    known = sorted((t for t in items if t[0] in rank), key=lambda t: rank[t[0]])
    return known + [t for t in items if t[0] not in rank]


def write_record(record: Record) -> str:
    """One game as canonical GRN text, ending with a newline."""
    lines = [f"[{name} {quote(value)}]" for name, value in tag_order(record.tags)]
    if lines:
        lines.append("")
    if record.intro:
        pieces: list[str] = []
        for note in record.intro:
            pieces += _note_pieces(note)
        lines.append(_join(pieces))
    for turn in record.turns:
        lines.append(_join(_turn_pieces(turn)))
    if not record.turns and not record.intro and lines and lines[-1] == "":
        lines.pop()
    return "\n".join(lines) + "\n"


def write_records(records: Iterable[Record]) -> str:
    """Several games as canonical GRN text, separated by blank lines."""
    return "\n".join(write_record(r) for r in records)
