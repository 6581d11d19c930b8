"""Analysing a record: the points each move gave up, judged, per turn and per player.

For every turn of the main line :func:`analyse` rebuilds what the player to
move knew (the position before the turn, the tiles they drew; never the
record's later turns), lists the greedy bot's best candidate moves plus the
move played, and estimates each one's expected final margin by Monte-Carlo
search over determinised worlds (:func:`grn.bots.search.evaluate`).  The
points lost are best - played, with the standard error of that difference
(both were played in the same worlds).  A move is judged (inaccuracy,
mistake, blunder) only when the loss reaches a threshold *and* is more than
``z`` standard errors from zero, so noise does not invent a blunder.
docs/analysis.md gives the formulas and their limits.

Each turn's search is seeded from ``(seed, turn number)``, so two records
that agree up to turn k get the same analysis of turns 1..k, and turns can be
analysed in any order, in several processes.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

from grn.rules import registry
from grn.bots.bot import DEFAULT_LEVEL, search_level
from grn.bots.confirm import Confirmation, confirm_loss
from grn.bots.search import (Estimate, candidate_moves, evaluate, make_worlds, paired_difference,
                             paired_win_difference, with_played)
from grn.rules.engine import Engine
from grn.core.errors import IllegalAction
from grn.analysis.evalnote import JUDGEMENTS, EvalNote
from grn.analysis.luck import Balance, TurnLuck, balance, final_values, rounds_for, turn_luck
from grn.rules.position import play_record_turn
from grn.core.record import Record, Seat, Turn
from grn.rules.ruleset import Ruleset, engine_for, player_key
from grn.notation.writer import command_text

if TYPE_CHECKING:
    from grn.rules.world import Decision
    from grn.core.record import Command


@dataclass(frozen=True, slots=True)
class Thresholds:
    """Points lost from which a move is an inaccuracy, a mistake, a blunder; ``z``: how many standard
    errors the loss must stand clear of zero before any judgement."""

    inaccuracy: float
    mistake: float
    blunder: float
    z: float = 2.0

    def __post_init__(self) -> None:
        if not 0 < self.inaccuracy <= self.mistake <= self.blunder:
            raise ValueError("thresholds must be positive and in order: inaccuracy <= mistake <= blunder")
        if self.z < 0:
            raise ValueError("z must not be negative")

    def judge(self, lost: float, se: float, bound_z: float | None = None) -> str | None:
        """The judgement of a move that lost ``lost`` ± ``se`` points (None: not judged).

        With ``bound_z`` a mistake or a blunder needs the loss's lower bound ``lost - bound_z × se`` past its
        threshold, not the loss alone (R275: a game's :attr:`grn.rules.world.World.judge_clear_z`; R229 measured the
        same rule with the thresholds' own z).
        """
        if lost <= self.z * se:
            return None  # not clearly apart from the best move
        verdict = None
        bound = lost if bound_z is None else lost - bound_z * se
        for name, limit, value in zip(JUDGEMENTS, (self.inaccuracy, self.mistake, self.blunder), (lost, bound, bound)):
            if value >= limit:
                verdict = name
        return verdict

    def near(self, lost: float, se: float, bound_z: float) -> str | None:
        """The severe judgement (mistake, blunder) a loss of ``lost`` ± ``se`` is near under R275: the
        mildest whose threshold lies within ``lost ± bound_z × se`` and which :meth:`judge` with ``bound_z``
        does not give; None when no such threshold is within reach."""
        given = self.judge(lost, se, bound_z=bound_z)
        rank = JUDGEMENTS.index(given) if given else -1
        for name, limit in zip(JUDGEMENTS[1:], (self.mistake, self.blunder)):
            if JUDGEMENTS.index(name) > rank and lost - bound_z * se < limit <= lost + bound_z * se:
                return name
        return None


@dataclass(frozen=True, slots=True)
class Settings:
    """The budget of an analysis: playouts (or seconds) per move, candidates, seed, thresholds."""

    level: str
    playouts: int | None
    seconds: float | None
    width: int
    seed: int
    thresholds: Thresholds | None = None
    #: Whether playouts' ends are valued by the game's learned evaluation (R332; the ``classic`` level: no).
    learned: bool = True
    #: What the judgements read (R335): ``points`` (the points lost) or ``win`` (the chance to win lost).
    by: str = "points"
    #: Whether the playouts are the review's (:meth:`grn.rules.world.World.review_playouts`, R516; the level's
    #: ``claims``: every level but ``classic``, whose playouts are round one's).
    review: bool = True


#: What the judgements may read (``grn analyse --by``).
BY = ("points", "win")

#: The judgements by the chance to win lost (R335), in its own units (0 to 1): an inaccuracy gives up 6% of the
#: chance to place first, a mistake 12%, a blunder 25% (Carcassonne's 3, 6 and 12 points in a level game half
#: way through, where a point is worth 2.3% of the chance to win).
WIN_THRESHOLDS = (0.06, 0.12, 0.25)

#: A game is decided for a player whose chance to place first is at least this after the move played and after
#: the best move (or at most 1 - this after both): such a move is not judged (R335).
DECIDED = 0.95

#: Standard errors by which the best move must beat every other move measured beside it before it is named
#: (R334); a move within them is "as good".  Three, not two (R468): at two, another seed named the same best
#: move on 74% of the eight real games' turns; at three on 84% (the issue asks 80%).
EQUAL_Z = 3.0


def settings_for(*, level: str | None = None, playouts: int | None = None, seconds: float | None = None,
                 seed: int = 0, thresholds: Thresholds | None = None, by: str = "points") -> Settings:
    """Settings from a level name (default: the default level) and the budget options that override it."""
    if by not in BY:
        raise ValueError(f"unknown judgement basis {by!r}: one of {', '.join(BY)}")
    name = level or DEFAULT_LEVEL
    chosen = search_level(name)  # a budget, or a level of the ladder that searches (UnknownBot: a ValueError)
    if playouts is not None and playouts < 1:
        raise ValueError(f"playouts must be 1 or more, not {playouts}")
    if seconds is not None and not seconds > 0:
        raise ValueError(f"seconds must be more than 0, not {seconds}")
    if playouts is None and seconds is None:
        playouts = chosen.playouts
    return Settings(name, playouts, seconds, chosen.width, seed, thresholds, chosen.learned, by, chosen.claims)


@dataclass(frozen=True, slots=True)
class TurnAnalysis:
    """One turn: the move played and the best move found, their expected final margins (points, for the
    player who moved, ± one standard error), the points lost and the judgement."""

    turn: int
    player: str
    played: str
    played_words: str
    best: str | None
    best_words: str
    expected_played: float
    played_se: float
    expected_best: float
    best_se: float
    points_lost: float
    lost_se: float
    judgement: str | None
    candidates: int
    playouts: int
    #: The best move's commands, to write as a variation (None: it cannot be written, or it is the move played).
    best_actions: tuple[Command, ...] | None = field(default=None, repr=False)
    #: The severe judgement whose threshold the loss's interval still holds after the confirmation's cap (R275:
    #: "near the mistake threshold"); None: clear of every such threshold, stopped before the cap, or the game
    #: judges the loss alone.
    near: str | None = None
    #: The chance to place first after the move played and after the best move (0 to 1), and the chance lost
    #: with its standard error (R333); None where the game gives no win chances.
    win_played: float | None = None
    win_best: float | None = None
    win_lost: float | None = None
    win_lost_se: float | None = None
    #: Whether the best move beats every other move measured beside it by more than its error (R334); when not,
    #: :attr:`equal` lists the moves as good as it (in notation, the best first).
    best_named: bool = True
    equal: tuple[str, ...] = ()
    #: Whether the game was decided for the player at this turn, whatever they played (R335).
    decided: bool = False
    #: The luck of the draw (R336, R410, :mod:`grn.analysis.luck`): the tile drawn against what the bag held; None: not measured.
    luck: TurnLuck | None = None

    @property
    def note(self) -> EvalNote:
        """The ``[%eval ...]`` of this turn."""
        return EvalNote(self.expected_played, self.played_se, self.expected_best, self.best_se,
                        self.points_lost, self.judgement, self.near, self.win_played, self.win_best,
                        None if self.luck is None else self.luck.luck)

    def to_json(self) -> dict[str, Any]:
        """The turn as the JSON report gives it (``schemas/analysis.schema.json``); ``near`` only when set."""
        out: dict[str, Any] = {
            "turn": self.turn, "player": self.player, "played": self.played, "played_words": self.played_words,
            "best": self.best, "best_words": self.best_words,
            "expected_played": round(self.expected_played, 2), "played_se": round(self.played_se, 2),
            "expected_best": round(self.expected_best, 2), "best_se": round(self.best_se, 2),
            "points_lost": round(self.points_lost, 2), "lost_se": round(self.lost_se, 2),
            "judgement": self.judgement, "candidates": self.candidates, "playouts": self.playouts}
        if self.near is not None:
            out["near"] = self.near
        if self.win_played is not None and self.win_best is not None:
            out["win_played"] = round(self.win_played, 3)
            out["win_best"] = round(self.win_best, 3)
            out["win_lost"] = round(self.win_lost or 0.0, 3)
            out["win_lost_se"] = round(self.win_lost_se or 0.0, 3)
        out["best_named"] = self.best_named
        if self.equal:
            out["equal"] = list(self.equal)
        if self.decided:
            out["decided"] = True
        if self.luck is not None:
            out["luck"] = round(self.luck.luck, 2)
            out["luck_se"] = round(self.luck.se, 2)
        return out


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """A player's moves: average points lost, the accuracy figure and the count of each judgement."""

    player: str
    moves: int
    average_points_lost: float
    accuracy: float
    inaccuracies: int
    mistakes: int
    blunders: int

    def to_json(self) -> dict[str, Any]:
        """The player as the JSON report gives it."""
        return {"player": self.player, "moves": self.moves, "average_points_lost": round(self.average_points_lost, 2),
                "accuracy": round(self.accuracy, 1), "inaccuracies": self.inaccuracies, "mistakes": self.mistakes,
                "blunders": self.blunders}


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    """The analysis of one record: every turn analysed, each player's summary, and where it stopped.

    ``stopped`` is the number of the first turn that breaks the rules (not analysed, nor anything after
    it), None when the whole main line was analysed.
    """

    game: str
    turns: tuple[TurnAnalysis, ...]
    players: tuple[PlayerSummary, ...]
    settings: Settings
    thresholds: Thresholds
    stopped: int | None = None
    #: Each player's final margin as expectation + luck + skill + edge + the rest (R336, R410); empty unless every
    #: turn of a whole game was analysed and the game measures luck.
    balances: tuple[Balance, ...] = ()

    def decided(self) -> tuple[int, str] | None:
        """The turn from which the game was decided and the player it was decided for (R335): every analysed turn
        from there on had that player's chance to win at 95% or more (their own turns) or at most 5% for the
        opponent (theirs); None when it never was."""
        found: tuple[int, str] | None = None
        for t in reversed(self.turns):
            if t.win_played is None:
                return None
            leader = t.player if t.win_played >= DECIDED else None
            if leader is None and t.win_played <= 1 - DECIDED and len(self.players) == 2:
                leader = next(p.player for p in self.players if p.player != t.player)
            if leader is None or (found is not None and found[1] != leader):
                break
            found = (t.turn, leader)
        return found

    def worst(self, count: int | None = None) -> list[TurnAnalysis]:
        """The judged moves, the costliest first."""
        judged = sorted((t for t in self.turns if t.judgement), key=lambda t: (-t.points_lost, t.turn))
        return judged[:count] if count is not None else judged

    def to_json(self) -> dict[str, Any]:
        """The analysis as plain data (``schemas/analysis.schema.json`` describes one game of the report)."""
        s, t = self.settings, self.thresholds
        decided = self.decided()
        return {"game": self.game, "level": s.level, "playouts": s.playouts, "seconds": s.seconds, "seed": s.seed,
                "by": s.by, "decided_at_turn": None if decided is None else decided[0],
                "thresholds": {"inaccuracy": t.inaccuracy, "mistake": t.mistake, "blunder": t.blunder, "z": t.z},
                "stopped_at_turn": self.stopped,
                "turns": [x.to_json() for x in self.turns], "players": [p.to_json() for p in self.players],
                "balance": [{"player": b.player, "margin": round(b.margin, 2), "expected": round(b.expected, 2),
                             "luck": round(b.luck, 2), "luck_se": round(b.luck_se, 2), "skill": round(b.skill, 2),
                             "edge": round(b.edge, 2), "rest": round(b.rest, 2), "se": round(b.se, 2)}
                            for b in self.balances]}


def accuracy(losses: Sequence[float], scale: float) -> float:
    """100 × the mean of exp(-lost / scale) over the moves (100: no point lost; docs/analysis.md)."""
    if not losses:
        return 100.0
    return 100.0 * sum(math.exp(-x / scale) for x in losses) / len(losses)


def summarise(turns: Sequence[TurnAnalysis], seats: Sequence[Seat], thresholds: Thresholds) -> tuple[PlayerSummary, ...]:
    """Each seated player's summary of ``turns``."""
    out = []
    for seat in seats:
        own = [t for t in turns if t.player == seat.key]
        losses = [t.points_lost for t in own]
        counts = {j: sum(1 for t in own if t.judgement == j) for j in JUDGEMENTS}
        out.append(PlayerSummary(seat.key, len(own), sum(losses) / len(losses) if losses else 0.0,
                                 accuracy(losses, thresholds.mistake), counts["inaccuracy"], counts["mistake"],
                                 counts["blunder"]))
    return tuple(out)


def _text(commands: Sequence[Command], ruleset: Ruleset) -> str:
    return " ".join(command_text(c, ruleset) for c in commands)


#: The share of a level's budget spent in the first batch of re-estimating the best move and the move played
#: (R141): at the default level 40 rounds of each.
CONFIRM_SHARE = 0.5
#: The fewest rounds of that first batch (a standard error from two or three worlds would hide even a plain
#: blunder).
CONFIRM_MIN = 8
#: How many times the first batch's rounds a loss near a threshold may get before it is judged as it stands
#: (R180): the rounds double while the loss is within z standard errors of a threshold.
CONFIRM_CAP = 16
#: How many of the race's leaders contend for the best move on the fresh worlds (R181).
CONTENDERS = 2


def confirm(ruleset: Ruleset, engine: Engine, hand: tuple[str, ...], contenders: Sequence[Decision], played: Decision,
            seed: int, settings: Settings, thresholds: Thresholds, scale: int = 1,
            eliminate: bool = False, edge_scale: int = 1, edge_z: float | None = None,
            bound_z: float | None = None) -> Confirmation:
    """The best contender's and the played move's values measured again, on fresh common worlds (R141, R180).

    ``scale`` multiplies the cap on the rounds (R205: the game's :attr:`grn.rules.world.World.confirm_scale`);
    ``eliminate`` keeps every contender until it is clearly behind the leader (R228:
    :attr:`grn.rules.world.World.confirm_eliminates`); ``edge_scale`` multiplies the cap once more for a loss still
    near the mistake threshold, the one that decides "mistake or worse" (R255:
    :attr:`grn.rules.world.World.confirm_edge_scale`), and ``edge_z`` is the standard errors a loss must stand clear
    of that threshold, and a contender behind the leader, before either is settled (R256:
    :attr:`grn.rules.world.World.confirm_edge_z`; default the thresholds' z); ``bound_z`` is the game's R275 rule
    (:attr:`grn.rules.world.World.judge_clear_z`), which the edge stage measures against (R276).

    The race picked its best as the highest of several noisy means, so that mean is biased upwards (the
    winner's curse) and the loss best - played with it.  Worlds drawn after the choice, that did not choose
    it, give an unbiased estimate of both and of their paired difference; they are played until the loss is
    clear of the mistake and the blunder thresholds by ``thresholds.z`` standard errors, or the cap is reached
    (R180; the inaccuracy threshold, near which most losses sit, would cost the most and is left out).
    """
    rounds = None if settings.playouts is None else max(CONFIRM_MIN, round(settings.playouts * CONFIRM_SHARE / 2))
    seconds = None if settings.seconds is None else settings.seconds * CONFIRM_SHARE
    cap = (rounds or CONFIRM_MIN) * CONFIRM_CAP * scale
    return confirm_loss(ruleset, engine, hand, contenders, played, seed=seed, rounds=rounds or CONFIRM_MIN,
                        max_rounds=cap, boundaries=(thresholds.mistake, thresholds.blunder),
                        z=thresholds.z, seconds=seconds, eliminate=eliminate,
                        edges=(thresholds.mistake,), edge_rounds=cap * edge_scale, edge_z=edge_z,
                        edge_bound_z=bound_z, learned=settings.learned, review=settings.review)


def contenders_of(estimates: Sequence[Estimate], played: Decision, count: int = CONTENDERS) -> list[Decision]:
    """The race's ``count`` leaders other than the move played: the moves that contend for the best on fresh
    worlds (R181).  The leaders are ranked by the rounds they ran (the finalists first, then the candidates
    the race dropped last), then by their means (R205); the move played takes a place among them."""
    ranked = sorted(estimates, key=lambda e: (-e.playouts, -e.mean))
    return [e.decision for e in ranked[:count] if e.decision != played]


def analyse_turn(ruleset: Ruleset, engine: Engine, turn: Turn, player: str, settings: Settings,
                 thresholds: Thresholds) -> TurnAnalysis:
    """Analyse one turn from the position before it (``engine``, left unchanged)."""
    hand = ruleset.hand_of(turn.actions)
    played = ruleset.decision_of(engine, turn.actions)
    seed = random.Random(f"{settings.seed}:{turn.number}")
    worlds = make_worlds(ruleset, engine, hand, seed, ruleset.greedy_samples)
    # R225, R226: the game may read the candidates from the position and race them longer before halving
    candidates = with_played(worlds[0], candidate_moves(worlds, player, settings.width, from_position=True), played)
    # R226: a game's lead (the playout player's own turn, R201) may run the whole race beside the move played,
    # so that it contends again whatever the race's first worlds say of it
    lead = worlds[0].lead() if worlds[0].race_keeps_lead else None
    kept = [played] if lead is None or lead not in candidates else [played, lead]
    estimates = evaluate(ruleset, engine, hand, candidates, seed=seed.getrandbits(64), playouts=settings.playouts,
                         seconds=settings.seconds, keep=kept, first_halving=worlds[0].first_halving,
                         learned=settings.learned, review=settings.review)
    own = estimates[candidates.index(played)]
    best = own
    confirm_seed = seed.getrandbits(64)
    searched = sum(e.playouts for e in estimates)
    lost, lost_se, capped = 0.0, 0.0, False
    scale = worlds[0].confirm_scale  # R205: a game may ask for a larger confirmation
    bound_z = worlds[0].judge_clear_z  # R275: a judgement needs the loss clearly past its threshold
    rivals = contenders_of(estimates, played, CONTENDERS * scale)
    if rivals:
        # R181: the race's leaders, not only its winner, contend again on fresh worlds, even when the race's
        # winner is the move played: a move is judged against the best the fresh worlds find
        again = confirm(ruleset, engine, hand, rivals, played, confirm_seed, settings, thresholds, scale,
                        worlds[0].confirm_eliminates, worlds[0].confirm_edge_scale, worlds[0].confirm_edge_z,
                        bound_z)
        searched += again.playouts
        capped = again.capped
        if again.lost > 0:
            best, own, lost, lost_se = again.best, again.played, again.lost, again.se
        else:
            best = own = again.played  # the move played measures as well as any contender: it is the best found
    judgement = thresholds.judge(lost, lost_se, bound_z=bound_z)
    # R275: named near a threshold only when measured to the cap and still straddling it (a loss the
    # confirmation stopped early has an interval too wide to say so)
    near = None if bound_z is None or not capped else thresholds.near(lost, lost_se, bound_z)
    best_actions = None if best.decision == played else ruleset.decision_actions(engine, best.decision)
    played_text = _text(turn.actions, ruleset)
    # R333: the chances to place first, read from the same playouts as the margins
    win_played = own.win if own.wins else None
    win_best = best.win if best.wins else None
    win_lost, win_lost_se = (0.0, 0.0) if best is own or best.decision == played else paired_win_difference(best, own)
    if settings.by == "win" and win_lost_se is not None:
        judgement = Thresholds(*WIN_THRESHOLDS, z=thresholds.z).judge(win_lost, win_lost_se)
        near = None
    # R335: a move that keeps a decided game decided (or cannot save a lost one) is not judged
    decided = (win_played is not None and win_best is not None
               and (min(win_played, win_best) >= DECIDED or win_best <= 1 - DECIDED))
    if decided:
        judgement, near = None, None
    # R334: the best move is named only when it beats every other move measured beside it by its error
    equal: tuple[str, ...] = ()
    if rivals:
        # R517: the move played read on all the rounds of its loss (``own``), so a move judged is never "equal"
        ties = [e for e in again.first if e.decision != best.decision
                and _within(paired_difference(best, own if e.decision == played else e), EQUAL_Z)]
        if ties:
            def text(d: Any) -> str:
                if d == played:
                    return played_text
                actions = ruleset.decision_actions(engine, d)  # None: it cannot be written (an unseen card)
                return _text(actions, ruleset) if actions else ruleset.decision_words(engine, d)
            equal = tuple(text(d) for d in [best.decision] + [e.decision for e in ties])
    # R336, R410: the luck of the draw, by the search's own playouts, from the same position (its own seeds: the
    # search's worlds stay as they were; the next turn's seed values the moves as the next turn reads its position)
    luck = turn_luck(ruleset, engine, turn.number, player, hand, seed=luck_seed(settings, turn.number),
                     next_seed=luck_seed(settings, turn.number + 1), rounds=rounds_for(settings.playouts, ruleset.luck_rounds_scale),
                     learned=settings.learned, played=played, best=best.decision, actions=turn.actions,
                     review=settings.review)
    return TurnAnalysis(
        turn.number, player, played_text, ruleset.decision_words(engine, played),
        played_text if best.decision == played else (_text(best_actions, ruleset) if best_actions else None),
        ruleset.decision_words(engine, best.decision), own.mean, own.se, best.mean, best.se, lost, lost_se,
        judgement, len(candidates), searched, best_actions, near, win_played, win_best,
        None if win_played is None else win_lost, None if win_played is None else win_lost_se,
        not equal, equal, decided, luck)


def _within(difference: tuple[float, float], z: float) -> bool:
    """Whether a paired difference (mean, standard error) is within ``z`` standard errors of zero."""
    gap, se = difference
    return gap <= z * se


def replay(record: Record, tileset: Any = None) -> tuple[Ruleset, list[Seat], list[tuple[Turn, Engine | None]]]:
    """The main line's turns, each with the position before it (None from the first turn that breaks the rules).

    Raises :class:`grn.rules.ruleset.SetupProblem` or :class:`grn.rules.registry.UnknownGame` for a header that sets up no game.
    """
    ruleset = registry.find_ruleset(record.game)
    seats = ruleset.seats(record)
    engine = engine_for(ruleset, record, seats, tileset)
    out: list[tuple[Turn, Engine | None]] = []
    broken = False
    for turn in record.turns:
        if broken:
            out.append((turn, None))
            continue
        before = engine.copy()
        try:
            play_record_turn(engine, seats, turn)
            if turn.number == 0:
                continue
        except IllegalAction:
            broken = True
            out.append((turn, None))
            continue
        out.append((turn, before))
    return ruleset, seats, out


#: The last game a worker replayed, by the key its caller gave: the turns of one game come to a worker one
#: by one (units of work), and each would replay the game again (some 25 ms for 72 Gold Rush turns).
_REPLAYED: dict[str, tuple[Ruleset, list[Seat], list[tuple[Turn, Engine | None]]]] = {}


def analyse_numbers(record: Record, numbers: Sequence[int], settings: Settings, tileset: Any = None,
                    key: str | None = None) -> list[TurnAnalysis]:
    """Analyse the main-line turns numbered ``numbers`` (a unit of work for a process pool or Dask).

    ``key`` names the game for the worker's one-game cache of replayed positions (the analysis of a turn
    leaves its position unchanged, so the turns of a game share one replay); None replays.
    """
    if key is not None and key in _REPLAYED:
        ruleset, seats, line = _REPLAYED[key]
    else:
        ruleset, seats, line = replay(record, tileset)
        if key is not None:
            _REPLAYED.clear()
            _REPLAYED[key] = (ruleset, seats, line)
    thresholds = settings.thresholds or ruleset_thresholds(ruleset)
    wanted = set(numbers)
    return [analyse_turn(ruleset, before, turn, player_key(seats, turn.player), settings, thresholds)
            for turn, before in line if before is not None and turn.number in wanted]


#: The judgements of "mistake or worse", the ones the stability target counts (R182).
SEVERE = ("mistake", "blunder")


def agreement(first: Iterable[tuple[int, str | None]], second: Iterable[tuple[int, str | None]]) -> tuple[int, int, int]:
    """How two analyses of one game, given as (turn, judgement) pairs, agree on its mistakes or worse (R182):
    (moves both judged a mistake or worse, moves either judged so, judgements of mistake or worse the two
    made together).

    A mistake in one and a blunder in the other agree; a move neither judged so is not counted.  The share
    of agreement is ``both / either``.
    """
    one = {turn for turn, judgement in first if judgement in SEVERE}
    two = {turn for turn, judgement in second if judgement in SEVERE}
    return len(one & two), len(one | two), len(one) + len(two)


def ruleset_thresholds(ruleset: Ruleset) -> Thresholds:
    """The game's default thresholds (calibrated on real games: docs/analysis.md)."""
    a, m, b = ruleset.analysis_thresholds
    return Thresholds(a, m, b)


#: Runs ``analyse_numbers`` over groups of turn numbers: (record, groups, settings) -> results per group.
Runner = Callable[[Record, list[list[int]], Settings], list[list[TurnAnalysis]]]


def analyse(record: Record, *, level: str | None = None, playouts: int | None = None, seconds: float | None = None,
            seed: int = 0, thresholds: Thresholds | None = None, tileset: Any = None,
            runner: Runner | None = None, parts: int = 1, only: Sequence[int] | None = None,
            by: str = "points") -> GameAnalysis:
    """Analyse every turn of ``record``'s main line up to its first illegal turn.

    ``level`` names a budget (``quick``, ``normal`` (default), ``deep``, ``max``); ``playouts`` or
    ``seconds`` per move override it; the same ``seed`` gives the same analysis (with a playout budget).
    ``runner`` and ``parts`` spread the turns over processes (``grn analyse --jobs``), one turn a unit of work
    (a turn's analysis depends only on its position and the seed, so the result is the same however the turns
    are spread); ``only`` names the turns to analyse (default: all); ``by`` says what the judgements read,
    ``points`` or ``win`` (R335).
    """
    settings = settings_for(level=level, playouts=playouts, seconds=seconds, seed=seed, thresholds=thresholds, by=by)
    ruleset, seats, line = replay(record, tileset)
    used = thresholds or ruleset_thresholds(ruleset)
    settings = Settings(settings.level, settings.playouts, settings.seconds, settings.width, seed, used,
                        settings.learned, settings.by, settings.review)
    wanted = None if only is None else set(only)
    line = [(turn, before) for turn, before in line if wanted is None or turn.number in wanted or before is None]
    numbers = [turn.number for turn, before in line if before is not None]
    stopped = next((turn.number for turn, before in line if before is None), None)
    if runner is None or parts <= 1 or tileset is not None:
        results = [analyse_turn(ruleset, before, turn, player_key(seats, turn.player), settings, used)
                   for turn, before in line if before is not None]
    else:
        # one turn a unit, in turn order: the early turns (more tiles left to play out) cost most and go first,
        # and the last units are short, so the workers finish together
        by_number = {t.turn: t for part in runner(record, [[n] for n in numbers], settings) for t in part}
        results = [by_number[n] for n in numbers]
    turns = tuple(results)
    balances: tuple[Balance, ...] = ()
    if only is None and stopped is None and turns and all(t.luck is not None for t in turns):
        balances = tuple(game_balance(ruleset, record, seats, turns, settings, tileset))
    return GameAnalysis(ruleset.name, turns, summarise(turns, seats, used), settings, used, stopped, balances)


def luck_seed(settings: Settings, number: int) -> int:
    """The seed of the luck's rounds before the draw of the turn numbered ``number`` (R410): a function of the
    analysis's seed and the turn alone, so that a turn and the one before it read that position alike."""
    return settings.seed * 1_000_003 + number


def game_balance(ruleset: Ruleset, record: Record, seats: list[Seat], turns: Sequence[TurnAnalysis],
                 settings: Settings, tileset: Any = None) -> list[Balance]:
    """Each player's final margin in expectation, luck, skill, edge and the rest (R336, R410): the final margins
    are the record's end read as a turn's position before its draw (the final scores of a game that is over);
    the expectation is the first turn's before its draw."""
    engine = engine_for(ruleset, record, seats, tileset)
    for turn in record.turns:
        play_record_turn(engine, seats, turn)
    keys = [s.key for s in seats]
    final = final_values(ruleset, engine, luck_seed(settings, turns[-1].turn + 1),
                         rounds_for(settings.playouts, ruleset.luck_rounds_scale),
                         settings.learned, review=settings.review)
    lucks = [t.luck for t in turns if t.luck is not None]
    return balance(keys, {k: final.get(k, 0.0) for k in keys}, lucks,
                   [(t.player, t.points_lost, t.lost_se) for t in turns])


__all__ = ["analyse", "analyse_turn", "analyse_numbers", "GameAnalysis", "TurnAnalysis", "PlayerSummary",
           "Thresholds", "Settings", "settings_for", "BY", "WIN_THRESHOLDS", "DECIDED", "EQUAL_Z", "accuracy", "replay", "confirm", "agreement", "SEVERE", "contenders_of", "CONFIRM_SHARE", "CONFIRM_CAP"]
