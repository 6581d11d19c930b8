"""An analysed record's review, read back from its own text (what ``grn analyse --format grn`` wrote).

Nothing is analysed again: every turn's figures come from its ``[%eval ...]``
comment (:func:`grn.analysis.evalnote.parse_eval`), the best move from the
``({[%best]} ...)`` variation :mod:`grn.analysis.annotate` writes after a judged move,
and each player's summary is worked out from those figures with the formulas
of :mod:`grn.analysis.judge` (average points lost, accuracy, counts).  The viewer
(:mod:`grn.render.viewer`), ``grn render --best`` and the archive read records
through here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from grn.rules import registry
from grn.analysis.judge import PlayerSummary, accuracy, ruleset_thresholds
from grn.analysis.annotate import BEST_MARK
from grn.analysis.evalnote import EVAL_COMMAND, JUDGEMENTS, EvalNote, parse_eval
from grn.core.record import Comment, Record, Seat, Turn, Variation

if TYPE_CHECKING:
    from grn.core.record import Command
    from grn.rules.ruleset import Ruleset


class ReviewError(ValueError):
    """A malformed evaluation comment; ``span`` is where it was written (None when unknown)."""

    def __init__(self, message: str, span: Any = None) -> None:
        super().__init__(message)
        self.message = message
        self.span = span


@dataclass(frozen=True, slots=True)
class ReviewedTurn:
    """One analysed main-line turn: its number, its player, the evaluation, and the best move (its actions,
    only when the record writes it: a judged move whose best move can be written)."""

    number: int
    player: str
    note: EvalNote
    best: tuple[Any, ...] = ()

    def __repr__(self) -> str:
        judged = f" {self.note.judgement}" if self.note.judgement else ""
        return f"<ReviewedTurn {self.number} {self.player} lost={self.note.lost:.1f}{judged}>"


@dataclass(frozen=True, slots=True)
class Review:
    """What an analysed record says: its analysed turns (main line, in order) and each player's summary."""

    turns: tuple[ReviewedTurn, ...]
    players: tuple[PlayerSummary, ...]

    def turn(self, number: int) -> ReviewedTurn | None:
        """The analysed turn ``number`` of the main line (None: that turn holds no evaluation)."""
        return next((t for t in self.turns if t.number == number), None)

    def __repr__(self) -> str:
        return f"<Review {len(self.turns)} turns, {len(self.players)} players>"


def eval_comment(comment: Comment) -> bool:
    """Whether ``comment`` is an evaluation an analysis wrote (the viewer tells it in words instead)."""
    return EVAL_COMMAND.search(comment.text) is not None


def is_best_variation(variation: Variation) -> bool:
    """Whether ``variation`` is the best move an analysis wrote (its first note is ``{[%best]}``)."""
    return any(isinstance(n, Comment) and n.text.strip() == BEST_MARK for n in variation.intro[:1])


def turn_note(turn: Turn) -> EvalNote | None:
    """The evaluation written on ``turn`` (None: none).  Raises :class:`ReviewError` for a malformed one."""
    for c in turn.comments:
        try:
            note = parse_eval(c.text)
        except ValueError as exc:
            raise ReviewError(str(exc), c.span) from None
        if note is not None:
            return note
    return None


def best_actions(turn: Turn) -> tuple[Command, ...]:
    """The actions of the best move the analysis wrote after ``turn`` (empty: none written)."""
    for v in turn.variations:
        if is_best_variation(v) and v.turns:
            return tuple(v.turns[0].actions)
    return ()


def player_summaries(turns: tuple[ReviewedTurn, ...], seats: list[Seat], scale: float) -> tuple[PlayerSummary, ...]:
    """Each seated player's summary of the analysed ``turns`` (``scale``: the accuracy's, the game's mistake
    threshold); judgements are counted as the record writes them."""
    out = []
    for seat in seats:
        own = [t.note for t in turns if t.player in seat.colours]
        losses = [n.lost for n in own]
        counts = {j: sum(1 for n in own if n.judgement == j) for j in JUDGEMENTS}
        out.append(PlayerSummary(seat.key, len(own), sum(losses) / len(losses) if losses else 0.0,
                                 accuracy(losses, scale), counts["inaccuracy"], counts["mistake"], counts["blunder"]))
    return tuple(out)


def read_review(record: Record, seats: list[Seat] | None = None, ruleset: Ruleset | None = None) -> Review | None:
    """The review written in ``record`` (None: the record holds no evaluation, it is not analysed).

    ``seats`` default to the Players tag's; ``ruleset`` gives the accuracy's scale (the game's mistake
    threshold, :func:`grn.analysis.judge.ruleset_thresholds`).  Raises :class:`ReviewError` for a malformed
    evaluation comment.
    """
    turns = []
    for t in record.turns:
        if t.number <= 0:
            continue
        note = turn_note(t)
        if note is not None:
            turns.append(ReviewedTurn(t.number, t.player, note, best_actions(t)))
    if not turns:
        return None
    if seats is None:
        try:
            seats = record.seats()
        except ValueError:
            seats = []
    if ruleset is None:
        ruleset = registry.find_ruleset(record.game)
    scale = ruleset_thresholds(ruleset).mistake
    done = tuple(turns)
    return Review(done, player_summaries(done, seats, scale))


__all__ = ["Review", "ReviewedTurn", "ReviewError", "read_review", "best_turn", "turn_note", "best_actions", "eval_comment",
           "is_best_variation", "player_summaries"]


def best_turn(record: Record, turn: str | None) -> ReviewedTurn:
    """The analysed main-line turn whose best move ``grn render --best`` draws: turn ``turn`` (a number), or,
    without one, the turn that lost the most points among those whose best move the record writes.

    Raises :class:`ReviewError` in plain words: the record is not analysed, the turn was not analysed, or
    the record writes no best move for it (the analysis writes one for a judged move only).
    """
    review = read_review(record)
    if review is None:
        raise ReviewError("the record is not analysed (no [%eval] comment): write one with "
                          "grn analyse FILE --format grn -o ANALYSED.grn")
    if turn is None:
        shown = [t for t in review.turns if t.best]
        if not shown:
            raise ReviewError("the analysis judged no move, so the record writes no best move to draw")
        return max(shown, key=lambda t: (t.note.lost, -t.number))
    if not turn.strip().isdigit():
        raise ReviewError(f"the best move is drawn on a turn of the main line: --turn takes a number, not {turn!r}")
    seen = review.turn(int(turn))
    if seen is None:
        raise ReviewError(f"turn {int(turn)} was not analysed (no [%eval] comment on it)")
    if not seen.best:
        said = ("the move played is the best found" if seen.note.lost <= 0 else
                f"the move was not judged (it lost {seen.note.lost:.1f} points)" if not seen.note.judgement else
                "its best move cannot be written")
        raise ReviewError(f"turn {seen.number}: the record writes no best move: {said}")
    return seen
