"""The rules of "Gold" (the Gold rules), one test per case the rules list.

Quotes from 001 stand in the test names or docstrings.  The engine does not
know the deal: each test turns cards with the faces it chooses.
"""

from __future__ import annotations

import json
import re
import time

import pytest

from grn.rules.ruleset import COLOURS

from grn.games.gold.commands import Card, FlipCard
from grn.core.errors import IllegalAction, Span
from grn.games.gold.rules import GRID_8X8, CardDataError, CardRemoved, CardSet, CardsReturned, GameEnds, GoldState, GoldTaken, RushBegins, SetupError, expected_first_player, load_cards, match_result, seats_for


def card(text: str) -> Card:
    if text == "D":
        return Card("dynamite")
    if text.startswith("G"):
        return Card("gold", int(text[1:]))
    m = re.fullmatch(r"([a-z]+)(\d+)", text)
    assert m, text
    return Card("miner", int(m.group(2)), m.group(1))


def f(pos: str, text: str, span: Span | None = None) -> FlipCard:
    return FlipCard(pos, card(text), span)


def three() -> GoldState:
    return GoldState.new(seats_for(["red", "yellow", "green"]))


def two() -> GoldState:
    return GoldState.new(seats_for(2))


def mini(cards: dict[str, int], players=("red", "yellow", "green")) -> GoldState:
    """A small free layout p1..pN with the given card counts."""
    deck = CardSet("mini", COLOURS, tuple((card(t), n) for t, n in cards.items()))
    positions = [f"p{i}" for i in range(1, deck.total + 1)]
    return GoldState.new(seats_for(list(players)), positions=positions, deck=deck)


def snapshot(s: GoldState):
    return (s.turn, s.current_player, s.phase, s.scores, s.gold_cards, s.face_down(),
            s.removed(), s.known_faces(), s.seen_faces())


# --------------------------------------------------------------------------
# Card list and set-up
# --------------------------------------------------------------------------

def test_card_list_is_the_published_one():
    """README: 24 gold cards (1x5, 2x7, 3x7, 4x5), 35 miners (per colour 2x2, 2x3,
    2x4, 1x5), 5 dynamite; 64 cards fill the 8x8 layout; 5 mine entrances."""
    cards = load_cards()
    counts = cards.counts()
    assert cards.total == 64 == len(GRID_8X8)
    assert cards.entrances == COLOURS
    assert [counts[Card("gold", v)] for v in (1, 2, 3, 4)] == [5, 7, 7, 5]
    for col in COLOURS:
        assert [counts[Card("miner", v, col)] for v in (2, 3, 4, 5)] == [2, 2, 2, 1]
    assert counts[Card("dynamite")] == 5
    assert sum(n for c, n in counts.items() if c.kind == "miner") == 35


def test_card_list_schema_rejects_bad_files(tmp_path):
    good = json.loads((__import__("pathlib").Path(__file__).parents[1] / "grn/games/gold/cards.json").read_text())
    bad = dict(good, cards=good["cards"] + [{"kind": "gold", "value": 0, "count": 1}])
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(bad))
    with pytest.raises(CardDataError):
        load_cards(p)
    twice = dict(good, cards=good["cards"] + [{"kind": "dynamite", "count": 1}])
    p.write_text(json.dumps(twice))
    with pytest.raises(CardDataError, match="twice"):
        load_cards(p)
    p.write_text(json.dumps(good))
    assert load_cards(p).total == 64


def test_simplified_8x8_grid():
    """"For a simplified game, arrange the cards in an 8x8 grid" -- places a1..h8."""
    s = three()
    assert len(s.face_down()) == 64 and s.legal_flips()[0] == "a1" and "h8" in s.legal_flips()
    assert s.phase == "normal" and s.flips_due == 2 and not s.is_over and s.current_player == "red"


