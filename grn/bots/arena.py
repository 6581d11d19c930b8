"""Duplicate matches between two bots: every deal is played once per seating, so the luck of the draw cancels.

A *deal* is a determinisation of a fresh game (the bag's order, the cards'
places), drawn from a seed; the pair of games on one deal swaps the seats.
The result gives the first bot's wins (a tie counts half), its mean margin,
and the Elo difference that its score fraction implies, with a 95% interval
taken from the spread of the per-deal scores (docs/bots.md).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Sequence

from grn.bots.bot import Bot, Forfeit
from grn.bots.seen import PlayerView
from grn.rules.engine import Engine
from grn.core.record import Record
from grn.rules.ruleset import engine_for
from grn.rules.selfplay import PlayedTurn, SelfPlayGame, to_record
from grn.rules.world import World

if TYPE_CHECKING:
    from grn.rules.ruleset import Ruleset

#: No game of the three comes near this; it keeps a game that cannot end from running for ever.
MAX_TURNS = 2000


@dataclass(frozen=True, slots=True)
class BotGame:
    """One game between bots: who sat where, the final scores, and the game as a self-played one."""

    seats: tuple[str, ...]
    bots: tuple[str, ...]
    scores: dict[str, int]
    game: SelfPlayGame
    #: The seat whose bot forfeited the game (it lost, R367), and what happened in the engine's words.
    forfeit: str | None = None
    forfeit_words: str = ""

    def record(self, *, seed: int | None = None) -> Record:
        """The game as a GRN record."""
        return to_record(self.game, seed=seed)


def new_game(ruleset: Ruleset, players: int, seed: int, options: Any = None) -> tuple[Record, Engine]:
    """A fresh game's header (the seats and options self-play writes) and its engine."""
    template = to_record(ruleset.selfplay(players, seed, options), checkpoints=False)
    header = Record(tuple((k, v) for k, v in template.tags if k in ("Game", "Players", "Options")))
    seats = ruleset.seats(header)
    return header, engine_for(ruleset, header, seats)


def play_game(ruleset: Ruleset, bots: Sequence[Bot], deal_seed: int, bot_seed: int, *, players: int | None = None,
              options: Any = None) -> BotGame:
    """Play one game: ``bots[i]`` sits in seat ``i``; the deal comes from ``deal_seed``."""
    n = players or len(bots)
    header, engine = new_game(ruleset, n, deal_seed, options)
    keys = [s.key for s in ruleset.seats(header)]
    table: World = ruleset.determinise(engine, random.Random(deal_seed))
    rngs = [random.Random(f"{bot_seed}:{i}") for i in range(n)]
    turns: list[PlayedTurn] = []
    seated = list({id(b): b for b in bots}.values())  # a bot in two seats hears the game once
    for bot in seated:
        bot.new_game(header)
    forfeit: str | None = None
    words = ""
    history: list[tuple[str, tuple[Any, ...]]] = []
    # A seat's own view of the game, made once the table shows it less than the table holds (a token mined face
    # down by another): a bot chooses from what its player knows, never from the table's engine (R465).
    views: dict[str, PlayerView] = {}
    while not table.is_over and len(turns) < MAX_TURNS:
        player = table.player
        seat = keys.index(player)
        view = views.get(player)
        try:
            decision = bots[seat % len(bots)].choose((view.engine if view else table.engine).copy(), rngs[seat],
                                                     table.hand())
        except Forfeit as exc:
            forfeit, words = player, str(exc)
            break
        commands = table.recorded(decision)
        for key in keys:
            if key not in views and ruleset.seen_by(table.engine, player, commands, key) != tuple(commands):
                views[key] = PlayerView(ruleset, header, key)
                views[key].catch_up(history)
        table.play_commands(commands)
        history.append((player, tuple(commands)))
        for v in views.values():
            v.catch_up(history)
        turns.append(PlayedTurn(player, commands, table.engine.scores))
        for bot in seated:
            bot.turn_played(player, commands)
    final = table.engine.copy()
    if final.is_over and not getattr(final, "final_done", False):
        final.final_scoring()
    scores = final.scores
    options_words = {k: v for k, v in (header.options().items())}
    seat_colours = tuple(tuple(s.colours) for s in ruleset.seats(header))
    game = SelfPlayGame(ruleset.name, tuple(keys), tuple(turns), scores, options_words,
                        colours=seat_colours if any(len(c) > 1 for c in seat_colours) else ())
    return BotGame(tuple(keys), tuple(bots[i % len(bots)].name for i in range(n)), scores, game, forfeit, words)


