"""Carcassonne (base game) and The Gold Mines: one test per rule, quoting it.

The Gold Mines quotes are the expansion's rules word for word; the base
game's are the rulebook's rules as the ruleset words them (grn/games/carcassonne/terms.py).
Positions are built from the start tile D at 0,0 (city north, road west-east).
"""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grn.core.errors import IllegalAction, Span
from grn.games.carcassonne import RULESET, parse_options
from grn.games.carcassonne.commands import PlaceFollower, PlaceIngot, TakeIngot
from grn.games.carcassonne.events import IngotsPlaced, IngotsRemoved, IngotTaken, ScoreEvent
from grn.games.carcassonne.options import Options
from grn.games.carcassonne.rules import CarcassonneState
from grn.games.carcassonne.terms import Q_FOLLOWER_FREE, Q_PLACE, Q_SHARE, ingot_value
from grn.rules.ruleset import SetupProblem
from grn.games.tiling.commands import DiscardTile, PlaceTile

_CODECS = {c.terminal: c for c in RULESET.codecs}


def acts(text: str) -> list:
    """Engine commands from GRN words (``K@1,0:90 +N ingot@1,1 take@0,0``)."""
    out = []
    for w in text.split():
        if w.startswith("+"):
            codec = _CODECS["FOLLOWER"]
        elif w.startswith("ingot@"):
            codec = _CODECS["INGOT"]
        elif w.startswith("take@"):
            codec = _CODECS["TAKE"]
        elif w.startswith("discard:"):
            out.append(DiscardTile(w.split(":")[1], Span(1, 1)))
            continue
        else:
            codec = _CODECS["PLACEMENT"]
        out.append(codec.read(w, Span(1, 1), []))
    return out


def game(players=("red", "blue"), **options) -> CarcassonneState:
    return CarcassonneState.new(None, list(players), Options(**options))


def points(events, final=None) -> list[tuple[str, int, str]]:
    return [(e.player, e.points, e.feature) for e in events if isinstance(e, ScoreEvent)
            and (final is None or e.final == final)]


def illegal(state: CarcassonneState, player: str, text: str) -> IllegalAction:
    before = state.fingerprint()
    with pytest.raises(IllegalAction) as exc:
        state.play_turn(player, acts(text))
    assert state.fingerprint() == before, "an illegal turn changed the game"
    e = exc.value
    assert e.rule and e.section and e.span is not None
    return e


# ---------------------------------------------------------------------------
# set-up and tiles
# ---------------------------------------------------------------------------

def test_start_tile_and_bag() -> None:
    """"The start tile (D) is placed face up in the middle; the other 71 tiles are shuffled"."""
    s = game()
    assert s.board.tiles[(0, 0)].design.id == "D"
    assert s.bag_left == 71
    assert s.supply == [7, 7]


def test_the_gold_mines_tiles_join_the_bag() -> None:
    """"The new tiles are mixed with those of the base set." (The Gold Mines, Game setup)"""
    assert game(goldmines=True).bag_left == 79
    e = illegal(game(), "red", "GM1@0,-1")
    assert "Gold Mines" in e.message and "goldmines" in e.hint


def test_players_and_options() -> None:
    with pytest.raises(IllegalAction):
        CarcassonneState.new(None, ["red"], Options())
    with pytest.raises(SetupProblem) as exc:
        parse_options({"river": "on"})
    assert "goldmines" in exc.value.message and "smallcity" in exc.value.message
    assert parse_options({"goldmines": "on", "farmers": "off"}) == Options(goldmines=True, farmers=False)


def test_tile_must_match_and_touch() -> None:
    """"Every edge that touches a placed tile must continue it: city to city, road to road, field to field."."""
    s = game()
    e = illegal(s, "red", "E@0,1")  # E's field edge south against D's city
    assert "does not match" in e.message and "rotated 180" in e.hint
    e = illegal(s, "red", "E@5,5")
    assert "touches no tile" in e.message


def test_turn_order() -> None:
    s = game()
    e = illegal(s, "blue", "E@0,1:180")
    assert "red's turn" in e.message


# ---------------------------------------------------------------------------
# followers
# ---------------------------------------------------------------------------

def test_follower_on_the_new_tile_only_one_from_the_supply() -> None:
    """"You may place a follower only on the tile you have just placed." and "from your supply"."""
    s = game()
    e = illegal(s, "red", "U@1,0 +C")  # a straight road has no cloister
    assert "names no feature" in e.message and "+E (road)" in e.hint
    s.supply[0] = 0
    e = illegal(s, "red", "U@1,0 +E")
    assert "no follower left" in e.message


