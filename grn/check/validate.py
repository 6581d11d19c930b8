"""Replaying records against the rules: every illegal action, every score.

:func:`validate_record` replays one game with its game's rules engine and
returns a :class:`GameReport`: the problems (each a
:class:`~grn.core.errors.Diagnostic` at the exact line and column, with the rule
broken, where it stands in the rules and what would have been legal), the
score events of every turn, and the final scores.

* An illegal action stops that line of play; the other games of the file and
  the other variations go on.
* Variations are replayed from the position before the turn they follow.
* Score checkpoints are compared with the engine's figures; the first turn
  where the record and the rules differ is named.
* The ``Result`` tag is compared with the final scores when the game is over.
* ``[End "now"]`` ends a record on purpose (a puzzle, a rules question): the
  final scoring is made after its last turn as if the game ended there.
"""

from __future__ import annotations

import re
from typing import Any, Final, Iterable, Protocol, Sequence

from grn.core.errors import Diagnostic, IllegalAction, Severity, Span
from grn.core import registry
from grn.rules.engine import Engine, Event
from grn.core.record import Checkpoint, Markup, MarkupText, Record, Seat, Turn, Variation
from grn.rules.ruleset import Ruleset, SetupProblem, engine_for
from grn.core.value import Struct, Value


class TurnReport(Value):
    """What one turn of the main line did: its events and the scores after it."""

    __slots__ = ("number", "player", "raw_events", "scores")
    _fields = ("number", "player", "raw_events", "scores")

    def __init__(self, number: int, player: str, raw_events: tuple[Any, ...], scores: dict[str, int]) -> None:
        self.number: Final = number
        self.player: Final = player
        self.raw_events: Final = raw_events
        self.scores: Final = scores

    def _key(self) -> tuple[object, ...]:
        return (self.number, self.player, self.raw_events, self.scores)

    @property
    def events(self) -> tuple[str, ...]:
        """The events as short sentences (described only when asked: validating stays quick)."""
        return tuple(describe_events(self.raw_events))


class GameReport(Struct):
    """The outcome of validating one game (filled in as the game is replayed).

    ``final_raw_events``: the final scoring's engine events themselves (kept with the turns:
    ``keep_turns``), for the archive.
    """

    __slots__ = ("index", "file", "game", "tags", "diagnostics", "turns", "final_events", "final_scores",
                 "complete", "turns_played", "notes", "final_raw_events")
    _fields = ("index", "file", "game", "tags", "diagnostics", "turns", "final_events", "final_scores",
               "complete", "turns_played", "notes", "final_raw_events")

    def __init__(self, index: int, file: str | None, game: str, tags: tuple[tuple[str, str], ...],
                 diagnostics: list[Diagnostic] | None = None, turns: list[TurnReport] | None = None,
                 final_events: list[str] | None = None, final_scores: dict[str, int] | None = None,
                 complete: bool = False, turns_played: int = 0, notes: list[str] | None = None,
                 final_raw_events: tuple[Any, ...] = ()) -> None:
        self.index = index
        self.file = file
        self.game = game
        self.tags = tags
        # a new list each (what a dataclass's default_factory did)
        self.diagnostics: list[Diagnostic] = [] if diagnostics is None else diagnostics
        self.turns: list[TurnReport] = [] if turns is None else turns
        self.final_events: list[str] = [] if final_events is None else final_events
        self.final_scores = final_scores
        self.complete = complete
        self.turns_played = turns_played
        self.notes: list[str] = [] if notes is None else notes
        self.final_raw_events = final_raw_events

    @property
    def valid(self) -> bool:
        """True when nothing is wrong (warnings allowed)."""
        return not any(d.severity == "error" for d in self.diagnostics)

    def to_json(self) -> dict[str, Any]:
        """The report as plain data for ``--format json``."""
        return {
            "index": self.index + 1,  # numbered from 1, as grn render --game numbers games
            "game": self.game,
            "tags": [list(t) for t in self.tags],
            "valid": self.valid,
            "complete": self.complete,
            "turns_played": self.turns_played,
            "final_scores": self.final_scores,
            "diagnostics": [d.to_json() for d in self.diagnostics],
            "turns": [{"number": t.number, "player": t.player, "events": list(t.events),
                       "scores": t.scores} for t in self.turns],
            "final_events": self.final_events,
            "notes": self.notes,
        }


class TurnObserver(Protocol):
    """What :func:`validate_record` tells a caller's observer as it replays the main line (the archive
    keeps its facts this way, without a :class:`TurnReport` a turn)."""

    def turn(self, number: int, events: list[Any]) -> None:
        """A main-line turn was played legally: its number and the engine's events (the list is the caller's
        to read now, not to keep)."""

    def final(self, events: list[Any]) -> None:
        """The game is over: the final scoring's events (not called for a record that stops early or ends
        with ``[End "now"]``)."""


