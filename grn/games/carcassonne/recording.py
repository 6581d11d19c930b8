"""A Carcassonne turn's choices after the placement (:mod:`grn.rules.choices`): the second gold ingot, then a follower.

The options come from the engine (:func:`~grn.games.carcassonne.rules.ingot_options`, :meth:`follower_options`)
and the whole turn is tried on a copy before it is offered.  Gold is taken by
the default choice (as self-play and the bots do, R37, R102), so no ``take@`` is
asked: it is another taker's choice, which only the editor offers (R420).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from grn.rules.choices import ChoiceError, Option, Step, finished
from grn.core.errors import IllegalAction
from grn.games.carcassonne.rules import ingot_options
from grn.games.tiling.commands import PlaceTile
from grn.notation.writer import command_text

if TYPE_CHECKING:
    from grn.core.record import Command
    from grn.games.carcassonne.rules import CarcassonneState
    from grn.rules.ruleset import Ruleset

NONE = "none"


def followup_step(ruleset: Ruleset, engine: CarcassonneState, before: tuple[Command, ...], placement: PlaceTile,
                  picked: Sequence[str], memo: dict[Any, Any] | None = None) -> Step:
    """The second ingot of a Gold Mines tile (when it has one), then a follower or none (``memo``: the
    walker's, which keeps each placement's options)."""
    scene = (f"ghost {placement.tile}@{placement.x},{placement.y}:{placement.rotation}",)
    actions: list[Command] = [*before, placement]
    rest = list(picked)
    key = ("followups", placement.tile, placement.x, placement.y, placement.rotation)
    known = memo.get(key) if memo is not None else None
    if known is None:
        known = (ingot_options(engine, placement), engine.follower_options(placement))
        if memo is not None:
            memo[key] = known
    ingots = {command_text(i, ruleset): i for i in known[0]}
    if ingots:
        if not rest:
            return Step("Where does the second gold ingot go?",
                        tuple(Option(w, ruleset.action_words(i), f"highlight {i.x},{i.y}", command=i)
                              for w, i in ingots.items()),
                        scene=scene)
        word = rest.pop(0)
        if word not in ingots:
            raise ChoiceError(f"{word!r} is not a tile next to the new one")
        actions.append(ingots[word])
    followers = {command_text(f, ruleset): f for f in known[1]}
    if not rest:
        offered = [Option(NONE, "no follower")]
        offered += [Option(w, ruleset.action_words(f), f"highlight {placement.x},{placement.y}:{f.location}",
                           command=f) for w, f in followers.items()]
        return Step("A follower on the new tile?", tuple(offered), scene=scene)
    word = rest.pop(0)
    if word != NONE:
        if word not in followers:
            raise ChoiceError(f"{word!r} is not a free feature of the new tile")
        actions.append(followers[word])
    if rest:
        raise ChoiceError(f"{rest[0]!r} is not a choice here: the turn is whole")
    try:
        engine.after(engine.current_player, actions)
    except IllegalAction as exc:
        raise ChoiceError(exc.message) from None
    return finished(tuple(actions), "; ".join(ruleset.action_words(a) for a in actions), scene=scene)
