"""The bots: ``random``, ``greedy`` and ``mcts``, generic over any game whose ruleset lists its turns.

A bot sees what the player to move sees: the engine's public position and
that player's ``hand`` (:meth:`grn.rules.world.World.hand`: the tiles drawn this
turn), never the bag's order or an unseen card; :meth:`Bot.choose` returns a
decision, which the game's true :class:`~grn.rules.world.World` plays.  The same
seed (``rng``) gives the same choices.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from importlib import resources
from typing import Any

from grn.bots.search import best_of, candidate_moves, evaluate, greedy_rank, make_worlds, paired_difference
from grn.rules.engine import Engine
from grn.core.record import Record
from grn.rules.world import Decision


@dataclass(frozen=True, slots=True)
class Level:
    """A named search budget: ``playouts`` per move, over the ``width`` best moves by the greedy bot; ``learned``:
    whether the game's learned evaluation values a playout's end (R332; False: the projected scores alone)."""

    name: str
    playouts: int
    width: int
    learned: bool = True


def _load_levels() -> tuple[str, dict[str, Level]]:
    # shipped data: its schema is checked by the tests, not on every run (R122)
    doc = json.loads(resources.files("grn.bots").joinpath("levels.json").read_text(encoding="utf-8"))
    levels = {name: Level(name, v["playouts"], v["width"], v.get("learned", True)) for name, v in doc["levels"].items()}
    return doc["default"], levels


#: The default level's name, and every level by name (grn/bots/levels.json).
DEFAULT_LEVEL, LEVELS = _load_levels()


class Bot:
    """A player: :meth:`choose` picks the decision of the player to move."""

    name = "bot"

    def __init__(self, ruleset: Any) -> None:
        self.ruleset = ruleset

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} for {self.ruleset.name}>"

    def choose(self, state: Engine, rng: random.Random, hand: tuple[Any, ...] = ()) -> Decision:
        """The decision for the player to move at ``state``; ``hand`` is what they hold privately."""
        raise NotImplementedError

    def new_game(self, header: Record) -> None:
        """A table starts a game with this header (its Game, Players and Options tags).  Default: nothing; a bot
        that needs the record so far (an engine over the protocol) starts one here."""

    def turn_played(self, player: str, commands: tuple[Any, ...]) -> None:
        """The table played ``player``'s turn as it records it (every face known).  Default: nothing."""


class Forfeit(Exception):
    """A bot could not choose a legal move (an engine died, was late or answered an illegal move): the table
    counts the game as lost by it (R367).  The words say what happened, in the engine's own words."""


class RandomBot(Bot):
    """A legal move at random (:meth:`grn.rules.world.World.random_move`: as self-play plays a tile game)."""

    name = "random"

    def choose(self, state: Engine, rng: random.Random, hand: tuple[Any, ...] = ()) -> Decision:
        world = self.ruleset.determinise(state, random.Random(rng.getrandbits(64)), hand)
        return world.random_move(rng)


class GreedyBot(Bot):
    """The move with the best immediate worth: the projected final margin right after it (the points it
    scores and the value of the open features it claims), plus a point per follower kept while tiles are left."""

    name = "greedy"

    def choose(self, state: Engine, rng: random.Random, hand: tuple[Any, ...] = ()) -> Decision:
        worlds = make_worlds(self.ruleset, state, hand, rng, self.ruleset.greedy_samples)
        rank = greedy_rank(worlds, state.current_player)
        return worlds[0].shortlist(rank, 1)[0][1]


class MctsBot(Bot):
    """Determinised Monte-Carlo search at the root: the ``width`` best moves by immediate worth (several
    placements in a tile game, R171) race through playouts in sampled worlds
    (:func:`grn.bots.search.evaluate`, the playouts playing the opponents by the world's model of them, R200);
    the best mean wins when it beats the first candidate (the world's :meth:`~grn.rules.world.World.lead`, else the
    best by immediate worth, R201) by more than one standard error (measured on the same worlds), else the first
    stands."""

    name = "mcts"

    def __init__(self, ruleset: Any, *, level: str | None = None, playouts: int | None = None,
                 seconds: float | None = None, width: int | None = None) -> None:
        super().__init__(ruleset)
        chosen = LEVELS[level or DEFAULT_LEVEL]
        self.playouts = playouts if playouts is not None or seconds is not None else chosen.playouts
        self.seconds = seconds
        self.width = width if width is not None else chosen.width
        self.learned = chosen.learned
        #: The estimates of the last search, best decision's among them (``grn engine`` tells them as info).
        self.last_estimates: list[Any] = []

    def choose(self, state: Engine, rng: random.Random, hand: tuple[Any, ...] = ()) -> Decision:
        worlds = make_worlds(self.ruleset, state, hand, rng, self.ruleset.greedy_samples)
        candidates = candidate_moves(worlds, state.current_player, self.width)
        self.last_estimates = []
        if len(candidates) == 1:
            return candidates[0]
        # the best by immediate worth runs the whole race: the yardstick the best must beat, on every world
        estimates = evaluate(self.ruleset, state, hand, candidates, seed=rng.getrandbits(64),
                             playouts=self.playouts, seconds=self.seconds, keep=candidates[:1], opponents=True,
                             learned=self.learned)
        self.last_estimates = estimates
        best = best_of(estimates)
        diff, se = paired_difference(best, estimates[0])
        # the first candidate stands unless the search finds a move clearly better (one standard error)
        return best.decision if diff > se else candidates[0]


#: The bots by name.
BOTS: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot, "mcts": MctsBot}


class UnknownBot(ValueError):
    """A bot or level name grn does not know."""


def make_bot(name: str, ruleset: Any, *, level: str | None = None, playouts: int | None = None,
             seconds: float | None = None) -> Bot:
    """The bot called ``name`` (``random``, ``greedy``, ``mcts``; ``mcts:deep`` names a level too).  An engine
    over the protocol, ``engine:CMD``, is :class:`grn.bots.external.EngineBot` (``grn arena`` makes one)."""
    base, _, lvl = name.partition(":")
    if base not in BOTS:
        raise UnknownBot(f"unknown bot {name!r}: the bots are {', '.join(BOTS)}")
    level = lvl or level
    if level is not None and level not in LEVELS:
        raise UnknownBot(f"unknown level {level!r}: the levels are {', '.join(LEVELS)}")
    if base == "mcts":
        return MctsBot(ruleset, level=level, playouts=playouts, seconds=seconds)
    return BOTS[base](ruleset)


__all__ = ["Bot", "Forfeit", "RandomBot", "GreedyBot", "MctsBot", "BOTS", "LEVELS", "DEFAULT_LEVEL", "Level", "make_bot",
           "UnknownBot"]