_RESULT_RE = re.compile(r"^\s*([a-z][a-z0-9_]*)\s*[:=]?\s*(-?\d+)\s*$")


def parse_result(value: str) -> dict[str, int]:
    """Read a ``Result`` tag: ``"red 61, blue 58"`` -> ``{"red": 61, "blue": 58}``."""
    out: dict[str, int] = {}
    for part in value.split(","):
        words = part.split()
        if not words:
            continue
        if len(words) == 2 and _plain_name(words[0]) and _plain_score(words[1]):
            # "red 61", as every record writes it: what the pattern below reads, without it (five calls a seat)
            out[words[0]] = int(words[1])
            continue
        m = _RESULT_RE.match(part)
        if not m:
            raise ValueError(f"cannot read {part.strip()!r}: write the result as \"red 61, blue 58\"")
        if len(m.group(2).lstrip("-")) > 9:
            raise ValueError(f"cannot read {part.strip()[:30]!r}: a score has at most 9 digits")
        out[m.group(1)] = int(m.group(2))
    return out


def _plain_name(word: str) -> bool:
    """``[a-z][a-z0-9_]*`` (ASCII), as :data:`_RESULT_RE` reads a seat."""
    if not word or not ("a" <= word[0] <= "z"):
        return False
    for c in word:
        if not ("a" <= c <= "z" or "0" <= c <= "9" or c == "_"):
            return False
    return True


def _plain_score(word: str) -> bool:
    """An optional minus and one to nine ASCII digits: a score :data:`_RESULT_RE` reads and accepts."""
    digits = word[1:] if word.startswith("-") else word
    return 0 < len(digits) <= 9 and digits.isascii() and digits.isdigit()


def _describe(event: Any) -> str:
    return event.describe().rstrip(".") if isinstance(event, Event) else repr(event)


def describe_events(events: Sequence[Any]) -> list[str]:
    """The events in words, those that score 0 points folded into one line at the end (a final scoring
    lists every unfinished feature; a reader wants the ones that count)."""
    out: list[str] = []
    nothing: list[str] = []
    for e in events:
        said = e.nothing_for() if isinstance(e, Event) else None
        if said is not None:
            nothing.append(said)
        else:
            out.append(_describe(e))
    if nothing:
        out.append("no points for " + ", ".join(nothing))
    return out


def markup_problem(m: Markup, ruleset: Ruleset, engine: Engine) -> str | None:
    """What is wrong with one piece of diagram markup in this game, if anything.

    The envelope's part is checked here (argument counts, text, colours); what
    a place or a ghost may be is the ruleset's (:meth:`Ruleset.target_problem`,
    :meth:`Ruleset.ghost_problem`).
    """
    from grn.core.record import is_markup_colour

    words = [a for a in m.args if isinstance(a, str)]
    texts = [a for a in m.args if isinstance(a, MarkupText)]
    if m.kind == "label":
        if len(texts) != 1 or not isinstance(m.args[-1], MarkupText):
            return '<label> takes a place and a "text"'
    elif texts:
        return f'<{m.kind}> takes no "text"'
    if m.kind == "ghost":
        return ruleset.ghost_problem(" ".join(words), engine)
    places = {"highlight": 1, "arrow": 2, "label": 1}[m.kind]
    targets, rest = words[:places], words[places:]
    if len(targets) < places:
        return f"<{m.kind}> needs {places} place{'s' if places > 1 else ''}"
    for t in targets:
        problem = ruleset.target_problem(m.kind, t, engine)
        if problem:
            return problem
    for word in rest:
        if not is_markup_colour(word):
            return f"<{m.kind}>: {word!r} is not a colour (a player colour, a few names, or #rrggbb)"
    return None


