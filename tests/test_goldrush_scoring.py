"""Every scoring example of the Gold Rush rulebooks, reproduced on small custom tile sets.

The examples are pictures in the rulebooks; each test builds a position with the
same numbers (tiles, locomotives, nuggets, cowboys) from the kit tiles of
tests/goldrush_fixtures.py and checks the points the rulebook gives.
"""

from __future__ import annotations

from grn.games.goldrush.commands import Mine, PlaceCowboy, PlaceTent, RevealTokens

from grn.games.tiling.commands import PlaceTile
from grn.games.goldrush.rules import FollowerReturned, GoldRushState, Options, ScoreEvent, TentReturned, TokensReturned, TokensTaken

from goldrush_fixtures import game


def prairie_row(st: GoldRushState, last: int, player: str | None = None) -> None:
    """Plain prairie tiles at (1, 0) .. (last, 0) next to the start tile P at (0, 0)."""
    st.setup(player or st.players[0], [PlaceTile("P", x, 0) for x in range(1, last + 1)])


def scores_of(events: list) -> dict[str, int]:
    out: dict[str, int] = {}
    for e in events:
        if isinstance(e, ScoreEvent):
            out[e.player] = out.get(e.player, 0) + e.points
    return out


def rail_line(st: GoldRushState, tiles: list[str], owner: str, cowboy_at: int) -> None:
    """A rail at y=1 from x=0: a dead end (T turned 180) then ``tiles``; ``owner``'s railwayman on tile ``cowboy_at``."""
    st.setup(owner, [PlaceTile("T", 0, 1, 180)])
    for i, t in enumerate(tiles, start=1):
        acts: list = [PlaceTile(t, i, 1)]
        if i == cowboy_at:
            acts.append(PlaceCowboy("E"))
        st.setup(owner, acts)


# ---------------------------------------------------------------- railroads

def test_railroad_example_4_points() -> None:
    """000, step 3 "Completed Railroad": "BLUE scores 4 points." (a four-tile railroad, junction to junction)."""
    st = game(["red", "blue"], first="blue")
    prairie_row(st, 3)
    rail_line(st, ["R", "R"], "blue", 1)
    events = st.play_turn("blue", [PlaceTile("T", 3, 1)])
    assert scores_of(events) == {"blue": 4}
    assert st.scores == {"red": 0, "blue": 4}
    assert any(isinstance(e, FollowerReturned) and e.player == "blue" for e in events)
    assert st.cowboys["blue"] == 4


def test_railroad_example_3_points_no_locomotive() -> None:
    """000, step 3 "Completed Railroad": "BLUE scores 3 points." (three tiles, ends in a junction and a mountain)."""
    st = game(["red", "blue"], first="blue")
    prairie_row(st, 2)
    rail_line(st, ["R"], "blue", 1)
    events = st.play_turn("blue", [PlaceTile("RM", 2, 1)])
    assert scores_of(events) == {"blue": 3}
    [e] = [e for e in events if isinstance(e, ScoreEvent)]
    assert e.describe() == "blue scores 3 for a completed railroad of 3 tiles"


def test_railroad_example_8_points_one_locomotive() -> None:
    """000, "Completed Railroad with Locomotives": "BLUE scores 8 points (4 points for 4 tiles doubled by a
    single locomotive)." """
    st = game(["red", "blue"], first="blue")
    prairie_row(st, 3)
    rail_line(st, ["RL", "R"], "blue", 1)
    events = st.play_turn("blue", [PlaceTile("T", 3, 1)])
    assert scores_of(events) == {"blue": 8}
    [e] = [e for e in events if isinstance(e, ScoreEvent)]
    assert e.describe() == "blue scores 8 for a completed railroad of 4 tiles with one locomotive"
    assert e.feature == "railroad" and not e.final


def test_railroad_example_6_points_two_locomotives_do_not_double() -> None:
    """000, "Completed Railroad with Locomotives": "BLUE scores 6 points (because two or more locomotives do not
    double the value of a railroad)." """
    st = game(["red", "blue"], first="blue")
    prairie_row(st, 5)
    rail_line(st, ["RL", "R", "R", "RL"], "blue", 1)
    events = st.play_turn("blue", [PlaceTile("T", 5, 1)])
    assert scores_of(events) == {"blue": 6}


