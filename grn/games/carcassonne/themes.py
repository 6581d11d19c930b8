"""Carcassonne's puzzle themes (``grn puzzles``): what a solution did, from its score events and its shape."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from grn.games.carcassonne.commands import PlaceIngot, TakeIngot
from grn.games.carcassonne.events import IngotTaken
from grn.games.tiling.events import ScoreEvent
from grn.games.tiling.themes import placement_facts

if TYPE_CHECKING:
    from grn.games.carcassonne.rules import CarcassonneState
    from grn.core.record import Command
    from grn.rules.engine import Event

#: Every theme a Carcassonne puzzle may carry, in the order they are listed.
THEMES = ("close a city", "close a road", "cloister", "farm", "steal a feature", "join a feature",
          "blocked feature", "gold ingot race")


def themes(before: CarcassonneState, after: CarcassonneState, player: str, actions: Sequence[Command],
           events: Sequence[Event]) -> tuple[str, ...]:
    """The themes of ``player``'s turn ``actions`` (:meth:`grn.rules.ruleset.Puzzles.themes`)."""
    found: set[str] = set()
    for e in events:
        if isinstance(e, ScoreEvent) and e.player == player and e.points > 0 and not e.final:
            if e.feature == "city":
                found.add("close a city")
            elif e.feature == "road":
                found.add("close a road")
            elif e.feature == "cloister":
                found.add("cloister")
            elif e.feature == "gold":
                found.add("gold ingot race")
        if isinstance(e, IngotTaken) and e.player == player:
            found.add("gold ingot race")  # The Gold Mines: the ingots a closed feature hands out
    if any(isinstance(a, (PlaceIngot, TakeIngot)) for a in actions):
        found.add("gold ingot race")
    facts = placement_facts(before, after, player, actions)
    if facts.figure == "field":
        found.add("farm")
    elif facts.figure == "cloister":
        found.add("cloister")
    found |= facts.shape_themes()
    return tuple(t for t in THEMES if t in found)


__all__ = ["THEMES", "themes"]