def test_two_players_pick_two_colours_each_and_the_fifth_entrance_leaves():
    """"If there are only two players, each of them should pick two colors. The remaining
    mine mouth goes back into the box." -- its miners stay in the layout, owned by nobody."""
    s = two()
    assert s.colours == {"red": ("red", "yellow"), "green": ("green", "blue")}
    assert s.owner("yellow") == "red" and s.owner("blue") == "green" and s.owner("black") is None
    # green turns red's partner colour: red receives the gold.
    s.play_turn("red", [f("a1", "blue3"), f("a2", "G2")])
    assert s.scores == {"red": 0, "green": 2}
    s.play_turn("green", [f("a3", "yellow4"), f("a4", "G4")])
    assert s.scores == {"red": 4, "green": 2}
    # black belongs to nobody: the turning player wins the gold.
    s.play_turn("red", [f("a5", "black5"), f("a6", "G3")])
    assert s.scores == {"red": 7, "green": 2}
    with pytest.raises(ValueError):
        GoldState.new([("red", ("red",)), ("green", ("green",))])
    with pytest.raises(ValueError):
        GoldState.new([("red", ("red", "yellow")), ("green", ("green",)), ("blue", ("blue",))])
    with pytest.raises(ValueError):
        GoldState.new([("yellow", ("red",)), ("green", ("green",)), ("blue", ("blue",))])


def test_the_game_continues_clockwise_from_the_first_player():
    """"The youngest player starts. The game then continues clockwise.\""""
    s = GoldState.new(seats_for(["red", "yellow", "green"]), first="yellow")
    order = []
    for i in range(4):
        order.append(s.current_player)
        s.play_turn(s.current_player, [f(GRID_8X8[2 * i], "G1"), f(GRID_8X8[2 * i + 1], "G2")])
    assert order == ["yellow", "green", "red", "yellow"]


# --------------------------------------------------------------------------
# The outcomes of a normal turn
# --------------------------------------------------------------------------

def test_miner_at_least_as_high_as_the_gold_the_gold_miners_owner_receives_the_gold():
    """"If you turn over a gold miner with a value, at least as high as the value of the gold
    you've uncovered ... The gold miner's owner receives the gold, and the uncovered gold
    miner card is removed from the game.\""""
    s = three()
    ev = s.play_turn("red", [f("a1", "yellow3"), f("a2", "G3")])
    assert s.scores == {"red": 0, "yellow": 3, "green": 0}
    assert s.gold_cards == {"red": 0, "yellow": 1, "green": 0}
    assert s.removed() == ["a1", "a2"] and len(s.face_down()) == 62
    assert ev == [GoldTaken("yellow", card("G3"), "a2", "a1"), CardRemoved("a1", card("yellow3"), "carried the gold out")]
    # higher miner, gold turned first
    s.play_turn("yellow", [f("b1", "G2"), f("b2", "green5")])
    assert s.scores["green"] == 2 and s.gold_of("green") == [card("G2")]


def test_miner_of_nobody_if_the_gold_miner_does_not_belong_to_any_of_the_other_players_you_win_the_gold():
    """"If the gold miner does not belong to any of the other players, you win the gold.\""""
    s = three()  # blue and black belong to nobody
    s.play_turn("red", [f("a1", "blue4"), f("a2", "G4")])
    assert s.scores == {"red": 4, "yellow": 0, "green": 0}
    s.play_turn("yellow", [f("a3", "G1"), f("a4", "black2")])
    assert s.scores == {"red": 4, "yellow": 1, "green": 0}


def test_own_miner_carries_gold_to_the_turning_player():
    """The turning player's own miner "does not belong to any of the other players": you win the gold."""
    s = three()
    s.play_turn("red", [f("a1", "red2"), f("a2", "G2")])
    assert s.scores["red"] == 2 and "a1" in s.removed() and "a2" in s.removed()


def test_two_gold_miners_of_different_values_the_stronger_defeats_the_weaker():
    """"If you uncover two gold miners of different values ... the 'stronger' gold miner (higher
    number) defeats the 'weaker' gold miner (lower number), who is then out of the game. Flip
    the stronger gold miner back and leave the card in the same place.\""""
    s = three()
    ev = s.play_turn("red", [f("a1", "yellow5"), f("a2", "green2")])
    assert s.removed() == ["a2"] and "a1" in s.face_down()
    assert s.known_faces() == {"a1": card("yellow5")}
    assert isinstance(ev[0], CardRemoved) and ev[0].pos == "a2"
    assert ev[1] == CardsReturned(("a1",), (card("yellow5"),), "won the duel")
    assert s.scores == {"red": 0, "yellow": 0, "green": 0}


