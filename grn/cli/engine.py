"""``grn engine``: grn's own bots speak the engine protocol on standard input and output (docs/protocol.md).

For each ``go`` the engine rebuilds the game from the record the position
carries (grn's rules replay it), gives the bot the hand it was told, and
answers the bot's choice as one of the listed moves, with ``info`` lines of
what its search found (the expected margin ± its error, the win chance, a few
candidates).  Nothing the position does not say is used: the record is all
it knows of the past, the hand all it knows of what is drawn.
"""

from __future__ import annotations

import random
import sys
from typing import TYPE_CHECKING, Any, IO, Iterator, Optional

import typer

from grn import __version__
from grn.rules import registry
from grn.bots.protocol import VERSION, Budget, ProtocolError, Query, read_go, read_query
from grn.bots.seen import listed_move

if TYPE_CHECKING:
    from grn.rules.ruleset import Ruleset

#: The options ``grn engine`` offers (``setoption name NAME value VALUE``).
OPTIONS = ("Bot", "Seed")


class EngineSession:
    """One conversation with a driver: the options set, the last position, and the bots made for it."""

    def __init__(self, bot: str, out: IO[str], seed: int = 1) -> None:
        self.bot = bot
        self.seed = seed
        self.out = out
        self.query: Query | None = None
        self.moves = 0

    def say(self, *lines: str) -> None:
        self.out.write("".join(line + "\n" for line in lines))
        self.out.flush()

    def run(self, lines: Iterator[str]) -> int:
        """Answer ``lines`` until ``quit`` or their end; returns the exit code (0)."""
        for line in lines:
            words = line.split()
            if not words:
                continue
            key = words[0]
            try:
                if key == "quit":
                    return 0
                if key == "grn-engine":
                    self.handshake(words[1:])
                elif key == "setoption":
                    self.set_option(line)
                elif key == "ping":
                    self.say("pong")
                elif key == "position":
                    self.query = None
                    self.query = read_query(line, lines)
                elif key == "go":
                    self.go(read_go(line))
                else:
                    self.say(f"info string unknown command {key[:40]!r} ignored")
            except ProtocolError as exc:
                self.say(f"error {exc}")
            except Exception as exc:  # an engine answers every message: a failure is its words, not a traceback
                self.say(f"error {type(exc).__name__}: {' '.join(str(exc).split())[:300]}")
        return 0

    def handshake(self, versions: list[str]) -> None:
        if versions and versions[0].isdigit() and int(versions[0]) < VERSION:
            self.say(f"error grn engine speaks protocol {VERSION}, not {versions[0]}")
            return
        self.say(f"id name grn {__version__} {self.bot}", "id author grn",
                 f"option name Bot type string default {self.bot}",
                 f"option name Seed type spin default {self.seed} min 0 max 2147483647", f"ready {VERSION}")

    def set_option(self, line: str) -> None:
        words = line.split()
        if len(words) < 5 or words[1] != "name" or words[3] != "value":
            raise ProtocolError(f"expected 'setoption name NAME value VALUE', not {line[:60]!r}")
        name, value = words[2], " ".join(words[4:])
        if name == "Bot":
            from grn.bots.bot import UnknownBot, check_bot_name

            try:
                check_bot_name(value)
            except UnknownBot as exc:
                raise ProtocolError(f"option Bot: {exc}") from None
            self.bot = value
        elif name == "Seed":
            if not value.isdigit() or not value.isascii():
                raise ProtocolError(f"option Seed takes a whole number, not {value[:20]!r}")
            self.seed = int(value)
        else:
            raise ProtocolError(f"no option {name!r}: the options are {', '.join(OPTIONS)}")

    def go(self, budget: Budget) -> None:
        from grn.bots.bot import make_bot
        from grn.notation.read import parse
        from grn.rules.position import PositionError, position_at

        query = self.query
        if query is None:
            raise ProtocolError("'go' before a 'position'")
        if not query.moves:
            raise ProtocolError("the position lists no legal move")
        records = parse(query.record, file="<position>")
        if len(records) != 1:
            raise ProtocolError(f"the position's record holds {len(records)} games, not one")
        try:
            position = position_at(records[0])
        except PositionError as exc:
            raise ProtocolError(f"the position's record: {exc}") from None
        ruleset = registry.find_ruleset(records[0].game)
        if ruleset.name != query.game:
            raise ProtocolError(f"the position names the game {query.game!r}, its record {ruleset.name!r}")
        state = position.state
        if state.current_player != query.player:
            raise ProtocolError(f"the record has {state.current_player} to move, not {query.player}")
        seconds = None
        if budget.movetime is not None:  # a margin for the replay and the pipes: the answer must come in time
            seconds = max(0.02, budget.movetime / 1000 * 0.7 - 0.05)
        bot = make_bot(self.bot, ruleset, playouts=budget.playouts, seconds=seconds)
        self.moves += 1
        rng = random.Random(f"{self.seed}:{len(records[0].turns)}")
        decision = bot.choose(state, rng, query.hand)
        move = ruleset.move_text(state, decision)
        self.say(*self.infos(bot, ruleset, state, query))
        listed = listed_move(move, query.moves)
        if listed != move:
            self.say(f"info string {bot.name} chose {move!r}, not a listed move: playing {listed!r}")
        self.say(f"bestmove {listed}")

    def infos(self, bot: Any, ruleset: Ruleset, state: Any, query: Query) -> list[str]:
        """The ``info`` lines of what the bot's search found (none when it did not search)."""
        estimates = list(getattr(bot, "last_estimates", ()) or ())
        if not estimates:
            return [f"info string {bot.name} chose without a search"]
        most = max(e.playouts for e in estimates)
        finalists = sorted((e for e in estimates if e.playouts == most), key=lambda e: -e.mean)
        best = finalists[0]
        used = sum(e.playouts for e in estimates)
        out = [f"info margin {best.mean:.2f} error {best.se:.2f} win {_win(best.samples):.3f} playouts {used}"]
        named: set[str] = set()
        for e in finalists:
            move = listed_move(ruleset.move_text(state, e.decision), query.moves)
            if move in named:
                continue
            named.add(move)
            out.append(f"info candidate {len(named)} margin {e.mean:.2f} error {e.se:.2f} "
                       f"win {_win(e.samples):.3f} move {move}")
            if len(named) == 3:
                break
        return out


