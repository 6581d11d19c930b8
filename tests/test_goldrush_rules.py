"""The Gold Rush rules the engine enforces: turn structure, placement, cowboys, tents, mining, tokens, game end.

Each illegal case checks the IllegalAction's rule/section, and that the state did not change.
"""

from __future__ import annotations

from typing import Any

import pytest

from grn.games.tiling.commands import DiscardTile, PlaceTile

from grn.games.goldrush.commands import Mine, PlaceCowboy, PlaceTent, RevealTokens
from grn.core.errors import IllegalAction, Span
from grn.games.goldrush.rules import SEC_COWBOY, SEC_DIST, SEC_END, SEC_GENERAL, SEC_MINE, SEC_MOUNTAIN, SEC_PLACING, SEC_PLAYING, SEC_TENT, FollowerReturned, GoldRushState, Options, ScoreEvent, TileDiscarded, TokenMined, TokensPlaced, TokensReturned, TokensTaken

from goldrush_fixtures import game, kit

SPAN = Span(7, 3)


def illegal(st: GoldRushState, player: str, actions: list[Any], section: str, *, contains: str = "") -> IllegalAction:
    """Assert the turn is illegal in ``section`` and that the state is unchanged; returns the exception."""
    before = st.fingerprint()
    with pytest.raises(IllegalAction) as info:
        st.play_turn(player, actions)
    assert info.value.section == section, info.value.section
    assert info.value.rule
    assert contains in (info.value.message + " " + (info.value.hint or "")), (info.value.message, info.value.hint)
    assert st.fingerprint() == before
    return info.value


def row(st: GoldRushState, last: int) -> None:
    st.setup(st.players[0], [PlaceTile("P", x, 0) for x in range(1, last + 1)])


# ---------------------------------------------------------------- players and turn order

@pytest.mark.parametrize("players", [["red"], ["red", "yellow", "green", "blue", "black", "red"]])
def test_two_to_five_players(players: list[str]) -> None:
    """000, General Info and Comments: "a tile-laying game ... for 2 to 5 players"."""
    with pytest.raises(IllegalAction) as info:
        GoldRushState.new(kit(), players)
    assert info.value.section == SEC_GENERAL


def test_colours_must_be_known_and_distinct() -> None:
    """Players take the cowboys of one colour each (000, Preparation)."""
    with pytest.raises(IllegalAction):
        GoldRushState.new(kit(), ["red", "pink"])
    with pytest.raises(IllegalAction):
        GoldRushState.new(kit(), ["red", "red"])


def test_turn_order_clockwise_from_first_player() -> None:
    """000, Playing the Game: "The game is played in clockwise order from the start player." """
    st = game(["red", "yellow", "blue"], first="yellow")
    assert st.current_player == "yellow"
    err = illegal(st, "red", [PlaceTile("P", 1, 0, span=SPAN)], SEC_PLAYING, contains="yellow's turn")
    assert err.span == SPAN
    st.play_turn("yellow", [PlaceTile("P", 1, 0)])
    assert st.current_player == "blue"
    st.play_turn("blue", [PlaceTile("P", 2, 0)])
    assert st.current_player == "red"


def test_unknown_player() -> None:
    st = game()
    illegal(st, "green", [PlaceTile("P", 1, 0)], SEC_GENERAL)


# ---------------------------------------------------------------- the order of a turn's actions

def test_cowboy_before_tile_is_illegal() -> None:
    """000, Playing the Game: "A player takes the following actions in the specified order"."""
    st = game()
    err = illegal(st, "red", [PlaceCowboy("N", span=SPAN), PlaceTile("R", 1, 0)], SEC_PLAYING)
    assert err.span == SPAN


def test_only_one_tile_per_turn() -> None:
    st = game()
    illegal(st, "red", [PlaceTile("P", 1, 0), PlaceTile("P", 2, 0)], SEC_PLAYING, contains="only one tile")


