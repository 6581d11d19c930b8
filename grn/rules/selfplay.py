"""Random legal games, reproducible from a seed, for tests and benchmarks.

Each game's ruleset plays them (:meth:`grn.rules.ruleset.Ruleset.selfplay`, usually
a ``selfplay`` module in the game's package) at the engine level: commands,
not text.  :func:`to_record` turns the result into a GRN record.
"""

from __future__ import annotations

from dataclasses import dataclass, field


from grn.core import registry
from grn.core.record import Checkpoint, Command, Record, Turn


@dataclass(frozen=True, slots=True)
class PlayedTurn:
    """One turn of a self-played game: who played, what, and the scores after it."""

    player: str
    actions: tuple[Command, ...]
    scores: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class SelfPlayGame:
    """A complete self-played game: the seat order, its turns and the final scores."""

    game: str
    players: tuple[str, ...]
    turns: tuple[PlayedTurn, ...]
    final_scores: dict[str, int]
    options: dict[str, str] = field(default_factory=dict)
    #: The colours each player owns (Gold with two players: two each); empty: one each.
    colours: tuple[tuple[str, ...], ...] = ()


_NAMES = ("Ada", "Bo", "Cy", "Di", "Ed")


def to_record(game: SelfPlayGame, *, seed: int | None = None, checkpoints: bool = True) -> "Record":
    """A GRN record of a self-played game: tags, every turn, score checkpoints, Result.

    A checkpoint is written after each turn that changed a score, as a player
    keeping a score sheet would.
    """
    owned = game.colours or tuple((c,) for c in game.players)
    players = ", ".join(f"{_NAMES[i]} ({'+'.join(cols)})" for i, cols in enumerate(owned))
    tags: list[tuple[str, str]] = [("Game", game.game), ("Event", "grn selfplay")]
    if seed is not None:
        tags.append(("Round", str(seed)))
    tags.append(("Players", players))
    # Only rule options go into the Options tag (self-play keeps other facts there too).
    rule_options = registry.find_ruleset(game.game).option_names
    options = {k: v for k, v in game.options.items() if k in rule_options}
    if options:
        tags.append(("Options", ", ".join(f"{k}={v}" for k, v in options.items())))
    tags.append(("Result", ", ".join(f"{p} {s}" for p, s in game.final_scores.items())))
    turns = []
    previous: dict[str, int] = {}
    for number, played in enumerate(game.turns, start=1):
        extras: tuple = ()
        if checkpoints and played.scores and played.scores != previous:
            extras = (Checkpoint(tuple(played.scores.items())),)
            previous = dict(played.scores)
        turns.append(Turn(number, played.player, played.actions, extras))
    return Record(tuple(tags), tuple(turns))
