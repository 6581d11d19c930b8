"""Where the cursor stands in a half-typed game: in a header tag, in a comment, or in a turn, and the position
that turn is played from.

A line being typed rarely reads: ``5. red 17@`` is a syntax error, and a game
with one reads as no turns.  So the position is found from the text *before*
the turn under the cursor (closing any variation left open), replayed with
:func:`grn.rules.position.position_at`; the words already written in the turn are
read by the game's own grammar, as the text before the turn followed by them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple, Sequence

from grn.rules import registry
from grn.notation.read import parse_game
from grn.core.errors import IllegalAction
from grn.rules.position import PositionError, play_record_turn, position_at
from grn.core.record import Record, Seat, Turn, Variation
from grn.rules.ruleset import Ruleset, SetupProblem, engine_for, player_key

if TYPE_CHECKING:
    from grn.core.record import Command

#: A turn's start: its number, a dot and the player (``12. red``); the player may be half typed.
_TURN = re.compile(r"(?<![\w@,:.=#-])(\d{1,9})\.[ \t\r\n]+([a-z][a-z0-9_]*)?")
#: Words after which a turn holds no more actions: a checkpoint, a glyph, a variation's brackets.
_STOP = re.compile(r"^(score|[!?]{1,2}|\$\d+|[()].*)$")
_SCORE_ITEM = re.compile(r"^[a-z][a-z0-9_]*=-?\d+$")
_TAG_NAME = re.compile(r"^\s*\[\s*([A-Za-z][A-Za-z0-9_]*)?$")
_TAG_VALUE = re.compile(r'^\s*\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)$')


@dataclass(slots=True)
class TurnContext:
    """The cursor is in a turn: who plays it, the position before it, what is written of it."""

    ruleset: Ruleset
    record: Record
    seats: list[Seat]
    state: Any
    number: int
    player: str  # the player's key colour (as written, when not seated)
    written: list[Command]  # the commands written before the word under the cursor
    word: str  # the part of the word under the cursor before it
    player_typed: bool = True  # False: the cursor is on the player word itself
    #: In the turn's score checkpoint (after ``score``): the items written there; None: not in one.
    checkpoint: tuple[str, ...] | None = None


@dataclass(slots=True)
class TagContext:
    """The cursor is in a header tag: its name so far, or the name and the value so far."""

    name: str
    value: str | None = None
    record: Record | None = None
    ruleset: Ruleset | None = None


@dataclass(slots=True)
class Cleaned:
    """Movetext with comments, markup and strings blanked out (same length: offsets still hold)."""

    text: str
    in_note: bool = False  # the text ends inside a comment or markup
    depth: int = 0  # variations left open at the end
    opens: list[int] = field(default_factory=list)  # where each open variation's "(" stands


def clean(text: str) -> Cleaned:
    """Blank out ``{comments}``, ``; line comments``, ``<markup>`` and its ``"strings"``."""
    out = list(text)
    opens: list[int] = []
    i, n = 0, len(text)
    state = ""
    while i < n:
        c = text[i]
        if state == "{":
            if c == "}":
                state = ""
            out[i] = " " if c != "\n" else c
        elif state == ";":
            if c == "\n":
                state = ""
            else:
                out[i] = " "
        elif state == "<":
            if c == '"':
                state = '<"'
            elif c == ">":
                state = ""
            out[i] = " " if c != "\n" else c
        elif state == '<"':
            if c == "\\":
                out[i] = " "
                i += 1
                if i < n:
                    out[i] = " "
            elif c == '"':
                state = "<"
            out[i] = " " if text[i] != "\n" else "\n"
        elif c in "{;<":
            state = c
            out[i] = " "
        elif c == "(":
            opens.append(i)
        elif c == ")" and opens:
            opens.pop()
        i += 1
    return Cleaned("".join(out), state != "", len(opens), opens)


def _tags_end(text: str) -> int:
    """Where the header tags of a game's text end (the offset after its last tag line)."""
    end = 0
    for m in re.finditer(r"^[ \t]*\[[^\n]*(?:\n|$)", text, re.M):
        if text[end:m.start()].strip() and end:
            break
        end = m.end()
    return end