def test_at_most_one_step_2_action() -> None:
    """000, step 2c: "A player may perform no more than one of the actions detailed in step 2." """
    st = game()
    err = illegal(st, "red", [PlaceTile("M1", 1, 0, 180), PlaceCowboy("W"), PlaceTent(1, 0)], SEC_PLAYING)
    assert "no more than one" in (err.rule or "")


def test_turn_without_tile_is_illegal() -> None:
    """000, step 1: "The player must draw a Land tile and place it"."""
    st = game()
    illegal(st, "red", [], SEC_PLAYING, contains="places no tile")


def test_step_2_needs_a_tile_placed() -> None:
    st = game()
    illegal(st, "red", [Mine()], SEC_PLAYING)


# ---------------------------------------------------------------- discarding and the bag

def test_discard_only_when_the_tile_fits_nowhere() -> None:
    """000, step 1: "In the rare case that a drawn tile cannot be legally placed, it is discarded from the game."."""
    st = game()
    illegal(st, "red", [DiscardTile("R"), PlaceTile("P", 1, 0)], SEC_PLACING, contains="fits at")
    events = st.play_turn("red", [DiscardTile("MA"), PlaceTile("P", 1, 0)])
    assert isinstance(events[0], TileDiscarded)
    assert st.bag()["MA"] == 9


def test_bag_accounting_no_more_copies_than_the_box() -> None:
    """000, Tile Distribution: the box holds a fixed number of each tile."""
    st = game(counts={"R": 1})
    st.play_turn("red", [PlaceTile("R", 1, 0, 90)])
    illegal(st, "blue", [PlaceTile("R", 2, 0, 90)], SEC_DIST, contains="no copy")


def test_start_tile_copy_is_already_on_the_board() -> None:
    st = game(counts={"P": 3})
    assert st.bag()["P"] == 2


def test_bag_running_out_after_discards_ends_the_game() -> None:
    """000, Game End: the game ends after the turn in which the last tile is placed (here: discarded)."""
    st = game(only=["MA"], counts={"P": 1, "MA": 1})
    events = st.play_turn("red", [DiscardTile("MA")])
    assert [type(e) for e in events] == [TileDiscarded]
    assert st.is_over
    illegal(st, "blue", [PlaceTile("P", 1, 0)], SEC_END)


# ---------------------------------------------------------------- placement

def test_placement_must_touch_a_tile() -> None:
    """000, step 1: "The newly placed tile ... must be placed adjacent to at least one existing tile. Diagonal
    adjacency is not sufficient." """
    st = game()
    illegal(st, "red", [PlaceTile("P", 1, 1)], SEC_PLACING, contains="touches no tile")
    err = illegal(st, "red", [PlaceTile("P", 5, 5)], SEC_PLACING)
    assert err.hint == "tile P fits at: -1,0, 0,-1, 0,1, 1,0"


def test_placement_on_occupied_square() -> None:
    st = game()
    illegal(st, "red", [PlaceTile("P", 0, 0)], SEC_PLACING, contains="already holds")


def test_placement_must_match_with_rotation_hint() -> None:
    """000, step 1: "Railroad tracks, mountains, and prairies must continue from this newly placed tile to existing
    adjacent tiles." """
    st = game(start="R")
    err = illegal(st, "red", [PlaceTile("R", 1, 0, 90)], SEC_PLACING, contains="does not match")
    assert err.hint == "tile R fits at 1,0 only rotated 0 or 180"
    err = illegal(st, "red", [PlaceTile("M1", 1, 0)], SEC_PLACING)
    assert err.hint is not None and err.hint.startswith("tile M1 fits at: ")


def test_prairie_next_to_mountain_is_illegal() -> None:
    """000, step 1: "This tile placement would not be allowed (prairie next to mountain)." """
    st = game()
    illegal(st, "red", [PlaceTile("M1", 1, 0, 180)], SEC_PLACING)
    st.play_turn("red", [PlaceTile("M1", 1, 0)])  # mountain on the far side: fine


