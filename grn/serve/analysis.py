"""Analysis in ``grn serve``: the best moves at a shown position, and a whole game analysed in the background.

Both run the engine's own search (:mod:`grn.bots.search`, :func:`grn.analyse`) with a bounded budget: a
request names a level (``quick`` by default) or a playout count, and anything past :data:`MAX_PLAYOUTS`
per move is refused (:class:`BudgetError`), so no request can ask for an unbounded search.  A position is
evaluated from what the player to move knows there: the position itself and what the recorder was told
they drew (:meth:`grn.rules.ruleset.Ruleset.picked_hand`), never the record's later turns.
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from grn.rules import registry
from grn.analysis.judge import GameAnalysis, analyse
from grn.analysis.annotate import annotate_record
from grn.bots.bot import LEVELS, UnknownBot, search_level, search_level_names
from grn.bots.search import best_of, candidate_moves, evaluate, make_worlds
from grn.rules.position import Position
from grn.core.record import Record
from grn.notation.writer import command_text

#: The level a request gets when it names none: answers in a few seconds.
DEFAULT_LEVEL = "quick"
#: The most playouts per move a request may ask for (the ``deep`` level's budget).
MAX_PLAYOUTS = 600
#: The most candidate moves shown for a position.
SHOWN = 5


class BudgetError(ValueError):
    """A request for a search past the server's cap, or with a budget that is not one."""


class Busy(BudgetError):
    """The server runs as many searches as it allows at once: the request is refused, not queued."""


def budget(data: dict[str, Any]) -> tuple[str, int]:
    """The search budget's name and playouts per move a request asks for (``level``: a budget or a searching level
    of the ladder, as ``grn analyse --level`` takes them; ``playouts``), within the cap."""
    asked = data.get("level", DEFAULT_LEVEL)
    if not isinstance(asked, str):
        raise BudgetError(f"unknown level {asked!r}: the levels are {', '.join(search_level_names())}")
    try:  # a budget (quick, normal, deep, ...) or a level a person plays against that searches (strong: deep)
        level = search_level(asked).name
    except UnknownBot as exc:
        raise BudgetError(str(exc)) from None
    playouts = data.get("playouts", LEVELS[level].playouts)
    if isinstance(playouts, bool) or not isinstance(playouts, int) or playouts < 1:
        raise BudgetError("playouts must be a whole number, 1 or more")
    if playouts > MAX_PLAYOUTS:
        raise BudgetError(f"at most {MAX_PLAYOUTS} playouts a move on this server, not {playouts}"
                          + (f" (level {asked})" if "playouts" not in data else ""))
    return level, playouts


def evaluate_position(pos: Position, picked: Sequence[str], level: str, playouts: int, seed: int = 0) -> dict[str, Any]:
    """The best moves found for the player to move at ``pos``: each with its expected final margin ± one
    standard error, the best first, and the board with the best move drawn on it."""
    ruleset = pos.ruleset
    assert ruleset is not None
    engine = pos.state
    player = engine.current_player
    hand = ruleset.picked_hand(engine, picked)
    rng = random.Random(f"{seed}:{pos.address}")
    worlds = make_worlds(ruleset, engine, hand, rng, ruleset.greedy_samples)
    # as grn analyse weighs a turn (R225, R226): a game may read its candidates from the position, one of each
    # effect, and race them longer before halving, so the moves shown match the review's
    candidates = candidate_moves(worlds, player, LEVELS[level].width, from_position=True)
    estimates = evaluate(ruleset, engine, hand, candidates, seed=rng.getrandbits(64), playouts=playouts,
                         first_halving=worlds[0].first_halving, review=LEVELS[level].claims)
    best = best_of(estimates)
    # the finalists (most playouts) first, by mean; those dropped early after them
    ranked = sorted(estimates, key=lambda e: (e is not best, -e.playouts, -e.mean))
    moves = []
    for e in ranked[:SHOWN]:
        actions = ruleset.decision_actions(engine, e.decision)
        moves.append({"words": ruleset.decision_words(engine, e.decision),
                      "grn": " ".join(command_text(a, ruleset) for a in actions) if actions else None,
                      "expected": round(e.mean, 2), "se": round(e.se, 2), "playouts": e.playouts})
    best_actions = ruleset.decision_actions(engine, best.decision)
    shown = Position(pos.record, pos.state, pos.seats, pos.last, pos.turns_played,
                     list(pos.markup) + (ruleset.best_move_markup(best_actions) if best_actions else []),
                     pos.events, pos.address, pos.line, pos.ruleset, False)
    names = {s.key: s.name for s in pos.seats}
    return {"address": pos.address, "player": player, "player_name": names.get(player, player),
            "level": level, "playouts": playouts, "searched": sum(e.playouts for e in estimates),
            "candidates": len(candidates), "moves": moves, "svg": ruleset.render_svg(shown)}


@dataclass
class Task:
    """A game being analysed in the background: how far it got, and at the end the game whose review it kept."""

    game: int
    level: str
    playouts: int
    state: str = "running"
    result: int | None = None
    error: str | None = None
    thread: threading.Thread | None = field(default=None, repr=False)

    def to_json(self, number: int) -> dict[str, Any]:
        """What the page polls."""
        out: dict[str, Any] = {"task": number, "game": self.game, "state": self.state, "level": self.level,
                               "playouts": self.playouts}
        if self.result is not None:
            out["id"] = self.result
            out["view"] = f"/games/{self.result}/view?review=1"  # the game's review (R430)
        if self.error is not None:
            out["error"] = self.error
        return out


class Tasks:
    """The games being analysed: at most ``limit`` at once (each a thread of its own, so the server's
    requests go on), the last ``keep`` kept to be polled."""

    def __init__(self, limit: int = 1, keep: int = 32) -> None:
        self.limit = limit
        self.keep = keep
        self._tasks: dict[int, Task] = {}
        self._lock = threading.Lock()

    def start(self, task: Task, work: Callable[[], int]) -> int:
        """Run ``work`` (it returns the id of the game whose review it kept) for ``task``; the task's number."""
        with self._lock:
            if sum(1 for t in self._tasks.values() if t.state == "running") >= self.limit:
                raise Busy("the server is analysing another game: try again when it is done")
            number = max(self._tasks, default=0) + 1
            self._tasks[number] = task
            for old in sorted(self._tasks)[:-self.keep]:
                if self._tasks[old].state != "running":
                    del self._tasks[old]

        def run() -> None:
            try:
                task.result = work()
                task.state = "done"
            except Exception as exc:  # noqa: BLE001 - a failed analysis is told to the page, not lost
                task.error = str(exc) or type(exc).__name__
                task.state = "failed"

        task.thread = threading.Thread(target=run, name=f"grn-analyse-{number}", daemon=True)
        task.thread.start()
        return number

    def get(self, number: int) -> Task | None:
        """The task numbered ``number`` (None: no such task, or forgotten)."""
        with self._lock:
            return self._tasks.get(number)


def analysed_record(record: Record, level: str, playouts: int) -> tuple[Record, GameAnalysis]:
    """``record`` analysed (``grn analyse``'s search) and annotated with the review (R107)."""
    found = analyse(record, level=level, playouts=playouts)
    ruleset = registry.find_ruleset(record.game)
    return annotate_record(record, found, ruleset), found


__all__ = ["budget", "evaluate_position", "analysed_record", "BudgetError", "Busy", "Task", "Tasks", "MAX_PLAYOUTS",
           "DEFAULT_LEVEL"]
