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

#: Gold 3-player self-play, deal 254, turn 38: Bo (yellow) to move with 13 cards face down, red and yellow tied at
#: 18.  Turning the blue miner 3 and the gold 4 (both remembered) changes nothing: a waiting move, which leaves
#: the other gold 4 and the rush's first pick to the others' turns as they fall; Bo turned an unseen card.
GOLD = "gold-blocked-miner.grn"
#: The run that found it (bench_puzzles, level quick, seed 0, 640 rounds of confirmation): Gold's gaps are a
#: point, its playouts spread some 5 points, and the default 40 rounds cannot tell a point from noise (R493).
GOLD_BUDGET = Budget(playouts=60, width=6, confirm_rounds=640, seed=0)


def test_gold_a_waiting_move_with_a_blocked_miner_is_found_and_confirmed() -> None:
    record, ruleset, seats, turn, before, player = _position(GOLD)
    assert turn.number == 38
    got = mine_turn(ruleset, before, turn, player, Criteria(found=True).for_game(ruleset), GOLD_BUDGET,
                    source=GOLD, record=record, seats=seats)
    assert got is not None and got.puzzle is not None, got
    puzzle = got.puzzle
    assert puzzle.solution == "d1=blue3 g1=G4"
    assert puzzle.themes == ("blocked miner",)
    assert puzzle.missed and puzzle.played == "a4=blue4 c8=G4"
    assert puzzle.gain >= 1 and puzzle.gain > 2 * puzzle.gain_se  # Gold's threshold, by two errors (R398)


def test_gold_the_standstills_name_the_theme_and_two_gold_cards_do_not() -> None:
    """The rules' standstills ('Gold': "If, during your turn, you uncover either ..."): a miner beside gold worth
    more and two miners of one value turn a miner that stays; two gold cards turn none (R401)."""
    record, ruleset, seats, turn, before, player = _position(GOLD)
    # remembered at turn 38: a3 red3, e4 yellow2 (Bo's own), b7 green4, f7 black3 and d1 blue3 (nobody's), c8 and
    # g1 gold 4

    def themes(*places: str) -> tuple[str, ...]:
        return solution_themes(ruleset, before, (), places, player)

    assert themes("d1", "g1") == ("blocked miner",)  # a miner weaker than the gold
    assert themes("a3", "f7") == ("blocked miner",)  # two miners of the same value
    assert themes("e4", "c8") == ("blocked miner",)  # Bo's own miner 2
    assert themes("c8", "g1") == ()  # two gold cards: a standstill, but no miner turned
    assert themes("b7", "g1") == ()  # green's miner 4 carries the gold out, for green: no theme of Bo's
    assert themes("b7", "a3") == ("duel",)


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
