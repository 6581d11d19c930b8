"""Gold's puzzle themes (``grn puzzles``): what the cards a solution turned over did, from its events."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from grn.games.gold.rules import CardRemoved, CardsReturned, GoldTaken

if TYPE_CHECKING:
    from grn.games.gold.rules import GoldState
    from grn.core.record import Command
    from grn.rules.engine import Event

#: Every theme a Gold puzzle may carry, in the order they are listed.
THEMES = ("duel", "blocked miner", "gold out", "dynamite")


def themes(before: GoldState, after: GoldState, player: str, actions: Sequence[Command],
           events: Sequence[Event]) -> tuple[str, ...]:
    """The themes of ``player``'s turn (:meth:`grn.rules.ruleset.Puzzles.themes`): a ``duel`` (a miner beats
    another), a ``blocked miner`` (a miner turned beside gold worth more, or beside a miner of its own value,
    goes back face down: R401), ``gold out`` (gold carried out), ``dynamite`` (two cards blown away)."""
    found: set[str] = set()
    for e in events:
        if isinstance(e, CardRemoved):
            if e.reason.startswith("defeated by"):
                found.add("duel")
            elif e.reason == "dynamite":
                found.add("dynamite")
        elif isinstance(e, CardsReturned) and e.reason in ("the miner is weaker than the gold",
                                                           "two miners of the same value"):
            found.add("blocked miner")
        elif isinstance(e, GoldTaken) and e.player == player:
            found.add("gold out")
    return tuple(t for t in THEMES if t in found)


__all__ = ["THEMES", "themes"]
