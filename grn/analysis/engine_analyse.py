"""``grn analyse --engine CMD``: an engine over the protocol says what it would play at every turn of a record.

Each main-line turn is put to the engine as its player saw it (:class:`grn.bots.seen.PlayerView`: the record up to
that turn, the tiles the turn drew as the hand, the legal moves); the engine's ``info`` gives its best move's
expected margin, and the played move's when the engine weighed it, so the points the move gave up by the
engine's judgement.  grn's own analysis (``grn analyse`` without ``--engine``) judges with its search instead.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any, Iterator

from grn.core import registry
from grn.core.errors import IllegalAction
from grn.bots.protocol import Budget, Engine, EngineError
from grn.core.record import Record
from grn.rules.ruleset import Ruleset, SetupProblem, player_key
from grn.bots.seen import PlayerView, listed_move


@dataclass(frozen=True, slots=True)
class EngineTurn:
    """One turn as the engine saw it: the move played, the engine's best, their margins (None: not said)."""

    turn: int
    player: str
    played: str
    best: str
    margin: float | None
    error: float | None
    win: float | None
    played_margin: float | None

    @property
    def points_lost(self) -> float | None:
        """The best move's margin less the played move's, when the engine gave both (0: it chose the move)."""
        if self.played == self.best:
            return 0.0
        if self.margin is None or self.played_margin is None:
            return None
        return max(0.0, self.margin - self.played_margin)

    def line(self) -> str:
        """The turn in one line of text."""
        said = "" if self.margin is None else f" margin {self.margin:+.1f}"
        said += "" if self.error is None else f" ± {self.error:.1f}"
        said += "" if self.win is None else f", win {100 * self.win:.0f}%"
        if self.played == self.best:
            return f"  {self.turn}. {self.player} {self.played}: the engine's choice too" + (
                f" ({said.strip()})" if said else "")
        lost = self.points_lost
        verdict = "not weighed by the engine" if lost is None else f"{lost:.1f} points lost"
        return f"  {self.turn}. {self.player} {self.played}: {verdict}; the engine plays {self.best}{said}"


def engine_turns(engine: Engine, record: Record, budget: Budget) -> Iterator[EngineTurn]:
    """Put every main-line turn of ``record`` to ``engine``.  Raises :class:`EngineError` (the engine failed),
    :class:`ValueError` (the record breaks the rules or has set-up turns, the words say where)."""
    ruleset: Ruleset = registry.find_ruleset(record.game)
    seats = ruleset.seats(record)
    header = Record(tuple((k, v) for k, v in record.tags if k in ("Game", "Players", "Options")))
    views: dict[str, PlayerView] = {}
    history: list[tuple[str, tuple[Any, ...]]] = []
    for turn in record.turns:
        if turn.number == 0:
            raise ValueError("a record with set-up turns (turn 0) cannot be put to an engine")
        player = player_key(seats, turn.player)
        view = views.get(player)
        if view is None:
            view = views[player] = PlayerView(ruleset, header, player)
        try:
            view.catch_up(history)
        except IllegalAction as exc:
            raise ValueError(f"turn {len(history)} breaks the rules: {exc.message} (run grn validate)") from None
        if view.engine.current_player != player:
            raise ValueError(f"turn {turn.number} is {player}'s, but {view.engine.current_player} is to move")
        hand = ruleset.hand_of(turn.actions)
        try:
            query, _ = view.query(hand)
        except ValueError as exc:
            raise ValueError(f"turn {turn.number}: {exc}") from None
        played = listed_move(ruleset.move_text(view.engine, ruleset.decision_of(view.engine, turn.actions)),
                             query.moves)
        info = engine.analyse(query, budget)
        best = info.candidates[0]
        weighed = {c.move: c.margin for c in info.candidates}
        yield EngineTurn(turn.number, player, played, best.move, best.margin, best.error, best.win,
                         weighed.get(played))
        history.append((player, tuple(turn.actions)))


def run(records: Iterator[tuple[str, int, Record]], command: str, budget: Budget, fmt: str, write: Any,
        problem: Any) -> int:
    """Analyse ``records`` ((file, index, record)) with the engine ``command``; ``write`` takes the output text,
    ``problem`` a one-line message.  Returns the number of problems."""
    try:
        engine = Engine.popen(command)
    except EngineError as exc:
        problem(str(exc))
        return 1
    errors = 0
    first = True
    if fmt == "json":
        write('{"grn_engine_analysis": 1, "engine": ' + json.dumps(engine.id.get("name", command)) + ', "games": [')
    try:
        for file, index, record in records:
            turns: list[EngineTurn] = []
            failure = None
            try:
                for t in engine_turns(engine, record, budget):
                    turns.append(t)
            except (ValueError, SetupProblem, registry.UnknownGame) as exc:
                failure = f"{file}: game {index}: {getattr(exc, 'message', None) or exc}"
            except EngineError as exc:
                failure = f"{file}: game {index}: {exc}"
                engine.close(0.5)
                engine = Engine.popen(command)
            if failure is not None:
                problem(failure)
                errors += 1
            if fmt == "json":
                doc = {"file": file, "index": index, "game": record.game,
                       "turns": [{**asdict(t), "points_lost": t.points_lost} for t in turns]}
                write(("" if first else ",") + "\n " + json.dumps(doc, ensure_ascii=False))
                first = False
            else:
                name = engine.id.get("name", command)
                write(f"{file}: game {index} ({record.game}): {len(turns)} turns put to {name}\n")
                write("".join(t.line() + "\n" for t in turns))
    finally:
        engine.quit()
    if fmt == "json":
        write("\n]}\n")
    return errors


__all__ = ["EngineTurn", "engine_turns", "run"]
