"""Mutation tests for Carcassonne: one illegal change in a legal self-played game is flagged at its turn.

Self-played games (2-5 players, with and without The Gold Mines and farmers)
get ONE turn changed into something the rules forbid; the record is written
as GRN text, read back and validated: every error must be at that turn, on its
line (the checks of tests/test_mutations.py).
"""

from __future__ import annotations

import random
from functools import lru_cache

import pytest

from test_mutations import Played, Tally, run_samples

from grn.games.carcassonne import selfplay
from grn.games.carcassonne.commands import PlaceFollower, PlaceIngot, TakeIngot
from grn.games.carcassonne.options import Options
from grn.games.carcassonne.rules import AROUND, CarcassonneState
from grn.core.record import Turn
from grn.rules.selfplay import to_record
from grn.games.tiling.commands import DiscardTile, PlaceTile

_CONFIGS = [(2, 31, Options()), (3, 32, Options(goldmines=True)), (4, 33, Options(goldmines=True, farmers=False)),
            (5, 34, Options(goldmines=True)), (2, 35, Options(goldmines=True, smallcity=True))]


@lru_cache(maxsize=None)
def games() -> tuple[Played, ...]:
    out = []
    for n, seed, options in _CONFIGS:
        game = selfplay.play(n, seed=seed, options=options)
        state = CarcassonneState.new(None, game.players, options)
        states = []
        for t in game.turns:
            states.append(state.copy())
            state.play_turn(t.player, list(t.actions))
        out.append(Played(game, to_record(game, seed=seed), tuple(states)))
    return tuple(out)


def _turn(played: Played, number: int) -> Turn:
    return played.record.turns[number - 1]


def _place(turn: Turn) -> PlaceTile | None:
    return next((a for a in turn.actions if isinstance(a, PlaceTile)), None)


def occupied_square(played: Played, number: int, rng: random.Random, tally: Tally) -> Turn | None:
    """The tile goes on a square that already holds one."""
    turn = _turn(played, number)
    place = _place(turn)
    if place is None:
        return None
    state: CarcassonneState = played.states[number - 1]
    x, y = rng.choice(sorted(state.board.tiles))
    actions = tuple(a.replace(x=x, y=y) if a is place else a for a in turn.actions)
    return turn.replace(actions=actions)


def unmatched_edge(played: Played, number: int, rng: random.Random, tally: Tally) -> Turn | None:
    """The tile turned so that an edge does not match (where no rotation of it fits there)."""
    turn = _turn(played, number)
    place = _place(turn)
    if place is None:
        return None
    state: CarcassonneState = played.states[number - 1]
    design = state.tileset[place.tile]
    bad = [r for r in (0, 90, 180, 270) if not state.board.fits(design, place.x, place.y, r)]
    if not bad:
        tally.skip("fits in every rotation")
        return None
    actions = tuple(a.replace(rotation=rng.choice(bad)) if a is place else a for a in turn.actions)
    return turn.replace(actions=actions)


def follower_on_occupied(played: Played, number: int, rng: random.Random, tally: Tally) -> Turn | None:
    """A follower on a feature of the new tile that another follower already occupies."""
    turn = _turn(played, number)
    place = _place(turn)
    if place is None or any(isinstance(a, (PlaceFollower, TakeIngot)) for a in turn.actions):
        return None
    state: CarcassonneState = played.states[number - 1]
    if state.supply[state.seat] == 0:
        return None
    design = state.tileset[place.tile]
    p = state.board.preview(design, place.x, place.y, place.rotation)
    assert p is not None
    taken = [i for i in range(len(design.kinds)) if state._occupied(p, i)
             and (design.kinds[i] != "field" or state.options.farmers)]
    if not taken:
        return None
    loc = state._location_name(p.orientation, rng.choice(taken))
    return turn.replace(actions=turn.actions + (PlaceFollower(loc),))


def ingot_left_out(played: Played, number: int, rng: random.Random, tally: Tally) -> Turn | None:
    """A Gold Mines tile without its second ingot where several tiles could take it (with one, R35 allows it)."""
    turn = _turn(played, number)
    place = _place(turn)
    if place is None or not any(isinstance(a, PlaceIngot) for a in turn.actions):
        return None
    before = played.states[number - 1]
    if before.mines is None or len(before.mines.spots(before, (place.x, place.y))) < 2:
        return None
    return turn.replace(actions=tuple(a for a in turn.actions if not isinstance(a, PlaceIngot)))


def ingot_too_far(played: Played, number: int, rng: random.Random, tally: Tally) -> Turn | None:
    """The second ingot on a tile that is not next to the new one."""
    turn = _turn(played, number)
    place = _place(turn)
    if place is None or not any(isinstance(a, PlaceIngot) for a in turn.actions):
        return None
    state: CarcassonneState = played.states[number - 1]
    near = {(place.x + dx, place.y + dy) for dx, dy in AROUND}
    far = [q for q in sorted(state.board.tiles) if q not in near]
    if not far:
        tally.skip("every tile is next to the new one")
        return None
    x, y = rng.choice(far)
    return turn.replace(actions=tuple(PlaceIngot(x, y) if isinstance(a, PlaceIngot) else a for a in turn.actions))


def ingot_without_gold_tile(played: Played, number: int, rng: random.Random, tally: Tally) -> Turn | None:
    """An ingot after a tile that has none."""
    turn = _turn(played, number)
    place = _place(turn)
    if place is None or any(isinstance(a, PlaceIngot) for a in turn.actions):
        return None
    i = turn.actions.index(place)
    return turn.replace(actions=turn.actions[:i + 1] + (PlaceIngot(0, 0),) + turn.actions[i + 1:])


def discard_that_fits(played: Played, number: int, rng: random.Random, tally: Tally) -> Turn | None:
    """The tile placed is first discarded, though it fits."""
    turn = _turn(played, number)
    place = _place(turn)
    if place is None:
        return None
    i = turn.actions.index(place)
    return turn.replace(actions=turn.actions[:i] + (DiscardTile(place.tile),) + turn.actions[i:])


def wrong_player(played: Played, number: int, rng: random.Random, tally: Tally) -> Turn | None:
    """The turn is played by someone else."""
    turn = _turn(played, number)
    others = [p for p in played.game.players if p != turn.player]
    return turn.replace(player=rng.choice(others))


def take_without_gold(played: Played, number: int, rng: random.Random, tally: Tally) -> Turn | None:
    """An ingot taken on a turn that hands out none."""
    turn = _turn(played, number)
    if _place(turn) is None or any(isinstance(a, TakeIngot) for a in turn.actions):
        return None
    state: CarcassonneState = played.states[number - 1]
    after = state.copy()
    events = after.play_turn(turn.player, list(turn.actions))
    if any(type(e).__name__ == "IngotTaken" for e in events):
        tally.skip("gold is handed out")
        return None
    return turn.replace(actions=turn.actions + (TakeIngot(0, 0),))


MUTATIONS = {f.__name__: f for f in (occupied_square, unmatched_edge, follower_on_occupied, ingot_left_out,
                                      ingot_too_far, ingot_without_gold_tile, discard_that_fits, wrong_player,
                                      take_without_gold)}
#: Gold Mines turns are rarer: fewer samples.
_SAMPLES = {"ingot_left_out": 12, "ingot_too_far": 12}


@pytest.mark.parametrize("kind", sorted(MUTATIONS))
def test_carcassonne_mutation_is_flagged_at_its_turn(kind: str) -> None:
    run_samples(kind, games(), MUTATIONS[kind], seed=sum(map(ord, kind)), samples=_SAMPLES.get(kind, 30))