def test_follower_only_on_an_unoccupied_feature() -> None:
    """"You may not place a follower on a feature that is already occupied by a follower, no matter how far away"."""
    s = game()
    s.play_turn("red", acts("W@1,0 +W"))
    e = illegal(s, "blue", "V@-1,0:180 +E")
    assert e.rule == Q_FOLLOWER_FREE and "red" in e.message and "+NNE (field)" in e.hint


def test_farmers_off() -> None:
    s = game(farmers=False)
    e = illegal(s, "red", "U@1,0 +NNE")
    assert "without farmers" in e.message


# ---------------------------------------------------------------------------
# scoring during the game
# ---------------------------------------------------------------------------

def test_city_two_points_per_tile() -> None:
    """A completed city scores 2 points per tile (Carcassonne rules, Scoring: cities)."""
    s = game()
    events = s.play_turn("red", acts("E@0,1:180 +S"))
    assert points(events) == [("red", 4, "city")]
    assert s.supply == [7, 7]  # the knight comes back


def test_small_city_option() -> None:
    """The early rule (option smallcity): a completed two-tile city scores 1 per tile and 1 per pennant."""
    s = game(smallcity=True)
    assert points(s.play_turn("red", acts("E@0,1:180 +S"))) == [("red", 2, "city")]


def test_city_pennant_two_points() -> None:
    """"2 points per tile + 2 per pennant" for a completed city."""
    s = game()
    s.play_turn("red", acts("M@0,1:180 +S"))
    events = s.play_turn("blue", acts("E@1,1:270"))
    assert points(events) == [("red", 8, "city")]


def test_road_one_point_per_tile_owner_scores_whoever_completes() -> None:
    """A completed road scores 1 per tile, to the majority of followers on it, whoever completes it."""
    s = game()
    s.play_turn("red", acts("W@1,0 +W"))
    events = s.play_turn("blue", acts("W@-1,0"))
    assert points(events) == [("red", 3, "road")]


def test_majority_ties_both_score() -> None:
    """"All tied players score the full points"."""
    s = game()
    s.setup("red", acts("W@1,0 +W"))
    s.setup("blue", acts("U@-1,0 +W"))
    events = s.play_turn("red", acts("W@-2,0"))
    assert sorted(points(events)) == [("blue", 4, "road"), ("red", 4, "road")]


CLOISTER_RING = ["B@0,-1", "E@-1,-1:270", "E@1,-1:90", "E@-1,-2:270", "E@1,-2:90", "E@-1,-3:180", "B@0,-3",
                 "B@1,-3"]


def test_cloister_nine_points() -> None:
    """A cloister surrounded by 8 tiles scores 9 (Carcassonne rules, Scoring: cloisters)."""
    s = game()
    s.setup("red", acts(" ".join(CLOISTER_RING)))
    events = s.play_turn("red", acts("B@0,-2 +C"))
    assert points(events) == [("red", 9, "cloister")]


def test_incomplete_cloister_at_the_end() -> None:
    """At the end an incomplete cloister scores 1 plus 1 per tile around it."""
    s = game()
    s.setup("red", acts(" ".join(CLOISTER_RING[:3])))
    s.play_turn("red", acts("B@0,-2 +C"))
    assert points(s.final_scoring()) == [("red", 4, "cloister")]  # 1 + three tiles around


def test_final_scoring_incomplete_road_and_city() -> None:
    """At the end a road scores 1 per tile; an incomplete city 1 per tile and 1 per pennant."""
    s = game()
    s.play_turn("red", acts("M@0,1:180 +S"))
    s.play_turn("blue", acts("U@1,0 +E"))
    assert sorted(points(s.final_scoring())) == [("blue", 2, "road"), ("red", 3, "city")]
    assert s.final_scoring() == []  # once


def test_farmers_three_per_completed_city() -> None:
    """Farmers score 3 for each completed city their field touches, at the end."""
    s = game()
    s.play_turn("red", acts("E@0,1:180 +S"))          # city D+E completed
    s.play_turn("blue", acts("U@1,0 +NNE"))           # farmer in the field north of the road, beside the city
    final = points(s.final_scoring())
    assert ("blue", 3, "field") in final


def test_farmers_off_no_field_scoring() -> None:
    s = game(farmers=False)
    s.play_turn("red", acts("E@0,1:180 +S"))
    assert points(s.final_scoring()) == []


