"""Replaying records against the rules: every illegal action, every score.

:func:`validate_record` replays one game with its game's rules engine and
returns a :class:`GameReport`: the problems (each a
:class:`~grn.errors.Diagnostic` at the exact line and column, with the rule
broken, where it stands in the rules and what would have been legal), the
score events of every turn, and the final scores.

* An illegal action stops that line of play; the other games of the file and
  the other variations go on.
* Variations are replayed from the position before the turn they follow.
* Score checkpoints are compared with the engine's figures; the first turn
  where the record and the rules differ is named.
* The ``Result`` tag is compared with the final scores when the game is over.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterable

from grn.errors import Diagnostic, IllegalAction, Severity, Span
from grn.games import Engine, SetupProblem, new_engine, player_key, seats_of
from grn.record import Checkpoint, Markup, MarkupText, Record, Seat, Turn, Variation
from grn.value import reduce_dataclass


@dataclass(frozen=True, slots=True)
class TurnReport:
    """What one turn of the main line did: its events and the scores after it."""

    number: int
    player: str
    raw_events: tuple[Any, ...]
    scores: dict[str, int]

    @property
    def events(self) -> tuple[str, ...]:
        """The events as short sentences (described only when asked: validating stays quick)."""
        return tuple(_describe(e) for e in self.raw_events)

    def __reduce__(self) -> tuple[Any, ...]:
        return reduce_dataclass(self)


@dataclass(slots=True)
class GameReport:
    """The outcome of validating one game."""

    index: int
    file: str | None
    game: str
    tags: tuple[tuple[str, str], ...]
    diagnostics: list[Diagnostic] = field(default_factory=list)
    turns: list[TurnReport] = field(default_factory=list)
    final_events: list[str] = field(default_factory=list)
    final_scores: dict[str, int] | None = None
    complete: bool = False
    turns_played: int = 0
    notes: list[str] = field(default_factory=list)
    #: The final scoring's engine events themselves (kept with the turns: ``keep_turns``), for the archive.
    final_raw_events: tuple[Any, ...] = ()

    @property
    def valid(self) -> bool:
        """True when nothing is wrong (warnings allowed)."""
        return not any(d.severity == "error" for d in self.diagnostics)

    def to_json(self) -> dict[str, Any]:
        """The report as plain data for ``--format json``."""
        return {
            "index": self.index,
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

    def __reduce__(self) -> tuple[Any, ...]:
        return reduce_dataclass(self)


_RESULT_RE = re.compile(r"^\s*([a-z][a-z0-9_]*)\s*[:=]?\s*(-?\d+)\s*$")


def parse_result(value: str) -> dict[str, int]:
    """Read a ``Result`` tag: ``"red 61, blue 58"`` -> ``{"red": 61, "blue": 58}``."""
    out: dict[str, int] = {}
    for part in value.split(","):
        if not part.strip():
            continue
        m = _RESULT_RE.match(part)
        if not m:
            raise ValueError(f"cannot read {part.strip()!r}: write the result as \"red 61, blue 58\"")
        out[m.group(1)] = int(m.group(2))
    return out


def _describe(event: Any) -> str:
    describe = getattr(event, "describe", None)
    return describe().rstrip(".") if callable(describe) else repr(event)


#: Which tag a set-up problem is about (its code -> the tag to point at).
_TAG_OF_PROBLEM = {"players": "Players", "options": "Options", "layout": "Layout"}


_TILE_TARGET = re.compile(r"^-?\d+,-?\d+(?::([A-Z]+))?$")
_GHOST = re.compile(r"^([A-Za-z0-9_]+)@-?\d+,-?\d+(?::(\d+))?$")


def markup_problem(m: Markup, game: str, tiles: frozenset[str], positions: frozenset[str]) -> str | None:
    """What is wrong with one piece of diagram markup in this game, if anything.

    Tile games name tiles ``x,y`` (a feature ``x,y:PLACE``), the card game names
    layout positions; colours are player colours, a few names or ``#hex``.
    """
    from grn.commands import LOCATIONS, ROTATIONS
    from grn.record import is_markup_colour

    words = [a for a in m.args if isinstance(a, str)]
    texts = [a for a in m.args if isinstance(a, MarkupText)]
    if m.kind == "label":
        if len(texts) != 1 or not isinstance(m.args[-1], MarkupText):
            return '<label> takes a place and a "text"'
    elif texts:
        return f'<{m.kind}> takes no "text"'
    if m.kind == "ghost":
        if game == "gold":
            return "<ghost> shows a tile: the card game has none"
        g = _GHOST.match(words[0]) if words else None
        if g is None:
            return f"<ghost {' '.join(words)}>: write a placement such as 17@2,0:90"
        if tiles and g.group(1) not in tiles:
            return f"<ghost>: there is no tile {g.group(1)} in the tile set"
        if g.group(2) is not None and int(g.group(2)) not in ROTATIONS:
            return f"<ghost>: rotation {g.group(2)} is not one of 0, 90, 180, 270"
        return None
    places = {"highlight": 1, "arrow": 2, "label": 1}[m.kind]
    targets, rest = words[:places], words[places:]
    if len(targets) < places:
        return f"<{m.kind}> needs {places} place{'s' if places > 1 else ''}"
    for t in targets:
        if game == "gold":
            if t not in positions:
                return f"<{m.kind}>: {t!r} is not a position of the layout"
        else:
            tm = _TILE_TARGET.match(t)
            if tm is None:
                return f"<{m.kind}>: {t!r} is not a tile x,y (or a feature x,y:PLACE)"
            if tm.group(1) is not None and tm.group(1) not in LOCATIONS:
                return f"<{m.kind}>: {tm.group(1)!r} is not a place on a tile: use one of {' '.join(LOCATIONS)}"
    for word in rest:
        if not is_markup_colour(word):
            return f"<{m.kind}>: {word!r} is not a colour (a player colour, a few names, or #rrggbb)"
    return None


class _Replay:
    """Replays one record: the engine adapters and the per-line walk."""

    def __init__(self, record: Record, report: GameReport, tileset: Any = None, keep_turns: bool = True) -> None:
        self.record = record
        self.report = report
        self.tileset = tileset
        self.keep_turns = keep_turns
        self.file = report.file
        self.seats: list[Seat] = []
        self.keys: dict[str, str] = {}  # any colour a player owns -> the player's key

    # -- diagnostics ---------------------------------------------------
    def error(self, message: str, span: Span | None, *, turn: Turn | None = None, code: str = "error",
              rule: str | None = None, section: str | None = None, hint: str | None = None,
              severity: Severity = "error") -> None:
        self.report.diagnostics.append(Diagnostic(
            message, span, self.file, severity=severity, code=code,
            game=self.report.index, turn=turn.number if turn else None,
            player=turn.player if turn else None, rule=rule, section=section, hint=hint))

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
            if extras and not checkpoint_failed:
                cp = turn.checkpoint
                if cp is not None:
                    checkpoint_failed = not self.check_checkpoint(engine, turn, cp)
        return True

    def play_variation(self, engine: Engine, turn: Turn, var: Variation) -> None:
        branch = engine.copy()
        self.play_line(branch, var.turns, main=False, first=turn.number)

    def setup_turn(self, engine: Engine, turn: Turn) -> bool:
        setup = getattr(engine, "setup", None)
        if setup is None:
            self.error("this game has no set-up turns (turn 0)", turn.span, turn=turn, code="setup")
            return False
        try:
            setup(self.player_key(turn.player), turn.actions)
        except IllegalAction as exc:
            self.error(exc.message, exc.span or turn.span, turn=turn, code=exc.code, rule=exc.rule,
                       section=exc.section, hint=exc.hint)
            return False
        cp = turn.checkpoint
        if cp is not None:
            set_scores = getattr(engine, "set_scores", None)
            if set_scores is not None:
                set_scores({self.player_key(p): s for p, s in cp.scores})
        return True

    def check_checkpoint(self, engine: Engine, turn: Turn, cp: Checkpoint) -> bool:
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
            self.error("score checkpoint differs from the rules: " + ", ".join(wrong)
                       + "; this is the first turn where the record and the rules differ",
                       cp.span, turn=turn, code="checkpoint")
            return False
        return True

    def finish(self, engine: Engine) -> None:
        if not engine.is_over:
            self.report.notes.append("the record stops before the end of the game")
            if getattr(engine, "is_blocked", False):
                self.report.notes.append(
                    "the table can no longer change: no pair of face-down cards can leave, so the "
                    "game cannot end (see docs/rulings.md)")
            if self.read_result() is not None:
                self.error("the Result tag was not checked: the record stops before the end of the game",
                           self.record.tag_span("Result"), code="incomplete", severity="warning")
            self.report.final_scores = dict(engine.scores)
            return
        self.report.complete = True
        final = getattr(engine, "final_scoring", None)
        if final is not None:
            events = final()
            self.report.final_events = [_describe(e) for e in events]
            if self.keep_turns:
                self.report.final_raw_events = tuple(events)
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
        ranges = getattr(engine, "score_ranges", None)
        bounds: dict[str, tuple[int, int]] = ranges() if callable(ranges) else {
            p: (s, s) for p, s in engine.scores.items()}
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
        game = record.game
        tiles: frozenset[str] = frozenset()
        positions: frozenset[str] = frozenset()
        if game == "gold":
            positions = frozenset(getattr(engine, "positions", ()) or ())
        else:
            tileset = getattr(engine, "tileset", None)
            if tileset is not None:
                tiles = frozenset(t.id for t in tileset.tiles)
        self._check_notes(record.intro, None, game, tiles, positions)
        for t in record.turns:
            self._check_notes(t.extras, t, game, tiles, positions)

    def _check_notes(self, notes: Iterable[Any], turn: Turn | None, game: str, tiles: frozenset[str],
                     positions: frozenset[str]) -> None:
        for n in notes:
            if isinstance(n, Markup):
                problem = markup_problem(n, game, tiles, positions)
                if problem:
                    self.error(problem, n.span, turn=turn, code="markup")
            elif isinstance(n, Variation):
                self._check_notes(n.intro, None, game, tiles, positions)
                for t in n.turns:
                    self._check_notes(t.extras, t, game, tiles, positions)

    def run(self) -> None:
        games = [span for (name, _), span in zip(self.record.tags, self.record.tag_spans) if name == "Game"]
        if len(games) > 1:
            self.error("the Game tag is given twice: a game has one ruleset", games[1], code="tags")
        try:
            self.seats = seats_of(self.record)
            self.keys = {c: s.key for s in self.seats for c in s.colours}
            engine = new_engine(self.record, self.seats, self.tileset)
        except SetupProblem as exc:
            self.error(exc.message, self.record.tag_span(_TAG_OF_PROBLEM.get(exc.code, "Game")), code=exc.code,
                       rule=exc.rule, section=exc.section)
            return
        self.check_markup(engine)
        named = self.record.tag("Tileset")
        tileset = getattr(engine, "tileset", None)
        if named is not None and tileset is not None and named.strip() != tileset.name:
            self.error(f"the Tileset tag names {named.strip()!r}, but the game is checked with the tile set "
                       f"{tileset.name!r}: pass the right one with --tileset FILE", self.record.tag_span("Tileset"),
                       code="tileset", severity="warning")
        if not self.play_line(engine, self.record.turns, main=True):
            self.report.final_scores = dict(engine.scores)
            return
        self.finish(engine)


def validate_record(record: Record, *, file: str | None = None, index: int = 0,
                    tileset: Any = None, keep_turns: bool = True) -> GameReport:
    """Replay one record against its game's rules and report what is wrong.

    ``keep_turns=False`` leaves out the per-turn events and scores of the
    report (``report.turns``) when only the verdict is wanted: a little quicker.
    """
    report = GameReport(index, file, record.game, record.tags)
    report.diagnostics.extend(record.diagnostics)
    if not record.ok:
        return report
    _Replay(record, report, tileset, keep_turns).run()
    # in the order of the text (a variation is replayed before the turn it follows)
    report.diagnostics.sort(key=lambda d: (0, d.span.line, d.span.column) if d.span else (1, 0, 0))
    return report


@dataclass(slots=True)
class _MatchGame:
    round: int | None
    seats: tuple[str, ...]
    first: str | None
    scores: dict[str, int] | None
    complete: bool
    span: Span | None


class MatchChecker:
    """Checks the matches of the card game Gold: games of one file sharing a ``Match`` tag.

    Seed 001: "Play as many times as there are players, with a different player
    starting each time ... The player with the most points at the end wins."
    Only a few facts per game are kept, so streaming stays cheap.
    """

    SECTION = "001 Gold: several games"

    def __init__(self) -> None:
        self.matches: dict[str, list[_MatchGame]] = {}

    def add(self, record: Record, report: GameReport) -> None:
        """Remember a validated game if it belongs to a match."""
        name = record.tag("Match")
        if name is None or record.game != "gold" or not report.valid:
            return
        try:
            rnd = int(record.tag("Round") or "")
        except ValueError:
            rnd = None
        seats = tuple(s.key for s in record.seats())
        first = next((t.player for t in record.turns if t.number > 0), None)
        self.matches.setdefault(name, []).append(_MatchGame(
            rnd, seats, first, report.final_scores, report.complete, record.span))

    def check(self, file: str | None) -> tuple[list[Diagnostic], list[str]]:
        """Problems with the matches seen, and a line per match naming its winners."""
        from grn.gold import expected_first_player, match_result

        problems: list[Diagnostic] = []
        lines: list[str] = []
        for name, games in self.matches.items():
            games = sorted(games, key=lambda g: (g.round is None, g.round or 0))
            seats = games[0].seats
            bad = False
            for i, g in enumerate(games):
                if g.seats != seats:
                    problems.append(Diagnostic(f"match {name!r}: game {i + 1} seats other players", g.span,
                                               file, code="match", section=self.SECTION))
                    bad = True
                    continue
                want = expected_first_player(seats, i)
                if g.first is not None and g.first != want:
                    problems.append(Diagnostic(
                        f"match {name!r}: game {i + 1} is started by {g.first}, but {want} starts it",
                        g.span, file, code="match", rule="a different player starts each game, "
                        "the start moving one seat clockwise", section=self.SECTION))
            if bad or any(not g.complete for g in games):
                continue
            if len(games) != len(seats):
                problems.append(Diagnostic(
                    f"match {name!r} has {len(games)} games; {len(seats)} players play {len(seats)}",
                    games[-1].span, file, severity="warning", code="match", section=self.SECTION))
                continue
            scores = [g.scores or {} for g in games]
            winners = match_result(scores)
            totals = {p: sum(s.get(p, 0) for s in scores) for p in seats}
            lines.append(f"match {name!r}: " + ", ".join(f"{p} {t}" for p, t in totals.items())
                         + f"; won by {' and '.join(winners)}")
        return problems, lines
