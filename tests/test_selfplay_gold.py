"""Self-played games of "Gold" (the Gold rules) replay through a fresh engine,
and corrupted records fail at exactly the corrupted turn."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings, strategies as st

from grn.games.gold.commands import Card, FlipCard
from grn.core.errors import IllegalAction
from grn.games.gold.rules import CardRemoved, CardSet, GameEnds, GoldState, GoldTaken, load_cards, match_result, seats_for
from grn.rules.selfplay import PlayedTurn, SelfPlayGame
from grn.games.gold import selfplay as sp


def fresh(game: SelfPlayGame) -> GoldState:
    return GoldState.new(seats_for(list(game.players)), first=game.options["first"])


def replay(game: SelfPlayGame, turns=None) -> GoldState:
    """Replay ``turns`` (default the game's) and check the scores after every turn."""
    s = fresh(game)
    for i, t in enumerate(turns if turns is not None else game.turns):
        try:
            s.play_turn(t.player, t.actions)
        except IllegalAction as exc:
            exc.turn_index = i  # type: ignore[attr-defined]
            raise
        assert s.scores == t.scores, i
    return s


def failing_turn(game: SelfPlayGame, turns) -> tuple[int, IllegalAction]:
    with pytest.raises(IllegalAction) as info:
        replay(game, turns)
    return info.value.turn_index, info.value  # type: ignore[attr-defined]


def truth(game: SelfPlayGame) -> dict[str, Card]:
    return sp.deal(int(game.options["deal_seed"]))


def rush_start(game: SelfPlayGame) -> int:
    return next(i for i, t in enumerate(game.turns) if len(t.actions) == 1)


GAMES = {(n, seed): sp.play(n, seed) for n in (2, 3, 4, 5) for seed in (1, 7, 2024)}


@pytest.mark.parametrize("key", sorted(GAMES))
def test_selfplay_completes_and_replays_to_the_same_scores(key):
    """"The game ends when the last card has been removed from the table.\""""
    game = GAMES[key]
    s = replay(game)
    assert s.is_over and s.face_down() == [] and len(s.removed()) == 64
    assert s.scores == game.final_scores == game.turns[-1].scores
    assert game.options["winners"].split() == s.winners()
    # every gold ends under a mine entrance or is blown away by dynamite
    e = fresh(game)
    events = [ev for t in game.turns for ev in e.play_turn(t.player, t.actions)]
    taken = [ev for ev in events if isinstance(ev, GoldTaken)]
    blown = [ev for ev in events if isinstance(ev, CardRemoved) and ev.card.kind == "gold"]
    assert all(ev.reason == "dynamite" for ev in blown)
    assert len(taken) == sum(s.gold_cards.values()) and len(taken) + len(blown) == 24
    assert sum(ev.card.value for ev in taken + blown) == 5 + 14 + 21 + 20
    assert isinstance(events[-1], GameEnds) and list(events[-1].winners) == s.winners()
    # every card is revealed exactly as dealt
    deal = truth(game)
    assert all(fl.face == deal[fl.pos] for t in game.turns for fl in t.actions)


@pytest.mark.parametrize("key", sorted(GAMES))
def test_selfplay_gold_rush_starts_at_ten_or_fewer_face_down(key):
    """"If there are 10 or fewer cards still face down when it is the beginning of your turn ...
    each player only picks one card when it is their turn.\""""
    game = GAMES[key]
    s = fresh(game)
    r = rush_start(game)
    for i, t in enumerate(game.turns):
        down = len(s.face_down())
        assert len(t.actions) == (1 if i >= r else 2)
        assert (down <= 10) == (i >= r)
        s.play_turn(t.player, t.actions)
    assert s.rush_turn == r + 1


def test_selfplay_seats_and_players():
    """"If there are only two players, each of them should pick two colors.\""""
    g2 = GAMES[(2, 1)]
    assert g2.players == ("red", "green") and g2.options["colours"] == "red=red+yellow green=green+blue"
    assert GAMES[(5, 1)].players == ("red", "yellow", "green", "blue", "black")
    g = sp.play(["blue", "red", "black"], 3)
    assert g.players == ("blue", "red", "black") and g.turns[0].player == "blue"
    assert replay(g).is_over
    assert {t.player for t in g2.turns} == {"red", "green"}


def test_selfplay_is_reproducible_from_the_seed():
    assert sp.play(4, 99) == sp.play(4, 99)
    assert sp.play(4, 99).turns != sp.play(4, 100).turns
    assert sp.deal(5) == sp.deal(5) and sp.deal(5) != sp.deal(6)


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 5), st.integers(0, 2 ** 32))
def test_selfplay_any_seed_replays(n, seed):
    game = sp.play(n, seed)
    assert replay(game).scores == game.final_scores
    assert len(game.turns) < 200


def test_play_match_rotates_the_first_player():
    """"Play as many times as there are players, with a different player starting each time.\""""
    games = sp.play_match(3, 5)
    assert [g.options["first"] for g in games] == ["red", "yellow", "green"]
    assert [g.turns[0].player for g in games] == ["red", "yellow", "green"]
    assert len({g.options["deal_seed"] for g in games}) == 3
    for g in games:
        assert replay(g).is_over
    winners = match_result([g.final_scores for g in games])
    assert winners and set(winners) <= {"red", "yellow", "green"}
    assert [g.turns for g in sp.play_match(3, 5)] == [g.turns for g in games]


def test_ruling_blocked_deal_is_dealt_again_with_the_next_seed(monkeypatch):
    """Ruling: a table that can no longer change never ends; self-play deals again (seed + 1)."""
    real = sp._play_deal
    calls = []

    def first_blocked(seats, seed, positions, first, cards):
        calls.append(seed)
        return None if seed == 40 else real(seats, seed, positions, first, cards)

    monkeypatch.setattr(sp, "_play_deal", first_blocked)
    g = sp.play(3, 40)
    assert calls == [40, 41] and g.options["seed"] == "40" and g.options["deal_seed"] == "41"
    assert replay(g).is_over


