"""The machine-readable evaluation that ``grn analyse`` writes in a move's comment.

``{[%eval played=+3.2±1.1 best=+7.4±1.0 lost=4.2 judgement=mistake]}``:
the expected final margin (points, for the player who moved) after the
played move and after the best move found, each with one standard error;
the points lost (best - played); only when the move was judged, the
judgement; and, only when the loss's interval still held a severe threshold
after the confirmation's cap (R275), ``near=mistake`` or ``near=blunder``.
Where the game gives win chances (R333), ``win=62/70`` follows the loss: the
chance to place first after the move played and after the best move, in
percent (``{[%eval played=+3.2±1.1 best=+7.4±1.0 lost=4.2 win=62/70]}``);
and where it measures the luck of the draw (R336), ``luck=+1.5``: the tile
drawn against what the bag held, in points of expected final margin.
One decimal; a margin always carries its sign.  The form follows lichess's
``[%eval ...]`` command in PGN comments (docs/notation.md, "Evaluation
comments").  :func:`write_eval` writes it, :func:`parse_eval`
reads it back from a comment's text (``+-`` is read as ``±`` too).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: The judgements, mildest first, and the glyph each puts on the move.
JUDGEMENTS: tuple[str, ...] = ("inaccuracy", "mistake", "blunder")
GLYPHS: dict[str, str] = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}

_NUMBER = r"[+-]?\d+(?:\.\d+)?"
_EVAL = re.compile(
    r"\[%eval played=(?P<played>[+-]\d+(?:\.\d+)?)(?:±|\+-)(?P<played_se>\d+(?:\.\d+)?)"
    r" best=(?P<best>[+-]\d+(?:\.\d+)?)(?:±|\+-)(?P<best_se>\d+(?:\.\d+)?)"
    r" lost=(?P<lost>" + _NUMBER + r")"
    r"(?: win=(?P<win>\d{1,3})/(?P<win_best>\d{1,3}))?"
    r"(?: luck=(?P<luck>[+-]\d+(?:\.\d+)?))?"
    r"(?: judgement=(?P<judgement>[a-z]+))?(?: near=(?P<near>[a-z]+))?\]")
#: Any ``[%eval ...]`` command, well formed or not (what re-analysis replaces).
EVAL_COMMAND = re.compile(r"\[%eval[^\]]*\]")


@dataclass(frozen=True, slots=True)
class EvalNote:
    """One move's evaluation: margins in points for the player who moved, with one standard error each."""

    played: float
    played_se: float
    best: float
    best_se: float
    lost: float
    judgement: str | None = None
    #: The severe judgement the loss is near (R275), None when it is clear of every severe threshold.
    near: str | None = None
    #: The chance to place first after the move played and after the best move, 0 to 1 (R333); None: not given.
    win: float | None = None
    win_best: float | None = None
    #: The luck of the draw (R336), points of expected final margin; None: not measured.
    luck: float | None = None

    def __post_init__(self) -> None:
        if self.judgement is not None and self.judgement not in JUDGEMENTS:
            raise ValueError(f"unknown judgement {self.judgement!r}: one of {', '.join(JUDGEMENTS)}")
        if self.near is not None and self.near not in JUDGEMENTS[1:]:
            raise ValueError(f"unknown near judgement {self.near!r}: one of {', '.join(JUDGEMENTS[1:])}")

    @property
    def glyph(self) -> str | None:
        """The annotation glyph of the judgement (``?!``, ``?``, ``??``), None when not judged."""
        return GLYPHS[self.judgement] if self.judgement else None


def _signed(x: float) -> str:
    text = f"{x:+.1f}"
    return "+0.0" if text == "-0.0" else text


def _plain(x: float) -> str:
    text = f"{x:.1f}"
    return "0.0" if text == "-0.0" else text


def write_eval(note: EvalNote) -> str:
    """The ``[%eval ...]`` command of ``note`` (without the braces of the comment)."""
    text = (f"[%eval played={_signed(note.played)}±{_plain(note.played_se)} "
            f"best={_signed(note.best)}±{_plain(note.best_se)} lost={_plain(note.lost)}")
    if note.win is not None and note.win_best is not None:
        text += f" win={round(100 * note.win)}/{round(100 * note.win_best)}"
    if note.luck is not None:
        text += f" luck={_signed(note.luck)}"
    if note.judgement:
        text += f" judgement={note.judgement}"
    if note.near:
        text += f" near={note.near}"
    return text + "]"


def parse_eval(text: str) -> EvalNote | None:
    """The evaluation in a comment's text (None: the comment holds none).

    Raises ValueError for an ``[%eval ...]`` command that is not of this form.
    """
    if "[%eval" not in text:
        return None
    m = _EVAL.search(text)
    if m is None:
        bad = EVAL_COMMAND.search(text)
        raise ValueError(f"malformed evaluation {bad.group(0) if bad else text!r}: expected "
                         "[%eval played=+N.N±N.N best=+N.N±N.N lost=N.N win=N/N luck=+N.N judgement=WORD near=WORD]")
    if m["judgement"] is not None and m["judgement"] not in JUDGEMENTS:
        raise ValueError(f"evaluation with unknown judgement {m['judgement']!r}: one of {', '.join(JUDGEMENTS)}")
    if m["near"] is not None and m["near"] not in JUDGEMENTS[1:]:
        raise ValueError(f"evaluation with unknown near judgement {m['near']!r}: one of {', '.join(JUDGEMENTS[1:])}")
    win = None if m["win"] is None else int(m["win"]) / 100
    win_best = None if m["win_best"] is None else int(m["win_best"]) / 100
    if (win is not None and win > 1) or (win_best is not None and win_best > 1):
        raise ValueError(f"evaluation with a win chance over 100%: {m.group(0)!r}")
    return EvalNote(float(m["played"]), float(m["played_se"]), float(m["best"]), float(m["best_se"]),
                    float(m["lost"]), m["judgement"], m["near"], win, win_best,
                    None if m["luck"] is None else float(m["luck"]))


__all__ = ["EvalNote", "write_eval", "parse_eval", "JUDGEMENTS", "GLYPHS", "EVAL_COMMAND"]
