"""``grn arena``: duplicate matches between two bots, and self-play by a bot (``grn selfplay --bot``)."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any, Optional

import typer

from grn import registry
from grn.bots.bot import LEVELS, UnknownBot, make_bot
from grn.record import parse_options
from grn.ruleset import Ruleset, SetupProblem
from grn.world import NoBot

if TYPE_CHECKING:
    from grn.selfplay import SelfPlayGame


def _fail(command: str, message: str, code: int = 2) -> typer.Exit:
    print(f"{command}: {message}", file=sys.stderr)
    return typer.Exit(code)


def bot_selfplay(ruleset: Ruleset, bot_name: str, players: int, seed: int, options: Any = None) -> "SelfPlayGame":
    """A game in which every seat is played by the bot ``bot_name`` (the deal and the choices from ``seed``)."""
    # the arena's modules load when a game is played (CLI layer: grn starts faster)
    from grn.bots.arena import play_game

    bots = [make_bot(bot_name, ruleset) for _ in range(players)]
    return play_game(ruleset, bots, seed, seed, players=players, options=options).game


def register(app: typer.Typer) -> None:
    """Add ``grn arena`` to ``app``."""

    @app.command("arena")
    def arena_command(
        first: str = typer.Argument(..., help="The first bot: random, greedy or mcts (mcts:deep names a level)."),
        second: str = typer.Argument(..., help="The second bot."),
        game: Optional[str] = typer.Option(None, "--game", help="Which game (default: the first known one)."),
        deals: int = typer.Option(10, "--deals", help="Deals to play, each once per seating (2 games a deal)."),
        seed: int = typer.Option(1, "--seed", help="The same seed gives the same deals and choices."),
        options: Optional[str] = typer.Option(None, "--options", help="The game's options, as its Options tag writes them."),
        format: str = typer.Option("text", "--format", help="text or json."),
    ) -> None:
        """Duplicate matches between two bots (2 players): wins, mean margin, Elo difference with its 95% interval.

        Example: grn arena mcts greedy --game carcassonne --deals 50
        """
        if format not in ("text", "json"):
            raise _fail("grn arena", f"--format must be text or json, not {format!r}")
        if not 1 <= deals <= 100_000:
            raise _fail("grn arena", f"--deals must be from 1 to 100000, not {deals}")
        try:
            ruleset = registry.find_ruleset(game)
        except registry.UnknownGame:
            raise _fail("grn arena", f"--game must be one of {', '.join(registry.names())}, not {game!r}")
        try:
            opts = ruleset.parse_options(parse_options(options or ""))
            bots = [make_bot(first, ruleset), make_bot(second, ruleset)]
        except SetupProblem as exc:
            raise _fail("grn arena", exc.message)
        except UnknownBot as exc:
            raise _fail("grn arena", str(exc))
        try:
            from grn.bots.arena import match

            from grn.clicommon import Progress

            # on a terminal, a bar of the games played with the time left (R357); nothing when piped
            with Progress(f"{first} v {second}", 2 * deals) as bar:
                result = match(ruleset, bots[0], bots[1], deals, seed, options=opts,
                               progress=lambda game: bar.step())
        except NoBot as exc:
            raise _fail("grn arena", str(exc), 1)
        if format == "json":
            print(json.dumps({"game": ruleset.name, "deals": deals, "seed": seed, **result.to_json()}))
        else:
            print(f"{ruleset.name}: {result.summary()}")


__all__ = ["register", "bot_selfplay", "LEVELS"]
