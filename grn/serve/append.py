"""A turn recorded at the end of a game's main line, stored as one turn (R458-R461).

The recorder knows the position a turn is played on (the position cache of :mod:`grn.serve.views`) and the
engine after it with the turn's events (:func:`grn.serve.routes_recording.play_actions`).  Storing such a turn
needs neither the whole game written again, read again and replayed from turn 1, nor the game's rows deleted and
inserted: the canonical text gains one line, and the rows change where the turn changes them.  This module works
out that line and that record; :meth:`grn.serve.store.Store.save` writes the rows.

Everything here refuses (answers None) rather than guesses: a turn that is not plainly one more turn at the end of
a game whose stored text is canonical goes through the full save, which stores exactly what it stored before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from grn.core.record import Comment, Nag, Record, Turn
from grn.notation.read import parse
from grn.notation.writer import turn_line as write_turn, write_record
from grn.rules import registry
from grn.serve.views import Recent

if TYPE_CHECKING:
    from grn.rules.engine import Engine, Event


class Appended(NamedTuple):
    """A turn the recorder played at the end of a game's main line, with what it worked out already: the record
    and the stored text it was played on, the engine after the turn, and the turn's events (the engine's own,
    in order)."""

    before: Record
    text: str
    after: Engine
    events: list[Event]


#: Stored texts known to be canonical GRN (``write_record`` of their record): the texts this process stored.
_CANONICAL: Recent[str, bool] = Recent(64)


def remember_canonical(text: str) -> None:
    """Note that ``text`` is canonical GRN (the store wrote it with :func:`grn.notation.writer.write_record`)."""
    _CANONICAL.put(text, True)


def is_canonical(record: Record, text: str) -> bool:
    """Whether ``text`` is what :func:`~grn.notation.writer.write_record` writes of ``record``: known for the texts
    this process stored, worked out once for another (a game ``grn archive add`` kept as its file wrote it)."""
    known = _CANONICAL.get(text)
    if known is None:
        known = _CANONICAL.put(text, write_record(record) == text)
    return known


def turn_line(turn: Turn, record: Record) -> str:
    """One main-line turn as :func:`~grn.notation.writer.write_record` writes its line (no line break after)."""
    ruleset = registry.find_ruleset(record.game) if registry.known(record.game) else None
    return write_turn(turn, ruleset)


def one_more_turn(record: Record, appended: Appended) -> Turn | None:
    """``record``'s last turn when ``record`` is ``appended.before`` with one more main-line turn and nothing
    else changed, that turn plain (its commands, comments and glyphs: no checkpoint, markup or variation, which
    the validator would check); else None."""
    before = appended.before
    turns = record.turns
    if (record.tags != before.tags or record.intro != before.intro or len(turns) != len(before.turns) + 1
            or not record.tags or any(a is not b and a != b for a, b in zip(turns, before.turns))):
        return None
    turn = turns[-1]
    if turn.number <= 0 or any(not isinstance(e, (Comment, Nag)) for e in turn.extras):
        return None
    return turn


def appended_text(record: Record, appended: Appended) -> tuple[str, Record] | None:
    """The stored text and its record after the turn ``record`` adds to ``appended.before`` (None: the turn is not
    one this module stores, see :func:`one_more_turn`, or the text it was played on is not canonical).

    The text is the text played on with the turn's line after it: what ``write_record`` writes of ``record``
    (R459).  The record is the one read before with the turn as read back from its line alone, at the line and
    column it has in the new text, so it is what reading the whole new text gives, spans included; a line that
    does not read back as the turn played (a spelling the reader takes otherwise) is refused.
    """
    turn = one_more_turn(record, appended)
    if turn is None or appended.after.is_over or record.tag("End") is not None:
        return None
    before, text = appended.before, appended.text
    if before.diagnostics or not is_canonical(before, text):
        return None
    line = turn_line(turn, record)
    # a game without a turn or a note is its tags and one line break: the blank line before the turns comes now
    prefix = text if before.turns or before.intro else text + "\n"
    header = write_record(Record(record.tags))
    skip = prefix.count("\n") - header.count("\n")
    if skip < 0 or not prefix.startswith(header):
        return None
    games = parse(header + "\n" * skip + line + "\n", file="<archive>")
    if len(games) != 1 or games[0].diagnostics or len(games[0].turns) != 1 or games[0].turns[0] != turn:
        return None
    return prefix + line + "\n", record.replace(turns=(*record.turns[:-1], games[0].turns[0]))


__all__ = ["Appended", "appended_text", "is_canonical", "one_more_turn", "remember_canonical", "turn_line"]
