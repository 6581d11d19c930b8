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
from typing import TYPE_CHECKING, Any

from grn.bots.search import best_of, candidate_moves, evaluate, greedy_rank, make_worlds, paired_difference
from grn.rules.engine import Engine
from grn.rules.evaluation import BOT_EVALUATION
from grn.core.record import Record
from grn.rules.world import Decision

if TYPE_CHECKING:
    from grn.core.record import Command
    from grn.rules.ruleset import Ruleset


@dataclass(frozen=True, slots=True)
class Level:
    """A named search budget: ``playouts`` per move, over the ``width`` best moves by the greedy bot; ``learned``:
    whether the game's learned evaluation values a playout's end (R332; False: the projected scores alone);
    ``claims``: whether the playouts claim as people do (R443; False: round one's and round two's playouts): the bot's
    claiming playouts, and in an analysis the review's (R516: :meth:`grn.rules.world.World.review_playouts`)."""

    name: str
    playouts: int
    width: int
    learned: bool = True
    claims: bool = True


class UnknownBot(ValueError):
    """A bot or level name grn does not know."""


@dataclass(frozen=True, slots=True)
class PlayLevel:
    """A level a person chooses to play against, by name (the ladder of ``grn/bots/levels.json``, weakest
    first): the greedy bot, with a ``slip`` chance a turn of playing one of its ``slip_width`` best moves at
    random instead of the best (a beginner who misses a closing city now and then, R385), or the mcts bot at
    the search budget ``level`` (a name of :data:`LEVELS`).  ``about`` says it in a few words for a menu."""

    name: str
    bot: str
    about: str
    level: str | None = None
    slip: float = 0.0
    slip_width: int = 1
    #: A greedy level's chance a turn of a blunder: any legal move at random, as the random bot plays (R474).
    blunder: float = 0.0
    #: A greedy level's mistakes tuned per game (R473): (game name, ``slip``, ``slip_width``, ``blunder``), for a
    #: game whose luck makes the same mistakes a smaller or larger step; a game not named takes the level's own.
    games: tuple[tuple[str, float, int, float], ...] = ()

    def for_game(self, game: str) -> PlayLevel:
        """This level as it plays ``game`` (a ruleset's name): its mistakes tuned for that game, if they are."""
        for name, slip, width, blunder in self.games:
            if name == game:
                return PlayLevel(self.name, self.bot, self.about, self.level, slip, width, blunder)
        return PlayLevel(self.name, self.bot, self.about, self.level, self.slip, self.slip_width, self.blunder)

    def strength_key(self) -> tuple[int, float, float, int, int]:
        """What orders the ladder by its data (R386, R474): the greedy bot below the search; among greedy levels,
        fewer blunders, then fewer slips, then slips among fewer moves; among searches, more playouts, then more
        candidates.  Per game: :meth:`for_game` first."""
        if self.bot == "mcts" and self.level is not None:
            budget = LEVELS[self.level]
            return (1, 0.0, 0.0, budget.playouts, budget.width)
        return (0, -self.blunder, -self.slip, -self.slip_width if self.slip > 0 else 0, 0)

    def makes_no_more_mistakes_than(self, other: PlayLevel) -> bool:
        """Whether this greedy level blunders, slips and slips wide no more than ``other`` (R474)."""
        return (self.blunder <= other.blunder and self.slip <= other.slip
                and (self.slip == 0 or self.slip_width <= other.slip_width))


def _load_levels() -> tuple[str, dict[str, Level], dict[str, PlayLevel]]:
    # shipped data: its schema is checked by the tests, not on every run (R122)
    doc = json.loads(resources.files("grn.bots").joinpath("levels.json").read_text(encoding="utf-8"))
    levels = {name: Level(name, v["playouts"], v["width"], v.get("learned", True), v.get("claims", True))
              for name, v in doc["levels"].items()}
    play = {}
    for v in doc.get("play", ()):
        slip, width, blunder = v.get("slip", 0.0), v.get("slip_width", 1), v.get("blunder", 0.0)
        tuned = tuple((game, t.get("slip", slip), t.get("slip_width", width), t.get("blunder", blunder))
                      for game, t in v.get("games", {}).items())
        play[v["name"]] = PlayLevel(v["name"], v["bot"], v["about"], v.get("level"), slip, width, blunder, tuned)
    return doc["default"], levels, play


#: The default level's name, every search budget by name, and the ladder of levels to play against, weakest
#: first (grn/bots/levels.json).
DEFAULT_LEVEL, LEVELS, PLAY_LEVELS = _load_levels()


def search_level_names() -> list[str]:
    """Every name :func:`search_level` takes: the budgets, then the ladder's searching levels named otherwise."""
    return list(LEVELS) + [n for n, p in PLAY_LEVELS.items() if p.level is not None and n not in LEVELS]