def test_railroad_tie_blue_and_yellow_both_score_5() -> None:
    """000, "Multiple Cowboys on a completed railroad or mountain": "The newly placed tile connects two previously
    separate railroads as a single completed railroad. BLUE and YELLOW both score 5 points, as they are tied for
    most cowboys." """
    st = game(["red", "blue", "yellow"])
    prairie_row(st, 4)
    st.setup("blue", [PlaceTile("T", 0, 1, 180), PlaceTile("R", 1, 1), PlaceCowboy("E")])
    st.setup("yellow", [PlaceTile("T", 4, 1), PlaceTile("R", 3, 1), PlaceCowboy("W")])
    events = st.play_turn("red", [PlaceTile("R", 2, 1)])
    assert scores_of(events) == {"blue": 5, "yellow": 5}
    assert st.cowboys == {"red": 4, "blue": 4, "yellow": 4}


# ---------------------------------------------------------------- mountains

def test_mountain_example_yellow_takes_remaining_tokens_scores_7() -> None:
    """000, "Completed Mountain": "The mountain is complete. YELLOW first takes the remaining Mining tokens, and
    then scores 7 points (for 7 gold nugget symbols)." """
    st = game(["red", "yellow"])
    prairie_row(st, 4)
    st.setup("yellow", [PlaceTile("M3", 0, 1), PlaceCowboy("E"), PlaceTile("MM1", 1, 1)])
    st.setup("red", [PlaceTent(1, 1)])
    assert st.tokens_on(0, 1) == 4
    st.play_turn("red", [PlaceTile("P", 5, 0), Mine(2)])  # one token is gone: 3 remain
    assert st.tokens_on(0, 1) == 3
    events = st.play_turn("yellow", [PlaceTile("M3", 2, 1, 180), RevealTokens((2, 2, 1, 3, 0, 2))])
    taken = [e for e in events if isinstance(e, TokensTaken)]
    assert [(e.player, e.count, e.values) for e in taken] == [("yellow", 6, (2, 2, 1, 3, 0, 2))]
    assert scores_of(events) == {"yellow": 7}
    assert any(isinstance(e, TentReturned) and e.player == "red" for e in events)
    assert st.tents["red"] is None and st.cowboys["yellow"] == 4
    assert st.gold()["yellow"].known == 10 and st.gold()["red"].known == 2


def test_mountain_tie_example_blue_red_blue_take_3_tokens_each_score_5() -> None:
    """000, "Completed Mountain": "On BLUE's turn, the leftmost tile is placed, which completes the mountain. BLUE
    takes the first of the 3 remaining Mining tokens. RED takes a Mining token, then BLUE takes the last one. RED
    and BLUE each score 5 points (for 5 gold nugget symbols)." """
    st = game(["red", "blue"], first="red")
    prairie_row(st, 3)
    st.setup("red", [PlaceTile("MM1", 1, 1), PlaceCowboy("E")])
    st.setup("blue", [PlaceTile("MM1", 2, 1), PlaceCowboy("E")])
    st.setup("red", [PlaceTile("M3", 3, 1, 180), PlaceTent(3, 1)])
    assert st.tokens_on(1, 1) == 5
    st.play_turn("red", [PlaceTile("P", 0, -1), Mine(0)])
    st.play_turn("blue", [PlaceTile("P", 1, -1)])
    st.play_turn("red", [PlaceTile("P", 2, -1), Mine(0)])
    assert st.tokens_on(1, 1) == 3
    events = st.play_turn("blue", [PlaceTile("M0", 0, 1), RevealTokens((1, 2, 3))])
    taken = [(e.player, e.values) for e in events if isinstance(e, TokensTaken)]
    # hand-out order blue, red, blue: blue gets the 1st and 3rd token
    assert taken == [("blue", (1, 3)), ("red", (2,))]
    assert scores_of(events) == {"blue": 5, "red": 5}


# ---------------------------------------------------------------- cities