def test_two_gold_miners_of_different_values_can_also_be_the_same_color():
    """"(can also be the same color)\""""
    s = three()
    s.play_turn("red", [f("a1", "red2"), f("a2", "red4")])
    assert s.removed() == ["a1"] and s.known_faces() == {"a2": card("red4")}


@pytest.mark.parametrize("other", ["G4", "red5", "blue2", "D"])
def test_if_you_uncover_at_least_one_dynamite_card_both_cards_are_removed_from_the_game(other):
    """"If you uncover at least one dynamite card, both cards are removed from the game.\""""
    s = three()
    ev = s.play_turn("red", [f("a1", other), f("a2", "D")])
    assert s.removed() == ["a1", "a2"]
    assert s.scores == {"red": 0, "yellow": 0, "green": 0}
    assert [e.reason for e in ev] == ["dynamite", "dynamite"]


@pytest.mark.parametrize("a,b,reason", [
    ("red3", "yellow3", "two miners of the same value"),     # "Two gold miners of the same value"
    ("G1", "G4", "two gold cards"),                          # "Two gold cards"
    ("green2", "G3", "the miner is weaker than the gold"),   # "A gold miner and a gold card with a higher value"
    ("G4", "red3", "the miner is weaker than the gold"),
])
def test_remember_the_cards_and_turn_them_back_over_again_nothing_else_happens(a, b, reason):
    """"If, during your turn, you uncover either • Two gold miners of the same value, • Two gold
    cards, or • A gold miner and a gold card with a higher value, remember the cards and turn
    them back over again. Nothing else happens.\""""
    s = three()
    ev = s.play_turn("red", [f("c3", a), f("d4", b)])
    assert ev == [CardsReturned(("c3", "d4"), (card(a), card(b)), reason)]
    assert s.removed() == [] and len(s.face_down()) == 64
    assert s.known_faces() == {"c3": card(a), "d4": card(b)}
    assert s.current_player == "yellow" and s.scores == {"red": 0, "yellow": 0, "green": 0}
    # "a card that went back face down keeps its face": turning it again is fine
    s.play_turn("yellow", [f("c3", a), f("e5", "D")])
    assert "c3" in s.removed()


# --------------------------------------------------------------------------
# Gold Rush! and the end
# --------------------------------------------------------------------------

RUSH_DECK = {"G1": 2, "G2": 2, "G3": 2, "G4": 1, "red2": 1, "red4": 1, "green3": 1, "blue5": 1,
             "black3": 1, "D": 2}  # 14 cards


def to_eleven_then_ten() -> GoldState:
    s = mini(RUSH_DECK)
    s.play_turn("red", [f("p1", "D"), f("p2", "G1")])           # 12 face down
    assert s.phase == "normal" and len(s.face_down()) == 12
    s.play_turn("yellow", [f("p3", "blue5"), f("p4", "red2")])  # duel: 11 face down
    assert s.phase == "normal" and s.flips_due == 2             # 11 > 10: still two cards
    s.play_turn("green", [f("p5", "D"), f("p6", "G2")])         # 9 face down
    return s


def test_gold_rush_if_there_are_10_or_fewer_cards_still_face_down_at_the_beginning_of_your_turn():
    """"If there are 10 or fewer cards still face down when it is the beginning of your turn,
    then you should all shout: 'Gold Rush!' ... Starting with you, each player only picks one
    card when it is their turn.\""""
    s = to_eleven_then_ten()
    assert len(s.face_down()) == 9 and s.phase == "rush" and s.flips_due == 1 and s.rush_turn is None
    ev = s.play_turn("red", [f("p7", "G3")])
    assert ev[0] == RushBegins("red", 9) and s.rush_turn == 4
    assert s.phase == "rush"


def test_gold_rush_begins_exactly_at_ten():
    """"10 or fewer": exactly 10 face down at the beginning of a turn starts the rush."""
    s = mini({"G1": 8, "red2": 2, "D": 2})  # 12 cards
    s.play_turn("red", [f("p1", "D"), f("p2", "G1")])
    assert len(s.face_down()) == 10 and s.phase == "rush"
    ev = s.play_turn("yellow", [f("p3", "G1")])
    assert ev[0] == RushBegins("yellow", 10)


