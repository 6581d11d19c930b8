"""A player's view of a game in progress: the record as they saw it, and the protocol's query for their move.

The table (the arena's :class:`~grn.rules.world.World`) knows every face; a player
knows what the record shows them (:meth:`grn.rules.ruleset.Ruleset.seen_by`: a token
another player mined face down stays unknown), what they hold, and how much of
each kind is still hidden.  :class:`PlayerView` keeps one player's record and a
rules engine replayed from it alone, so that a :class:`~grn.bots.protocol.Query`
built from it cannot hold what the player could not know (R361, R362).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Sequence

from grn.rules.engine import Engine
from grn.bots.protocol import Query
from grn.core.record import Record
from grn.rules.ruleset import Ruleset, engine_for
from grn.rules.world import Decision
from grn.notation.writer import command_text, quote

if TYPE_CHECKING:
    from grn.core.record import Command


class PlayerView:
    """The game as ``viewer`` saw it: ``header`` (its Game, Players and Options tags) and the turns added."""

    def __init__(self, ruleset: Ruleset, header: Record, viewer: str) -> None:
        self.ruleset = ruleset
        self.viewer = viewer
        self.engine: Engine = engine_for(ruleset, header, ruleset.seats(header))
        self.lines = [f"[{name} {quote(value)}]" for name, value in header.tags] + [""]
        #: Turns of the table's history already added (a view catches up when its player is to move).
        self.turns = 0

    def add(self, player: str, actions: Sequence[Command]) -> None:
        """Add the table's next turn: ``player`` played ``actions`` (as the table recorded them)."""
        ruleset = self.ruleset
        seen = ruleset.seen_by(self.engine, player, actions, self.viewer)
        self.engine.play_turn(player, seen)
        self.turns += 1
        self.lines.append(" ".join([f"{self.turns}.", player, *(command_text(c, ruleset) for c in seen)]))

    def catch_up(self, history: Sequence[tuple[str, tuple[Any, ...]]]) -> None:
        """Add the turns of ``history`` (the table's, from the first) not added yet."""
        for player, actions in history[self.turns:]:
            self.add(player, actions)

    def record_text(self) -> str:
        """The record so far as GRN text."""
        return "\n".join(self.lines) + "\n"

    def query(self, hand: tuple[str, ...]) -> tuple[Query, list[Decision]]:
        """The query for the move of the player to move (the viewer), who holds ``hand``, and the decision each
        listed move stands for (in the same order)."""
        ruleset = self.ruleset
        engine = self.engine
        # the hand is on top of the sample, so the moves do not depend on the rest of its order
        world = ruleset.determinise(engine, random.Random(0), hand)
        texts: list[str] = []
        decisions: list[Decision] = []
        known: set[str] = set()
        moves = world.moves()
        for d, text in zip(moves, ruleset.move_texts(engine, moves)):
            if text not in known:  # two decisions of one text are one move to the player (Gold's unseen cards)
                known.add(text)
                texts.append(text)
                decisions.append(d)
        query = Query(ruleset.name, engine.current_player, self.record_text(), tuple(str(h) for h in hand),
                      ruleset.unseen(engine, hand), tuple(texts))
        return query, decisions


def listed_move(move: str, moves: Sequence[str]) -> str:
    """``move`` if listed; else the listed move that begins as it does, the first of those: a decision the
    protocol cannot name before it is played (Gold's reactive turn, named by its first card, R364)."""
    if move in moves:
        return move

    def common(m: str) -> int:
        n = 0
        for x, y in zip(m, move):
            if x != y:
                break
            n += 1
        return n

    best = max(range(len(moves)), key=lambda i: (common(moves[i]), -i))
    return moves[best]


__all__ = ["PlayerView", "listed_move"]
