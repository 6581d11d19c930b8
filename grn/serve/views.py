"""What the recorder page is sent for one position: the board, the next choice, the move list, the scores.

Generic: the game's ruleset draws the board (:meth:`~grn.rules.ruleset.Ruleset.render_svg`)
with the current step's options as diagram markup (highlights first, one per
option, in order, so that the page can make each a tap target), words its
moves (:meth:`~grn.rules.ruleset.Ruleset.action_words`) and offers the choices
(:meth:`~grn.rules.ruleset.Ruleset.turn_step`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, Any, Generic, Hashable, Sequence, TypeVar

from grn.rules import registry
from grn.archive.dedup import record_of
from grn.rules.choices import Step
from grn.rules.position import Position
from grn.core.record import Markup, Record, Turn
from grn.rules.recording import GLYPHS, address_of, line_at, normalise, position
from grn.rules.ruleset import Drawing
from grn.notation.writer import command_text

if TYPE_CHECKING:
    from grn.rules.ruleset import Ruleset


K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Recent(Generic[K, V]):
    """The last ``size`` values computed, by key (thread-safe).  Records and positions are read-only to
    every user here (engines are copied before a turn is tried), so one may be handed to many requests."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> V:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return value


_RECORDS: Recent[tuple[str, str], Record] = Recent(64)
_POSITIONS: Recent[tuple[str, str], Position] = Recent(256)


def record_for(text: str, fmt: str) -> Record:
    """The record of an archived game's text (the last few read are kept: every tap reads the game)."""
    return _RECORDS.get((text, fmt)) or _RECORDS.put((text, fmt), record_of(text, fmt))


def remember_record(text: str, record: Record) -> None:
    """Keep the record of a stored text worked out already (a turn stored as one turn: R459)."""
    _RECORDS.put((text, "grn"), record)


def position_for(record: Record, text: str, address: str) -> Position:
    """The position at ``address`` (normalised) of the game whose stored text is ``text``, kept a while."""
    return _POSITIONS.get((text, address)) or _POSITIONS.put((text, address), position(record, address))


def remember_position(text: str, address: str, pos: Position) -> None:
    """Keep a position worked out already (the one a turn just played leads to)."""
    _POSITIONS.put((text, address), pos)


def markup_of(words: str) -> Markup | None:
    """``"highlight 2,0:N"`` as a :class:`Markup` (None for an empty string)."""
    parts = words.split()
    if not parts:
        return None
    return Markup(parts[0], tuple(parts[1:]))


def board(pos: Position, step: Step | None, preview: str | None = None,
          extra: Sequence[Markup] = ()) -> tuple[str, list[int]]:
    """The position drawn with the step's options on it; for each option, the index of its highlight
    among the board's highlights (-1: not on the board).  A ghost option is drawn only when previewed
    (the first when none is).  ``extra`` is drawn after them (a bot's last move, in a game against grn)."""
    marks: list[Markup] = []
    where: list[int] = []
    ghost_shown = False
    if step is not None:
        for o in step.options:
            m = markup_of(o.markup)
            if m is None:
                where.append(-1)
            elif m.kind == "highlight":
                where.append(len(marks))
                marks.append(m)
            else:
                where.append(-1)
        for o in step.options:
            m = markup_of(o.markup)
            if m is not None and m.kind == "ghost" and not ghost_shown and (preview in (None, o.word)):
                marks.append(m)
                ghost_shown = True
        for words in step.scene:
            m = markup_of(words)
            if m is not None:
                marks.append(m)
    marks.extend(extra)
    shown = Position(pos.record, pos.state, pos.seats, pos.last, pos.turns_played, marks, pos.events,
                     pos.address, pos.line, pos.ruleset, False)
    assert pos.ruleset is not None
    # no panel inside the board: its text shrinks with the board; the page shows it in words (``about``)
    return pos.ruleset.render_svg(shown, Drawing(panel=False)), where


def _turn_view(ruleset: Ruleset, turn: Turn, address: str, names: dict[str, str]) -> dict[str, Any]:
    words = "; ".join(ruleset.action_words(a) for a in turn.actions)
    grn = " ".join(command_text(a, ruleset) for a in turn.actions)
    return {"n": turn.number, "player": names.get(turn.player, turn.player), "colour": turn.player,
            "words": words, "grn": f"{turn.number}. {turn.player} {grn}", "address": address,
            "glyphs": [n.glyph for n in turn.nags], "comments": [c.text for c in turn.comments],
            "variations": [], "checkpoint": None}


def moves(record: Record, address: str, names: dict[str, str]) -> dict[str, Any]:
    """The line the position lies on: its turns (words, GRN, address, variations) and where it branched."""
    ruleset = registry.find_ruleset(record.game)
    steps, line = line_at(record, address)
    out = []
    for t in line:
        if t.number <= 0:
            continue
        view = _turn_view(ruleset, t, address_of(steps, t.number), names)
        for k, v in enumerate(t.variations, 1):
            if v.turns:
                first = v.turns[0]
                view["variations"].append({"address": address_of([*steps, (t.number, k)], first.number),
                                           "words": f"{first.number}. " + "; ".join(
                                               ruleset.action_words(a) for a in first.actions)})
        out.append(view)
    parent = address_of(steps[:-1], steps[-1][0] - 1) if steps else None
    return {"turns": out, "parent": parent, "intro": [getattr(n, "text", "") for n in record.intro
                                                      if hasattr(n, "text")]}


def state_view(game_id: int, record: Record, text: str, address: str, picked: Sequence[str],
               preview: str | None, base: str, extra: Sequence[Markup] = ()) -> dict[str, Any]:
    """Everything the page shows of one position of a game being recorded (``extra``: markup drawn besides the
    choices, see :func:`board`)."""
    address = normalise(record, address)
    pos = position_for(record, text, address)
    ruleset = pos.ruleset
    assert ruleset is not None
    names = {s.key: s.name for s in pos.seats}
    step = None if pos.state.is_over else ruleset.turn_step(pos.state, list(picked))
    svg, where = board(pos, step, preview, extra)
    over = bool(pos.state.is_over)
    final: dict[str, int] | None = None
    if over:
        copy = pos.state.copy()
        copy.final_scoring()
        final = dict(copy.scores)
    player = None if over else pos.state.current_player
    best = max(final.values()) if final else None
    winners = [names.get(k, k) for k, v in (final or {}).items() if v == best]
    return {
        "id": game_id, "game": record.game, "title": ruleset.title or ruleset.name,
        "tags": [[k, v] for k, v in record.tags],
        "address": address, "base": base,
        "player": player, "player_name": names.get(player or "", player),
        "seats": [{"name": s.name, "key": s.key, "colours": list(s.colours)} for s in pos.seats],
        "scores": pos.state.scores, "final": final, "over": over, "winners": winners,
        "about": [line.strip() for line in ruleset.describe(pos)],
        "picked": list(picked),
        "step": None if step is None else {
            "prompt": step.prompt, "done": step.done, "summary": step.summary,
            "options": [dict(o.to_json(), mark=where[i]) for i, o in enumerate(step.options)]},
        "recordable": step is not None or over,
        "svg": svg, "moves": moves(record, address, names), "glyphs": list(GLYPHS),
        "grn": text,
    }


__all__ = ["board", "markup_of", "moves", "state_view"]
