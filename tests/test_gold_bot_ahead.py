"""Gold's bot, round seven (issue 41 item 5, R486-R491): the reactive turn of the ``mcts`` levels chooses its second
card looking a turn ahead, at what the turn leaves remembered on the table for the opponent's reply; ``mcts:classic``
(the arena's baseline) plays exactly as before."""

from __future__ import annotations

import random

from grn import games
from grn.bots import make_bot
from grn.bots.arena import new_game
from grn.bots.search import candidate_moves, make_worlds
from grn.games.gold import bot as gold_bot
from grn.games.gold.bot import REACT, REACT_AHEAD, GoldWorld, ahead_second, best_second
from grn.games.gold.commands import Card

from gold_tables import table as _state

GOLD = games.find_ruleset("gold")


GOLD4, GOLD1 = Card("gold", 4), Card("gold", 1)
GREEN5, BLUE5 = Card("miner", 5, "green"), Card("miner", 5, "blue")
# red turns two golds (back, remembered); green turns two of its own miners 5 (a tie: back, remembered)
TABLE = ((("a1", GOLD4), ("a2", GOLD1)), (("a3", GREEN5), ("a4", BLUE5)))


def test_a_dynamite_turned_first_blows_up_the_gold_the_opponent_would_carry_out_next():
    """Green remembers two miners 5 and the gold 4 lies remembered: a dynamite turned first beside one miner
    removes it (what the pair is worth at once, R177) but green's other miner carries the gold 4 out next turn;
    looking a turn ahead, red spends the dynamite on the gold 4 and leaves green the gold 1."""
    state = _state(*TABLE)
    assert state.current_player == "red"
    assert best_second(state, "h8", Card("dynamite")) in ("a3", "a4")
    assert ahead_second(state, "h8", Card("dynamite")) == "a1"


def test_looking_ahead_still_carries_out_what_it_can():
    """A miner of red's own turned first carries the best remembered gold it can, as before."""
    state = _state(*TABLE)
    assert ahead_second(state, "h8", Card("miner", 4, "yellow")) == "a1"
    assert ahead_second(state, "h8", Card("miner", 5, "black")) == "a1"  # nobody's miner: the gold goes to red


def test_the_ahead_turn_reads_no_face_but_the_first():
    """Two deals that differ only in faces nobody has seen give the same second card."""
    state = _state(*TABLE)
    header, _ = new_game(GOLD, 2, 3)
    seconds = set()
    for seed in range(6):
        world = GOLD.determinise(state, random.Random(seed))
        assert isinstance(world, GoldWorld)
        world.claim_playouts()
        first = next(p for p in state.face_down() if p not in state.known_faces())
        world.truth[first] = Card("dynamite")
        seconds.add(world.commands((first, REACT_AHEAD))[1].pos)
    assert seconds == {"a1"}


def test_the_mcts_levels_search_the_ahead_turn_and_classic_its_own():
    """``mcts`` (every level but ``classic``) races the reactive turn that looks ahead; ``classic`` races R140's,
    and the engine protocol writes both as a reactive turn (``c4=? ?``)."""
    _, engine = new_game(GOLD, 2, 5)
    for name, react in (("mcts", REACT_AHEAD), ("mcts:quick", REACT_AHEAD), ("mcts:classic", REACT)):
        bot = make_bot(name, GOLD)
        worlds = make_worlds(GOLD, engine, (), random.Random(1), 2)
        if bot.claims:  # type: ignore[attr-defined]
            for w in worlds:
                w.claim_playouts()
        cands = candidate_moves(worlds, engine.current_player, 8)
        assert any(len(d) == 2 and d[1] == react for d in cands), name  # type: ignore[arg-type]
        assert not any(len(d) == 2 and d[1] == ({REACT, REACT_AHEAD} - {react}).pop() for d in cands)  # type: ignore[arg-type]
    first = engine.face_down()[0]
    assert GOLD.move_text(engine, (first, REACT_AHEAD)) == f"{first}=? ?"
    assert "opponent" in gold_bot.words(engine, (first, REACT_AHEAD))


def test_the_mcts_levels_spend_more_playouts_in_gold_and_classic_its_own():
    """Gold's playouts are cheap: a level's search spends 8 times its playouts, at most 3000 (R489); ``classic``
    and a budget the caller sets are not scaled."""
    _, engine = new_game(GOLD, 2, 5)
    world = GOLD.determinise(engine, random.Random(1))
    assert world.search_playouts(160) == 160  # an analysis's world, or classic's
    world.claim_playouts()
    assert [world.search_playouts(n) for n in (60, 160, 600, 3000)] == [480, 1280, 3000, 3000]
    assert make_bot("mcts", GOLD).level_budget is True  # type: ignore[attr-defined]
    assert make_bot("mcts", GOLD, playouts=40).level_budget is False  # type: ignore[attr-defined]


def test_round_sevens_search_weighs_every_distinct_turn_and_plays_its_playouts_to_the_end():
    """The worlds of the mcts levels list one turn of each effect read from the position (R487), where classic's
    rank the greedy bot's best; their playouts run to the end of the game, every player as smart_move (R488)."""
    _, engine = new_game(GOLD, 2, 7)
    table = GOLD.determinise(engine, random.Random(7))
    greedy = make_bot("greedy", GOLD)
    rng = random.Random(7)
    for _ in range(14):
        table.play_commands(table.recorded(greedy.choose(table.engine.copy(), rng, table.hand())))
    worlds = make_worlds(GOLD, table.engine, (), random.Random(2), 2)
    for w in worlds:
        w.claim_playouts()
    world = worlds[0]
    assert isinstance(world, GoldWorld)
    listed = [d for _, d in world.shortlist(lambda d: 0.0, 8)]
    assert listed == world._distinct(8)
    assert len({world.effect(d) for d in listed}) == len(listed)
    played, classic = world.copy(), GOLD.determinise(table.engine, random.Random(2))
    played.play_out(random.Random(3), 20, played.player)
    classic.play_out(random.Random(3), 20, classic.player)
    assert played.is_over and not classic.is_over
