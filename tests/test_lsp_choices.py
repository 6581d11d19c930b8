"""The editor offers Gold's choices from the recorder's (``Ruleset.turn_step``): every face offered is one the
engine takes, and a face whose every copy is already seen elsewhere is not offered for a card never seen (R169)."""

from __future__ import annotations

from grn import games
from grn.core.errors import IllegalAction
from grn.games.gold.commands import FlipCard, card_text
from grn.rules.position import position_at
from grn.rules.selfplay import to_record

GOLD = games.find_ruleset("gold")
RECORD = to_record(GOLD.selfplay(2, 1))


def positions() -> list:
    return [position_at(RECORD, turn.number - 1).state for turn in RECORD.turns[4:24]]



def test_a_face_seen_elsewhere_on_every_copy_is_not_offered_for_a_card_never_seen() -> None:
    checked = 0
    for state in positions():
        known = state.known_faces()
        never = [p for p in state.legal_flips() if p not in known]
        # faces that lie face down somewhere but whose copies are all accounted for by what was seen
        spent = [c for c in state.face_down_cards() if c not in state.unseen_cards()]
        for pos in never[:2]:
            offered = {s.text.split("=", 1)[1] for s in GOLD.suggestions(state, state.current_player, [], f"{pos}=")}
            assert offered == {card_text(c) for c in state.unseen_cards()}
            for card in spent:
                assert card_text(card) not in offered
                try:
                    state.copy().play_turn(state.current_player, [FlipCard(pos, card), *_a_second(state, pos)])
                except IllegalAction:
                    checked += 1  # the engine refuses what the editor no longer offers
                else:
                    raise AssertionError(f"{card_text(card)} at {pos} is legal but was not offered")
    assert checked >= 5


def _a_second(state, first: str) -> list[FlipCard]:
    """A second card for a two-card turn that is legal on its own (a face seen there, or one never seen)."""
    if state.flips_due < 2:
        return []
    known = state.known_faces()
    pos = next(p for p in state.legal_flips() if p != first)
    face = known.get(pos) or next(iter(state.unseen_cards()))
    return [FlipCard(pos, face)]


def test_every_turn_the_editor_offers_is_a_turn_the_engine_takes() -> None:
    """Each place offered, each face offered for it, then for the second card each place and face offered
    after it: the engine takes the whole turn."""
    for state in positions()[:6]:
        player = state.current_player
        for place in GOLD.suggestions(state, player, [], "")[:3]:
            for face in GOLD.suggestions(state, player, [], place.text)[:4]:
                pos, word = face.text.split("=")
                first = FlipCard(pos, _card(state, word))
                if state.flips_due < 2:
                    state.copy().play_turn(player, [first])
                    continue
                seconds = GOLD.suggestions(state, player, [first], "")
                assert pos not in {s.text.rstrip("=") for s in seconds}  # a card turned this turn is left out
                for place2 in seconds[:2]:
                    for face2 in GOLD.suggestions(state, player, [first], place2.text):
                        pos2, word2 = face2.text.split("=")
                        state.copy().play_turn(player, [first, FlipCard(pos2, _card(state, word2))])


def _card(state, word: str):
    faces = {card_text(c): c for c in state.face_down_cards()}
    return faces[word]