def test_bad_rotation_and_unknown_tile() -> None:
    st = game()
    illegal(st, "red", [PlaceTile("P", 1, 0, 45)], SEC_PLACING)
    illegal(st, "red", [PlaceTile("nope", 1, 0)], SEC_DIST)


def test_legal_placements_dedupe_rotations() -> None:
    st = game()
    assert {p.rotation for p in st.legal_placements("P")} == {0}
    # a straight rail looks the same turned 180: only 0 and 90 are listed
    assert {p.rotation for p in st.legal_placements("R")} == {90, 0}
    assert [p for p in st.legal_placements("R") if (p.x, p.y) == (1, 0)] == [PlaceTile("R", 1, 0, 90)]
    st.play_turn("red", [PlaceTile("R", 1, 0, 270)])  # any equivalent rotation is still legal to play


# ---------------------------------------------------------------- mining tokens

def test_tokens_placed_per_nugget_and_stacked() -> None:
    """000, Placing Mining Tokens: "The number of Mining tokens to be placed is equal to the number of gold nugget
    symbols on the newly placed tile." and "Stack the two Mining tokens ... on the existing Mining tokens." """
    st = game()
    events = st.play_turn("red", [PlaceTile("M2", 0, 1)])
    assert [(e.count, e.wanted) for e in events if isinstance(e, TokensPlaced)] == [(2, 2)]
    assert st.tokens_on(0, 1) == 2
    st.play_turn("blue", [PlaceTile("MM3", 1, 1)])
    assert st.tokens_on(0, 1) == 5 and st.token_supply_count == 63 - 5


def test_merged_stacks_keep_older_mountain_at_the_bottom_new_tokens_on_top() -> None:
    """Ruling (the documents are silent): joined mountains pile their stacks oldest mountain first (bottom), then the
    new tile's tokens on top; 000, step 2c: "take the topmost Mining token"."""
    st = game(["red", "blue"], count=30)
    row(st, 3)
    st.setup("red", [PlaceTile("M2", 0, 1)])        # tokens 0, 1 (older mountain, to the west)
    st.setup("red", [PlaceTile("MM2", 2, 1)])       # tokens 2, 3
    st.play_turn("red", [PlaceTile("MM1", 1, 1), PlaceTent(1, 1)])  # token 4 on top
    assert st.tokens_on(0, 1) == 5
    mined: list[int] = []
    for x in range(10):
        player = st.current_player
        acts: list[Any] = [PlaceTile("P", x, -1)]
        if player == "red" and st.tokens_on(0, 1):
            acts.append(Mine())
        events = st.play_turn(player, acts)
        mined += [e.id for e in events if isinstance(e, TokenMined)]
    assert mined == [4, 3, 2, 1, 0]


def test_token_supply_runs_out_symbols_still_score() -> None:
    """Ruling (the documents are silent on an empty supply): place the tokens that are left; the nugget symbols
    still score (000, Completed Mountain: "scores 1 point for each gold nugget symbol on that mountain")."""
    st = game(tokens={"2": 3})
    events = st.play_turn("red", [PlaceTile("M5", 0, 1), PlaceCowboy("E")])
    [placed] = [e for e in events if isinstance(e, TokensPlaced)]
    assert (placed.count, placed.wanted) == (3, 5)
    assert "supply is out" in placed.describe()
    assert st.token_supply_count == 0
    events = st.play_turn("blue", [PlaceTile("M1", 1, 1, 180)])  # no token left to place
    assert [e.count for e in events if isinstance(e, TokensTaken)] == [3]
    assert [(e.player, e.points) for e in events if isinstance(e, ScoreEvent)] == [("red", 6)]