def search_level(name: str) -> Level:
    """The search budget ``name`` names: a budget of :data:`LEVELS`, or a level of the ladder that searches
    (``strong`` is the ``deep`` budget).  Raises :class:`UnknownBot` for any other name, a ladder level
    without a search (``beginner``) saying so."""
    if name in LEVELS:
        return LEVELS[name]
    play = PLAY_LEVELS.get(name)
    if play is not None and play.level is not None:
        return LEVELS[play.level]
    known = ", ".join(search_level_names())
    if play is not None:
        raise UnknownBot(f"level {name!r} plays without a search ({play.about}): the search levels are {known}")
    raise UnknownBot(f"unknown level {name!r}: the levels are {known}")


class Bot:
    """A player: :meth:`choose` picks the decision of the player to move."""

    name = "bot"

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} for {self.ruleset.name}>"

    def choose(self, state: Engine, rng: random.Random, hand: tuple[str, ...] = ()) -> Decision:
        """The decision for the player to move at ``state``; ``hand`` is what they hold privately."""
        raise NotImplementedError

    def new_game(self, header: Record) -> None:
        """A table starts a game with this header (its Game, Players and Options tags).  Default: nothing; a bot
        that needs the record so far (an engine over the protocol) starts one here."""

    def turn_played(self, player: str, commands: tuple[Command, ...]) -> None:
        """The table played ``player``'s turn as it records it (every face known).  Default: nothing."""


class Forfeit(Exception):
    """A bot could not choose a legal move (an engine died, was late or answered an illegal move): the table
    counts the game as lost by it (R367).  The words say what happened, in the engine's own words."""


class RandomBot(Bot):
    """A legal move at random (:meth:`grn.rules.world.World.random_move`: as self-play plays a tile game)."""

    name = "random"

    def choose(self, state: Engine, rng: random.Random, hand: tuple[str, ...] = ()) -> Decision:
        world = self.ruleset.determinise(state, random.Random(rng.getrandbits(64)), hand)
        return world.random_move(rng)


class GreedyBot(Bot):
    """The move with the best immediate worth: the projected final margin right after it (the points it
    scores and the value of the open features it claims), plus a point per follower kept while tiles are left."""

    name = "greedy"

    def choose(self, state: Engine, rng: random.Random, hand: tuple[str, ...] = ()) -> Decision:
        worlds = make_worlds(self.ruleset, state, hand, rng, self.ruleset.greedy_samples)
        rank = greedy_rank(worlds, state.current_player)
        return worlds[0].shortlist(rank, 1)[0][1]


class SlipBot(GreedyBot):
    """The greedy bot that slips (a beginner, R385): on a turn with chance ``slip`` it plays one of its
    ``width`` best moves by immediate worth at random (the best is one of them) instead of the best, as a
    person who overlooks what a move scores now and then (a city it could close, a gold it could carry out).
    In a tile game the moves are of different placements first (R171), so a slip is a tile laid elsewhere."""

    name = "beginner"

    def __init__(self, ruleset: Ruleset, *, slip: float, width: int, blunder: float = 0.0) -> None:
        super().__init__(ruleset)
        if not 0.0 <= slip <= 1.0 or width < 1:
            raise ValueError(f"a slip is a chance from 0 to 1 among 1 or more moves, not {slip} among {width}")
        if not 0.0 <= blunder <= 1.0:
            raise ValueError(f"a blunder is a chance from 0 to 1, not {blunder}")
        self.slip = slip
        self.width = width
        #: The chance a turn of a blunder (R474): any legal move at random, as the random bot plays, follower
        #: and all, before any slip is drawn.
        self.blunder = blunder

    def choose(self, state: Engine, rng: random.Random, hand: tuple[str, ...] = ()) -> Decision:
        worlds = make_worlds(self.ruleset, state, hand, rng, self.ruleset.greedy_samples)
        if self.blunder > 0 and rng.random() < self.blunder:
            return worlds[0].random_move(rng)
        rank = greedy_rank(worlds, state.current_player)
        slips = rng.random() < self.slip
        listed = worlds[0].shortlist(rank, self.width if slips else 1)
        return rng.choice(listed)[1] if slips else listed[0][1]