def at(text: str, first_line: int, line: int, column: int) -> TurnContext | TagContext | None:
    """What the cursor at ``line``:``column`` (1-based, in characters) of a game's ``text`` stands in.

    None: a comment, the space between things, or a turn whose position cannot be
    found (the game before it does not read or breaks the rules).
    """
    lines = text.split("\n")
    row = line - first_line
    if not 0 <= row < len(lines):
        return None
    offset = sum(len(x) + 1 for x in lines[:row]) + min(column - 1, len(lines[row]))
    before = text[:offset]
    current = lines[row][:column - 1]
    head = _tags_end(text)
    if offset <= head or current.lstrip().startswith("["):
        return _tag_context(text, current)
    moves = clean(before)
    if moves.in_note:
        return None
    last = None
    for m in _TURN.finditer(moves.text, head):
        last = m
    if last is None:
        return None
    rest = moves.text[last.end():]
    player_typed = bool(rest) and last.group(2) is not None
    words = rest.split()
    word = "" if not rest or rest[-1].isspace() else words.pop()
    if "(" in rest or ")" in rest:
        return None
    stop = next((i for i, w in enumerate(words) if _STOP.match(w)), len(words))
    words, after = words[:stop], words[stop:]
    checkpoint = None
    if after:
        # past the actions: only a score checkpoint's items are offered (glyphs may stand before it)
        if "score" not in after:
            return None
        items = after[after.index("score") + 1:]
        if not all(_SCORE_ITEM.match(w) for w in items):
            return None
        checkpoint = tuple(items)
    if not player_typed:
        word = last.group(2) or ""
    found = _turn_context(text, moves, last, words, word, player_typed)
    if found is not None:
        found.checkpoint = checkpoint
    return found


def _tag_context(text: str, current: str) -> TagContext | None:
    m = _TAG_NAME.match(current)
    if m:
        return TagContext(m.group(1) or "")
    m = _TAG_VALUE.match(current)
    if m:
        record = parse_game(text[:_tags_end(text)] or text)
        ruleset = registry.find_ruleset(record.game) if registry.known(record.game) else None
        return TagContext(m.group(1), m.group(2), record, ruleset)
    return None


def _turn_context(text: str, moves: Cleaned, m: re.Match[str], words: list[str], word: str,
                  player_typed: bool) -> TurnContext | None:
    start = m.start()
    opens = [o for o in moves.opens if o < start]
    cut = text[:start]
    fresh_variation = bool(opens) and not moves.text[opens[-1] + 1:start].strip()
    if fresh_variation:
        # the turn starts a variation: it is played from the position before the turn the variation follows
        cut = text[:opens[-1]]
        opens = opens[:-1]
    found = position_before(cut + ")" * len(opens), len(opens), fresh_variation)
    if found is None:
        return None
    record, ruleset, seats, state = found
    written: list[Command] = []
    if words:
        # the words written so far, read by the game's grammar as the end of the same text
        depth = len(opens) + fresh_variation
        full = parse_game(text[:start] + m.group(0) + " " + " ".join(words) + ")" * depth)
        if not full.ok:
            return None
        turn = _last_turn(full.turns, depth)
        if turn is None:
            return None
        written = list(turn.actions)
    player = player_key(seats, m.group(2) or "")
    return TurnContext(ruleset, record, seats, state, int(m.group(1)), player, written, word,
                       player_typed)


class Before(NamedTuple):
    """The position a turn is played from: the record read so far, its rules, seats and engine state."""

    record: Record
    ruleset: Ruleset
    seats: list[Seat]
    state: Any


