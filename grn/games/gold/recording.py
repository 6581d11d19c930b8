"""A turn of Gold's choices (:mod:`grn.rules.choices`): a face-down card, then what it showed (a chance point).

The places offered are the engine's :meth:`~GoldState.legal_flips`; a card seen
before can only show what it showed then, and a card never seen any face of
the card list not yet seen (:meth:`~GoldState.unseen_cards`, less the faces
already given this turn).  The whole turn is tried on a copy before it is offered.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from grn.rules.choices import ChoiceError, Option, Step, finished
from grn.core.errors import IllegalAction
from grn.games.gold.commands import Card, FlipCard, card_text

if TYPE_CHECKING:
    from grn.rules.ruleset import Ruleset
    from grn.games.gold.rules import GoldState


def _face_order(card: Card) -> tuple[int, str, int]:
    return ({"gold": 0, "miner": 1, "dynamite": 2}[card.kind], card.colour or "", card.value)


def turn_step(ruleset: Ruleset, engine: GoldState, picked: Sequence[str], memo: dict[Any, Any] | None = None) -> Step:
    """Places and faces in turn, as many cards as the turn turns over (two, one in the Gold Rush); ``memo``
    (a walker's) keeps what the position gives (the places, the faces) for the points below."""
    if engine.is_over:
        return Step("The game is over: no card is left on the table")
    memo = {} if memo is None else memo
    facts = memo.get("position")
    if facts is None:
        facts = memo["position"] = (engine.flips_due, engine.legal_flips(), engine.known_faces(),
                                    engine.unseen_cards())
    due, legal, known, unseen = facts
    flips: list[FlipCard] = []
    words = list(picked)
    i = 0
    while len(flips) < due:
        taken = {f.pos for f in flips}
        if i == len(words):
            prompt = "Tap a face-down card to turn over" if not flips else "Tap the second card"
            return Step(prompt, tuple(Option(p, p, f"highlight {p}") for p in legal if p not in taken),
                        scene=tuple(f"highlight {f.pos} green" for f in flips))
        pos = words[i]
        if pos not in legal or pos in taken:
            raise ChoiceError(f"{pos!r} is not a face-down card left to turn")
        i += 1
        shown = tuple(f.face for f in flips if f.pos not in known)
        key = ("faces", pos if pos in known else None, shown)
        faces = memo.get(key)
        if faces is None:
            if pos in known:
                faces = {card_text(known[pos]): known[pos]}
            else:
                left = dict(unseen)
                for c in shown:
                    left[c] -= 1
                faces = {card_text(c): c for c in sorted((c for c, n in left.items() if n > 0), key=_face_order)}
            memo[key] = faces
        if i == len(words):
            # the faces are buttons only: the card tapped is shown, not a target per face
            offered = memo.get(("offered", pos, shown))
            if offered is None:
                offered = memo[("offered", pos, shown)] = tuple(
                    Option(w, ruleset.action_words(FlipCard(pos, c)).split(": ", 1)[-1], command=FlipCard(pos, c))
                    for w, c in faces.items())
            return Step(f"What did {pos} show?", offered,
                        scene=tuple(f"highlight {p} green" for p in [*(f.pos for f in flips), pos]), chance="cards")
        face = faces.get(words[i])
        if face is None:
            raise ChoiceError(f"{pos} cannot show {words[i]!r}")
        i += 1
        flips.append(FlipCard(pos, face))
    if i < len(words):
        raise ChoiceError(f"{words[i]!r} is not a choice here: the turn is whole")
    try:
        engine.after(engine.current_player, flips)
    except IllegalAction as exc:
        raise ChoiceError(exc.message) from None
    return finished(tuple(flips), "; ".join(ruleset.action_words(f) for f in flips),
                    scene=tuple(f"highlight {f.pos} green" for f in flips))