def test_city_example_merchant_two_completed_railroads_scores_6() -> None:
    """000, "Completed City": "The BLUE merchant in the completed city is connected to two completed railroads and
    scores 6 points." and "Important: A railroad that starts and ends in the same city only adds 3 points to that
    city's value." (here one railroad leaves the city W and comes back E)."""
    st = game(["red", "blue"], first="blue")
    st.setup("red", [PlaceTile("P", 1, 0), PlaceTile("T", 1, 1, 90)])
    st.setup("blue", [PlaceTile("C3", 1, 2), PlaceCowboy("C")])
    st.setup("red", [PlaceTile("CV", 0, 2, 270), PlaceTile("CV", 0, 3, 0), PlaceTile("R", 1, 3),
                     PlaceTile("CV", 2, 3, 90)])
    assert st.cowboys["blue"] == 3
    events = st.play_turn("blue", [PlaceTile("CV", 2, 2, 180)])
    assert scores_of(events) == {"blue": 6}
    [e] = [e for e in events if isinstance(e, ScoreEvent)]
    assert e.feature == "city"
    assert e.describe() == "blue scores 6 for a completed city with 2 completed railroads"
    assert st.cowboys["blue"] == 4


# ---------------------------------------------------------------- same-turn return

def test_same_turn_return_railwayman_scores_3() -> None:
    """000, "Returning Cowboys to their owners": "BLUE places a tile and a railwayman, and scores 3 points." and
    "it is possible to place a cowboy and have it returned to you in the same turn"."""
    st = game(["blue", "red"])
    prairie_row(st, 2)
    st.setup("red", [PlaceTile("T", 0, 1, 180), PlaceTile("R", 1, 1)])
    events = st.play_turn("blue", [PlaceTile("T", 2, 1), PlaceCowboy("W")])
    assert scores_of(events) == {"blue": 3}
    assert st.cowboys["blue"] == 4
    assert [type(e) for e in events][-1] is FollowerReturned


def test_same_turn_return_gold_miner_takes_2_tokens_scores_2() -> None:
    """000, "Returning Cowboys to their owners": "BLUE places a tile and a gold miner, takes the 2 Mining tokens
    and scores 2 points." """
    st = game(["blue", "red"])
    prairie_row(st, 1)
    st.setup("red", [PlaceTile("M1", 0, 1)])
    events = st.play_turn("blue", [PlaceTile("M1", 1, 1, 180), PlaceCowboy("W"), RevealTokens((2, 0))])
    assert [(e.player, e.count) for e in events if isinstance(e, TokensTaken)] == [("blue", 2)]
    assert scores_of(events) == {"blue": 2}
    assert st.cowboys["blue"] == 4
    assert st.tokens_held == {"blue": 2, "red": 0}


# ---------------------------------------------------------------- final scoring

def test_final_scoring_example_incomplete_features() -> None:
    """000, "Scoring Incomplete features": "GREEN scores 10 points (10 gold nugget symbols) for the larger incomplete
    mountain. BLACK scores no points, as GREEN has more cowboys on that mountain." "For the incomplete railroad, RED
    scores 2 points (2 tiles)." "For the incomplete city, YELLOW scores 3 points (1 completed railroad)." "For the
    incomplete mountain, BLUE scores 3 points (3 gold nugget symbols)." """
    st = game(["red", "yellow", "green", "blue", "black"])
    prairie_row(st, 5)
    st.setup("green", [PlaceTile("M5", 0, 1), PlaceCowboy("E"), PlaceTile("MM3", 1, 1), PlaceCowboy("E")])
    st.setup("black", [PlaceTile("MM2", 2, 1), PlaceCowboy("E")])
    st.setup("blue", [PlaceTile("M3", 5, 1), PlaceCowboy("E")])
    st.setup("red", [PlaceTile("T", 0, -1, 180), PlaceTile("R", 1, -1), PlaceCowboy("E")])
    st.setup("yellow", [PlaceTile("T", 3, -1, 180), PlaceTile("C3", 4, -1), PlaceCowboy("C")])
    events = st.final_scoring()
    assert scores_of(events) == {"green": 10, "red": 2, "yellow": 3, "blue": 3}
    assert st.scores == {"red": 2, "yellow": 3, "green": 10, "blue": 3, "black": 0}
    assert all(e.final for e in events if isinstance(e, ScoreEvent))
    assert [e.count for e in events if isinstance(e, TokensReturned)] == [13]
    texts = [e.describe() for e in events if isinstance(e, ScoreEvent)]
    assert "red scores 2 for an incomplete railroad of 2 tiles" in texts
    assert "yellow scores 3 for an incomplete city with 1 completed railroad" in texts