def test_completed_mountain_without_miner_returns_tokens_to_supply() -> None:
    """000, footnote 5: "If there are no gold miners on a completed mountain that contains Mining Tokens, the tokens
    are removed from the board and placed back in the general supply." """
    st = game()
    st.play_turn("red", [PlaceTile("M2", 0, 1)])
    events = st.play_turn("blue", [PlaceTile("M1", 1, 1, 180)])
    assert [e.count for e in events if isinstance(e, TokensReturned)] == [3]
    assert st.token_supply_count == 63
    assert not [e for e in events if isinstance(e, ScoreEvent)]


# ---------------------------------------------------------------- cowboys (step 2a)

def test_cowboy_supply_is_4_and_house_rule_5() -> None:
    """000, Preparation: "Each player takes 5 cowboys ... placing one of their cowboys on space 0 of the
    scoreboard"; House Rules: "use the 5th cowboy in the game"."""
    assert game().cowboys == {"red": 4, "blue": 4}
    assert game(options=Options(cowboys=5)).cowboys == {"red": 5, "blue": 5}


def test_cowboy_must_come_from_supply() -> None:
    """000, step 2a: "The cowboy must come from their personal supply" / "If a player has no cowboys in their
    supply, they must continue to place tiles"."""
    st = game(options=Options(cowboys=1))
    st.play_turn("red", [PlaceTile("R", 1, 0, 90), PlaceCowboy("N")])
    st.play_turn("blue", [PlaceTile("P", -1, 0)])
    illegal(st, "red", [PlaceTile("P", 0, 1), PlaceCowboy("N")], SEC_COWBOY, contains="no cowboy left")
    st.play_turn("red", [PlaceTile("P", 0, 1)])


def test_cowboy_feature_must_be_unoccupied() -> None:
    """000, step 2a: "No other cowboy (of another player or your own) may be present on the railroad, mountain, or
    prairie on which you place your cowboy." """
    st = game(start="R")
    st.play_turn("red", [PlaceTile("R", 1, 0), PlaceCowboy("E")])
    err = illegal(st, "blue", [PlaceTile("R", 2, 0), PlaceCowboy("W")], SEC_COWBOY, contains="already has")
    assert err.hint is not None and "N" in err.hint.split(": ")[1].split(", ")  # the prairies are free
    st.play_turn("blue", [PlaceTile("R", -1, 0)])
    illegal(st, "red", [PlaceTile("R", 2, 0), PlaceCowboy("E")], SEC_COWBOY)  # own cowboy too
    st.play_turn("red", [PlaceTile("R", 2, 0), PlaceCowboy("N")])  # farmer on the north prairie
    assert st.cowboys_on(2, 0, "N") == ["red"]


def test_cowboy_location_must_name_a_feature_of_the_new_tile() -> None:
    """000, step 2a: "The cowboy must be placed on the newly placed tile" and occupy a single feature."""
    st = game()
    illegal(st, "red", [PlaceTile("P", 1, 0), PlaceCowboy("C")], SEC_COWBOY, contains="names no feature")
    illegal(st, "red", [PlaceTile("P", 1, 0), PlaceCowboy("XYZ")], SEC_COWBOY)


def test_merchant_in_city_named_c() -> None:
    """000, step 2a: a cowboy "in a city" is a merchant; GRN names the city "C"."""
    st = game(start="R")
    st.play_turn("red", [PlaceTile("C3", 1, 0, 90), PlaceCowboy("C")])  # rails N, W (meets the start), S
    assert st.cowboys["red"] == 3 and st.cowboys_on(1, 0, "C") == ["red"]


def test_no_farmers_without_the_option() -> None:
    """000, step 2a: "For your first game, it is best to play without the farmers." (Options farmers=off)."""
    st = game(options=Options(farmers=False))
    illegal(st, "red", [PlaceTile("P", 1, 0), PlaceCowboy("N")], SEC_COWBOY, contains="without farmers")


