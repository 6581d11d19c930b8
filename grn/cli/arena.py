"""``grn arena``: duplicate matches between two bots, and self-play by a bot (``grn selfplay --bot``)."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any, Optional

import typer

from grn.rules import registry
from grn.bots.bot import LEVELS, UnknownBot, make_bot
from grn.core.record import parse_options
from grn.rules.ruleset import Ruleset, SetupProblem
from grn.rules.world import NoBot

if TYPE_CHECKING:
    from grn.rules.selfplay import SelfPlayGame


def _fail(command: str, message: str, code: int = 2) -> typer.Exit:
    print(f"{command}: {message}", file=sys.stderr)
    return typer.Exit(code)


def bot_selfplay(ruleset: Ruleset, bot_name: str, players: int, seed: int, options: Any = None) -> "SelfPlayGame":
    """A game in which every seat is played by the bot ``bot_name`` (the deal and the choices from ``seed``)."""
    # the arena's modules load when a game is played (CLI layer: grn starts faster)
    from grn.bots.arena import play_game

    bots = [_bot(bot_name, ruleset, 1000) for _ in range(players)]
    try:
        played = play_game(ruleset, bots, seed, seed, players=players, options=options)
        if played.forfeit is not None:  # the record stops where the engine failed: say so (R367)
            print(f"grn selfplay: {played.forfeit} forfeits at turn {len(played.game.turns) + 1}: "
                  f"{played.forfeit_words}; the record stops there", file=sys.stderr)
        return played.game
    finally:
        for bot in bots:
            close = getattr(bot, "close", None)
            if close is not None:
                close()


def _bot(name: str, ruleset: Ruleset, movetime: int) -> Any:
    """The bot ``name`` (:func:`grn.bots.bot.make_bot`), or an engine over the protocol, ``engine:CMD``, that
    thinks ``movetime`` ms a move (made here: the engine bot is a bot, so the bots' module cannot make it)."""
    if name.startswith("engine:"):
        from grn.bots.external import EngineBot
        from grn.bots.protocol import Budget

        return EngineBot(ruleset, name[len("engine:"):], budget=Budget(movetime=movetime))
    return make_bot(name, ruleset)


def register(app: typer.Typer) -> None:
    """Add ``grn arena`` to ``app``."""

    @app.command("arena")
    def arena_command(
        first: str = typer.Argument(..., help="The first bot: random, greedy or mcts (mcts:deep names a search "
                                              "budget), a level to play against (beginner, casual, easy, normal, "
                                              "strong, master), or engine:CMD, a program speaking the engine "
                                              "protocol."),
        second: str = typer.Argument(..., help="The second bot."),
        game: Optional[str] = typer.Option(None, "--game", help="Which game (default: the first known one)."),
        deals: int = typer.Option(10, "--deals", help="Deals to play, each once per seating (2 games a deal)."),
        seed: int = typer.Option(1, "--seed", help="The same seed gives the same deals and choices."),
        options: Optional[str] = typer.Option(None, "--options", help="The game's options, as its Options tag writes them."),
        format: str = typer.Option("text", "--format", help="text or json."),
        movetime: int = typer.Option(1000, "--movetime", help="Milliseconds an engine:CMD bot may think a move."),
    ) -> None:
        """Duplicate matches between two bots (2 players): wins, mean margin, Elo difference with its 95% interval.

        A bot 'engine:CMD' is a program that speaks the engine protocol (docs/protocol.md); a game it forfeits
        (it died, was late, answered an illegal move) counts as lost, and the engine's words are printed.

        Example: grn arena mcts greedy --game carcassonne --deals 50

        Example: grn arena easy beginner --game gold --deals 20
        """
        if format not in ("text", "json"):
            raise _fail("grn arena", f"--format must be text or json, not {format!r}")
        if not 1 <= deals <= 100_000:
            raise _fail("grn arena", f"--deals must be from 1 to 100000, not {deals}")
        try:
            ruleset = registry.find_ruleset(game)
        except registry.UnknownGame:
            raise _fail("grn arena", f"--game must be one of {', '.join(registry.names())}, not {game!r}")
        if not 1 <= movetime <= 3_600_000:
            raise _fail("grn arena", f"--movetime must be from 1 to 3600000 ms, not {movetime}")
        bots: list[Any] = []
        try:
            opts = ruleset.parse_options(parse_options(options or ""))
            bots = [_bot(first, ruleset, movetime), _bot(second, ruleset, movetime)]
            from grn.bots.arena import match
            from grn.cli.common import Progress

            # on a terminal, a bar of the games played with the time left (R357); nothing when piped
            with Progress(f"{first} v {second}", 2 * deals) as bar:
                result = match(ruleset, bots[0], bots[1], deals, seed, options=opts,
                               progress=lambda game: bar.step())
        except SetupProblem as exc:
            raise _fail("grn arena", exc.message)
        except UnknownBot as exc:
            raise _fail("grn arena", str(exc))
        except NoBot as exc:
            raise _fail("grn arena", str(exc), 1)
        except Exception as exc:
            from grn.bots.protocol import EngineError

            if isinstance(exc, EngineError):  # an engine that cannot start or shake hands: no game is played
                raise _fail("grn arena", str(exc), 1)
            raise
        finally:
            for bot in bots:
                close = getattr(bot, "close", None)
                if close is not None:
                    close()
        for line in result.forfeits:  # an engine's failure is told, and counted as a loss (R367)
            print(f"grn arena: {line}; counted as a loss", file=sys.stderr)
        if format == "json":
            print(json.dumps({"game": ruleset.name, "deals": deals, "seed": seed, **result.to_json()}))
        else:
            print(f"{ruleset.name}: {result.summary()}")


__all__ = ["register", "bot_selfplay", "LEVELS"]