def test_gold_rush_if_it_is_gold_the_player_puts_it_below_their_mine_entrance():
    """"If it is gold, the player puts it below their mine entrance.\""""
    s = to_eleven_then_ten()
    s.play_turn("red", [f("p7", "G3")])
    assert s.scores["red"] == 3 and "p7" in s.removed()
    # even a gold seen before goes to the turning player
    s.play_turn("yellow", [f("p8", "G4")])
    assert s.gold_cards == {"red": 1, "yellow": 1, "green": 0}


@pytest.mark.parametrize("pos,face", [("p7", "red4"), ("p3", "blue5"), ("p7", "green3")])
def test_gold_rush_a_gold_miner_or_dynamite_is_directly_removed_without_any_other_action(pos, face):
    """"If it is a gold miner or dynamite, the card is directly removed from the game without any
    other action.\""""
    s = to_eleven_then_ten()
    before = s.scores
    ev = s.play_turn("red", [f(pos, face)])   # p3 is the blue5 that won its duel
    assert ev[-1] == CardRemoved(pos, card(face), "Gold Rush")
    assert s.scores == before and pos in s.removed()


def test_gold_rush_dynamite_is_removed():
    """"If it is a gold miner or dynamite, the card is directly removed from the game.\""""
    s = mini({"G1": 9, "red2": 2, "D": 3})  # 14
    s.play_turn("red", [f("p1", "D"), f("p2", "G1")])
    s.play_turn("yellow", [f("p3", "D"), f("p4", "G1")])
    ev = s.play_turn("green", [f("p5", "D")])
    assert ev == [RushBegins("green", 10), CardRemoved("p5", card("D"), "Gold Rush")]
    assert s.scores == {"red": 0, "yellow": 0, "green": 0}


def test_the_game_ends_when_the_last_card_has_been_removed_from_the_table():
    """"The game ends when the last card has been removed from the table. Each player now adds
    up the points on their gold cards. The richest player wins!\""""
    s = to_eleven_then_ten()
    rest = {"p3": "blue5", "p7": "G3", "p8": "G4", "p9": "G1", "p10": "G2", "p11": "red4",
            "p12": "green3", "p13": "black3", "p14": "G3"}
    for pos, face in rest.items():
        assert not s.is_over
        ev = s.play_turn(s.current_player, [f(pos, face)])
    assert s.is_over and s.face_down() == [] and s.legal_flips() == []
    assert isinstance(ev[-1], GameEnds)
    assert s.scores == {"red": 1, "yellow": 5, "green": 7}
    assert s.winners() == ["green"] and ev[-1].winners == ("green",)
    with pytest.raises(IllegalAction, match="over"):
        s.play_turn(s.current_player, [f("p1", "G1")])


def test_more_gold_cards_break_a_points_tie():
    """"In the event of a tie, the player who has collected more gold cards wins.\""""
    s = three()
    s.play_turn("red", [f("a1", "red4"), f("a2", "G4")])       # red 4 in one card
    s.play_turn("yellow", [f("a3", "yellow2"), f("a4", "G2")])
    s.play_turn("green", [f("a5", "G1"), f("a6", "blue2")])
    s.play_turn("red", [f("a7", "G1"), f("a8", "G1")])
    s.play_turn("yellow", [f("b1", "yellow3"), f("b2", "G2")])  # yellow 4 in two cards
    assert s.scores == {"red": 4, "yellow": 4, "green": 1}
    assert s.winners() == ["yellow"]


def test_if_there_is_still_a_tie_then_there_are_several_winners():
    """"If there's still a tie, then there are several winners.\""""
    s = three()
    assert s.winners() == ["red", "yellow", "green"]
    s.play_turn("red", [f("a1", "red3"), f("a2", "G3")])
    s.play_turn("yellow", [f("a3", "yellow3"), f("a4", "G3")])
    assert s.winners() == ["red", "yellow"]


# --------------------------------------------------------------------------
# Several games
# --------------------------------------------------------------------------

def test_match_the_player_with_the_most_points_at_the_end_wins():
    """"Play as many times as there are players ... The player with the most points at the end wins.\""""
    games = [{"red": 20, "yellow": 10, "green": 15},
             {"red": 10, "yellow": 25, "green": 15},
             {"red": 12, "yellow": 10, "green": 18}]
    assert match_result(games) == ["green"]   # 42, 45, 48


