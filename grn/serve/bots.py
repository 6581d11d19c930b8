"""Games against grn in ``grn serve``: the seats the server plays, the deal it makes, what a bot sees.

A game against grn is started by the New game form with one or more seats given to a bot.  Its record says
so itself (R375): the tag ``[Dealer "grn serve"]`` (the server, not a bag on a table, draws the tiles and
turns the cards), and each bot seat is named in the Players tag by the bot and its level, as ``grn arena``
names them: ``random``, ``greedy``, ``mcts:normal``, or ``engine:NAME`` for an engine the server was
started with (``grn serve --engine NAME=CMD``; a web request never names a command).

The deal (R376): at each turn of the main line's end the server deals a :class:`~grn.rules.world.World` from the
true position, with a random generator seeded by the archive's secret, the game and the turn's number (so
that reloading the page, or taking a move back, deals the same draw).  A person's turn takes its tile and
the faces it turns from that deal (:meth:`grn.rules.ruleset.Dealer.turn`); a bot's turn draws from it too.

What a bot sees (R377): the main line as its seat saw it (:class:`grn.bots.seen.PlayerView`: a token another
player mined face down stays unknown) and what the deal put in its hand, never the deal's later tiles
nor the faces it has not seen; it chooses from that, and the deal writes the turn as the table records it.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from grn.rules import registry
from grn.bots.bot import LEVELS, PLAY_LEVELS, Bot, MctsBot, make_bot
from grn.bots.search import best_of
from grn.rules.choices import ChoiceError
from grn.rules.engine import Engine
from grn.core.record import Markup, Record
from grn.rules.position import Position
from grn.rules.recording import normalise
from grn.rules.ruleset import Ruleset, player_key
from grn.bots.seen import PlayerView
from grn.serve.views import position_for
from grn.rules.world import World

if TYPE_CHECKING:
    from grn.core.record import Command
    from grn.core.record import Seat, Turn

#: The tag that marks a game the server deals (its value), and its name.
DEALER_TAG = "Dealer"
DEALER = "grn serve"
#: The simple bots, then the search bot at each level of grn/bots/levels.json.
SIMPLE_BOTS = ("random", "greedy")


def bot_names(engines: Mapping[str, str] = {}) -> list[str]:
    """Every name a seat may be given to be played by the server: the levels people choose by name, weakest
    first (``beginner`` ... ``master``, docs/bots.md), then the bots, ``mcts:LEVEL`` and ``engine:NAME``."""
    return [*PLAY_LEVELS, *SIMPLE_BOTS, *(f"mcts:{level}" for level in LEVELS),
            *(f"engine:{name}" for name in engines)]


def is_dealt(record: Record) -> bool:
    """Whether the server deals this game (a game against grn)."""
    return dict(record.tags).get(DEALER_TAG) == DEALER


def bot_seats(record: Record, seats: Sequence[Seat], engines: Mapping[str, str] = {}) -> dict[str, str]:
    """The seats the server plays (seat key -> bot name); none in a game it does not deal."""
    if not is_dealt(record):
        return {}
    names = set(bot_names(engines))
    return {s.key: s.name for s in seats if s.name in names}


def deal(ruleset: Ruleset, engine: Engine, secret: str, game: int, turn: int) -> World:
    """The deal of turn ``turn`` of game ``game``: what is hidden at ``engine`` (the true position) drawn with a
    generator only the server can seed (R376)."""
    seed = hmac.new(secret.encode(), f"deal:{game}:{turn}".encode(), hashlib.sha256).hexdigest()
    return ruleset.determinise(engine.copy(), random.Random(seed))


def dealt_picks(ruleset: Ruleset, world: World, engine: Engine, picked: Sequence[str]) -> tuple[list[str], list[int]]:
    """``picked`` with the chance steps of the turn answered from the deal (the tile drawn, a card's face), and
    the indexes of the words the deal gave: a person picks only what is theirs to choose.  A word the page
    sent for a chance step that is not the dealt one is dropped with the words after it."""
    words: list[str] = []
    auto: list[int] = []
    rest = list(picked)
    while len(words) < 128:
        word = ruleset.dealer.word(world, engine, words)
        if word is not None:
            auto.append(len(words))
            if rest and rest[0] != word:
                rest = []
            elif rest:
                rest.pop(0)
            words.append(word)
        elif rest:
            words.append(rest.pop(0))
        else:
            break
    return words, auto


@dataclass(frozen=True)
class Dealt:
    """The end of a dealt game's main line: the position there, the seat to move's bot (None: a person) and
    the deal of the turn."""

    position: Position
    bot: str | None
    world: World


def dealt_at(secret: str, game: int, record: Record, text: str, address: str,
             engines: Mapping[str, str] = {}) -> Dealt | None:
    """The deal at ``address`` (normalised) when it is the end of a dealt game's main line and the game goes
    on; None elsewhere (a variation, a game recorded at a table: nothing is dealt there)."""
    if not is_dealt(record) or "(" in address or address != normalise(record, "end"):
        return None
    pos = position_for(record, text, address)
    if pos.state.is_over or pos.ruleset is None:
        return None
    world = deal(pos.ruleset, pos.state, secret, game, pos.turns_played)
    bots = bot_seats(record, pos.seats, engines)
    return Dealt(pos, bots.get(pos.state.current_player), world)


def dealt_actions(ruleset: Ruleset, world: World, engine: Engine, actions: Sequence[Command]) -> tuple[Command, ...]:
    """A person's turn as the deal makes it: its tiles must be the dealt ones, its faces are the deal's."""
    hand = world.hand()
    if tuple(ruleset.hand_of(actions)) != tuple(hand):
        raise ChoiceError(f"the tile drawn is {', '.join(map(str, hand))}, not the one this turn places")
    return ruleset.dealer.turn(world, engine, actions)


def view_of(ruleset: Ruleset, record: Record, turns: Sequence[Turn], viewer: str) -> Engine:
    """The position after ``turns`` of the main line as the seat ``viewer`` saw it (R377)."""
    header = Record(tuple((k, v) for k, v in record.tags if k in ("Game", "Players", "Options")))
    view = PlayerView(ruleset, header, viewer)
    seats = ruleset.seats(record)
    for turn in turns:
        view.add(player_key(seats, turn.player), tuple(turn.actions))
    return view.engine


def seen_position(record: Record, pos: Position) -> Position:
    """``pos`` (on the main line of a dealt game) with its engine as the player to move saw it: a hint or the
    analysis panel searches from what that player knows (R378)."""
    if not is_dealt(record) or "(" in pos.address or pos.ruleset is None or pos.state.is_over:
        return pos
    number = int(pos.address)
    turns = [t for t in record.turns if 0 < t.number <= number]
    engine = view_of(pos.ruleset, record, turns, pos.state.current_player)
    return Position(pos.record, engine, pos.seats, pos.last, pos.turns_played, list(pos.markup), pos.events,
                    pos.address, pos.line, pos.ruleset, False)


def bots_last_move(record: Record, pos: Position, engines: Mapping[str, str] = {}) -> list[Markup]:
    """Where the bot that played the main line's last turn played, in its seat's colour (a ring on each place; a
    tile's ghost becomes a ring on its square, since the tile is there now), so that a person sees grn's reply on
    the board; nothing when the last turn was a person's."""
    played = [t for t in record.turns if t.number > 0]
    if not played or pos.ruleset is None:
        return []
    last = played[-1]
    bots = bot_seats(record, pos.seats, engines)
    colour = player_key(pos.seats, last.player)
    if colour not in bots:
        return []
    out = []  # in the bot's colour: the page's tap targets are rings of another colour
    for m in pos.ruleset.best_move_markup(last.actions):
        where = str(m.args[0]) if m.args else ""
        if m.kind == "ghost" and "@" in where:
            out.append(Markup("highlight", (where.split("@", 1)[1].split(":", 1)[0], colour)))
        elif m.kind == "highlight" and where:
            out.append(Markup("highlight", (where, colour)))
    return out


@dataclass(frozen=True)
class BotTurn:
    """A bot's turn: the commands the table records, and its words (what it did, what it expects)."""

    actions: tuple[Command, ...]
    words: str
    expects: str


def _bot(name: str, ruleset: Ruleset, engines: Mapping[str, str]) -> Bot:
    if name.startswith("engine:"):
        from grn.bots.external import EngineBot

        return EngineBot(ruleset, engines[name.partition(":")[2]], timeout=30.0)
    return make_bot(name, ruleset)


def bot_turn(ruleset: Ruleset, record: Record, turns: Sequence[Turn], player: str, name: str, table: World,
             engines: Mapping[str, str] = {}, seed: str = "") -> BotTurn:
    """The turn of the bot ``name`` in seat ``player`` after the main line's ``turns``, dealt by ``table``."""
    view = view_of(ruleset, record, turns, player)
    bot = _bot(name, ruleset, engines)
    try:
        if name.startswith("engine:"):  # an engine is told the game so far (it keeps its own view of it)
            header = Record(tuple((k, v) for k, v in record.tags if k in ("Game", "Players", "Options")))
            bot.new_game(header)
            seats = ruleset.seats(record)
            for t in turns:
                bot.turn_played(player_key(seats, t.player), tuple(t.actions))
        decision = bot.choose(view, random.Random(seed), table.hand())
    finally:
        close = getattr(bot, "close", None)
        if close is not None:
            close()
    actions = tuple(table.recorded(decision))
    words = "; ".join(ruleset.action_words(a) for a in actions)
    expects = ""
    if isinstance(bot, MctsBot) and bot.last_estimates:
        best = best_of(bot.last_estimates)
        expects = f"{name} expects a margin of {best.mean:+.1f} \u00b1 {best.se:.1f}"
    return BotTurn(actions, words, expects)


class Playing:
    """The games whose bot turns are being played (one loop a game), and how many bots think at once."""

    def __init__(self, limit: int = 2) -> None:
        self._games: set[int] = set()
        self._lock = threading.Lock()
        self.limit = limit

    def start(self, game: int) -> bool:
        """Mark ``game`` as played by the server; False when it is already, or too many are."""
        with self._lock:
            if game in self._games or len(self._games) >= self.limit:
                return False
            self._games.add(game)
            return True

    def done(self, game: int) -> None:
        """The server stopped playing ``game``."""
        with self._lock:
            self._games.discard(game)


def game_ruleset(record: Record) -> Ruleset:
    """The ruleset of ``record``'s game."""
    return registry.find_ruleset(record.game)


__all__ = ["DEALER", "DEALER_TAG", "BotTurn", "bots_last_move", "Dealt", "Playing", "bot_names", "bot_seats", "bot_turn", "deal", "dealt_at",
           "dealt_actions", "dealt_picks", "is_dealt", "seen_position", "view_of"]