def test_farmers_never_return() -> None:
    """000, The Prairies: "Once a cowboy is placed on a prairie, becoming a farmer, it remains there until the end of
    the game." """
    st = game(start="R")
    st.play_turn("red", [PlaceTile("T", 1, 0, 0), PlaceCowboy("N")])  # farmer; the railroad 0,0-1,0 is still open
    st.play_turn("blue", [PlaceTile("T", -1, 0, 180)])  # completes the railroad
    assert st.cowboys["red"] == 3
    st.final_scoring()
    assert st.cowboys["red"] == 3


def test_farmer_may_not_join_an_occupied_prairie() -> None:
    """000, The Prairies: "The player who placed this new tile may not place a farmer in that prairie, as it is
    already occupied by a farmer (two of them, in fact)." """
    st = game()
    st.play_turn("red", [PlaceTile("P", 1, 0), PlaceCowboy("N")])
    illegal(st, "blue", [PlaceTile("P", 2, 0), PlaceCowboy("N")], SEC_COWBOY)


# ---------------------------------------------------------------- tents (step 2b)

def test_tent_on_new_or_old_tile_and_moving() -> None:
    """000, step 2b: "The tent may occupy a newly placed tile or a previously placed tile" and "There is no
    functional difference between placing a tent from one's personal supply and moving a tent"."""
    st = game()
    st.play_turn("red", [PlaceTile("M1", 0, 1), PlaceTent(0, 1)])
    assert st.tents["red"] == (0, 1)
    st.play_turn("blue", [PlaceTile("MM1", 1, 1)])
    st.play_turn("red", [PlaceTile("P", 1, 0), PlaceTent(1, 1)])
    assert st.tents["red"] == (1, 1)
    st.play_turn("blue", [PlaceTile("P", 2, 0), PlaceTent(0, 1)])  # the old segment is free again
    assert st.tents["blue"] == (0, 1)


def test_tent_segment_must_be_vacant_but_mountain_may_be_shared() -> None:
    """000, step 2b: "The mountain segment of the tile must be vacant (a cowboy may occupy another segment of the same
    tile)" and "Cowboys and tents may still occupy other segments of the same mountain"."""
    st = game()
    st.play_turn("red", [PlaceTile("M1", 0, 1), PlaceCowboy("E")])
    illegal(st, "blue", [PlaceTile("P", 1, 0), PlaceTent(0, 1)], SEC_TENT, contains="gold miner")
    st.play_turn("blue", [PlaceTile("MM1", 1, 1), PlaceTent(1, 1)])
    illegal(st, "red", [PlaceTile("P", 1, 0), PlaceTent(1, 1)], SEC_TENT, contains="tent stands")
    st.play_turn("red", [PlaceTile("P", 1, 0)])
    illegal(st, "blue", [PlaceTile("P", 2, 0), PlaceTent(1, 1)], SEC_TENT, contains="already stands")


def test_tent_not_on_completed_mountain() -> None:
    """000, step 2b: "The mountain must not be completed"."""
    st = game()
    st.play_turn("red", [PlaceTile("M1", 0, 1)])
    st.play_turn("blue", [PlaceTile("M1", 1, 1, 180)])
    illegal(st, "red", [PlaceTile("P", 1, 0), PlaceTent(1, 1)], SEC_TENT, contains="completed")


def test_tent_not_on_mountain_completed_this_turn() -> None:
    """Ruling: a mountain completed by this turn's own tile counts as completed for step 2b (000, step 2b: "The
    mountain must not be completed")."""
    st = game()
    st.play_turn("red", [PlaceTile("M1", 0, 1)])
    illegal(st, "blue", [PlaceTile("M1", 1, 1, 180), PlaceTent(0, 1)], SEC_TENT, contains="completed")


