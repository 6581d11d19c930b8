"""The contract between grn and a game's rules engine: :class:`Engine` and its :class:`Event` values.

An engine holds one game in progress.  The validator, positions, drawing and
self-play use only what this base class declares; every hook but the core
four (:attr:`scores`, :attr:`current_player`, :meth:`play_turn`,
:meth:`copy`) has a default, as python-chess's ``Board`` has for its
variants.  Engines raise :class:`~grn.core.errors.IllegalAction` for an illegal
command and leave the game as it was.
"""

from __future__ import annotations

from typing import Any, Sequence

from mypy_extensions import mypyc_attr

from grn.core.errors import IllegalAction
from grn.core.value import Value


def not_playing(player: str, players: Sequence[str], *, section: str | None, span: Any = None,
                rule: str = "players") -> IllegalAction:
    """The refusal of a turn or set-up by someone who is not at the table (every game words it so)."""
    return IllegalAction(f"{player} is not playing", rule=rule, section=section, span=span,
                         hint="the players are " + ", ".join(players))


# Engines of games outside the compiled modules subclass it.
@mypyc_attr(allow_interpreted_subclasses=True)
class Event(Value):
    """Something a turn (or the final scoring) did: points scored, tokens taken, a tile discarded.

    :meth:`describe` says it in a sentence for ``--explain`` and the page;
    :meth:`to_json` gives its fields for archives and tools.
    """

    __slots__ = ()

    def describe(self) -> str:
        """The event as a short sentence, e.g. "blue scores 8 for a completed railroad of 4 tiles"."""
        return repr(self)

    def nothing_for(self) -> str | None:
        """When the event scored nothing: who and what, for a report's one "no points for ..." line
        (a final scoring lists every unfinished feature; a reader wants the ones that count).
        Default: None, the event is always said in full."""
        return None

    def to_json(self) -> dict[str, Any]:
        """``{"type": <class name>, <field>: <value>, ...}``: the event as plain data."""
        out: dict[str, Any] = {"type": type(self).__name__}
        for name in self._fields:
            value = getattr(self, name)
            out[name] = list(value) if isinstance(value, tuple) else value
        return out


@mypyc_attr(allow_interpreted_subclasses=True)
class Engine:
    """A game in progress.  Subclass it for a game; players are named by their key colour."""

    __slots__ = ()

    # -- what every game has ----------------------------------------------
    @property
    def scores(self) -> dict[str, int]:
        """Points per player so far."""
        raise NotImplementedError

    @property
    def current_player(self) -> str:
        """The player whose turn it is."""
        raise NotImplementedError

    def play_turn(self, player: str, actions: Sequence[Any]) -> list[Any]:
        """Play one turn; returns its events.  Raises IllegalAction and changes nothing when illegal."""
        raise NotImplementedError

    def copy(self) -> "Engine":
        """An independent copy (for variations and search)."""
        raise NotImplementedError

    def after(self, player: str, actions: Sequence[Any]) -> tuple["Engine", list[Any]]:
        """Play a turn on a copy: ``(new_state, events)``; this state is unchanged."""
        branch = self.copy()
        return branch, branch.play_turn(player, actions)

    # -- hooks with defaults --------------------------------------------------
    @property
    def is_over(self) -> bool:
        """The game has ended (final scoring may follow).  Default: never."""
        return False

    @property
    def is_blocked(self) -> bool:
        """The game can no longer reach its end (a ruling of the game's).  Default: False."""
        return False

    def blocked_note(self) -> str | None:
        """What a report says of a record that stops where the game can no longer end (None: not blocked)."""
        return "the game can no longer reach its end (see docs/rulings.md)" if self.is_blocked else None

    def setup(self, player: str, actions: Sequence[Any]) -> None:
        """Set up a position directly (turn 0 of a record).  Default: the game has no set-up turns."""
        raise IllegalAction("this game has no set-up turns (turn 0)", code="setup")

    def set_scores(self, scores: dict[str, int]) -> None:
        """Overwrite scores (a set-up turn's score checkpoint).  Default: the game has no set-up turns."""
        raise IllegalAction("this game has no set-up turns (turn 0)", code="setup")

    def final_scoring(self) -> list[Any]:
        """Score the end of the game once it :attr:`is_over`; returns the events.  Default: nothing to score."""
        return []

    def projected_scores(self) -> dict[str, int]:
        """Each player's final score if the game ended now: the scores after :meth:`final_scoring` on a copy
        (this state is unchanged)."""
        branch = self.copy()
        branch.final_scoring()
        return branch.scores

    def score_ranges(self) -> dict[str, tuple[int, int]]:
        """Lowest and highest possible score per player, when hidden values are unknown.  Default: exact."""
        return {p: (s, s) for p, s in self.scores.items()}