def test_match_in_the_event_of_a_tie_the_tied_player_with_more_points_in_the_last_game_wins():
    """"In the event of a tie, the tied player with more points in the last game wins.\""""
    games = [{"red": 20, "yellow": 8, "green": 5},
             {"red": 10, "yellow": 20, "green": 5},
             {"red": 15, "yellow": 15, "green": 40}]
    assert match_result(games) == ["green"]
    games[2] = {"red": 14, "yellow": 16, "green": 0}
    assert match_result(games) == ["yellow"]          # 44 each; yellow had more in the last game
    games[2] = {"red": 16, "yellow": 18, "green": 0}  # 46 each
    assert match_result(games) == ["yellow"]
    assert match_result(games, {"red": 16, "yellow": 14, "green": 0}) == ["red"]


def test_match_still_tied_after_the_last_game_means_several_winners():
    """Ruling (001 silent): tied totals and tied last game -> all of them win."""
    games = [{"red": 10, "yellow": 20}, {"red": 10, "yellow": 0}]
    assert match_result(games) == ["red"]             # 20 each; red had more in the last game
    games = [{"red": 15, "yellow": 15}, {"red": 5, "yellow": 5}]
    assert match_result(games) == ["red", "yellow"]


def test_match_has_as_many_games_as_players():
    """"Play as many times as there are players.\""""
    with pytest.raises(ValueError):
        match_result([{"red": 1, "yellow": 2}])
    assert match_result([{"red": 1, "yellow": 2}], strict=False) == ["yellow"]


def test_match_a_different_player_starting_each_time():
    """"with a different player starting each time" -- one seat clockwise per game."""
    seats = seats_for(["blue", "red", "green", "yellow"])
    assert [expected_first_player(seats, i) for i in range(4)] == ["blue", "red", "green", "yellow"]
    assert expected_first_player(["red", "green"], 1) == "green"


# --------------------------------------------------------------------------
# Illegal turns: IllegalAction, state unchanged
# --------------------------------------------------------------------------

def assert_illegal(s: GoldState, player, flips, match, span=None):
    before = snapshot(s)
    with pytest.raises(IllegalAction, match=match) as info:
        s.play_turn(player, flips)
    err = info.value
    assert err.rule and err.section and err.section.startswith("Gold rules")
    if span is not None:
        assert err.span == span
    assert snapshot(s) == before
    return err


def test_illegal_position_not_in_the_layout():
    s = three()
    sp = Span(3, 7)
    assert_illegal(s, "red", [f("a1", "G1"), f("i9", "G2", sp)], "not a place", sp)


def test_illegal_card_already_removed():
    s = three()
    s.play_turn("red", [f("a1", "D"), f("a2", "G1")])
    sp = Span(4, 1)
    assert_illegal(s, "yellow", [f("a2", "G1", sp), f("a3", "G2")], "already left", sp)


def test_illegal_card_turned_twice_in_one_turn():
    """"flip two cards of your choice over" -- two different cards."""
    s = three()
    sp = Span(2, 9)
    assert_illegal(s, "red", [f("a1", "G1"), f("a1", "G1", sp)], "twice", sp)


@pytest.mark.parametrize("n", [0, 1, 3])
def test_illegal_not_two_cards_in_a_normal_turn(n):
    """"When it's your turn, flip two cards of your choice over.\""""
    s = three()
    flips = [f(p, "G1") for p in GRID_8X8[:n]]
    err = assert_illegal(s, "red", flips, "turn two cards")
    assert "Gold Rush" in err.message


def test_illegal_two_cards_when_the_gold_rush_began_at_this_turn():
    """"Starting with you, each player only picks one card when it is their turn.\""""
    s = to_eleven_then_ten()
    sp = Span(9, 12)
    err = assert_illegal(s, "red", [f("p7", "G3"), f("p8", "G4", sp)],
                         "Gold Rush! began at this turn: turn one card", sp)
    assert "10 or fewer" in err.rule
    s.play_turn("red", [f("p7", "G3")])
    assert_illegal(s, "yellow", [f("p8", "G4"), f("p9", "G1")], "Gold Rush! began at turn 4")


