"""Gold's playouts made faster without changing a result (issue 21, speed, round eight).

The engine keeps what a player remembers, the faces nobody has seen and the face-down places up to date turn by
turn instead of recomputing them, and the playout player is compiled (grn/games/gold/playout.py): the digests
below were taken from the code before those changes, so any change to a playout's choices, to the deal a world
samples or to what the engine reports makes them fail.
"""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from grn import games
from grn.analysis.judge import replay
from grn.bots import RandomBot
from grn.bots.arena import play_game
from grn.games.gold import selfplay
from grn.games.gold.bot import greedy_move
from grn.games.gold.commands import Card, FlipCard
from grn.games.gold.rules import RUSH_THRESHOLD, GoldState, seats_for
from grn.notation.read import parse
from grn.core.record import Record
from grn.rules.world import rollout

GOLD = games.find_ruleset("gold")
EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "gold-2p.grn"


def _playouts_digest(record: Record) -> str:
    """Every third position of ``record``: three sampled worlds each, their moves, the greedy bot's turn, and a
    playout of up to 60 turns from the last move listed (every decision, the final values and what the engine
    then reports)."""
    h = hashlib.sha256()
    _, _, line = replay(record)
    for turn, before in line[::3]:
        if before is None:
            continue
        rng = random.Random(turn.number)
        for _ in range(3):
            world = GOLD.determinise(before, random.Random(rng.getrandbits(64)))
            moves = world.moves()
            h.update(repr(moves).encode())
            h.update(repr(greedy_move(world.state)).encode())
            branch = world.copy()
            branch.play(moves[-1])
            prng = random.Random(rng.getrandbits(64))
            for _ in range(60):
                if branch.is_over:
                    break
                d = branch.rollout_move(prng)
                h.update(repr(d).encode())
                branch.play(d)
            state = branch.state
            h.update(repr(sorted(branch.value().items())).encode())
            h.update(repr((state.known_faces(), state.unseen_cards(), state.face_down_cards(),
                           state.face_down(), state.is_blocked)).encode())
    return h.hexdigest()


def test_the_playouts_of_the_shipped_game_are_the_ones_before_round_eight():
    record = parse(EXAMPLE.read_text(encoding="utf-8"))[0]
    assert _playouts_digest(record) == "a5cd8b526ea6b3ed2403acb315e5c625afc41f34b12833e0b4415ad373e64568"


def test_the_playouts_of_a_random_bots_record_are_the_ones_before_round_eight():
    # two random bots: the worst case of the analysis's cost, the record of `grn selfplay --bot random --seed 100`
    record = play_game(GOLD, [RandomBot(GOLD), RandomBot(GOLD)], 100, 100).record(seed=100)
    assert len(record.turns) == 57
    assert _playouts_digest(record) == "10f79d9a56c353c77bb303a40dba3d3b2484416f4c8f72daba754eba0099b908"


def test_self_play_deals_and_choices_are_the_ones_before_round_eight():
    h = hashlib.sha256()
    for seed in range(1, 6):
        game = selfplay.play(2 + seed % 4, seed)
        h.update(repr([(t.player, t.actions, t.scores) for t in game.turns]).encode())
        h.update(repr((sorted(game.final_scores.items()), game.options)).encode())
    assert h.hexdigest() == "4d6cc15bd3710cfe936d7842fef6013696fa23860d13384664ea3bcbf3bfa9ff"


def test_the_compiled_playout_plays_the_turns_the_playout_player_would_play_one_by_one():
    # an analysis's playouts (every player the playout player) run in one compiled loop: the same turns as
    # rollout_move and play, one by one, from the same generator
    record = parse(EXAMPLE.read_text(encoding="utf-8"))[0]
    _, _, line = replay(record)
    for turn, before in line[::4]:
        if before is None:
            continue
        world = GOLD.determinise(before, random.Random(turn.number))
        fast, slow = world.copy(), world.copy()
        rollout(fast, random.Random(7), 20)
        rng = random.Random(7)
        for _ in range(20):
            if slow.is_over:
                break
            slow.play(slow.rollout_move(rng))
        assert _views(fast.state) == _views(slow.state)
        assert fast.state.turn == slow.state.turn and fast.value() == slow.value()


# -- what the engine keeps up to date equals what it would work out afresh -----------------------------------

def _blocked_afresh(state: GoldState) -> bool:
    """The blocked table worked out from the card list and the faces of the removed cards (the engine's rule)."""
    if len(state.face_down()) <= RUSH_THRESHOLD:
        return False
    left = state.cards.counts()
    for p in state.removed():
        left[state.seen_faces()[p]] -= 1
    faces = [c for c, n in left.items() if n > 0]
    if any(c.kind == "dynamite" for c in faces):
        return False
    miners = {c.value for c in faces if c.kind == "miner"}
    golds = [c.value for c in faces if c.kind == "gold"]
    if len(miners) > 1:
        return False
    return not (miners and golds and max(miners) >= min(golds))


def _views(state: GoldState) -> tuple[object, ...]:
    return (list(state.known_faces().items()), list(state.unseen_cards().items()),
            list(state.face_down_cards().items()), state.face_down(), state.is_blocked, state.projected_scores())


def _check_afresh(state: GoldState) -> None:
    removed = set(state.removed())
    down = [p for p in state.positions if p not in removed]
    assert state.face_down() == down
    seen = state.seen_faces()
    # the order matters: the playouts iterate over these, and ties go to the first
    assert list(state.known_faces().items()) == [(p, c) for p, c in seen.items() if p not in removed]
    deck = state.cards.counts()
    unseen = dict(deck)
    for c in seen.values():
        unseen[c] -= 1
    assert list(state.unseen_cards().items()) == [(c, n) for c, n in unseen.items() if n > 0]
    left = dict(deck)
    for p in removed:
        left[seen[p]] -= 1
    assert list(state.face_down_cards().items()) == [(c, n) for c, n in left.items() if n > 0]
    assert state.is_blocked == _blocked_afresh(state)
    assert state.projected_scores() == state.scores


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 5), branch_at=st.integers(0, 40))
def test_what_the_engine_keeps_up_to_date_is_what_it_would_work_out_afresh(seed, players, branch_at):
    rng = random.Random(seed)
    truth = selfplay.deal(seed)
    state = GoldState.new(seats_for(players))
    turns = 0
    while not state.is_over and not state.is_blocked and turns < 200:
        # fresh Card objects, equal to the card list's but not the same: the record's own, as a parsed file gives
        places = rng.sample(state.face_down(), state.flips_due)
        state.play_turn(state.current_player, [FlipCard(p, Card(truth[p].kind, truth[p].value, truth[p].colour))
                                               for p in places])
        turns += 1
        _check_afresh(state)
        if turns == branch_at:
            # a copy played on leaves the original as it was
            before = _views(state)
            other = state.copy()
            while not other.is_over and not other.is_blocked:
                other.play_turn(other.current_player,
                                [FlipCard(p, truth[p]) for p in rng.sample(other.face_down(), other.flips_due)])
                _check_afresh(other)
            assert _views(state) == before
