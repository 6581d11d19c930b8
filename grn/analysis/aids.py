"""What a position says to a player beyond the rules (the aids JCloisterZone users ask for): each player's
projected final score if the game ended now, and for each open place how many of the pieces left fit it.

Generic: the engine's :meth:`~grn.rules.engine.Engine.projected_scores` and the ruleset's
:meth:`~grn.rules.ruleset.Ruleset.open_squares` say it; ``grn show`` and the viewer print it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from grn.rules.ruleset import PositionLike


@dataclass(frozen=True)
class Aids:
    """``projected``: each player's score if the game ended now (None once the game's final scoring is in the
    position); ``open``: each open place and how many pieces left fit it (empty: the game says nothing)."""

    projected: dict[str, int] | None
    open: dict[str, int]

    @property
    def unfillable(self) -> list[str]:
        """The open places no piece left can fill."""
        return [k for k, n in self.open.items() if n == 0]

    def __repr__(self) -> str:
        return f"<Aids projected={self.projected} {len(self.open)} open, {len(self.unfillable)} unfillable>"


def position_aids(position: PositionLike) -> Aids:
    """The aids of ``position`` (a :class:`grn.rules.position.Position`)."""
    state = position.state
    projected = None if position.final else dict(state.projected_scores())
    still = not position.final and not state.is_over
    ruleset = position.ruleset
    assert ruleset is not None  # a replayed position knows its game
    return Aids(projected, ruleset.open_squares(position) if still else {})


def aids_lines(position: PositionLike) -> list[str]:
    """The aids as the lines ``grn show`` prints."""
    aids = position_aids(position)
    names = {s.key: s.name for s in position.seats}
    lines = []
    if aids.projected is not None and aids.projected != dict(position.state.scores):
        lines.append("  if the game ended now: "
                     + ", ".join(f"{names.get(k, k)} ({k}) {v}" for k, v in aids.projected.items()))
    elif aids.projected is not None:
        lines.append("  if the game ended now: the same scores (the final scoring would add nothing)")
    if aids.open:
        lines.append(f"  open squares, with the tiles left that fit: "
                     + "  ".join(f"{k}: {n}" for k, n in aids.open.items()))
        hole = aids.unfillable
        lines.append("  no tile left can fill: " + ("  ".join(hole) if hole else "none"))
    return lines
