"""Gold's playout player and its reactive second card (R175): what a card turned first is paired with, blind to
every face not yet turned, reproducible from a seed."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from grn import games
from grn.bots.arena import new_game
from grn.games.gold.bot import GoldWorld, best_second, reaction, smart_move
from grn.games.gold.commands import Card
from grn.rules.world import rollout

from gold_tables import table as _state

GOLD = games.find_ruleset("gold")


GOLD3, GOLD2 = Card("gold", 3), Card("gold", 2)
GREEN5, BLUE5 = Card("miner", 5, "green"), Card("miner", 5, "blue")
# red turns two golds (they go back, remembered); green turns two of its own miners 5 (a tie: back, remembered)
TABLE = ((("a1", GOLD3), ("a2", GOLD2)), (("a3", GREEN5), ("a4", BLUE5)))


def test_a_dynamite_turned_first_takes_an_opponents_remembered_miner_with_it():
    state = _state(*TABLE)
    assert state.current_player == "red"
    assert best_second(state, "h8", Card("dynamite")) in ("a3", "a4")


def test_a_miner_of_ones_own_turned_first_is_not_sent_to_lose_a_duel():
    # red's miner 2 beside green's remembered miner 5 would leave the table (R177: -1.5 for red)
    state = _state(*TABLE)
    assert best_second(state, "h8", Card("miner", 2, "red")) not in ("a3", "a4")
    # nobody's miner 2 carries the remembered gold 2 out for red rather than lose a duel
    assert best_second(state, "h8", Card("miner", 2, "black")) == "a2"


def test_a_gold_turned_first_is_never_handed_to_the_opponents_remembered_miner():
    state = _state(*TABLE)
    second = best_second(state, "h8", Card("gold", 4))
    assert second not in ("a3", "a4")  # green's miner 5 would carry the gold 4 to green
    assert second not in state.known_faces() or state.known_faces()[second].kind == "gold"


def test_a_miner_of_ones_own_turned_first_carries_the_best_remembered_gold_it_can():
    state = _state(*TABLE)
    assert best_second(state, "h8", Card("miner", 4, "yellow")) == "a1"  # gold 3, not gold 2
    assert reaction(state, "h8", Card("miner", 3, "black")) == "a1"  # nobody's miner: the gold goes to red


def test_an_opponents_miner_turned_first_is_kept_from_the_remembered_gold():
    state = _state(*TABLE)
    assert best_second(state, "h8", Card("miner", 4, "green")) not in ("a1", "a2")


@settings(max_examples=25, deadline=None)
@given(deal=st.integers(0, 10_000), turns=st.integers(0, 12), shuffle=st.integers(0, 2 ** 32))
def test_the_playout_player_reads_no_face_before_it_is_turned(deal, turns, shuffle):
    header, engine = new_game(GOLD, 2, deal)
    table = GOLD.determinise(engine, random.Random(deal))
    assert isinstance(table, GoldWorld)
    rng = random.Random(deal)
    for _ in range(turns):
        if table.is_over:
            return
        table.play(table.rollout_move(rng))
    if table.is_over:
        return
    state = table.state
    move = smart_move(state, table.truth, random.Random(shuffle))
    # deal the faces of every other unseen card again: the player's choice cannot change
    known = state.known_faces()
    others = [p for p in state.face_down() if p not in known and p != move[0]]
    faces = [table.truth[p] for p in others]
    random.Random(shuffle).shuffle(faces)
    truth = dict(table.truth)
    truth.update(zip(others, faces))
    assert smart_move(state, truth, random.Random(shuffle)) == move
    assert len(set(move)) == state.flips_due and set(move) <= set(state.face_down())


def test_a_playout_is_reproducible_from_its_seed_and_ends_the_game():
    header, engine = new_game(GOLD, 2, 5)
    finals = []
    for _ in range(2):
        world = GOLD.determinise(engine, random.Random(5))
        rollout(world, random.Random(9), 1000)
        assert world.is_over
        finals.append((world.state.scores, world.state.turn))
    assert finals[0] == finals[1]