def test_discard_only_when_nothing_fits() -> None:
    """"If a tile cannot be placed anywhere, it is removed from the game"."""
    s = game()
    e = illegal(s, "red", "discard:E U@1,0")
    assert "may not be discarded" in e.message


# ---------------------------------------------------------------------------
# The Gold Mines
# ---------------------------------------------------------------------------

def test_two_ingots_after_a_gold_tile() -> None:
    """"Whenever a player draws a tile with a gold ingot on it, he places it as usual. He then sets a gold ingot on
    that tile and on an adjacent tile (even diagonally). As such, a player will always place 2 gold ingots after
    placing a tile with an ingot.\""""
    s = game(goldmines=True)
    # one tile qualifies (the start tile): the record may leave the second ingot out (R35)
    implied = s.copy()
    assert implied.play_turn("red", acts("GM6@1,0:90")) == s.copy().play_turn("red", acts("GM6@1,0:90 ingot@0,0"))
    assert implied.mines.ingots == {(1, 0): 1, (0, 0): 1}
    e = illegal(s, "red", "GM6@1,0:90 ingot@1,0")
    assert "not on the new tile" in e.message
    e = illegal(s, "red", "GM6@1,0:90 ingot@3,3")
    assert "no tile" in e.message
    events = s.play_turn("red", acts("GM6@1,0:90 ingot@0,0"))
    assert IngotsPlaced(((1, 0), (0, 0))) in events
    assert s.mines.ingots == {(1, 0): 1, (0, 0): 1}


def test_ingot_diagonal_and_stacking() -> None:
    """"(even diagonally)" and "An ingot may be placed on a tile where there already is one or more ingots.\""""
    s = game(goldmines=True)
    s.setup("red", acts("U@1,0 ingot@1,0"))
    s.play_turn("red", acts("GM5@2,0 ingot@1,0"))
    e = illegal(s, "blue", "GM8@2,-1")  # several tiles qualify: the record must say which
    assert e.rule.startswith(Q_PLACE) and "ingot@1,0" in e.hint and "ingot@2,0" in e.hint
    s.play_turn("blue", acts("GM8@2,-1 ingot@1,0"))  # 1,0 is a diagonal neighbour of 2,-1
    assert s.mines.ingots[(1, 0)] == 3


def test_no_ingot_without_a_gold_tile() -> None:
    s = game(goldmines=True)
    e = illegal(s, "red", "U@1,0 ingot@0,0")
    assert "no gold ingot" in e.message


def test_follower_after_the_ingots() -> None:
    """"After placing 2 gold ingots, the player can set a follower as usual.\""""
    s = game(goldmines=True)
    e = illegal(s, "red", "GM6@1,0:90 +W ingot@0,0")
    assert "out of order" in e.message
    s.play_turn("red", acts("GM6@1,0:90 ingot@0,0 +W"))
    assert s.followers_on(1, 0, "W") == ["red"]


def test_gold_shared_one_at_a_time_rules_example() -> None:
    """"Red completes a road. Since both Red and Blue occupy this road, they must share the gold ingots. Being the
    active player, Red takes the first gold ingot, followed by Blue, and finally Red takes the last one.\""""
    s = game(goldmines=True)
    s.setup("red", acts("W@1,0 +W"))
    s.setup("blue", acts("U@-1,0 +W ingot@1,0 ingot@0,0 ingot@-1,0"))
    events = s.play_turn("red", acts("W@-2,0"))
    assert [e.player for e in events if isinstance(e, IngotTaken)] == ["red", "blue", "red"]
    assert s.mines.gold == {"red": 2, "blue": 1}


def test_most_followers_takes_all() -> None:
    """"The player with the most followers takes all the gold ingots from the tiles forming the completed feature.\""""
    s = game(goldmines=True)
    s.setup("red", acts("W@1,0 +W ingot@1,0 ingot@1,0 ingot@0,0"))
    s.play_turn("red", acts("W@-1,0"))
    assert s.mines.gold == {"red": 3, "blue": 0}
    assert s.mines.ingots == {}


def test_a_gold_tile_completes_and_its_own_gold_is_taken() -> None:
    """"1. Place a tile with a gold ingot 2. Place 2 gold ingots 3. Place a follower or not 4. Score completed
    features 5. Distribute gold ingots\""""
    s = game(goldmines=True)
    s.setup("blue", acts("W@-1,0 E@-1,1:90"))
    events = s.play_turn("red", acts("GM6@0,1:270 ingot@0,0 +S"))  # closes the city of D, GM6 and E
    assert points(events) == [("red", 6, "city")]
    assert s.mines.gold["red"] == 2


