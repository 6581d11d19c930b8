"""Writing an analysis into a record's own text, leaving every other byte as it was.

After each analysed turn's last action goes one block: the judgement's glyph
(when judged), the ``{[%eval ...]}`` comment (:mod:`grn.analysis.evalnote`) and, for a
judged move whose best move can be written, the best move as a variation
whose first note is ``{[%best]}``:

    14. red 17@1,0:90 ? {[%eval played=+3.2±1.1 best=+7.4±1.0 lost=4.2 judgement=mistake]} ({[%best]} 14. red 33@2,0 +E)

Analysing an analysed record first takes out the blocks an analysis wrote
(an ``[%eval]`` comment of the main line, the glyph just before it and the
``[%best]`` variation just after it), so annotating is idempotent.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Sequence

from grn.analysis.judge import GameAnalysis, TurnAnalysis
from grn.analysis.evalnote import write_eval
from grn.core.record import Comment, Nag, Record, Turn, Variation
from grn.notation.writer import command_text

if TYPE_CHECKING:
    from grn.rules.ruleset import Ruleset

#: A block an analysis wrote: space, glyph, the [%eval] comment, and a [%best] variation (which holds no
#: comment but its mark, and no nested variation).
_BLOCK = re.compile(r"[ \t]?(?:(?:\?\?|\?!|\?)[ \t]+)?\{\[%eval[^}]*\}(?:[ \t]*\(\{\[%best\]\}[^(){};]*\))?")
#: Where an action word ends: white space, or the start of an extra.
_STOPS = set(" \t\r\n{(;)<!")
BEST_MARK = "[%best]"


def _offsets(text: str) -> list[int]:
    starts = [0]
    for i, ch in enumerate(text):
        if ch == "\n":
            starts.append(i + 1)
    return starts


def _action_end(text: str, start: int) -> int:
    i = start
    n = len(text)
    while i < n:
        ch = text[i]
        if ch in _STOPS:
            break
        if ch == "?" and i > start and text[i - 1] not in ",=":
            break  # a glyph written against the action; "?" after "=" or "," is an unknown face
        i += 1
    return i


def block_text(turn: Turn, analysis: TurnAnalysis, ruleset: Ruleset) -> str:
    """The annotation block written after ``turn``'s actions."""
    parts = []
    glyph = None if own_glyph(turn) else analysis.note.glyph
    if glyph:
        parts.append(glyph)
    parts.append("{" + write_eval(analysis.note) + "}")
    if analysis.judgement and analysis.best_actions:
        words = " ".join(command_text(c, ruleset) for c in analysis.best_actions)
        parts.append(f"({{{BEST_MARK}}} {turn.number}. {turn.player} {words})")
    return " " + " ".join(parts)


def annotate_text(text: str, first_line: int, record: Record, analysis: GameAnalysis, ruleset: Ruleset) -> str:
    """``text`` (one game, starting at line ``first_line``, as read into ``record``) with the analysis written in."""
    starts = _offsets(text)

    def offset(span: Any) -> int | None:
        if span is None:
            return None
        index = span.line - first_line
        if not 0 <= index < len(starts):
            return None
        return starts[index] + span.column - 1

    ours: set[int] = set()
    for turn in record.turns:
        for extra in turn.extras:
            if isinstance(extra, Comment) and not extra.line and "[%eval" in extra.text:
                at = offset(extra.span)
                if at is not None:
                    ours.add(at)
    edits: list[tuple[int, int, str]] = []
    for m in _BLOCK.finditer(text):
        brace = text.index("{", m.start())
        if brace in ours:
            edits.append((m.start(), m.end(), ""))
    by_turn = {t.turn: t for t in analysis.turns}
    for turn in record.turns:
        found = by_turn.get(turn.number)
        if found is None or turn.number == 0 or not turn.actions:
            continue
        at = offset(getattr(turn.actions[-1], "span", None))
        if at is None:
            continue
        end = _action_end(text, at)
        edits.append((end, end, block_text(turn, found, ruleset)))
    # from the end backwards; at one place the old block goes before the new one comes
    edits.sort(key=lambda e: (e[0], 0 if e[1] == e[0] and e[2] else 1), reverse=True)
    out = text
    for start, end, new in edits:
        out = out[:start] + new + out[end:]
    return out


def _is_ours(extras: Sequence[Any], i: int) -> bool:
    e = extras[i]
    if isinstance(e, Comment) and "[%eval" in e.text:
        return True
    if isinstance(e, Nag) and i + 1 < len(extras):
        nxt = extras[i + 1]
        return isinstance(nxt, Comment) and "[%eval" in nxt.text
    if isinstance(e, Variation) and i > 0:
        intro = e.intro
        return bool(intro) and isinstance(intro[0], Comment) and intro[0].text == BEST_MARK
    return False


def own_glyph(turn: Turn) -> bool:
    """Whether the turn holds a glyph of its annotator (not one an analysis wrote): the analysis's glyph is
    then left out, so that ``?!`` never stands beside the annotator's ``!`` (R359); its judgement stays in
    the ``[%eval]`` comment."""
    return any(isinstance(e, Nag) and not _is_ours(turn.extras, i) for i, e in enumerate(turn.extras))


def annotate_record(record: Record, analysis: GameAnalysis, ruleset: Ruleset) -> Record:
    """``record`` with the analysis as extras (for a record read from JSON, written out by the writer)."""
    by_turn = {t.turn: t for t in analysis.turns}
    turns = []
    for turn in record.turns:
        kept = tuple(e for i, e in enumerate(turn.extras) if not _is_ours(turn.extras, i))
        found = by_turn.get(turn.number)
        if found is not None and turn.number > 0:
            new: list[Any] = []
            if found.note.glyph and not own_glyph(turn):
                new.append(Nag(found.note.glyph))
            new.append(Comment(write_eval(found.note)))
            if found.judgement and found.best_actions:
                new.append(Variation((Turn(turn.number, turn.player, found.best_actions),), (Comment(BEST_MARK),)))
            kept = tuple(new) + kept
        turns.append(turn.replace(extras=kept))
    return record.replace(turns=tuple(turns))


__all__ = ["annotate_text", "annotate_record", "block_text", "BEST_MARK"]
