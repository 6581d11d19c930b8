"""The ``engine:CMD`` bot: another program plays a seat through the engine protocol (docs/protocol.md).

At each of its turns the bot sends the engine what the player to move knows
(:class:`grn.bots.seen.PlayerView`: the record as that player saw it, the hand, the
hidden pools' contents) and the legal moves, and plays the listed move the
engine answers.  An engine that dies, is late, says something malformed or
answers a move not listed forfeits the game (:class:`~grn.bots.bot.Forfeit`,
with the engine's words); the next game starts it again (R367).
"""

from __future__ import annotations

import random
import shlex
from typing import TYPE_CHECKING, Any

from grn.bots.bot import Bot, Forfeit
from grn.rules.engine import Engine as RulesEngine
from grn.bots.protocol import Budget, Engine, EngineError
from grn.core.record import Record
from grn.bots.seen import PlayerView
from grn.rules.world import Decision

if TYPE_CHECKING:
    from grn.core.record import Command
    from grn.rules.ruleset import Ruleset

#: The budget an engine bot gives each move unless told otherwise (R366): a second.
DEFAULT_BUDGET = Budget(movetime=1000)


class EngineBot(Bot):
    """A seat played by the engine that ``command`` starts (a shell-like command line)."""

    def __init__(self, ruleset: Ruleset, command: str, *, budget: Budget = DEFAULT_BUDGET,
                 timeout: float | None = None) -> None:
        super().__init__(ruleset)
        if not command.strip():
            raise EngineError("engine: give the command that starts the engine, as in 'engine:node my.js'")
        try:
            shlex.split(command)
        except ValueError as exc:
            raise EngineError(f"engine:{command}: cannot read the command line: {exc}") from None
        self.command = command
        self.budget = budget
        self.timeout = timeout
        self.engine = Engine.popen(command)
        self.name = f"engine:{self.engine.id.get('name') or command}"
        self._header: Record | None = None
        self._history: list[tuple[str, tuple[Any, ...]]] = []
        self._views: dict[str, PlayerView] = {}
        self._seeded = False

    def new_game(self, header: Record) -> None:
        self._header = header
        self._history = []
        self._views = {}
        self._seeded = False
        if not self.engine.alive:  # it failed in the last game: a fresh process for this one
            self.engine.close()
            self.engine = Engine.popen(self.command)

    def turn_played(self, player: str, commands: tuple[Command, ...]) -> None:
        self._history.append((player, commands))

    def choose(self, state: RulesEngine, rng: random.Random, hand: tuple[str, ...] = ()) -> Decision:
        if self._header is None:
            raise Forfeit(f"{self.name}: the table did not say which game is played (new_game)")
        player = state.current_player
        view = self._views.get(player)
        if view is None:
            view = self._views[player] = PlayerView(self.ruleset, self._header, player)
        view.catch_up(self._history)
        query, decisions = view.query(hand)
        try:
            if not self._seeded and "Seed" in self.engine.options:
                self.engine.configure({"Seed": rng.getrandbits(31)})
            self._seeded = True
            result = self.engine.play(query, self.budget, timeout=self.timeout)
        except EngineError as exc:
            self.engine.close(0.5)  # a late or confused engine is not trusted with the rest of the game
            raise Forfeit(str(exc)) from None
        return decisions[query.moves.index(result.move)]

    def close(self) -> None:
        """Quit the engine."""
        self.engine.quit()


__all__ = ["EngineBot", "DEFAULT_BUDGET"]
