"""Puzzles mined from records: turns where one move is clearly best, confirmed by a deeper search.

For every turn of a record's main line :func:`mine_record` rebuilds what the
player to move knew (the position before the turn and the tiles they drew;
never the record's later turns: :func:`grn.analysis.judge.replay`), races the
search's candidates (:func:`grn.bots.search.evaluate`, the move played among
them) and keeps the turn as a *candidate* when the race's best move beats
every other candidate by at least a threshold: ``points`` of expected final
margin, or, in a close game (the best move's chance to place first between
:data:`CLOSE`), ``win`` of the chance to place first (R396).  In a real game
the player must have missed it (another effect than the move played, R397);
``found=True`` keeps the turns where they found it too (self-play).

Each candidate is then *confirmed* (R398): the race's leaders and the move
played are searched again, deeper (:attr:`Budget.confirm_rounds` common
worlds each, no move dropped), from another seed.  The puzzle is kept only
when the same move leads, and beats every other by the threshold and by more
than ``z`` standard errors of their paired difference (no other move within
the error: the answer is unique).

A kept puzzle's *themes* are read from what the solution does, by the game's
:meth:`grn.rules.ruleset.Puzzles.themes` (its score events and the move's
shape); :func:`puzzle_record` writes it as a GRN record: the position
(``[End "now"]``), the question as the ``Caption`` tag, the solution as a
variation with its expected gain (R399).  docs/puzzles.md is the user's page.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Hashable, Iterable, Iterator, Sequence

from grn.analysis.judge import replay
from grn.bots.bot import LEVELS
from grn.bots.search import (Estimate, candidate_moves, evaluate, make_worlds, paired_difference,
                             paired_win_difference, with_played)
from grn.rules.engine import Engine
from grn.core.record import Checkpoint, Comment, Record, Turn, Variation
from grn.rules.ruleset import Ruleset, player_key
from grn.core.value import Value
from grn.rules.world import Decision
from grn.notation.writer import command_text

if TYPE_CHECKING:
    from grn.core.record import Seat
    from grn.core.record import Command

#: The chance to place first, after the best move, within which a game is close and a move may make a puzzle
#: by the chance to win it gains rather than by points (R396).
CLOSE = (0.2, 0.8)
#: Standard errors by which the best move must beat every other (R398: the answer is unique).
UNIQUE_Z = 2.0
#: Leaders of the first race (besides its best and the move played) that contend again in the confirmation.
CONTENDERS = 3


@dataclass(frozen=True, slots=True)
class Criteria:
    """What makes a turn a puzzle: the best move beats every other by ``points`` (expected final margin; None:
    the game's inaccuracy threshold, R396) or, in a close game, by ``win`` (the chance to place first, 0 to 1);
    ``z`` standard errors make the gap real; ``found`` keeps the turns where the player found the move
    (self-play), else only the ones they missed."""

    points: float | None = None
    win: float = 0.10
    z: float = UNIQUE_Z
    found: bool = False

    def __post_init__(self) -> None:
        if (self.points is not None and not self.points > 0) or not 0 < self.win < 1 or self.z < 0:
            raise ValueError("thresholds must be positive (the chance to win below 1) and z not negative")

    def for_game(self, ruleset: Ruleset) -> "Criteria":
        """These criteria with ``points`` filled in from the game's inaccuracy threshold when not given (R396: the
        gap is to every other move, not to the move played, so it is rarer than the loss it is measured like)."""
        if self.points is not None:
            return self
        return Criteria(float(ruleset.analysis_thresholds[0]), self.win, self.z, self.found)

    @property
    def gap(self) -> float:
        """The points threshold (:meth:`for_game` fills it in)."""
        if self.points is None:
            raise ValueError("the points threshold is the game's: call for_game first")
        return self.points


@dataclass(frozen=True, slots=True)
class Budget:
    """The searches: ``playouts`` and ``width`` of the first race (a level's), ``confirm_rounds`` common worlds
    each contender gets in the confirming search, the ``seed``, and whether playouts end on the learned
    evaluation."""

    playouts: int
    width: int
    confirm_rounds: int = 64
    seed: int = 0
    learned: bool = True
    #: Whether ``confirm_rounds`` is the level's (:func:`budget_for` without rounds named): a game may then raise
    #: it to its own :attr:`~grn.rules.ruleset.Puzzles.confirm_rounds` (:meth:`for_game`, R493).
    level_rounds: bool = False
    #: Whether the playouts are the review's (R516).  Off: the miner keeps the game's own playouts (R516 left it
    #: so: with the review's, the puzzles found change and want their own look), a knob for that look.
    review: bool = False

    def for_game(self, ruleset: Ruleset) -> "Budget":
        """This budget with the confirming search's rounds raised to the game's fewest, when they are the level's
        (R493: rounds the user named are kept as named)."""
        floor = ruleset.puzzles.confirm_rounds
        if not self.level_rounds or self.confirm_rounds >= floor:
            return self
        return Budget(self.playouts, self.width, floor, self.seed, self.learned, False, self.review)


def budget_for(level: str = "normal", *, playouts: int | None = None, confirm_rounds: int | None = None,
               seed: int = 0) -> Budget:
    """A :class:`Budget` from a level name (``grn analyse``'s levels) and the options that override it; the
    confirmation gets four times the race's rounds of one move unless told (at least 32, or the game's fewest:
    :meth:`Budget.for_game`)."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}: the levels are {', '.join(LEVELS)}")
    chosen = LEVELS[level]
    race = playouts if playouts is not None else chosen.playouts
    if race < 1:
        raise ValueError(f"playouts must be 1 or more, not {race}")
    rounds = confirm_rounds if confirm_rounds is not None else max(32, 4 * race // max(1, chosen.width))
    if rounds < 2:
        raise ValueError(f"confirm rounds must be 2 or more, not {rounds}")
    return Budget(race, chosen.width, rounds, seed, chosen.learned, confirm_rounds is None)


@dataclass(frozen=True, slots=True)
class Verdict:
    """A search's answer: the best move, its expected margin and chance to win, and by how much it beats the
    nearest other move (points, and chance to win where the game gives one), each ± one standard error;
    ``unique``: it beats every other by more than ``z`` standard errors; ``by``: ``points`` or ``win``, what
    made it a puzzle (None: neither threshold reached)."""

    best: Decision
    mean: float
    win: float | None
    gap: float
    gap_se: float
    win_gap: float | None
    win_gap_se: float | None
    unique: bool
    by: str | None
    runner_up: Decision | None
    playouts: int


def verdict(estimates: Sequence[Estimate], criteria: Criteria,
            answer: Callable[[Decision], Hashable] = lambda d: d) -> Verdict:
    """The best of ``estimates`` (the highest mean among those played in the most worlds) against every move of
    another answer (R397: ``answer`` groups the decisions a solver need not tell apart; the gap to a group is
    the smallest to any of its moves)."""
    most = max(e.playouts for e in estimates)
    best = max((e for e in estimates if e.playouts == most), key=lambda e: e.mean)
    own = answer(best.decision)
    gap, gap_se, unique = float("inf"), 0.0, True
    win_gap: float | None = float("inf") if best.wins else None
    win_gap_se: float | None = 0.0 if best.wins else None
    runner: Decision | None = None
    for e in estimates:
        if e.decision == best.decision or answer(e.decision) == own:
            continue
        g, se = paired_difference(best, e)
        if g <= criteria.z * se:
            unique = False
        if g < gap:
            gap, gap_se, runner = g, se, e.decision
        if win_gap is not None and e.wins:
            wg, wse = paired_win_difference(best, e)
            if wg < win_gap:
                win_gap, win_gap_se = wg, wse
    if runner is None:  # a forced move is no puzzle
        return Verdict(best.decision, best.mean, best.win if best.wins else None, 0.0, 0.0, None, None,
                       False, None, None, sum(e.playouts for e in estimates))
    if win_gap is not None and win_gap == float("inf"):
        win_gap, win_gap_se = None, None
    by: str | None = None
    if gap >= criteria.gap:
        by = "points"
    elif (win_gap is not None and win_gap_se is not None and best.wins and CLOSE[0] <= best.win <= CLOSE[1]
          and win_gap >= criteria.win and win_gap > criteria.z * win_gap_se):
        by = "win"  # R396: a close game, where points say less than the chance to place first
    return Verdict(best.decision, best.mean, best.win if best.wins else None, gap, gap_se, win_gap, win_gap_se,
                   unique, by, runner, sum(e.playouts for e in estimates))


@dataclass(frozen=True, slots=True)
class Puzzle:
    """One confirmed puzzle: where it comes from, the question, the solution and what it gains, its themes."""

    game: str
    source: str
    index: int
    turn: int
    player: str
    player_word: str
    hand: tuple[str, ...]
    question: str
    solution: str
    solution_words: str
    solution_actions: tuple[Command, ...]
    played: str
    missed: bool
    #: The confirming search's figures: the solution's expected margin, by how much it beats the nearest other
    #: move (points ± one standard error), the chances to win (None: the game gives none).
    expected: float
    gain: float
    gain_se: float
    win: float | None
    win_gain: float | None
    win_gain_se: float | None
    by: str
    #: Points the move played gave up against the solution (0 when the player found it), ± one standard error.
    lost: float
    lost_se: float
    themes: tuple[str, ...]
    #: The first race's gap, and the playouts both searches made.
    first_gap: float
    playouts: int
    record: Record = field(repr=False, compare=False)
    #: What the solver must find, in notation (R397: a tile game's placement; default the whole solution).
    answer: str = ""
    #: The answers the confirming search weighed, in notation (or words where a move cannot be written), the
    #: solution's first: the choices a trainer offers where the board cannot be tapped.
    choices: tuple[str, ...] = ()
    #: The decisions the confirming search measured (the solution first), for a search from a third seed.
    moves: tuple[Decision, ...] = field(default=(), repr=False, compare=False)

    @property
    def id(self) -> str:
        """A short stable name: a hash of the position's record and the solution."""
        text = f"{self.game}|{self.source}|{self.index}|{self.turn}|{self.solution}"
        return hashlib.sha1(text.encode()).hexdigest()[:10]

    def to_json(self) -> dict[str, Any]:
        """The puzzle as ``schemas/puzzles.schema.json`` describes one (the record as GRN text)."""
        from grn.notation.writer import write_record

        out: dict[str, Any] = {
            "id": self.id, "game": self.game, "source": self.source, "index": self.index, "turn": self.turn,
            "player": self.player, "hand": list(self.hand), "question": self.question, "solution": self.solution,
            "solution_words": self.solution_words, "answer": self.answer or self.solution,
            "choices": list(self.choices), "played": self.played, "missed": self.missed,
            "expected": round(self.expected, 2), "gain": round(self.gain, 2), "gain_se": round(self.gain_se, 2),
            "by": self.by, "lost": round(self.lost, 2), "lost_se": round(self.lost_se, 2),
            "themes": list(self.themes), "first_gap": round(self.first_gap, 2), "playouts": self.playouts,
            "grn": write_record(self.record)}
        if self.win is not None:
            out["win"] = round(self.win, 3)
        if self.win_gain is not None and self.win_gain_se is not None:
            out["win_gain"] = round(self.win_gain, 3)
            out["win_gain_se"] = round(self.win_gain_se, 3)
        return out


@dataclass(frozen=True, slots=True)
class Outcome:
    """What became of one turn the first race named a candidate: ``puzzle`` when confirmed, else ``rejected``
    says why (``other move``: another move led the deeper search; ``not unique``: another was within the error;
    ``below threshold``: the gap shrank under the threshold; ``unwritable``: the solution cannot be written)."""

    turn: int
    puzzle: Puzzle | None
    rejected: str | None = None
    #: The searches' playouts (the first race's and the confirmation's).
    playouts: int = 0


def _text(commands: Sequence[Command], ruleset: Ruleset) -> str:
    return " ".join(command_text(c, ruleset) for c in commands)


def _seed(budget: Budget, turn: int, stage: str) -> int:
    """A search's seed from the budget's, the turn and the stage (``race``, ``confirm``, ``third``): each turn's
    searches are reproducible and independent of which other turns are mined."""
    return random.Random(f"{budget.seed}:{turn}:{stage}").getrandbits(64)


def confirm_search(ruleset: Ruleset, engine: Engine, hand: tuple[str, ...], moves: Sequence[Decision],
                   budget: Budget, seed: int) -> list[Estimate]:
    """Every move of ``moves`` played in the same ``budget.confirm_rounds`` fresh worlds from ``seed`` (no move
    dropped: each gap to the best is measured over every round)."""
    unique = list(dict.fromkeys(moves))
    return evaluate(ruleset, engine, hand, unique, seed=seed, playouts=budget.confirm_rounds * len(unique),
                    keep=unique, learned=budget.learned, review=budget.review)


def contenders(race: Sequence[Estimate], best: Decision, played: Decision,
               answer: Callable[[Decision], Hashable]) -> list[Decision]:
    """The moves the confirming search measures again (R398): the race's best, the leaders of the
    :data:`CONTENDERS` next answers and of the best's own answer (two a group, ranked by the rounds they ran,
    then their means), and the move played."""
    ranked = sorted(race, key=lambda e: (-e.playouts, -e.mean))
    taken: dict[Hashable, int] = {}
    moves = [best]
    taken[answer(best)] = 1
    for e in ranked:
        key = answer(e.decision)
        if e.decision == best or taken.get(key, 0) >= 2:
            continue
        if key not in taken and len(taken) > CONTENDERS:
            continue
        taken[key] = taken.get(key, 0) + 1
        moves.append(e.decision)
    return list(dict.fromkeys(moves + [played]))


def mine_turn(ruleset: Ruleset, engine: Engine, turn: Turn, player: str, criteria: Criteria, budget: Budget,
              *, source: str = "", index: int = 1, record: Record | None = None,
              seats: list[Seat] | None = None) -> Outcome | None:
    """Search one turn from the position before it (``engine``, left unchanged); None when it is no candidate."""
    budget = budget.for_game(ruleset)
    hand = tuple(ruleset.hand_of(turn.actions))
    played = ruleset.decision_of(engine, turn.actions)
    rng = random.Random(_seed(budget, turn.number, "worlds"))
    worlds = make_worlds(ruleset, engine, hand, rng, ruleset.greedy_samples)
    candidates = with_played(worlds[0], candidate_moves(worlds, player, budget.width, from_position=True), played)
    if len(candidates) < 2:
        return None
    race = evaluate(ruleset, engine, hand, candidates, seed=_seed(budget, turn.number, "race"),
                    playouts=budget.playouts, keep=[played], first_halving=worlds[0].first_halving,
                    learned=budget.learned, review=budget.review)
    def answer(d: Decision) -> Hashable:
        return ruleset.puzzles.answer(engine, worlds[0].effect(d))

    first = verdict(race, criteria, answer)
    spent = first.playouts
    if first.by is None:
        return None
    missed = answer(first.best) != answer(played)
    if not missed and not criteria.found:
        return None
    moves = contenders(race, first.best, played, answer)
    again = confirm_search(ruleset, engine, hand, moves, budget, _seed(budget, turn.number, "confirm"))
    second = verdict(again, criteria, answer)
    spent += second.playouts
    if answer(second.best) != answer(first.best):
        return Outcome(turn.number, None, "other move", spent)
    if not second.unique:
        return Outcome(turn.number, None, "not unique", spent)
    if second.by is None:
        return Outcome(turn.number, None, "below threshold", spent)
    actions = ruleset.decision_actions(engine, second.best)
    if not actions:
        return Outcome(turn.number, None, "unwritable", spent)
    by_move = {e.decision: e for e in again}
    best_e, played_e = by_move[second.best], by_move.get(played)
    lost, lost_se = (0.0, 0.0) if played_e is None or second.best == played else paired_difference(best_e, played_e)
    themes = solution_themes(ruleset, engine, hand, second.best, player, seed=_seed(budget, turn.number, "themes"))
    solution = _text(actions, ruleset)
    words = ruleset.decision_words(engine, second.best)
    name = player
    if seats is not None:
        name = next((s.name for s in seats if s.key == player), player)
    question = _question(turn.number, name, turn.player, hand, second, criteria)
    puzzle = Puzzle(ruleset.name, source, index, turn.number, player, turn.player, tuple(str(h) for h in hand),
                    question, solution, words, tuple(actions), _text(turn.actions, ruleset), missed,
                    second.mean, second.gap, second.gap_se, second.win, second.win_gap, second.win_gap_se,
                    second.by or "points", lost, lost_se, themes, first.gap, spent, Record(()),
                    _answer_text(ruleset, engine, second.best, solution),
                    _choices(ruleset, engine, [second.best] + moves, answer), tuple([second.best] + [m for m in moves if m != second.best]))
    if record is not None:
        puzzle = _with_record(puzzle, record)
    return Outcome(turn.number, puzzle, None, spent)


def _answer_text(ruleset: Ruleset, engine: Engine, decision: Decision, solution: str) -> str:
    """The answer of ``decision`` in notation: one command the game's codecs write, else the whole solution."""
    found = ruleset.puzzles.answer(engine, decision)
    if not isinstance(found, Value) or ruleset.codec_for(found) is None:
        return solution
    return command_text(found, ruleset)


def _choices(ruleset: Ruleset, engine: Engine, moves: Sequence[Decision],
             answer: Callable[[Decision], Hashable]) -> tuple[str, ...]:
    """One text per answer among ``moves`` (the first move's first): its notation, else its words."""
    out: dict[Hashable, str] = {}
    for d in moves:
        key = answer(d)
        if key in out:
            continue
        actions = ruleset.decision_actions(engine, d)
        text = _text(actions, ruleset) if actions else ruleset.decision_words(engine, d)
        out[key] = _answer_text(ruleset, engine, d, text)
    return tuple(dict.fromkeys(out.values()))


def _question(number: int, name: str, colour: str, hand: Sequence[Any], found: Verdict, criteria: Criteria) -> str:
    """The caption: who is to move, what they hold, and what the solution is worth."""
    who = name if name == colour else f"{name} ({colour})"
    holding = f", with {', '.join(str(h) for h in hand)} in hand" if hand else ""
    if found.by == "win":
        worth = f"raises the chance to win by {100 * criteria.win:.0f} points or more over any other move"
    else:
        worth = f"gains {criteria.gap:g} point{'' if criteria.gap == 1 else 's'} or more over any other move"
    return f"Turn {number}, {who} to move{holding}: find the move that {worth}."


def solution_themes(ruleset: Ruleset, engine: Engine, hand: tuple[str, ...], decision: Decision, player: str,
                    *, seed: int = 0) -> tuple[str, ...]:
    """The themes of ``decision`` at ``engine``: the game's :meth:`~grn.rules.ruleset.Puzzles.themes` of the
    turn played in one world drawn from what the player knows (what a turn scores is known before the next
    draw; only a face revealed by the turn itself, which no theme reads, differs between worlds)."""
    world = ruleset.determinise(engine, random.Random(seed), hand)
    before = world.engine.copy()
    commands = world.commands(decision)
    events = world.play(decision)
    return tuple(ruleset.puzzles.themes(before, world.engine, player, commands, list(events)))


#: Tags of the source record a puzzle keeps (the others describe the game it came from, not the position).
KEPT_TAGS = ("Game", "Event", "Site", "Date", "Players", "Options", "Tileset", "Layout", "Start")


def _with_record(puzzle: Puzzle, record: Record) -> Puzzle:
    """``puzzle`` with its record (:func:`puzzle_record`) filled in."""
    from dataclasses import replace

    return replace(puzzle, record=puzzle_record(record, puzzle))


def puzzle_record(record: Record, puzzle: Puzzle) -> Record:
    """The puzzle as a record (R399): the source's main line up to the turn before the puzzle, ``[End "now"]``,
    the question as ``Caption``, and the solution as a variation of that last turn (the last turn again, then
    the solution) whose comments give the expected gain.  A source turn keeps its commands and score
    checkpoint only (its comments and variations spoke of another question)."""
    turns = []
    for t in record.turns:
        if t.number >= puzzle.turn:
            break
        turns.append(Turn(t.number, t.player, t.actions, tuple(e for e in t.extras if isinstance(e, Checkpoint))))
    if not turns or turns[-1].number < 1:
        raise ValueError("a puzzle needs a played turn before it (R395)")
    last = turns[-1]
    gain = (f"{100 * (puzzle.win_gain or 0.0):+.0f}% chance to win ± {100 * (puzzle.win_gain_se or 0.0):.0f}"
            if puzzle.by == "win" else f"{puzzle.gain:+.1f} ± {puzzle.gain_se:.1f} points")
    said = f"[%solution] {puzzle.solution_words}: {gain} over the next best move"
    if puzzle.missed:
        said += f"; played was {puzzle.played}, {puzzle.lost:.1f} ± {puzzle.lost_se:.1f} points less"
    if puzzle.themes:
        said += f" (themes: {', '.join(puzzle.themes)})"
    solution = Turn(puzzle.turn, puzzle.player_word, puzzle.solution_actions, (Comment(said),))
    line = Variation((Turn(last.number, last.player, last.actions), solution), (Comment("[%puzzle]"),))
    turns[-1] = Turn(last.number, last.player, last.actions, last.extras + (line,))
    tags = [(k, v) for k, v in record.tags if k in KEPT_TAGS]
    tags += [("End", "now"), ("Caption", puzzle.question), ("Puzzle", puzzle.id)]
    return Record(tuple(tags), tuple(turns))


def mine_record(record: Record, criteria: Criteria, budget: Budget, *, source: str = "", index: int = 1,
                step: Callable[[int], None] = lambda n: None, tileset: Any = None) -> Iterator[Outcome]:
    """Every candidate turn of ``record``'s main line and what became of it (R395: from turn 2, the turn before
    a played one; up to the first turn that breaks the rules).  ``step`` is called once a turn (a progress bar)."""
    ruleset, seats, line = replay(record, tileset)
    criteria = criteria.for_game(ruleset)
    previous = 0
    for turn, before in line:
        step(1)
        if before is None:
            break
        if previous >= 1:
            got = mine_turn(ruleset, before, turn, player_key(seats, turn.player), criteria, budget,
                            source=source, index=index, record=record, seats=seats)
            if got is not None:
                yield got
        previous = turn.number


def mine_games(records: Iterable[tuple[str, int, Record]], criteria: Criteria, budget: Budget,
         step: Callable[[int], None] = lambda n: None) -> Iterator[Outcome]:
    """:func:`mine_record` over (source, index, record) triples."""
    for source, index, record in records:
        yield from mine_record(record, criteria, budget, source=source, index=index, step=step)


def recheck(record: Record, puzzle: Puzzle, criteria: Criteria, budget: Budget,
            stage: str = "third") -> tuple[bool, bool]:
    """A search from a third seed (``stage`` names it) of the moves ``puzzle``'s confirmation measured: whether
    the same answer leads, and whether it is also unique and past the threshold (the stability figures of
    bench/bench_puzzles.py)."""
    ruleset, seats, line = replay(record)
    criteria = criteria.for_game(ruleset)
    budget = budget.for_game(ruleset)
    for turn, before in line:
        if turn.number == puzzle.turn and before is not None:
            hand = tuple(ruleset.hand_of(turn.actions))
            world = ruleset.determinise(before, random.Random(0), hand)

            def answer(d: Decision) -> Hashable:
                return ruleset.puzzles.answer(before, world.effect(d))

            again = verdict(confirm_search(ruleset, before, hand, puzzle.moves, budget,
                                           _seed(budget, turn.number, stage)), criteria, answer)
            same = answer(again.best) == answer(puzzle.moves[0])
            return same, same and again.unique and again.by is not None
    return False, False


__all__ = ["contenders", "Criteria", "Budget", "budget_for", "Verdict", "verdict", "Puzzle", "Outcome", "mine_turn", "mine_record",
           "mine_games", "puzzle_record", "solution_themes", "confirm_search", "recheck", "CLOSE", "UNIQUE_Z"]
