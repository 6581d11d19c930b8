"""R516: Carcassonne's playout turn (draw placements, weigh each, play the best) runs in compiled code
(grn/games/carcassonne/playout.py) and keeps what every placement of one position asks again in a memo.  It must
play exactly the move the generic loop plays, and the memo must never answer for a position it was not made at."""

from __future__ import annotations

import random

import pytest

from grn import games
from grn.bots.arena import new_game
from grn.games.carcassonne import bot as carcassonne_bot
from grn.games.carcassonne.bot import CarcassonneWorld
from grn.games.carcassonne.terms import FIELD
from grn.games.tiling.commands import PlaceTile

CARCASSONNE = games.find_ruleset("carcassonne")


class Generic(CarcassonneWorld):
    """The same world weighing through an overridden :meth:`quick_worth` (unchanged), which sends its playouts
    through the generic loop of ``TileWorld.rollout_move`` instead of the compiled one."""

    __slots__ = ()

    def quick_worth(self, placement, preview, rng):  # type: ignore[no-untyped-def]
        return super().quick_worth(placement, preview, rng)


def _table(seed: int, claims: bool) -> CarcassonneWorld:
    _, engine = new_game(CARCASSONNE, 2, seed)
    world = CARCASSONNE.determinise(engine, random.Random(seed))
    assert isinstance(world, CarcassonneWorld)
    world.claims = claims
    return world


@pytest.mark.parametrize("claims,joins,samples", [(False, False, 3), (True, False, 3), (True, True, 12)])
def test_the_compiled_playout_turn_plays_the_generic_loops_move(claims, joins, samples, monkeypatch):
    # a whole playout, move for move, from the same seed: the compiled turn and the generic loop must agree
    monkeypatch.setattr(carcassonne_bot, "FIELD_JOINS", joins)
    monkeypatch.setattr(CarcassonneWorld, "playout_samples", samples)
    for seed in (3, 11):
        fast = _table(seed, claims)
        slow = Generic(fast.ruleset, fast.engine.copy(), list(fast.pile))
        slow.claims = claims
        rng_fast, rng_slow = random.Random(seed), random.Random(seed)
        turns = 0
        while not fast.is_over:
            a, b = fast.rollout_move(rng_fast), slow.rollout_move(rng_slow)
            assert a == b, f"seed {seed}, turn {turns + 1}"
            fast.play(a)
            slow.play(b)
            turns += 1
        assert turns > 60 and fast.engine.scores == slow.engine.scores


def test_the_field_memo_answers_only_for_the_position_it_was_made_at():
    # one long-lived world weighs the fields of every placement of every turn of a claiming game; a fresh copy
    # (a fresh memo) must give the same cities beside each field and the same joins
    world = _table(5, True)
    rng = random.Random(5)
    checked = 0
    while not world.is_over:
        _, tile, legal = world._draw()
        if tile is not None:
            state = world.state
            design = state._design(tile, None)
            fresh = CarcassonneWorld(world.ruleset, world.engine.copy(), list(world.pile))
            for p in legal[:6]:
                preview = state.board.preview(design, p.x, p.y, p.rotation)
                other = fresh.state.board.preview(design, p.x, p.y, p.rotation)
                assert preview is not None and other is not None
                for local, kind in enumerate(design.kinds):
                    if kind == FIELD:
                        assert world.field_cities(preview, local) == fresh.field_cities(other, local)
                        checked += 1
                assert world.join_gain(preview, state.seat) == fresh.join_gain(other, state.seat)
        world.play(world.rollout_move(rng))
    assert checked > 200


def test_a_listing_playout_turn_weighs_every_placement_when_it_may():
    # PLAYOUT_LISTS (R516): the tile's legal placements are listed and `playout_samples` distinct ones weighed, all
    # of them when there are no more: the move played is then one of the best worth among all legal placements
    # (a placement's worth does not hang on the random numbers, which choose only among equal follow-ups)
    from grn.games.carcassonne import playout

    world = _table(7, True)
    rng = random.Random(7)
    turns = 0
    while not world.is_over and turns < 50:
        _, tile, legal = world._draw()
        assert tile is not None
        state = world.state
        design = state._design(tile, None)
        worth = {}
        for p in legal:
            preview = state.board.preview(design, p.x, p.y, p.rotation)
            assert preview is not None
            worth[p] = world.quick_worth(p, preview, random.Random(0))[0]
        move = playout.sampled_turn(state, world.fields, tile, random.Random(turns), 10_000, 0, True, False,
                                    carcassonne_bot.FARM_CLAIM, carcassonne_bot.FARM_WEIGHT, True)
        assert move is not None
        assert worth[move[0]] == max(worth.values())
        world.play(world.rollout_move(rng))
        turns += 1
    assert turns == 50


def test_a_reviews_playouts_fight_for_fields_and_its_copies_keep_them():
    # R516: World.review_playouts makes a Carcassonne world's playouts the review's: they claim (R443), and each
    # turn weighs up to REVIEW_PLACEMENTS distinct legal placements with the fields each joins
    from grn.games.carcassonne import playout

    world = _table(13, False)
    assert not world.fights and not world.claims
    world.review_playouts()
    assert world.fights and world.claims
    copy = world.copy()
    assert isinstance(copy, CarcassonneWorld) and copy.fights and copy.claims
    rng = random.Random(13)
    for turn in range(30):
        tile = world.pile[-1]
        expected = playout.sampled_turn(world.state, world.fields, tile, random.Random(turn), carcassonne_bot.REVIEW_PLACEMENTS,
                                        0, True, True, carcassonne_bot.FARM_CLAIM, carcassonne_bot.FARM_WEIGHT, True)
        assert world.rollout_move(random.Random(turn)) == expected
        world.play(world.rollout_move(rng))


def test_every_review_level_but_classic_plays_the_reviews_playouts():
    from grn.analysis.judge import settings_for
    from grn.bots.bot import LEVELS

    assert settings_for().review and settings_for(level="deep").review
    assert not settings_for(level="classic").review  # round one's engine: its playouts too
    assert all(settings_for(level=name).review == level.claims for name, level in LEVELS.items())


def test_the_bots_search_plays_the_reviews_playouts_and_classic_its_own(monkeypatch):
    # R519: the mcts levels' playouts claim and fight for fields (76.8% against classic on 400 games, 68.4%
    # before); classic, the arena's baseline, plays the game's own playouts as in round one
    from grn.bots import make_bot

    seen: set[tuple[bool, bool]] = set()
    rollout = CarcassonneWorld.rollout_move

    def spy(self, rng):  # type: ignore[no-untyped-def]
        seen.add((self.claims, self.fights))
        return rollout(self, rng)

    monkeypatch.setattr(CarcassonneWorld, "rollout_move", spy)
    _, engine = new_game(CARCASSONNE, 2, 7)
    for name, played in (("mcts:quick", {(True, True)}), ("mcts:classic", {(False, False)})):
        seen.clear()
        make_bot(name, CARCASSONNE).choose(engine.copy(), random.Random(7))
        assert seen == played, name