def test_cloister_claims_its_nine_tiles() -> None:
    """"For monasteries, count the tile with the monastery and the 8 adjacent tiles that complete it.\""""
    s = game(goldmines=True)
    s.setup("red", acts(" ".join(CLOISTER_RING) + " ingot@1,-3 ingot@0,0"))
    s.play_turn("red", acts("B@0,-2 +C"))
    assert s.mines.gold["red"] == 1  # 1,-3 is beside the cloister; 0,0 is not
    assert s.mines.ingots == {(0, 0): 1}


def test_two_features_at_once_choice() -> None:
    """"If ... multiple features with gold ingots are completed at the same time, ... each player that can receive
    gold ingots takes one ingot." The choice of tile is the player's; the default takes the most claimed tile."""
    def position() -> CarcassonneState:
        s = game(goldmines=True)
        s.setup("red", acts("W@-1,0 W@-1,1:180 +E ingot@0,0 ingot@-1,1"))
        s.setup("blue", acts("+E"))
        return s
    s = position()
    s.play_turn("red", acts("L@0,1:180 +S"))
    assert s.mines.gold == {"red": 2, "blue": 0}
    s = position()
    events = s.play_turn("red", acts("L@0,1:180 +S take@0,0"))
    assert s.mines.gold == {"red": 1, "blue": 1}
    assert [(e.player, e.x, e.y) for e in events if isinstance(e, IngotTaken)] == [("red", 0, 0), ("blue", -1, 1)]
    s = position()
    e = illegal(s, "red", "L@0,1:180 +S take@5,5")
    assert e.rule == Q_SHARE and "take@-1,1 take@0,0" in e.hint
    e = illegal(s, "red", "L@0,1:180 +S take@0,0 take@-1,1 take@0,0")
    assert "only 2 ingots" in e.message


def test_completed_without_followers_leaves_the_gold() -> None:
    s = game(goldmines=True)
    s.setup("red", acts("W@1,0 ingot@1,0"))
    s.play_turn("red", acts("W@-1,0"))
    assert s.mines.ingots == {(1, 0): 1}


def test_leftover_ingots_and_the_table() -> None:
    """"At the end of the game, gold ingots that are still on a tile are removed from the game." and the table
    1-3: 1, 4-6: 2, 7-9: 3, 10+: 4 points per ingot."""
    assert [ingot_value(n) for n in (0, 1, 3, 4, 6, 7, 9, 10, 16)] == [0, 1, 1, 2, 2, 3, 3, 4, 4]
    s = game(goldmines=True)
    s.setup("red", acts("U@1,0 ingot@1,0 ingot@1,0 take@1,0"))
    s.setup("blue", acts("ingot@0,0 ingot@0,0 ingot@0,0 ingot@0,0 take@0,0 take@0,0 take@0,0 take@0,0"))
    final = s.final_scoring()
    assert IngotsRemoved(1) in final
    assert points(final) == [("red", 1, "gold"), ("blue", 8, "gold")]


def test_farmers_do_not_receive_gold() -> None:
    """"Farmers do not receive gold ingots.\""""
    s = game(goldmines=True)
    s.setup("red", acts("E@0,1:180 ingot@0,1"))
    s.play_turn("red", acts("U@1,0 +NNE"))        # a farmer beside the completed city: no gold for it
    final = s.final_scoring()
    assert not [e for e in final if isinstance(e, IngotTaken)]
    assert s.mines.gold == {"red": 0, "blue": 0}


def test_copy_and_pickle() -> None:
    s = game(goldmines=True)
    s.play_turn("red", acts("GM6@1,0:90 ingot@0,0 +W"))
    c = s.copy()
    c.play_turn("blue", acts("U@-1,0"))
    assert s.fingerprint() != c.fingerprint()
    assert pickle.loads(pickle.dumps(s)).fingerprint() == s.fingerprint()


def test_selfplay_games_are_legal_and_complete() -> None:
    from grn.games.carcassonne import selfplay

    for seed, opts in ((1, Options()), (2, Options(goldmines=True)), (3, Options(farmers=False))):
        g = selfplay.play(3, seed=seed, options=opts)
        s = game(("red", "yellow", "green"), goldmines=opts.goldmines, farmers=opts.farmers)
        for t in g.turns:
            s.play_turn(t.player, list(t.actions))
        assert s.is_over
        s.final_scoring()
        assert s.scores == g.final_scores