def test_selfplay_stops_a_blocked_deal():
    """The self-play loop gives up a deal as soon as the engine reports the table blocked."""
    mini = CardSet("gold-only", load_cards().entrances, ((Card("gold", 1), 12),))
    assert sp._play_deal(seats_for(3), 1, tuple(f"p{i}" for i in range(12)), None, mini) is None


# --------------------------------------------------------------------------
# Corrupted records fail at exactly the corrupted turn
# --------------------------------------------------------------------------

@pytest.mark.parametrize("key", [(2, 1), (3, 7), (5, 2024)])
def test_mutation_card_turned_twice_in_one_turn(key):
    game = GAMES[key]
    turns = list(game.turns)
    k = 5
    a = turns[k].actions[0]
    turns[k] = replace(turns[k], actions=(a, a))
    i, exc = failing_turn(game, turns)
    assert i == k and "twice" in exc.message


@pytest.mark.parametrize("key", [(2, 7), (3, 1), (4, 2024)])
def test_mutation_two_cards_when_the_gold_rush_is_due(key):
    """"Starting with you, each player only picks one card" -- two flips at the rush's first turn."""
    game = GAMES[key]
    r = rush_start(game)
    turns = list(game.turns)
    later = {fl.pos for t in turns[r + 1:] for fl in t.actions} - {turns[r].actions[0].pos}
    other = sorted(later)[0]
    turns[r] = replace(turns[r], actions=turns[r].actions + (FlipCard(other, truth(game)[other]),))
    i, exc = failing_turn(game, turns)
    assert i == r and "Gold Rush! began at this turn: turn one card" in exc.message


@pytest.mark.parametrize("key", [(2, 7), (3, 1), (4, 2024)])
def test_mutation_one_card_a_turn_before_the_gold_rush(key):
    """A phase change one turn early: one flip while more than 10 cards are face down."""
    game = GAMES[key]
    r = rush_start(game)
    turns = list(game.turns)
    turns[r - 1] = replace(turns[r - 1], actions=turns[r - 1].actions[:1])
    i, exc = failing_turn(game, turns)
    assert i == r - 1 and "turn two cards" in exc.message


@pytest.mark.parametrize("key", [(3, 2024), (5, 7)])
def test_mutation_two_cards_later_in_the_gold_rush(key):
    game = GAMES[key]
    r = rush_start(game)
    turns = list(game.turns)
    k = r + 2
    nxt = turns[k + 1].actions[0]
    turns[k] = replace(turns[k], actions=turns[k].actions + (nxt,))
    i, exc = failing_turn(game, turns)
    assert i == k and f"Gold Rush! began at turn {r + 1}" in exc.message


def _first_turn_revisiting(game: SelfPlayGame) -> tuple[int, int]:
    seen: set[str] = set()
    for k, t in enumerate(game.turns):
        for j, fl in enumerate(t.actions):
            if fl.pos in seen:
                return k, j
        seen.update(fl.pos for fl in t.actions)
    raise AssertionError("no position turned twice")


@pytest.mark.parametrize("key", sorted(GAMES))
def test_mutation_face_contradicting_an_earlier_reveal(key):
    """"remember the cards and turn them back over again" -- the card keeps its face."""
    game = GAMES[key]
    k, j = _first_turn_revisiting(game)
    turns = list(game.turns)
    fl = turns[k].actions[j]
    wrong = Card("dynamite") if fl.face.kind != "dynamite" else Card("gold", 1)
    acts = list(turns[k].actions)
    acts[j] = FlipCard(fl.pos, wrong)
    turns[k] = replace(turns[k], actions=tuple(acts))
    i, exc = failing_turn(game, turns)
    assert i == k and "was seen as" in exc.message


@pytest.mark.parametrize("key", sorted(GAMES))
def test_mutation_face_beyond_the_decks_count(key):
    """The card list holds one miner of value 5 per colour, five dynamite, ...: a new place
    cannot show a card whose every copy has been seen elsewhere."""
    game = GAMES[key]
    counts = load_cards().counts()
    seen: dict[str, Card] = {}
    found = None
    for k, t in enumerate(game.turns):
        exhausted = [c for c in counts if sum(1 for v in seen.values() if v == c) == counts[c]]
        for j, fl in enumerate(t.actions):
            if fl.pos not in seen and exhausted:
                found = (k, j, exhausted[0])
                break
        if found:
            break
        seen.update((fl.pos, fl.face) for fl in t.actions)
    assert found, "no card kind exhausted"
    k, j, face = found
    turns = list(game.turns)
    acts = list(turns[k].actions)
    acts[j] = FlipCard(acts[j].pos, face)
    turns[k] = replace(turns[k], actions=tuple(acts))
    i, exc = failing_turn(game, turns)
    assert i == k and "the game has" in exc.message


def test_mutation_wrong_player():
    game = GAMES[(3, 1)]
    turns = list(game.turns)
    turns[4] = replace(turns[4], player=turns[5].player)
    i, exc = failing_turn(game, turns)
    assert i == 4 and "turn" in exc.message


def test_played_turn_records_scores_after_each_turn():
    game = GAMES[(4, 7)]
    assert all(isinstance(t, PlayedTurn) for t in game.turns)
    assert game.turns[0].scores.keys() == set(game.players)
    totals = [sum(t.scores.values()) for t in game.turns]
    assert totals == sorted(totals) and totals[-1] == sum(game.final_scores.values())
