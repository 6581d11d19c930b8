"""Gold's analysis made cheaper without changing a result (issue 21, speed, round nine).

A playout walks its world's order of the places instead of listing the face-down places after every card that
leaves (:func:`grn.games.gold.playout.ordered_move`), and plays its turns without the engine's checks and events
(:meth:`GoldState.play_unchecked`), and a world's deal is compiled with the generator's own draws
(:func:`grn.games.gold.playout.shuffle`).  The digest below was taken from the code before those changes (main at
f083776), so a change to any judgement, estimate or playout count of the worst case's analysis makes it fail;
the properties hold the fast paths to the turns and states of the slow ones on open-ended positions.
"""

from __future__ import annotations

import hashlib
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from grn import games
from grn.analysis.judge import analyse
from grn.bots import RandomBot
from grn.bots.arena import play_game
from grn.games.gold import playout, selfplay
from grn.games.gold.bot import PlaceOrder, _worth_table
from grn.games.gold.commands import FlipCard
from grn.games.gold.playout import flips, ordered_move, smart_move
from grn.games.gold.rules import GoldState, seats_for

GOLD = games.find_ruleset("gold")


#: What the engine's round two added to the JSON of an analysis (win chances, equal moves, decided games, luck;
#: Gold's turns have their luck and its error since R453).
ROUND_TWO_FIELDS = ("by", "decided_at_turn", "balance", "win_played", "win_best", "win_lost", "win_lost_se",
                    "best_named", "equal", "decided", "luck", "luck_se")


def test_the_analysis_of_a_random_bots_record_is_the_one_before_round_nine(monkeypatch):
    # the worst case of the analysis's cost (`grn selfplay --game gold --seed 100 --bot random`), every sixth
    # turn at 16 playouts a move: candidates, races, confirmations past the cap near the threshold (R255), judgements.
    # The digest was taken on main f083776, before round nine; round nine's faster playouts give it too, and so
    # does the engine's round two once its fields and its rule on decided games (R335) are set aside: Gold's
    # search and margins are unchanged (its evaluation is a spread alone, R333).
    import grn.analysis.judge

    record = play_game(GOLD, [RandomBot(GOLD), RandomBot(GOLD)], 100, 100).record(seed=100)
    monkeypatch.setattr(grn.analysis.judge, "DECIDED", 2.0)  # no game is ever decided: round one's judgements
    result = analyse(record, playouts=16, seed=5, only=list(range(1, 58, 6)))
    old = result.to_json()
    for t in [old] + old["turns"]:
        for k in ROUND_TWO_FIELDS:
            t.pop(k, None)
    assert len(result.turns) == 10
    assert hashlib.sha256(json.dumps(old, sort_keys=True).encode()).hexdigest() == \
        "7e490318379194e031444fb13344badb0e653eb2c29d9aec06b3e85574f2cef9"


def _position(seed: int, players: int, turns: int) -> tuple[GoldState, dict]:
    """A position ``turns`` random legal turns into the deal of ``seed`` (fewer when the game ends first)."""
    rng = random.Random(seed)
    truth = selfplay.deal(seed)
    state = GoldState.new(seats_for(players))
    for _ in range(turns):
        if state.is_over:
            break
        places = rng.sample(state.face_down(), state.flips_due)
        state.play_turn(state.current_player, flips(truth, tuple(places)))
    return state, truth


def _whole(state: GoldState) -> tuple[object, ...]:
    return (list(state.known_faces().items()), list(state.unseen_cards().items()),
            list(state.face_down_cards().items()), list(state.seen_faces().items()), state.face_down(),
            state.is_blocked, state.is_over, state.scores, state.gold_cards,
            [state.gold_of(p) for p in state.players], state.turn, state.current_player, state.rush_turn)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 5), turns=st.integers(0, 45),
       order_seed=st.integers(0, 10_000))
def test_the_ordered_playout_player_turns_what_the_place_order_would_pick(seed, players, turns, order_seed):
    state, truth = _position(seed, players, turns)
    if state.is_over:
        return
    places = state.positions[:]
    places = list(places)
    random.Random(order_seed).shuffle(places)
    order = PlaceOrder({p: i for i, p in enumerate(places)}, places)
    table = _worth_table(state, state.current_player)
    # smart_move with the order as its generator is round eight's playout player, R227
    expected = smart_move(state, truth, order, table)
    assert ordered_move(state, truth, random.Random(0), table, order.places, order.order) == expected
    assert smart_move(state, truth, random.Random(0), table, order.order) == expected


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 5), turns=st.integers(0, 60))
def test_an_unchecked_turn_leaves_the_state_a_checked_turn_leaves(seed, players, turns):
    state, truth = _position(seed, players, 0)
    rng = random.Random(seed + 1)
    fast = state.copy()
    for _ in range(turns):
        if state.is_over:
            break
        places = rng.sample(state.face_down(), state.flips_due)
        player = state.current_player
        state.play_turn(player, flips(truth, tuple(places)))
        fast.play_unchecked(player, places[0], places[1] if len(places) > 1 else None, truth)
        assert _whole(fast) == _whole(state)


def test_the_compiled_loop_with_a_world_order_plays_what_rollout_move_plays():
    # the loop and the one-by-one path agree from every kind of position, the rush included
    for seed in range(6):
        state, truth = _position(seed, 2, 8 * seed)
        order = list(state.positions)
        random.Random(seed).shuffle(order)
        rank = {p: i for i, p in enumerate(order)}
        tables = {p: _worth_table(state, p) for p in state.players}
        fast, slow = state.copy(), state.copy()
        playout.play_out(fast, truth, random.Random(3), tables, 40, (order, rank))
        for _ in range(40):
            if slow.is_over or slow.is_blocked:
                break
            p = slow.current_player
            turn = smart_move(slow, truth, PlaceOrder(rank), tables[p])
            slow.play_turn(p, [FlipCard(x, truth[x]) for x in turn])
        assert _whole(fast) == _whole(slow)


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), length=st.integers(0, 70))
def test_the_compiled_shuffle_draws_what_the_generator_would_draw(seed, length):
    # a world's deal shuffles twice with the search's generator: the same permutation, and the generator left in
    # the same state for what it draws next
    ours, theirs = list(range(length)), list(range(length))
    mine, reference = random.Random(seed), random.Random(seed)
    playout.shuffle(ours, mine)
    reference.shuffle(theirs)
    assert ours == theirs
    assert mine.getrandbits(64) == reference.getrandbits(64)