def _win(samples: Any) -> float:
    """The share of playouts whose projected margin is positive, a tie counted half (R365)."""
    xs = list(samples)
    if not xs:
        return 0.5
    return (sum(1 for x in xs if x > 0) + 0.5 * sum(1 for x in xs if x == 0)) / len(xs)


def _lines(stream: IO[str]) -> Iterator[str]:
    while True:
        line = stream.readline()
        if not line:
            return
        yield line.rstrip("\r\n")


def register(app: typer.Typer) -> None:
    """Add ``grn engine`` to ``app``."""

    @app.command("engine")
    def engine_command(
        bot: str = typer.Option("mcts", "--bot", help="Which of grn's bots answers: random, greedy, mcts, "
                                                       "mcts:LEVEL, or a level to play against (beginner, casual, "
                                                       "easy, normal, strong, master)."),
        seed: int = typer.Option(1, "--seed", help="The same seed and positions give the same moves."),
    ) -> None:
        """Speak the engine protocol (docs/protocol.md) on standard input and output with one of grn's bots.

        Example: grn arena 'engine:grn engine --bot greedy' mcts --game carcassonne
        """
        from grn.bots.bot import BOTS, PLAY_LEVELS, UnknownBot, check_bot_name

        try:
            check_bot_name(bot)
        except UnknownBot as exc:
            print(f"grn engine: --bot must be one of {', '.join(BOTS)}, mcts:LEVEL or a level to play against "
                  f"({', '.join(PLAY_LEVELS)}): {exc}", file=sys.stderr)
            raise typer.Exit(2)
        raise typer.Exit(EngineSession(bot, sys.stdout, seed).run(_lines(sys.stdin)))


def main(argv: Optional[list[str]] = None) -> None:  # pragma: no cover - python -m grn.cli.engine
    app = typer.Typer()
    register(app)
    app(argv)


__all__ = ["register", "EngineSession", "OPTIONS"]
