"""A Gold Rush turn's choices after the tile (:mod:`grn.rules.choices`): step 2, and the token faces (chance).

Every option comes from the engine: the step-2 actions are
:meth:`~grn.games.goldrush.moves.Moves.legal_followups`; the face of a mined
token and of each token a scoring hands out is asked (or left unknown, ``?``,
as GRN allows; a chance point of the pool ``tokens``) and the whole turn is
tried on a copy before it is offered.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from grn.rules.choices import ChoiceError, Option, Step, finished
from grn.core.errors import IllegalAction
from grn.games.goldrush.commands import Mine, PlaceCowboy, PlaceTent, RevealTokens
from grn.games.goldrush.events import TokensTaken
from grn.games.tiling.commands import PlaceTile
from grn.notation.writer import command_text

if TYPE_CHECKING:
    from grn.rules.engine import Event
    from grn.core.record import Command
    from grn.rules.ruleset import Ruleset
    from grn.games.goldrush.rules import GoldRushState

UNKNOWN = "?"


def _markup(placement: PlaceTile, command: Command) -> str:
    if isinstance(command, PlaceCowboy):
        return f"highlight {placement.x},{placement.y}:{command.location}"
    if isinstance(command, PlaceTent):
        where = f":{command.location}" if command.location else ""
        return f"highlight {command.x},{command.y}{where}"
    return ""


def _faces(engine: GoldRushState) -> list[int]:
    return sorted(engine.tileset.token_counts)


def _try(engine: GoldRushState, actions: list[Command]) -> list[Event] | None:
    try:
        return engine.after(engine.current_player, actions)[1]
    except IllegalAction:
        return None


def followup_step(ruleset: Ruleset, engine: GoldRushState, before: tuple[Command, ...], placement: PlaceTile,
                  picked: Sequence[str], memo: dict[Any, Any] | None = None) -> Step:
    """Step 2 (nothing, a cowboy, the tent, mining), the mined token's face, the faces handed out
    (``memo``: the walker's, which keeps each placement's step 2)."""
    scene = (f"ghost {placement.tile}@{placement.x},{placement.y}:{placement.rotation}",)
    key = ("followups", placement.tile, placement.x, placement.y, placement.rotation)
    options: dict[str, tuple[Any, Option]] | None = memo.get(key) if memo is not None else None
    if options is None:
        options = {}
        for f in engine.legal_followups(placement):
            if f is None:
                options["none"] = (None, Option("none", "nothing more"))
            else:
                word = command_text(f, ruleset)
                options[word] = (f, Option(word, ruleset.action_words(f), _markup(placement, f), command=f))
        if memo is not None:
            memo[key] = options
    if not picked:
        return Step("Step 2: a cowboy, the tent, mining, or nothing?", tuple(o for _, o in options.values()),
                    scene=scene)
    if picked[0] not in options:
        raise ChoiceError(f"{picked[0]!r} cannot follow {command_text(placement, ruleset)}")
    follow = options[picked[0]][0]
    actions: list[Command] = [*before, placement] + ([follow] if follow is not None else [])
    rest = list(picked[1:])
    if isinstance(follow, Mine):
        if not rest:
            offered = [Option(UNKNOWN, "face not known")]
            for v in _faces(engine):
                if _try(engine, [*actions[:-1], Mine(v)]) is not None:
                    offered.append(Option(str(v), f"worth {v}"))
            return Step("Which token was mined?", tuple(offered), scene=scene, chance="tokens")
        word = rest.pop(0)
        if word != UNKNOWN and not (word.isdigit() and int(word) in _faces(engine)):
            raise ChoiceError(f"{word!r} is not a token's face")
        actions[-1] = Mine(None if word == UNKNOWN else int(word))
    events = _try(engine, actions)
    if events is None:
        raise ChoiceError("that token cannot be mined here")
    handed = sum(e.count for e in events if isinstance(e, TokensTaken))
    faces: list[int | None] = []
    for word in rest[:handed]:
        if word != UNKNOWN and not (word.isdigit() and int(word) in _faces(engine)):
            raise ChoiceError(f"{word!r} is not a token's face")
        faces.append(None if word == UNKNOWN else int(word))
    if len(rest) > handed:
        raise ChoiceError(f"{rest[handed]!r} is not a choice here: the turn is whole")
    if len(faces) < handed:
        offered = [Option(UNKNOWN, "face not known")]
        for v in _faces(engine):
            if _try(engine, [*actions, RevealTokens(tuple([*faces, v] + [None] * (handed - len(faces) - 1)))]) is not None:
                offered.append(Option(str(v), f"worth {v}"))
        return Step(f"Scoring hands out {handed} mining token{'s' if handed > 1 else ''}: "
                    f"the face of token {len(faces) + 1}?", tuple(offered), scene=scene, chance="tokens")
    if handed:
        actions.append(RevealTokens(tuple(faces)))
    if _try(engine, actions) is None:
        raise ChoiceError("those token faces cannot be")
    return finished(tuple(actions), "; ".join(ruleset.action_words(a) for a in actions), scene=scene)