def test_commands_equal_without_spans() -> None:
    assert PlaceFollower("N", Span(1, 1)) == PlaceFollower("N")
    assert PlaceIngot(1, 2) != TakeIngot(1, 2)
    assert PlaceTile("K", 1, 0, 90) == acts("K@1,0:90")[0]


def test_set_up_completed_city_scores_as_completed() -> None:
    """Ruling R41: a city completed during set-up still holding its knight scores 2 per tile at the end."""
    s = game()
    s.setup("red", acts("E@0,1:180 +S"))
    assert points(s.final_scoring()) == [("red", 4, "city")]


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 5), st.booleans())
def test_followers_and_ingots_are_conserved(seed: int, players: int, farmers: bool) -> None:
    """Every turn: 7 followers per player between supply and board; 2 ingots per Gold Mines tile placed,
    between the tiles and the players; scores never go down."""
    from grn.games.carcassonne import selfplay

    options = Options(goldmines=True, farmers=farmers)
    g = selfplay.play(players, seed=seed, options=options)
    s = CarcassonneState.new(None, g.players, options)
    gold_tiles = 0
    last = dict(s.scores)
    for t in g.turns:
        s.play_turn(t.player, list(t.actions))
        place = next((a for a in t.actions if isinstance(a, PlaceTile)), None)
        if place is not None and place.tile.startswith("GM"):
            gold_tiles += 1
        on_board = [0] * players
        for seat in s.follower_at.values():
            on_board[seat] += 1
        assert [a + b for a, b in zip(s.supply, on_board)] == [7] * players
        assert sum(s.mines.ingots.values()) + sum(s.mines.held) == 2 * gold_tiles
        assert all(s.scores[p] >= last[p] for p in last)
        last = dict(s.scores)
    assert s.is_over


def test_joined_city_majority_scores_alone() -> None:
    """Features occupied apart may join; then "the player with the most followers" scores alone."""
    s = game()
    s.setup("blue", acts("+N"))                                   # blue's knight in the city of the start tile
    s.setup("red", acts("U@1,0 E@1,1:270 +W W@-1,0 E@-1,1:90 +E"))  # two knights of red in two other cities
    events = s.play_turn("red", acts("R@0,1:180"))                # joins the three into one city of 4 tiles
    assert points(events) == [("red", 8, "city")]
    assert s.supply == [7, 7]


def test_field_majority_and_each_city_once() -> None:
    """Farmers: the field's majority scores 3 per completed city beside it, each city once per field."""
    s = game()
    s.setup("red", acts("E@0,1:180 U@1,0 +NNE U@-1,0 +NNW"))
    s.setup("blue", acts("U@2,0 +N"))
    final = points(s.final_scoring())
    assert final == [("red", 3, "field")]


def test_a_road_that_closes_into_a_loop_is_complete() -> None:
    """A road is complete when both ends stop "or it forms a closed loop"; 1 point per tile."""
    s = game()
    s.setup("red", acts("U@1,0 V@1,1:180 V@2,1:90 V@2,2"))
    assert points(s.play_turn("red", acts("V@1,2:270 +S"))) == [("red", 4, "road")]


def test_a_road_ending_at_a_city_gate() -> None:
    """Tile T: three city edges and a road leaving south that stops at the city."""
    s = game()
    s.play_turn("red", acts("T@1,0:90 +W"))   # the road of T runs west into the start tile's road
    assert s.board.feature(s.board.segment_at(1, 0, "W")).open_places == 1  # still open at the west end
    assert points(s.play_turn("blue", acts("W@-1,0"))) == [("red", 3, "road")]


def test_an_ingot_counts_for_every_feature_on_its_tile() -> None:
    """"A gold ingot counts for every feature on the tile; it is not assigned to a specific feature." and "This
    means every tile that the road runs through or those used to build the city.\""""
    for completing, feature in (("E@0,1:180 +S", "city"), ("W@-1,0", "road")):
        s = game(goldmines=True)
        s.setup("red", acts("W@1,0 +W ingot@0,0"))  # the start tile holds a city and a road
        if feature == "city":
            s.setup("blue", acts("ingot@1,0"))       # on the road's tile, not the city's
        events = s.play_turn("red", acts(completing))
        assert [e.feature for e in events if isinstance(e, ScoreEvent)] == [feature]
        assert s.mines.gold["red"] == 1  # the start tile's ingot, through whichever feature completes
        assert s.mines.ingots == ({(1, 0): 1} if feature == "city" else {})