def test_tent_needs_a_mountain_and_a_location_when_several() -> None:
    st = game()
    illegal(st, "red", [PlaceTile("P", 1, 0), PlaceTent(0, 0)], SEC_TENT, contains="no mountain")
    illegal(st, "red", [PlaceTile("MNS", 1, 0, 90)], SEC_PLACING)  # MNS turned: mountains E and W; W meets prairie
    illegal(st, "red", [PlaceTile("MNS", 1, 0), PlaceTent(1, 0)], SEC_TENT, contains="say which")
    illegal(st, "red", [PlaceTile("MNS", 1, 0), PlaceTent(1, 0, "E")], SEC_TENT, contains="not a mountain")
    st.play_turn("red", [PlaceTile("MNS", 1, 0), PlaceTent(1, 0, "N")])
    assert st.tents["red"] == (1, 0)
    illegal(st, "blue", [PlaceTile("P", 5, 5), PlaceTent(9, 9)], SEC_PLACING)


def test_tents_do_not_count_for_majority() -> None:
    """000, Completed Mountain: "Tents have no effect on the majority, evaluation, or scoring of a completed
    mountain. A tent occupying a completed mountain is returned to its owner's supply." """
    st = game()
    st.play_turn("red", [PlaceTile("M1", 0, 1), PlaceCowboy("E")])
    st.play_turn("blue", [PlaceTile("MM1", 1, 1), PlaceTent(1, 1)])
    events = st.play_turn("red", [PlaceTile("M1", 2, 1, 180), RevealTokens((1, 1, 2))])
    assert [(e.player, e.points) for e in events if isinstance(e, ScoreEvent)] == [("red", 3)]
    assert st.tents["blue"] is None


# ---------------------------------------------------------------- mining (step 2c)

def test_mine_needs_a_tent() -> None:
    """000, step 2c: "take the topmost Mining token from the mountain where their tent is located"."""
    st = game()
    illegal(st, "red", [PlaceTile("M1", 0, 1), Mine()], SEC_MINE, contains="no tent")


def test_mine_takes_the_top_token_and_needs_one() -> None:
    st = game()
    st.play_turn("red", [PlaceTile("M1", 0, 1), PlaceTent(0, 1)])
    st.play_turn("blue", [PlaceTile("P", 1, 0)])
    events = st.play_turn("red", [PlaceTile("P", 2, 0), Mine(3)])
    assert [(e.player, e.value) for e in events if isinstance(e, TokenMined)] == [("red", 3)]
    assert st.tokens_held["red"] == 1 and st.tokens_on(0, 1) == 0
    st.play_turn("blue", [PlaceTile("P", 3, 0)])
    illegal(st, "red", [PlaceTile("P", 4, 0), Mine()], SEC_MINE, contains="no mining token")


def test_mined_value_must_be_possible() -> None:
    """000, Tile Distribution: 63 tokens: 10x1, 30x2, 10x3, 3x5, 10x0 -- a face cannot appear more often."""
    st = game(tokens={"5": 1, "2": 10})
    st.play_turn("red", [PlaceTile("M3", 0, 1), PlaceTent(0, 1)])
    st.play_turn("blue", [PlaceTile("P", 1, 0)])
    illegal(st, "red", [PlaceTile("P", 2, 0), Mine(4)], SEC_GENERAL, contains="worth 4")
    st.play_turn("red", [PlaceTile("P", 2, 0), Mine(5)])
    st.play_turn("blue", [PlaceTile("P", 3, 0)])
    illegal(st, "red", [PlaceTile("P", 4, 0), Mine(5)], SEC_DIST, contains="accounted for")


def test_mine_then_score_own_completed_mountain() -> None:
    """000, footnote 4: "If I complete a mountain area which contains my tent, can I first mine it and then
    distribute tokens and score it? Yes." """
    st = game()
    st.play_turn("red", [PlaceTile("M2", 0, 1), PlaceCowboy("E")])
    st.play_turn("blue", [PlaceTile("MM1", 1, 1), PlaceTent(1, 1)])
    st.play_turn("red", [PlaceTile("P", 1, 0)])
    events = st.play_turn("blue", [PlaceTile("M1", 2, 1, 180), Mine(2), RevealTokens((0, 1, 2))])
    kinds = [type(e).__name__ for e in events]
    assert kinds.index("TokenMined") < kinds.index("TokensTaken")
    assert st.tokens_held == {"red": 3, "blue": 1}
    assert st.tents["blue"] is None