class _Replay:
    """Replays one record: the engine adapters and the per-line walk."""

    def __init__(self, record: Record, report: GameReport, ruleset: Ruleset, tileset: Any = None,
                 keep_turns: bool = True, observer: Any = None) -> None:
        self.record = record
        self.observer = observer
        self.ruleset = ruleset
        self.report = report
        self.tileset = tileset
        self.keep_turns = keep_turns
        self.file = report.file
        self.seats: list[Seat] = []
        self.keys: dict[str, str] = {}  # any colour a player owns -> the player's key

    # -- diagnostics ---------------------------------------------------
    def error(self, message: str, span: Span | None, *, turn: Turn | None = None, code: str = "error",
              rule: str | None = None, section: str | None = None, hint: str | None = None,
              severity: Severity = "error", notes: tuple[str, ...] = ()) -> None:
        self.report.diagnostics.append(Diagnostic(
            message, span, self.file, severity=severity, code=code,
            game=self.report.index, turn=turn.number if turn else None,
            player=turn.player if turn else None, rule=rule, section=section, hint=hint, notes=notes))

    # -- set-up --------------------------------------------------------
    def player_key(self, word: str) -> str:
        return self.keys.get(word, word)

    # -- replay --------------------------------------------------------
    def play_line(self, engine: Engine, turns: Iterable[Turn], *, main: bool, first: int = 1) -> bool:
        """Replay ``turns`` on ``engine`` (mutated); False when an illegal action stopped the line."""
        # A line starts at turn 1 (a variation: at the turn it replaces) and runs without gaps.
        expected_number = first
        checkpoint_failed = False
        keys = self.keys
        report = self.report
        keep = main and self.keep_turns
        for turn in turns:
            if turn.number == 0:
                if not self.setup_turn(engine, turn):
                    return False
                continue
            if turn.number != expected_number:
                self.error(f"turn number {turn.number} where {expected_number} was expected", turn.span,
                           turn=turn, code="turn-number")
            expected_number = turn.number + 1
            extras = turn.extras
            if extras:
                for var in turn.variations:
                    self.play_variation(engine, turn, var)
            player = keys.get(turn.player, turn.player)
            try:
                events = engine.play_turn(player, turn.actions)
            except IllegalAction as exc:
                self.error(exc.message, exc.span or turn.span, turn=turn, code=exc.code, rule=exc.rule,
                           section=exc.section, hint=exc.hint)
                return False
            if main:
                report.turns_played += 1
                if keep:
                    report.turns.append(TurnReport(turn.number, player, tuple(events), engine.scores))
                if self.observer is not None:  # a caller's own record of the main line (TurnObserver)
                    self.observer.turn(turn.number, events)
            if extras and not checkpoint_failed:
                cp = turn.checkpoint
                if cp is not None:
                    checkpoint_failed = not self.check_checkpoint(engine, turn, cp, events)
        return True

    def play_variation(self, engine: Engine, turn: Turn, var: Variation) -> None:
        branch = engine.copy()
        self.play_line(branch, var.turns, main=False, first=turn.number)

    def setup_turn(self, engine: Engine, turn: Turn) -> bool:
        try:
            engine.setup(self.player_key(turn.player), turn.actions)
            cp = turn.checkpoint
            if cp is not None:
                engine.set_scores({self.player_key(p): s for p, s in cp.scores})
        except IllegalAction as exc:
            self.error(exc.message, exc.span or turn.span, turn=turn, code=exc.code, rule=exc.rule,
                       section=exc.section, hint=exc.hint)
            return False
        return True

    def check_checkpoint(self, engine: Engine, turn: Turn, cp: Checkpoint, events: list[Any]) -> bool:
        scores = engine.scores
        wrong = []
        named: set[str] = set()
        for who, pts in cp.scores:
            key = self.player_key(who)
            if key in named:
                self.error(f"score checkpoint names {who!r} twice", cp.span, turn=turn, code="checkpoint")
                return False
            named.add(key)
            if key not in scores:
                self.error(f"score checkpoint names {who!r}, who is not playing", cp.span, turn=turn,
                           code="checkpoint")
                return False
            if scores[key] != pts:
                wrong.append(f"{who} {pts} (the rules give {scores[key]})")
        if wrong:
            said = [f"turn {turn.number}: {d}" for d in describe_events(events)] or [f"turn {turn.number} scored nothing"]
            self.error("score checkpoint differs from the rules: " + ", ".join(wrong)
                       + "; this is the first turn where the record and the rules differ",
                       cp.span, turn=turn, code="checkpoint", notes=tuple(said))
            return False
        return True

    def finish(self, engine: Engine) -> None:
        end = self.record.tag("End")
        if end is not None and end.strip() != "now":
            self.error(f'End tag: {end.strip()!r} is not a way to end a record: write [End "now"] to score it '
                       "as if the game ended there", self.record.tag_span("End"), code="tags")
        elif end is not None and not engine.is_over:
            # a puzzle or a rules question ends on purpose: score it as if the game ended after its last turn
            self.report.notes.append('the record ends here on purpose ([End "now"]): final scoring as at the end '
                                     "of the game")
            self.report.final_events = describe_events(engine.final_scoring())
            self.report.final_scores = dict(engine.scores)
            self.check_result(engine)
            return
        if not engine.is_over:
            self.report.notes.append("the record stops before the end of the game")
            blocked = engine.blocked_note()
            if blocked:
                self.report.notes.append(blocked)
            if self.read_result() is not None:
                self.error("the Result tag was not checked: the record stops before the end of the game",
                           self.record.tag_span("Result"), code="incomplete", severity="warning")
            self.report.final_scores = dict(engine.scores)
            return
        self.report.complete = True
        events = engine.final_scoring()
        self.report.final_events = describe_events(events)
        if self.keep_turns:
            self.report.final_raw_events = tuple(events)
        if self.observer is not None:
            self.observer.final(events)
        self.report.final_scores = dict(engine.scores)
        self.check_result(engine)

    def read_result(self) -> dict[str, int] | None:
        """The Result tag's scores (None when absent or unreadable, which is reported)."""
        value = self.record.tag("Result")
        if value is None:
            return None
        span = self.record.tag_span("Result")
        try:
            claimed = parse_result(value)
        except ValueError as exc:
            self.error(f"Result tag: {exc}", span, code="result")
            return None
        named = {self.player_key(who) for who in claimed}
        missing = [s.key for s in self.seats if s.key not in named]
        if missing:
            self.error(f"Result tag leaves out {', '.join(missing)}: write every player's final score",
                       span, code="result")
            return None
        return claimed

    def check_result(self, engine: Engine) -> None:
        claimed = self.read_result()
        if claimed is None:
            return
        bounds = engine.score_ranges()
        wrong = []
        for who, pts in claimed.items():
            key = self.player_key(who)
            if key not in bounds:
                self.error(f"Result tag names {who!r}, who is not playing", self.record.tag_span("Result"), code="result")
                return
            low, high = bounds[key]
            if not low <= pts <= high:
                rules = str(low) if low == high else f"{low} to {high} (some token faces are unknown)"
                wrong.append(f"{who} {pts} (the rules give {rules})")
        if wrong:
            self.error("Result tag differs from the final scoring: " + ", ".join(wrong), self.record.tag_span("Result"),
                       code="result")

    def check_markup(self, engine: Engine) -> None:
        """Every piece of diagram markup, main line and variations, against this game's board."""
        record = self.record
        if not any(isinstance(e, (Markup, Variation)) for t in record.turns for e in t.extras) and not record.intro:
            return  # most records have none (and a plain method, not a closure: no reference cycle per game)
        self._check_notes(record.intro, None, engine)
        for t in record.turns:
            self._check_notes(t.extras, t, engine)

    def _check_notes(self, notes: Iterable[Any], turn: Turn | None, engine: Engine) -> None:
        for n in notes:
            if isinstance(n, Markup):
                problem = markup_problem(n, self.ruleset, engine)
                if problem:
                    self.error(problem, n.span, turn=turn, code="markup")
            elif isinstance(n, Variation):
                self._check_notes(n.intro, None, engine)
                for t in n.turns:
                    self._check_notes(t.extras, t, engine)

    def run(self) -> None:
        games = [span for (name, _), span in zip(self.record.tags, self.record.tag_spans) if name == "Game"]
        if len(games) > 1:
            self.error("the Game tag is given twice: a game has one ruleset", games[1], code="tags")
        try:
            self.seats = self.ruleset.seats(self.record)
            self.keys = {c: s.key for s in self.seats for c in s.colours}
            engine = engine_for(self.ruleset, self.record, self.seats, self.tileset)
        except SetupProblem as exc:
            self.error(exc.message, self.record.tag_span(exc.tag or "Game"), code=exc.code,
                       rule=exc.rule, section=exc.section)
            return
        self.check_markup(engine)
        for tag, message in self.ruleset.header_warnings(self.record, engine):
            self.error(message, self.record.tag_span(tag), code=tag.lower(), severity="warning")
        if not self.play_line(engine, self.record.turns, main=True):
            self.report.final_scores = dict(engine.scores)
            return
        self.finish(engine)


def validate_record(record: Record, *, file: str | None = None, index: int = 0,
                    tileset: Any = None, keep_turns: bool = True, observer: TurnObserver | None = None) -> GameReport:
    """Replay one record against its game's rules and report what is wrong.

    ``keep_turns=False`` leaves out the per-turn events and scores of the
    report (``report.turns``) when only the verdict is wanted: a little quicker.
    ``observer`` is told each turn's engine events as the main line is replayed, without a report a turn.
    """
    report = GameReport(index, file, record.game, record.tags)
    report.diagnostics.extend(record.diagnostics)
    if not record.ok:
        return report
    try:
        ruleset = registry.find_ruleset(record.game)
    except registry.UnknownGame as exc:
        report.diagnostics.append(Diagnostic(str(exc), record.tag_span("Game"), file, code="unknown-game",
                                             game=index))
        return report
    _Replay(record, report, ruleset, tileset, keep_turns, observer).run()
    # in the order of the text (a variation is replayed before the turn it follows)
    report.diagnostics.sort(key=lambda d: (0, d.span.line, d.span.column) if d.span else (1, 0, 0))
    return report
