"""What a position says (issue 21, item 8): each player's projected final score and, in the tile-laying
games, how many tiles left fit each open square (rulings R92, R93)."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from grn import games
from grn.analysis.aids import aids_lines, position_aids
from grn.rules.position import position_at
from grn.rules.selfplay import to_record

_RECORDS: dict[tuple[str, int], object] = {}


def record(game: str, seed: int):
    key = (game, seed)
    if key not in _RECORDS:
        ruleset = games.find_ruleset(game)
        options = ruleset.parse_options({"goldmines": "on"}) if game == "carcassonne" else None
        _RECORDS[key] = to_record(ruleset.selfplay(2, seed, options), seed=seed)
    return _RECORDS[key]


def brute_force_open(state) -> dict[str, int]:
    """Every empty square beside a tile, and the copies left in the bag that fit it in some rotation."""
    board, tileset = state.board, state.tileset
    squares = {(x + dx, y + dy) for (x, y) in board.tiles for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0))}
    out = {}
    for x, y in sorted(squares - set(board.tiles)):
        out[f"{x},{y}"] = sum(n for tile, n in state.bag().items() if n and any(
            board.fits(tileset[tile], x, y, r) for r in (0, 90, 180, 270)))
    return out


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(["goldrush", "carcassonne"]), st.integers(1, 3), st.integers(0, 60))
def test_open_squares_count_the_tiles_left_that_fit(game, seed, turn):
    position = position_at(record(game, seed), turn)
    state = position.state
    before = dict(state.scores)
    aids = position_aids(position)
    assert aids.open == brute_force_open(state)
    assert aids.unfillable == [k for k, n in aids.open.items() if n == 0]
    # the projection is the final scoring on a copy: the position itself is unchanged
    assert dict(state.scores) == before
    copy = state.copy()
    copy.final_scoring()
    assert aids.projected == dict(copy.scores)
    assert all(aids.projected[k] >= before[k] for k in before)


def test_the_projection_counts_open_features_and_show_prints_it():
    position = position_at(record("carcassonne", 3), 40)
    aids = position_aids(position)
    assert aids.projected != dict(position.state.scores)  # open features would score at the end
    lines = aids_lines(position)
    assert lines[0].startswith("  if the game ended now: ")
    assert any(line.startswith("  open squares, with the tiles left that fit: ") for line in lines)
    assert any(line.startswith("  no tile left can fill: ") for line in lines)


def test_after_the_final_scoring_nothing_is_projected():
    rec = record("goldrush", 1)
    position = position_at(rec, "final")
    aids = position_aids(position)
    assert aids.projected is None and aids.open == {}
    assert aids_lines(position) == []


def test_a_game_without_tiles_says_nothing_of_squares_and_projects_through_the_default():
    rec = to_record(games.find_ruleset("gold").selfplay(2, 1), seed=1)
    position = position_at(rec, 5)
    aids = position_aids(position)
    assert aids.open == {}  # the default hook: nothing to say
    assert aids.projected == dict(position.state.scores)


def test_the_toy_game_gets_the_aids_through_the_defaults():
    from tests.toygame import NimState

    state = NimState(["red", "blue"])
    assert state.projected_scores() == state.scores  # Engine's default: final scoring (none) on a copy
