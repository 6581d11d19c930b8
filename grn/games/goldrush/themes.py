"""Gold Rush's puzzle themes (``grn puzzles``): what a solution did, from its score events and its shape."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from grn.games.goldrush.commands import Mine, PlaceTent
from grn.games.goldrush.events import TokenMined, TokensTaken
from grn.games.tiling.events import ScoreEvent
from grn.games.tiling.themes import placement_facts

if TYPE_CHECKING:
    from grn.games.goldrush.rules import GoldRushState
    from grn.core.record import Command
    from grn.rules.engine import Event

#: Every theme a Gold Rush puzzle may carry, in the order they are listed.
THEMES = ("mountain tokens", "locomotive", "tent", "close a city", "close a railroad", "prairie",
          "steal a feature", "join a feature", "blocked feature")


def themes(before: GoldRushState, after: GoldRushState, player: str, actions: Sequence[Command],
           events: Sequence[Event]) -> tuple[str, ...]:
    """The themes of ``player``'s turn ``actions`` (:meth:`grn.rules.ruleset.Puzzles.themes`)."""
    found: set[str] = set()
    for e in events:
        if isinstance(e, TokensTaken) and e.player == player and e.count:
            found.add("mountain tokens")  # a completed mountain's tokens (step 3)
        if isinstance(e, ScoreEvent) and e.player == player and e.points > 0 and not e.final:
            counts = dict(e.counts)
            if e.feature == "railroad":
                found.add("locomotive" if counts.get("locomotives", 0) == 1 else "close a railroad")
            elif e.feature == "city":
                found.add("close a city")
            elif e.feature == "mountain":
                found.add("mountain tokens")
        if isinstance(e, TokenMined) and e.player == player:
            found.add("tent")
    if any(isinstance(a, (PlaceTent, Mine)) for a in actions):
        found.add("tent")
    facts = placement_facts(before, after, player, actions)
    if facts.figure == "prairie":
        found.add("prairie")
    found |= facts.shape_themes()
    return tuple(t for t in THEMES if t in found)


__all__ = ["THEMES", "themes"]
