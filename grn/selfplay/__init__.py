"""Random legal games, reproducible from a seed, for tests and benchmarks.

Each game module exposes ``play(players, seed, ...) -> SelfPlayGame`` working at
the engine level (commands, not text); :mod:`grn.cli` turns the result into a
GRN record.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from grn.commands import Command


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