def test_mine_only_instead_of_cowboy_or_tent() -> None:
    """000, step 2c: "On a turn in which a player chooses not to place a cowboy (2a) or pitch a tent (2b)"."""
    st = game()
    st.play_turn("red", [PlaceTile("M1", 0, 1), PlaceTent(0, 1)])
    st.play_turn("blue", [PlaceTile("P", 1, 0)])
    illegal(st, "red", [PlaceTile("P", 2, 0), PlaceCowboy("N"), Mine()], SEC_PLAYING)


# ---------------------------------------------------------------- RevealTokens and scoring order

def test_reveal_count_must_match_tokens_handed_out() -> None:
    """000, Completed Mountain: the majority "first takes all Mining tokens that remain on the mountain"."""
    st = game()
    st.play_turn("red", [PlaceTile("M2", 0, 1), PlaceCowboy("E")])
    err = illegal(st, "blue", [PlaceTile("M1", 1, 1, 180), RevealTokens((1, 2), span=SPAN)], SEC_MOUNTAIN,
                  contains="3 mining tokens were handed out")
    assert err.span == SPAN
    illegal(st, "blue", [PlaceTile("M1", 1, 1, 180), RevealTokens((1, 2, 9))], SEC_GENERAL)
    events = st.play_turn("blue", [PlaceTile("M1", 1, 1, 180), RevealTokens((1, None, 2))])
    assert [e.values for e in events if isinstance(e, TokensTaken)] == [(1, None, 2)]


def test_reveal_without_handout_is_illegal() -> None:
    st = game()
    illegal(st, "red", [PlaceTile("P", 1, 0), RevealTokens((2,))], SEC_MOUNTAIN)


def test_two_mountains_completed_in_one_turn_score_in_place_order() -> None:
    """Ruling: several features completed in one turn score railroads, then mountains, then cities; within a kind by
    the first place clockwise from NNW the feature holds on the new tile (here the N mountain before the S one);
    RevealTokens follows that hand-out order."""
    st = game(["red", "blue"])
    st.setup("red", [PlaceTile("P", 0, 1), PlaceTile("P", 0, 2), PlaceTile("M1", 1, 2, 90), PlaceCowboy("S")])
    st.setup("blue", [PlaceTile("M1", 1, 0, 270), PlaceCowboy("N")])
    events = st.play_turn("red", [PlaceTile("MNS", 1, 1), RevealTokens((1, 2, 3, 5))])
    taken = [(e.player, e.values) for e in events if isinstance(e, TokensTaken)]
    assert taken == [("red", (1, 2)), ("blue", (3, 5))]
    assert [(e.player, e.points) for e in events if isinstance(e, ScoreEvent)] == [("red", 2), ("blue", 2)]


def test_tie_dealing_starts_with_first_tied_player_clockwise_from_current() -> None:
    """000, Completed Mountain: "The tied players take turns taking Mining tokens, starting clockwise from the current
    player" (the current player green is not tied: red, after green, starts)."""
    st = game(["red", "blue", "green"], first="green")
    row(st, 2)
    st.setup("blue", [PlaceTile("M2", 0, 1), PlaceCowboy("E")])
    st.setup("red", [PlaceTile("MM1", 1, 1), PlaceCowboy("E")])
    events = st.play_turn("green", [PlaceTile("M0", 2, 1, 180), RevealTokens((1, 2, 3))])
    taken = [(e.player, e.values) for e in events if isinstance(e, TokensTaken)]
    assert taken == [("red", (1, 3)), ("blue", (2,))]