def test_gold_mines_sentences_are_each_tested() -> None:
    """Every sentence of The Gold Mines rules is quoted, word for word, by a test of this file."""
    import inspect
    import sys

    from grn.games.carcassonne import terms

    here = sys.modules[__name__]
    docs = " ".join(" ".join((f.__doc__ or "").split()) for name, f in inspect.getmembers(here, inspect.isfunction)
                    if name.startswith("test_"))
    sentences = [terms.Q_PLACE, terms.Q_TWO, terms.Q_STACK, terms.Q_ORDER, terms.Q_MAJORITY, terms.Q_CLOISTER,
                 terms.Q_LEFTOVER, terms.Q_FARMERS, terms.Q_SETUP, terms.Q_TAKE,
                 "A gold ingot counts for every feature on the tile; it is not assigned to a specific feature.",
                 "This means every tile that the road runs through or those used to build the city.",
                 "Being the active player, Red takes the first gold ingot, followed by Blue, and finally Red takes "
                 "the last one.",
                 "each player that can receive gold ingots takes one ingot.",
                 "1. Place a tile with a gold ingot 2. Place 2 gold ingots 3. Place a follower or not 4. Score "
                 "completed features 5. Distribute gold ingots",
                 "The players' gold ingots are never hidden.",
                 "Players score points depending on the number of gold ingots they collected during the game."]
    missing = [q for q in sentences if " ".join(q.split()) not in docs]
    assert not missing, missing


def test_gold_is_never_hidden() -> None:
    """"The players' gold ingots are never hidden." Each player's count is part of the game's state and shown."""
    s = game(goldmines=True)
    s.setup("red", acts("W@1,0 +W ingot@0,0 ingot@1,0"))
    s.play_turn("red", acts("W@-1,0"))
    assert s.mines.gold == {"red": 2, "blue": 0}


def test_the_table_after_the_final_scoring() -> None:
    """"After the final scoring, consult the table below. Players score points depending on the number of gold
    ingots they collected during the game.\""""
    s = game(goldmines=True)
    s.setup("red", acts("U@1,0 +E ingot@1,0 take@1,0"))
    final = points(s.final_scoring())
    assert final == [("red", 2, "road"), ("red", 1, "gold")]  # the gold comes last


def test_completed_feature_ingots_are_taken() -> None:
    """"When a feature is completed, the gold ingots on the tiles forming the completed feature are taken by the
    player.\""""
    s = game(goldmines=True)
    s.setup("red", acts("ingot@0,0"))
    s.play_turn("red", acts("E@0,1:180 +S"))
    assert s.mines.gold["red"] == 1 and not s.mines.ingots


def test_the_gold_mines_is_a_part_composed_in() -> None:
    """R480: the engine holds The Gold Mines' part only when the option is on; no class of the engine has gold."""
    from grn.games.carcassonne.gold import GoldMines

    assert game().mines is None
    on = game(goldmines=True)
    assert isinstance(on.mines, GoldMines) and on.mines.gold == {"red": 0, "blue": 0}
    assert not any(issubclass(c, GoldMines) for c in CarcassonneState.__mro__)
    names = {n for c in CarcassonneState.__mro__ for n in vars(c)}
    assert not names & {"ingots", "held", "gold", "ingot_options", "_distribute", "_check_ingot", "_ingot_spots"}
    copy = on.copy()
    assert copy.mines is not on.mines and copy.mines.key() == on.mines.key()
    back = pickle.loads(pickle.dumps(on))
    assert back.mines is not None and back.fingerprint() == on.fingerprint()


def test_set_up_ingots_need_the_gold_mines() -> None:
    """Without the option a set-up turn may not set or take an ingot: the game has no gold (R480)."""
    s = game()
    for text in ("ingot@0,0", "take@0,0"):
        with pytest.raises(IllegalAction) as exc:
            s.setup("red", acts(text))
        assert "without The Gold Mines" in exc.value.message and "goldmines" in exc.value.hint


def test_takes_without_the_gold_mines_are_one_too_many() -> None:
    """A ``take@`` in a game without The Gold Mines is refused as it was when the layer was always there."""
    e = illegal(game(), "red", "E@0,1:180 take@0,0")
    assert "only 0 ingots are handed out this turn, but 1 are taken" in e.message
    assert e.hint == "no completed feature with followers holds gold this turn"