class MctsBot(Bot):
    """Determinised Monte-Carlo search at the root: the ``width`` best moves by immediate worth (several
    placements in a tile game, R171) race through playouts in sampled worlds
    (:func:`grn.bots.search.evaluate`, the playouts playing the opponents by the world's model of them, R200);
    the best mean wins when it beats the first candidate (the world's :meth:`~grn.rules.world.World.lead`, else the
    best by immediate worth, R201) by more than one standard error (measured on the same worlds), else the first
    stands."""

    name = "mcts"

    #: Standard errors by which the search's best must beat the first candidate to be played (1: R142's rule).
    overturn_z = 1.0

    def __init__(self, ruleset: Ruleset, *, level: str | None = None, playouts: int | None = None,
                 seconds: float | None = None, width: int | None = None) -> None:
        super().__init__(ruleset)
        chosen = search_level(level or DEFAULT_LEVEL)
        self.playouts = playouts if playouts is not None or seconds is not None else chosen.playouts
        #: Whether the budget is the level's own (a game may scale it, :meth:`~grn.rules.world.World.search_playouts`),
        #: not one the caller asked for.
        self.level_budget = playouts is None and seconds is None
        self.seconds = seconds
        self.width = width if width is not None else chosen.width
        self.learned = chosen.learned
        self.claims = chosen.claims
        #: The evaluation its playouts' ends are valued by: the game's bot evaluation where it ships one (R485:
        #: open features held), else the review's.
        self.evaluation = BOT_EVALUATION
        #: The estimates of the last search, best decision's among them (``grn engine`` tells them as info).
        self.last_estimates: list[Any] = []

    def choose(self, state: Engine, rng: random.Random, hand: tuple[str, ...] = ()) -> Decision:
        worlds = make_worlds(self.ruleset, state, hand, rng, self.ruleset.greedy_samples)
        if self.claims:  # the candidates a world lists may depend on how its search plays (a reactive turn, R486)
            for w in worlds:
                w.claim_playouts()
        candidates = candidate_moves(worlds, state.current_player, self.width)
        self.last_estimates = []
        if len(candidates) == 1:
            return candidates[0]
        playouts = self.playouts
        if self.claims and self.level_budget and playouts is not None:
            playouts = worlds[0].search_playouts(playouts)
        # the best by immediate worth runs the whole race: the yardstick the best must beat, on every world
        estimates = evaluate(self.ruleset, state, hand, candidates, seed=rng.getrandbits(64),
                             playouts=playouts, seconds=self.seconds, keep=candidates[:1], opponents=True,
                             learned=self.learned, claims=self.claims, evaluation=self.evaluation)
        self.last_estimates = estimates
        best = best_of(estimates)
        diff, se = paired_difference(best, estimates[0])
        # the first candidate stands unless the search finds a move clearly better (one standard error)
        return best.decision if diff > self.overturn_z * se else candidates[0]


#: The bots by name.
BOTS: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot, "mcts": MctsBot}


def check_bot_name(name: str) -> None:
    """Raise :class:`UnknownBot` unless :func:`make_bot` knows ``name`` (a bot, ``mcts:LEVEL``, or a level of
    the ladder), without making the bot."""
    if name in PLAY_LEVELS:
        return
    base, _, lvl = name.partition(":")
    if base not in BOTS:
        raise UnknownBot(f"unknown bot {name!r}: the bots are {', '.join(BOTS)}, and the levels to play against "
                         f"{', '.join(PLAY_LEVELS)}")
    if lvl:
        search_level(lvl)


def make_bot(name: str, ruleset: Ruleset, *, level: str | None = None, playouts: int | None = None,
             seconds: float | None = None) -> Bot:
    """The bot called ``name``: ``random``, ``greedy``, ``mcts`` (``mcts:deep`` names a search budget), or a
    level of the ladder to play against (:data:`PLAY_LEVELS`: ``beginner``, ``casual``, ``easy``, ``normal``,
    ...), as it plays this ruleset's game (:meth:`PlayLevel.for_game`), which names itself so (its
    :attr:`Bot.name`, what a table writes in the Players tag).  ``playouts`` or ``seconds`` override a search's
    budget.  An engine over the protocol, ``engine:CMD``, is :class:`grn.bots.external.EngineBot` (``grn arena``
    makes one)."""
    play = PLAY_LEVELS.get(name)
    if play is not None:
        play = play.for_game(ruleset.name)
        bot: Bot
        if play.bot == "mcts":
            bot = MctsBot(ruleset, level=play.level, playouts=playouts, seconds=seconds)
        elif play.slip > 0 or play.blunder > 0:
            bot = SlipBot(ruleset, slip=play.slip, width=play.slip_width, blunder=play.blunder)
        else:
            bot = BOTS[play.bot](ruleset)
        bot.name = play.name
        return bot
    check_bot_name(name)
    base, _, lvl = name.partition(":")
    level = lvl or level
    if level is not None:
        search_level(level)
    if base == "mcts":
        return MctsBot(ruleset, level=level, playouts=playouts, seconds=seconds)
    return BOTS[base](ruleset)


__all__ = ["Bot", "Forfeit", "RandomBot", "GreedyBot", "SlipBot", "MctsBot", "BOTS", "LEVELS", "DEFAULT_LEVEL", "Level",
           "PLAY_LEVELS", "PlayLevel", "search_level", "search_level_names", "check_bot_name", "make_bot", "UnknownBot"]