def test_cowboys_on_completed_features_return() -> None:
    """000, Returning Cowboys: "After a railroad, mountain, or city is completed, the cowboys in those completed
    features are returned to their owners' supplies." """
    st = game(start="R")
    st.play_turn("red", [PlaceTile("T", 1, 0), PlaceCowboy("W")])
    events = st.play_turn("blue", [PlaceTile("T", -1, 0, 180)])
    assert [(type(e), e.player) for e in events if isinstance(e, FollowerReturned)] == [(FollowerReturned, "red")]
    assert st.cowboys["red"] == 4


# ---------------------------------------------------------------- game end, copies, helpers

def test_game_ends_after_last_tile_and_final_scoring_once() -> None:
    """000, Game End: "The game ends immediately after the turn during which the last Land tile is placed." """
    st = game(only=["R"], counts={"P": 1, "R": 2})
    st.play_turn("red", [PlaceTile("R", 1, 0, 90)])
    assert not st.is_over
    st.play_turn("blue", [PlaceTile("R", -1, 0, 90), PlaceCowboy("N")])
    assert st.is_over
    illegal(st, "red", [PlaceTile("R", 2, 0)], SEC_END, contains="game is over")
    st.final_scoring()
    with pytest.raises(IllegalAction):
        st.final_scoring()


def test_after_and_copy_leave_the_original_alone() -> None:
    st = game()
    before = st.fingerprint()
    new, events = st.after("red", [PlaceTile("M2", 0, 1), PlaceCowboy("E")])
    assert st.fingerprint() == before
    assert new.cowboys["red"] == 3 and new.current_player == "blue"
    c = new.copy()
    c.play_turn("blue", [PlaceTile("M1", 1, 1, 180)])
    assert new.tokens_on(0, 1) == 2 and c.scores["red"] == 3 and new.scores["red"] == 0


def test_legal_followups() -> None:
    st = game()
    st.play_turn("red", [PlaceTile("M2", 0, 1), PlaceTent(0, 1)])
    st.play_turn("blue", [PlaceTile("MM1", 1, 1), PlaceCowboy("E")])
    follow = st.legal_followups(PlaceTile("P", 1, 0))
    assert follow[0] is None
    assert PlaceCowboy("N") in follow
    assert Mine() in follow
    assert PlaceTent(0, 1) not in follow and PlaceTent(1, 1) not in follow  # own tent / gold miner
    follow = st.legal_followups(PlaceTile("M1", 2, 1, 180))  # completes the mountain
    assert not [f for f in follow if isinstance(f, PlaceTent)]
    assert PlaceCowboy("W") not in follow  # occupied by blue
    assert Mine() in follow
    for f in follow:
        st.copy().play_turn("red", [PlaceTile("M1", 2, 1, 180)] + ([f] if f else []))


def test_setup_is_all_or_nothing_and_scores_nothing() -> None:
    st = game()
    before = st.fingerprint()
    with pytest.raises(IllegalAction):
        st.setup("red", [PlaceTile("P", 1, 0), PlaceTile("P", 5, 5)])
    assert st.fingerprint() == before
    st.setup("red", [PlaceTile("M1", 0, 1), PlaceCowboy("E"), PlaceTile("M1", 1, 1, 180)])
    assert st.scores == {"red": 0, "blue": 0} and st.cowboys["red"] == 3
    assert st.current_player == "red"


def test_event_descriptions() -> None:
    st = game()
    events = st.play_turn("red", [PlaceTile("M2", 0, 1), PlaceCowboy("E")])
    assert events[0].describe() == "2 mining tokens go on the mountain at 0,1"
    events = st.play_turn("blue", [PlaceTile("M1", 1, 1, 180), RevealTokens((1, 2, 0))])
    texts = [e.describe() for e in events]
    assert "red takes 3 mining tokens (1, 2, 0)" in texts
    assert "red scores 3 for a completed mountain of 2 tiles with 3 gold nuggets" in texts
    assert "red's gold miner returns to the supply" in texts
    assert all(repr(e).startswith("<") for e in events)