def test_illegal_one_card_a_turn_before_the_gold_rush():
    """Eleven face down at the beginning of the turn: not yet the Gold Rush."""
    s = mini(RUSH_DECK)
    s.play_turn("red", [f("p1", "D"), f("p2", "G1")])
    s.play_turn("yellow", [f("p3", "blue5"), f("p4", "red2")])
    assert len(s.face_down()) == 11
    assert_illegal(s, "green", [f("p5", "D")], "turn two cards")


def test_illegal_not_your_turn():
    """"The game then continues clockwise.\""""
    s = three()
    err = assert_illegal(s, "yellow", [f("a1", "G1"), f("a2", "G2")], "red's turn")
    assert "red" in err.hint


def test_illegal_face_contradicts_what_was_seen_there():
    """"Flip the stronger gold miner back and leave the card in the same place. Be sure to
    remember where the gold miner is." -- a card that went back face down keeps its face."""
    s = three()
    s.play_turn("red", [f("a1", "red5"), f("a2", "red2")])
    sp = Span(5, 5)
    assert_illegal(s, "yellow", [f("a1", "red4", sp), f("a3", "G1")], "was seen as red5", sp)
    s.play_turn("yellow", [f("a4", "G1"), f("a5", "G2")])
    assert_illegal(s, "green", [f("a6", "G1"), f("a5", "G1")], "was seen as G2")


def test_illegal_more_cards_of_a_kind_than_the_deck_holds():
    """The card list (README): only one red5; a card seen at a place is the same card when
    seen there again, but a second place cannot also hold red5."""
    s = three()
    s.play_turn("red", [f("a1", "red5"), f("a2", "red4")])      # red5 back face down at a1
    s.play_turn("yellow", [f("a1", "red5"), f("a3", "G4")])     # the same red5 again: fine
    sp = Span(7, 3)
    assert_illegal(s, "green", [f("a4", "G1"), f("b1", "red5", sp)], "the game has 1", sp)


def test_illegal_two_new_cards_of_a_kind_in_one_turn_beyond_the_deck():
    s = three()
    assert_illegal(s, "red", [f("a1", "blue5"), f("a2", "blue5")], "the game has 1")


def test_illegal_sixth_dynamite():
    s = three()
    pos = iter(GRID_8X8)
    for _ in range(5):
        s.play_turn(s.current_player, [f(next(pos), "D"), f(next(pos), "G1" if _ < 5 else "G2")])
    assert_illegal(s, s.current_player, [f(next(pos), "D"), f(next(pos), "G2")], "the game has 5")


def test_illegal_card_not_in_the_game():
    s = three()
    assert_illegal(s, "red", [f("a1", "G5"), f("a2", "G1")], "no card G5")
    assert_illegal(s, "red", [f("a1", "red1"), f("a2", "G1")], "no card red1")


# --------------------------------------------------------------------------
# Ruling: a table that can no longer change
# --------------------------------------------------------------------------

def test_ruling_blocked_table_the_game_cannot_end():
    """Ruling (001 is silent): 11 or more face-down cards, all gold, can never leave: the Gold
    Rush never comes and "the last card" is never removed.  The engine reports it blocked, keeps
    accepting turns (nothing happens) and never says the game is over."""
    s = three()
    pos = iter(GRID_8X8)
    gold_left = ["G1"] * 5 + ["G2"] * 7 + ["G3"] * 7 + ["G4"] * 5

    def turn(a, b):
        s.play_turn(s.current_player, [f(a[0], a[1]), f(b[0], b[1])])

    for col in COLOURS:                                  # dynamite takes the five 5s
        turn((next(pos), "D"), (next(pos), f"{col}5"))
    strong = (next(pos), "red4")
    weak = [f"{c}{v}" for c in COLOURS for v in (2, 3) for _ in range(2)]
    for w in weak:                                       # red4 defeats all twenty 2s and 3s
        turn(strong, (next(pos), w))
    fours = [strong] + [(next(pos), "red4")] + [(next(pos), f"{c}4") for c in COLOURS[1:] for _ in range(2)]
    for m in fours:                                      # each 4 carries a gold out
        turn(m, (next(pos), gold_left.pop(0)))
    assert len(s.face_down()) == 14
    assert s.face_down_cards() == {card("G2"): 2, card("G3"): 7, card("G4"): 5}
    assert s.is_blocked and not s.is_over and s.phase == "normal"
    # turns stay legal and change nothing
    down = s.face_down()
    ev = s.play_turn(s.current_player, [f(down[0], "G3"), f(down[1], "G4")])
    assert isinstance(ev[0], CardsReturned) and s.face_down() == down and s.is_blocked


