"""The tile games' stronger search: playouts that score what they can (R170), shortlists that race several
placements (R171)."""

from __future__ import annotations

import random

from grn import games
from grn.analysis.judge import replay
from grn.bots.arena import new_game
from grn.bots.search import candidate_moves, greedy_rank, make_worlds
from grn.games.carcassonne.bot import CarcassonneWorld
from grn.games.carcassonne.commands import PlaceFollower
from grn.games.tiling.commands import PlaceTile
from grn.games.tiling.events import ScoreEvent
from grn.games.tiling.world import TileWorld
from tests.test_analyse import _clear_blunder

CARCASSONNE = games.find_ruleset("carcassonne")


def _city_position() -> CarcassonneWorld:
    """Carcassonne before turn 17 of self-play seed 20: red holds tile E, which completes red's city for 12
    points at 3,1 turned 270 (tests/test_analyse.py)."""
    record = _clear_blunder()
    _, _, line = replay(record)
    engine = line[16][1]
    assert engine is not None
    world = CARCASSONNE.determinise(engine, random.Random(1), ("E",))
    assert isinstance(world, CarcassonneWorld)
    return world


def test_a_playout_values_a_placement_by_the_points_it_scores_at_once():
    world = _city_position()
    state = world.state
    closing = PlaceTile("E", 3, 1, 270)
    elsewhere = PlaceTile("E", -1, 2, 90)
    worth, _ = world.quick_worth(closing, state._preview(closing, state._design("E", None)), random.Random(0))
    nothing, _ = world.quick_worth(elsewhere, state._preview(elsewhere, state._design("E", None)), random.Random(0))
    assert worth >= 12 and nothing <= 0  # -1,2 completes a feature of blue's


def test_a_playout_plays_the_best_of_the_placements_it_sampled_and_closes_the_city_when_it_sees_it():
    world = _city_position()
    seen: list[list[tuple[float, PlaceTile]]] = []

    class Spy(CarcassonneWorld):
        __slots__ = ()

        def quick_worth(self, placement, preview, rng):  # type: ignore[no-untyped-def]
            worth, follow = super().quick_worth(placement, preview, rng)
            seen[-1].append((worth, placement))
            return worth, follow

    spy = Spy(world.ruleset, world.engine.copy(), list(world.pile))
    saw_city = 0
    for seed in range(40):
        seen.append([])
        move = spy.rollout_move(random.Random(seed))
        place = [c for c in move if isinstance(c, PlaceTile)][0]
        sampled = seen[-1]
        assert 1 <= len(sampled) <= CarcassonneWorld.playout_samples
        best = max(w for w, _ in sampled)
        assert place == next(p for w, p in sampled if w == best)  # the first of the best worth
        if any((p.x, p.y, p.rotation) == (3, 1, 270) for _, p in sampled):
            saw_city += 1
            assert (place.x, place.y, place.rotation) == (3, 1, 270)
    assert saw_city >= 1
    assert CarcassonneWorld.playout_samples == 3 and TileWorld.playout_samples == 1  # Gold Rush: one, as before


def test_a_follower_goes_where_the_placement_completes_a_feature_for_points():
    # a road or city the new tile completes on its own scores its follower at once: worth more than nothing
    ruleset = CARCASSONNE
    header, engine = new_game(ruleset, 2, 7)
    table = ruleset.determinise(engine, random.Random(7))
    rng = random.Random(7)
    found = 0
    for _ in range(60):
        if table.is_over:
            break
        assert isinstance(table, CarcassonneWorld)
        discards, tile, legal = table._draw()
        if tile is not None:
            state = table.state
            for p in legal:
                worth, follow = table.quick_worth(p, state._preview(p, state._design(tile, None)), random.Random(0))
                scored = [e for e in state.after(table.player, [p] + list(follow))[1]
                          if isinstance(e, ScoreEvent) and e.player == table.player]
                if any(isinstance(c, PlaceFollower) for c in follow) and worth > 0:
                    assert scored  # the follower chosen for its worth scores this very turn
                    found += 1
        table.play(table.rollout_move(rng))
    assert found >= 1


def test_the_shortlist_races_several_placements_and_greedys_choice_among_them():
    header, engine = new_game(CARCASSONNE, 2, 4)
    table = CARCASSONNE.determinise(engine, random.Random(4))
    rng = random.Random(4)
    for _ in range(10):
        table.play(table.rollout_move(rng))
    worlds = make_worlds(CARCASSONNE, table.engine, table.hand(), random.Random(1), 1)
    from grn.bots import GreedyBot

    greedy = GreedyBot(CARCASSONNE).choose(table.engine.copy(), random.Random(1), table.hand())
    candidates = candidate_moves(worlds, table.player, 8)
    placements = {[c for c in d if isinstance(c, PlaceTile)][0] for d in candidates}
    per = max(sum(1 for d in candidates if [c for c in d if isinstance(c, PlaceTile)][0] == p) for p in placements)
    rank = greedy_rank(worlds, table.player)
    # greedy's choice races; the first candidate, the search's fallback, is worth at least as much at once
    assert greedy in candidates and rank(candidates[0]) >= rank(greedy)
    assert per <= TileWorld.per_placement(8) and len(placements) >= 3


def test_a_tile_games_search_spends_the_levels_playouts_unless_a_benchmark_scales_them(monkeypatch):
    """``TileWorld.search_scale`` (1) is a benchmark's knob (R502): the bot's claiming search spends the level's
    playouts times it, at most ``search_cap``; an analysis's world, or classic's, spends the level's."""
    world = _city_position()
    world.claim_playouts()
    assert [world.search_playouts(n) for n in (60, 160, 600, 3000)] == [60, 160, 600, 3000]
    monkeypatch.setattr(TileWorld, "search_scale", 4)
    assert [world.search_playouts(n) for n in (60, 160, 600, 3000)] == [240, 640, 2400, 3000]
    plain = CARCASSONNE.determinise(world.engine, random.Random(2), ("E",))
    assert plain.search_playouts(160) == 160  # not claiming: an analysis, or classic