@dataclass(slots=True)
class MatchResult:
    """The first bot's results against the second over duplicate pairs of games."""

    names: tuple[str, str]
    games: int = 0
    wins: float = 0.0
    margins: list[float] = field(default_factory=list)
    pair_scores: list[float] = field(default_factory=list)
    #: One line per game a bot forfeited (R367): which game, whose bot, in the engine's words.
    forfeits: list[str] = field(default_factory=list)

    @classmethod
    def of_deals(cls, names: tuple[str, str], deals: Iterable[Mapping[str, Any]]) -> "MatchResult":
        """The result of ``deals`` already played, each a mapping of its ``wins``, ``games`` and ``margins``
        (the lines the benchmarks under bench/ write, one a deal)."""
        result = cls(names)
        for deal in deals:
            result.games += deal["games"]
            result.wins += deal["wins"]
            result.margins += deal["margins"]
            result.pair_scores.append(deal["wins"] / deal["games"])
        return result

    @property
    def score(self) -> float:
        """The first bot's score fraction (wins, ties half)."""
        return self.wins / self.games if self.games else 0.5

    @property
    def mean_margin(self) -> float:
        """The first bot's mean final margin over the second's, in points."""
        return sum(self.margins) / len(self.margins) if self.margins else 0.0

    def elo(self) -> tuple[float, float, float]:
        """The Elo difference implied by the score, with its 95% interval (low, estimate, high)."""
        n = len(self.pair_scores)
        p = self.score
        if n > 1:
            mean = sum(self.pair_scores) / n
            sd = math.sqrt(sum((x - mean) ** 2 for x in self.pair_scores) / (n - 1))
            half = 1.96 * sd / math.sqrt(n)
        else:
            half = 0.5
        return _elo(p - half), _elo(p), _elo(p + half)

    def summary(self) -> str:
        """One line: wins, score, mean margin and the Elo difference."""
        low, mid, high = self.elo()
        a, b = self.names
        return (f"{a} vs {b}: {self.games} games, {a} wins {self.wins:g} ({100 * self.score:.1f}%), "
                f"mean margin {self.mean_margin:+.1f}, Elo {_fmt(mid)} (95% {_fmt(low)} to {_fmt(high)})")

    def to_json(self) -> dict[str, Any]:
        """The result as plain data."""
        low, mid, high = self.elo()
        return {"bots": list(self.names), "games": self.games, "wins": self.wins, "score": self.score,
                "mean_margin": self.mean_margin, "elo": _num(mid), "elo_low": _num(low), "elo_high": _num(high),
                "forfeits": list(self.forfeits)}


def _elo(p: float) -> float:
    if p <= 0:
        return -math.inf
    if p >= 1:
        return math.inf
    return -400 * math.log10(1 / p - 1)


def _num(x: float) -> float | None:
    return None if math.isinf(x) else round(x, 1)


def _fmt(x: float) -> str:
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return f"{round(x):+d}"


def match(ruleset: Ruleset, first: Bot, second: Bot, deals: int, seed: int, *, options: Any = None,
          progress: Callable[[BotGame], None] | None = None) -> MatchResult:
    """``deals`` duplicate pairs (2 players): each deal once with ``first`` in seat 1, once in seat 2."""
    result = MatchResult((first.name, second.name))
    for d in range(deals):
        deal_seed = seed * 100003 + d
        pair = 0.0
        for swap in (False, True):
            bots = [second, first] if swap else [first, second]
            game = play_game(ruleset, bots, deal_seed, deal_seed * 2 + swap, options=options)
            ours = game.seats[1 if swap else 0]
            theirs = game.seats[0 if swap else 1]
            a, b = game.scores[ours], game.scores[theirs]
            points = 1.0 if a > b else 0.5 if a == b else 0.0
            if game.forfeit is not None:  # a forfeit loses, whatever the scores stood at (R367)
                points = 0.0 if game.forfeit == ours else 1.0
                bot = game.bots[game.seats.index(game.forfeit)]
                result.forfeits.append(f"deal {d + 1}, game {2 * d + swap + 1}: {bot} forfeits at turn "
                                       f"{len(game.game.turns) + 1}: {game.forfeit_words}")
            result.games += 1
            result.wins += points
            result.margins.append(float(a - b))
            pair += points
            if progress is not None:
                progress(game)
        result.pair_scores.append(pair / 2)
    return result


__all__ = ["BotGame", "MatchResult", "play_game", "match", "new_game"]
