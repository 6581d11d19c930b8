"""Issue 44, item 2: the themes the first runs of ``grn puzzles`` never found (R492-R497).  Each is a position
bench/bench_puzzles.py found in self-play, kept in tests/data/puzzles/ (the source game up to the puzzle's turn):
the search finds the puzzle there, the confirming search keeps it, and the game's hook names the theme; the
theme itself is checked on the position without a search, so a change of the search's playouts that moves a
gap under the threshold shows as the first kind of failure, not the second."""

from __future__ import annotations

from pathlib import Path

import pytest

import grn
from grn.analysis.judge import replay
from grn.analysis.puzzles import Budget, Criteria, mine_turn, solution_themes
from grn.rules.ruleset import player_key

DATA = Path(__file__).resolve().parent / "data" / "puzzles"


def _position(name: str):
    """The ruleset, the position before the file's last turn, that turn and its player's key."""
    record = next(iter(grn.read(str(DATA / name))))
    ruleset, seats, line = replay(record)
    turn, before = line[-1]
    assert before is not None
    return record, ruleset, seats, turn, before, player_key(seats, turn.player)


# -- Gold: a blocked miner (R401, R492) -----------------------------------------

#: Gold 2-player self-play (``grn selfplay --game gold --seed 13``), turn 36: Bo (green+blue) to move, 17 points
#: against 31, 11 cards face down.  Turning the gold 4 and nobody's miner 2, both remembered, changes nothing: a
#: waiting move that leaves the table at 11, so that Ada's turn, not Bo's, brings it to 10 or fewer and the
#: rush; Bo turned two cards nobody had seen (red miner 2, gold 3).
GOLD = "gold-blocked-miner.grn"
#: The run that found it (bench_puzzles, level quick, seed 2, Gold's 640 rounds of confirmation, R493): Gold's
#: gaps are a point or two, its playouts spread some 5 points, and a level's 40 rounds cannot tell them from noise.
GOLD_BUDGET = Budget(playouts=60, width=6, confirm_rounds=640, seed=2)


def test_gold_a_waiting_move_with_a_blocked_miner_is_found_and_confirmed() -> None:
    record, ruleset, seats, turn, before, player = _position(GOLD)
    assert turn.number == 36
    got = mine_turn(ruleset, before, turn, player, Criteria(found=True).for_game(ruleset), GOLD_BUDGET,
                    source=GOLD, record=record, seats=seats)
    assert got is not None and got.puzzle is not None, got
    puzzle = got.puzzle
    assert puzzle.solution == "b1=G4 g3=black2"
    assert puzzle.themes == ("blocked miner",)
    assert puzzle.missed and puzzle.played == "e2=red2 g1=G3"
    assert puzzle.gain >= 1 and puzzle.gain > 2 * puzzle.gain_se  # Gold's threshold, by two errors (R398)


def test_gold_the_standstills_with_a_miner_name_the_theme() -> None:
    """The rules' standstills ('Gold': "If, during your turn, you uncover either ..."): a miner beside gold worth
    more, and two miners of one value, turn a miner that stays where it is (R401); two gold cards turn none."""
    from grn.games.gold.commands import Card
    from grn.games.gold.rules import CardsReturned
    from grn.games.gold.themes import themes as gold_themes

    record, ruleset, seats, turn, before, player = _position(GOLD)
    # remembered at turn 36: g3 black2 (nobody's), b1 gold 4, c4 blue3 (Bo's own), h8 yellow3 (Ada's)

    def themes(*places: str) -> tuple[str, ...]:
        return solution_themes(ruleset, before, (), places, player)

    assert themes("b1", "g3") == ("blocked miner",)  # nobody's miner 2 beside the gold 4
    assert themes("c4", "b1") == ("blocked miner",)  # Bo's own miner 3 beside it
    assert themes("c4", "h8") == ("blocked miner",)  # two miners of the same value
    assert themes("g3", "h8") == ("duel",)  # miners of different values: a duel
    golds = [CardsReturned(("a1", "a2"), (Card("gold", 4), Card("gold", 2)), "two gold cards")]
    assert gold_themes(before, before, player, (), golds) == ()


def test_gold_confirms_with_its_own_fewest_rounds_unless_told() -> None:
    """R493: a level's rounds are raised to Gold's 640; rounds the user names are kept; other games keep the
    level's."""
    from grn import games
    from grn.analysis.puzzles import budget_for

    gold, carcassonne = games.find_ruleset("gold"), games.find_ruleset("carcassonne")
    assert budget_for("quick").confirm_rounds == 40
    assert budget_for("quick").for_game(gold).confirm_rounds == 640
    assert budget_for("deep", confirm_rounds=100).for_game(gold).confirm_rounds == 100
    assert budget_for("quick").for_game(carcassonne).confirm_rounds == 40
    assert GOLD_BUDGET.for_game(gold) == GOLD_BUDGET


# -- Carcassonne: a farm (R492) -------------------------------------------------

#: Carcassonne 2-player self-play (``grn selfplay --game carcassonne --seed 24``), turn 25: Ada (red) holds a
#: straight road (U) and played it far off with a thief; a farmer on the south field of U@-1,5 is worth 5 points
#: more than any other placement (the self-played players had left the big fields unclaimed).
FARM = "carcassonne-farm.grn"


def test_carcassonne_a_farmer_placement_is_found_and_confirmed() -> None:
    from grn.analysis.puzzles import budget_for

    record, ruleset, seats, turn, before, player = _position(FARM)
    assert turn.number == 25
    got = mine_turn(ruleset, before, turn, player, Criteria(found=True).for_game(ruleset),
                    budget_for("quick", seed=0), source=FARM, record=record, seats=seats)
    assert got is not None and got.puzzle is not None, got
    puzzle = got.puzzle
    assert puzzle.answer == "U@-1,5"  # R397: the placement is the answer, the farmer comes with it
    assert puzzle.solution == "U@-1,5 +S"
    assert puzzle.themes == ("farm",)
    assert puzzle.missed and puzzle.played == "U@-6,4:90 +N"
    assert puzzle.gain >= 3 and puzzle.gain > 2 * puzzle.gain_se


def test_carcassonne_the_farm_is_the_figure_on_a_field() -> None:
    """The theme reads the kind of feature the player's new figure stands on: a farmer on a field is a farm; the
    same placement with no figure is none."""
    text = (DATA / FARM).read_text(encoding="utf-8")

    def themes(line: str) -> tuple[str, ...]:
        record = grn.parse(text.replace("25. red U@-6,4:90 +N", line))[0]
        ruleset, seats, played = replay(record)
        turn, before = played[-1]
        assert before is not None
        decision = ruleset.decision_of(before, turn.actions)
        return solution_themes(ruleset, before, tuple(ruleset.hand_of(turn.actions)), decision,
                               player_key(seats, turn.player))

    assert themes("25. red U@-1,5 +S") == ("farm",)
    assert themes("25. red U@-1,5") == ()