def test_final_scoring_incomplete_railroad_ignores_locomotive() -> None:
    """000, "Scoring Incomplete features": "RAILROADS: The player(s) scores 1 point for each tile belonging to the
    railroad (locomotives have no effect)." """
    st = game(["red", "blue"])
    prairie_row(st, 2)
    st.setup("red", [PlaceTile("T", 0, -1, 180), PlaceTile("RL", 1, -1), PlaceCowboy("E")])
    assert scores_of(st.final_scoring()) == {"red": 2}


def test_farmers_example() -> None:
    """000, "Scoring Farmers": "GREEN and YELLOW both score full points, as they are tied for the most farmers. They
    each score 6 points (2 points for the tipi camp and 4 points for the wild horses)." "RED scores 4 points for this
    small prairie (for 2 tipi camps)." "BLUE alone scores the points for the large central prairie ... This scores 16
    points (4 points for 2 tipi camps and 12 points for 3 herds of wild horses). The YELLOW farmer scores no
    points." """
    st = game(["red", "yellow", "green", "blue"], start="RA")
    st.setup("green", [PlaceTile("RB", 1, 0), PlaceCowboy("N")])
    st.setup("yellow", [PlaceCowboy("NNE")])
    st.setup("red", [PlaceCowboy("S")])
    st.setup("blue", [PlaceTile("J4", 2, 0), PlaceTile("RC1", 3, 0), PlaceCowboy("N"), PlaceTile("RC2", 4, 0),
                      PlaceCowboy("N")])
    st.setup("yellow", [PlaceCowboy("NNE")])
    events = st.final_scoring()
    prairie = [(e.player, e.points) for e in events if isinstance(e, ScoreEvent) and e.feature == "prairie"]
    assert sorted(prairie) == [("blue", 16), ("green", 6), ("red", 4), ("yellow", 6)]
    assert st.scores == {"red": 4, "yellow": 6, "green": 6, "blue": 16}


def test_farmers_not_scored_without_the_farmers_option() -> None:
    """000, "Scoring Farmers": "We recommend playing without farmers and prairie scoring for your first game." """
    st = game(["red", "blue"], options=Options(farmers=False))
    prairie_row(st, 1)
    assert scores_of(st.final_scoring()) == {}


def test_gold_example_blue_16() -> None:
    """000, "Scoring Gold": "BLUE collected 9 Mining tokens during the game and scores the following points: 3 points
    (3x 1 nugget tokens) + 8 points (4x 2 nugget tokens) + 5 points (1x 5 nugget token) + 0 points (1x gravel token)
    = 16 points." """
    st = game(["blue", "red"])
    prairie_row(st, 1)
    st.setup("blue", [PlaceTile("M5", 0, 1), PlaceCowboy("E")])
    events = st.play_turn("blue", [PlaceTile("M4", 1, 1, 180), RevealTokens((1, 1, 1, 2, 2, 2, 2, 5, 0))])
    assert scores_of(events) == {"blue": 9}
    final = st.final_scoring()
    [gold] = [e for e in final if isinstance(e, ScoreEvent) and e.feature == "gold"]
    assert gold.points == 16
    assert gold.describe() == "blue scores 16 for 9 mining tokens (3x1 + 4x2 + 1x5 + 1x0)"
    assert st.scores["blue"] == 9 + 16


def test_gold_unknown_faces_give_a_score_range() -> None:
    """000, "Scoring Gold": tokens whose faces the record does not state are reported as unknown."""
    st = game(["blue", "red"])
    prairie_row(st, 1)
    st.setup("blue", [PlaceTile("M1", 0, 1), PlaceCowboy("E")])
    st.play_turn("blue", [PlaceTile("M1", 1, 1, 180), RevealTokens((5, None))])
    g = st.gold()["blue"]
    assert (g.known, g.unknown, g.count) == (5, 1, 2)
    st.final_scoring()
    assert st.scores["blue"] == 2 + 5
    low, high = st.score_ranges()["blue"]
    assert (low, high) == (7, 7 + 5)  # the unknown token may still be a 5 (two of three left)