def test_ruling_blocked_only_when_nothing_can_leave():
    assert mini({"G1": 12}).is_blocked
    assert mini({"G4": 8, "red3": 2, "green3": 2}).is_blocked           # 3s never carry a 4
    assert not mini({"G4": 8, "red3": 3, "red4": 1}).is_blocked         # a 4 carries a 4
    assert not mini({"G4": 8, "red3": 3, "green2": 1}).is_blocked       # a duel
    assert not mini({"G4": 11, "D": 1}).is_blocked
    assert not three().is_blocked
    assert not mini({"G1": 10}).is_blocked                               # the Gold Rush ends it


# --------------------------------------------------------------------------
# Memory, copies, events, speed
# --------------------------------------------------------------------------

def test_known_faces_copy_and_events():
    s = three()
    s.play_turn("red", [f("a1", "G3"), f("a2", "G4")])
    c = s.copy()
    c.play_turn("yellow", [f("a1", "G3"), f("a3", "green4")])
    assert s.known_faces() == {"a1": card("G3"), "a2": card("G4")}
    assert c.scores["green"] == 3 and s.scores["green"] == 0 and s.turn == 1 and c.turn == 2
    for e in [GoldTaken("red", card("G3"), "a1", "a2"), GoldTaken("red", card("G1"), "p1"),
              CardRemoved("a2", card("red4"), "dynamite"),
              CardsReturned(("a1", "a2"), (card("G1"), card("G2")), "two gold cards"),
              RushBegins("red", 9), GameEnds((("red", 3),), ("red",))]:
        assert e.describe().endswith(".") and repr(e).startswith("<")
    assert "the gold card 3" in GoldTaken("red", card("G3"), "a1", "a2").describe()


def test_play_turn_is_fast():
    s = three()
    flips = [f("a1", "G1"), f("a2", "G2")]
    n = 2000
    t = time.perf_counter()
    for _ in range(n):
        s.play_turn(s.current_player, flips)
    per = (time.perf_counter() - t) / n
    assert per < 200e-6  # tens of microseconds in practice


def test_setup_errors_are_illegal_actions_with_the_rule():
    """"If there are only two players, each of them should pick two colors." -- bad seats are
    reported like any illegal action (and are ValueErrors)."""
    with pytest.raises(IllegalAction) as info:
        GoldState.new([("red", ("red",)), ("green", ("green",))])
    assert info.value.section.startswith("Gold rules") and "two colors" in info.value.rule
    with pytest.raises(SetupError):
        GoldState.new(seats_for(3), first="blue")
    with pytest.raises(SetupError):
        GoldState.new(seats_for(3), positions=["a1"] * 64)
    with pytest.raises(SetupError, match="places"):
        GoldState.new(seats_for(3), positions=[f"p{i}" for i in range(63)])
    with pytest.raises(SetupError, match="2 to 5"):
        GoldState.new([(c, (c,)) for c in COLOURS] + [("white", ("white",))])
    # free layout: any 64 distinct names
    s = GoldState.new(seats_for(3), positions=[f"p{i}" for i in range(1, 65)])
    s.play_turn("red", [f("p64", "G1"), f("p1", "D")])
    assert s.removed() == ["p1", "p64"]


def test_the_shipped_card_list_follows_its_schema():
    # load_cards() reads the shipped list without the schema (start-up): this test is its check
    import json
    from importlib import resources

    from grn.games.gold.rules import schema_errors

    doc = json.loads(resources.files("grn.games.gold").joinpath("cards.json").read_text(encoding="utf-8"))
    assert schema_errors(doc) == []
    assert schema_errors({**doc, "cards": "none"}) == ["cards: 'none' is not of type 'array'"]