@lru_cache(maxsize=16)
def position_before(text: str, depth: int, fresh_variation: bool) -> Before | None:
    """The record of a game's text up to a turn (its open variations closed), and the position that turn is
    played from: the end of the line ``depth`` variations deep, or, for a turn that starts a variation, the
    position before the turn that variation follows.

    Kept for the last few texts: completions while one turn is typed share it.  Callers must not change
    the position's state (copy it first).
    """
    record = parse_game(text)
    if not record.ok:
        return None
    line: tuple[Turn, ...] = record.turns
    steps: list[tuple[int, int]] = []
    for _ in range(depth):
        if not line:
            return None
        branch = line[-1]
        variations = [e for e in branch.extras if isinstance(e, Variation)]
        if not variations:
            return None
        steps.append((branch.number, len(variations)))
        line = variations[-1].turns
    played = [t for t in line if t.number > 0]
    if fresh_variation:
        if not played:
            return None
        after = played[-1].number - 1
    elif played:
        after = played[-1].number
    else:
        after = steps[-1][0] - 1 if steps else 0
    try:
        if not steps:
            # the main line (where a game is written): its turns up to ``after``, as position_at plays them,
            # replayed from the longest prefix played before
            upto = next((i for i, t in enumerate(line) if t.number > after), len(line))
            if after > 0 and (upto == 0 or line[upto - 1].number < after):
                return None  # no turn ``after`` on the line (its numbers skip one): position_at refuses it too
            return REPLAYS.replay(record, line[:upto])
        position = position_at(record, "".join(f"{n}({k})" for n, k in steps) + str(after))
    except (PositionError, SetupProblem, registry.UnknownGame, IllegalAction):
        return None
    assert position.ruleset is not None
    return Before(record, position.ruleset, position.seats, position.state)


def _played(turn: Turn) -> tuple[object, ...]:
    """What of a turn its replay reads (:func:`grn.rules.position.play_record_turn`): not its comments or spans."""
    return (turn.number, turn.player, turn.actions, turn.checkpoint if turn.number == 0 else None)


class Replays:
    """Engine states after the main-line turns played lately, so that the position before a turn is played
    on from the longest prefix already played (typing turn 31 after turn 30 plays turn 30 only, not the
    game from its start).

    A state is kept for the header tags it was set up from (the engine is made from the tags alone) and the
    turns played on it; each answer is a copy, so a kept state never changes.
    """

    def __init__(self, size: int = 8) -> None:
        self.size = size
        self._kept: list[tuple[tuple[tuple[str, str], ...], list[tuple[Any, ...]], Any]] = []  # newest first
        #: turns played by the last :meth:`replay` (the rest came from a kept state): for tests and the bench
        self.last_played = 0

    def replay(self, record: Record, turns: Sequence[Turn]) -> Before:
        """The position after ``turns`` (the start of ``record``'s main line); raises
        :class:`~grn.core.errors.IllegalAction`, :class:`SetupProblem` or :class:`registry.UnknownGame`."""
        ruleset = registry.find_ruleset(record.game)
        seats = ruleset.seats(record)
        keys = [_played(t) for t in turns]
        best: tuple[list[tuple[Any, ...]], Any] | None = None
        for tags, done, state in self._kept:
            if (tags == record.tags and len(done) <= len(keys) and (best is None or len(done) > len(best[0]))
                    and keys[:len(done)] == done):
                best = done, state
        if best is None:
            state, start = engine_for(ruleset, record, seats), 0
        else:
            state, start = best[1].copy(), len(best[0])
        for turn in turns[start:]:
            play_record_turn(state, seats, turn)
        self.last_played = len(turns) - start
        self._kept = [k for k in self._kept if not (k[0] == record.tags and k[1] == keys)]
        self._kept.insert(0, (record.tags, keys, state.copy()))
        del self._kept[self.size:]
        return Before(record, ruleset, seats, state)

    def clear(self) -> None:
        """Forget every kept state."""
        self._kept.clear()


#: The server's kept replays (one process serves one editor).
REPLAYS = Replays()


def _last_turn(line: tuple[Turn, ...], depth: int) -> Turn | None:
    for _ in range(depth):
        if not line:
            return None
        variations = [e for e in line[-1].extras if isinstance(e, Variation)]
        if not variations:
            return None
        line = variations[-1].turns
    return line[-1] if line else None


__all__ = ["Before", "REPLAYS", "Replays", "TagContext", "TurnContext", "at", "clean", "position_before"]
