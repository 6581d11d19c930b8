"""A determinised game for bots: a rules engine plus one sample of what its players cannot see.

A record knows every tile drawn and every card turned; a player at the table
knows the board, the scores, the pieces, the tile in hand, the bag's contents
(not its order) and the cards revealed so far.  A :class:`World` is the
engine's public position with the hidden part fixed by a sample (the order of
the bag, the faces of the face-down cards): a bot searches many worlds, each
drawn by :meth:`grn.rules.ruleset.Ruleset.determinise` from what the player to move
knows, so that it never reads the record's future.

A world's moves are *decisions*: hashable values (for most games the tuple of
commands of a whole turn) that :meth:`World.play` applies and
:meth:`World.commands` writes.  The base class serves a game without hidden
information: its decisions are the turns :meth:`grn.rules.ruleset.Ruleset.legal_turns`
lists, the leaves of the game's tree of choices (:mod:`grn.rules.choices`).
Tile-laying games use :class:`grn.games.tiling.world.TileWorld`.  A world whose
:meth:`World.moves` lists its decisions by a faster path of its own (the bots'
hot path) lists the same as :meth:`World.tree_moves`, the tree walked with this
world's outcomes at its chance points (``tests/test_choice_tree.py``).
"""

from __future__ import annotations

import random
import sys
from typing import TYPE_CHECKING, Any, Callable, Hashable, Iterable, Sequence, cast

from grn.rules.engine import Engine
from grn.rules.evaluation import EVALUATION, Evaluation, load

if TYPE_CHECKING:
    from grn.core.record import Command
    from grn.rules.choices import Step
    from grn.rules.engine import Event

#: A decision: what a player chooses on one turn (hashable; usually a tuple of commands).
Decision = Hashable


class NoBot(Exception):
    """The game has no move generator, so no bot can play it or analyse its records."""


def margin(values: dict[str, float], player: str) -> float:
    """``player``'s points minus the mean of the opponents' (docs/analysis.md, "Margin")."""
    others = [v for p, v in values.items() if p != player]
    own = values.get(player, 0.0)
    return own - (sum(others) / len(others) if others else 0.0)


class World:
    """One sample of a game's hidden state: the engine it wraps is this world's own copy.

    ``ruleset`` is the game's :class:`grn.rules.ruleset.Ruleset` (the world asks it
    for :meth:`~grn.rules.ruleset.Ruleset.legal_turns`).
    """

    __slots__ = ("ruleset", "engine")

    #: Turns a playout plays before it is scored by :meth:`value` (a truncated playout).
    horizon: int = 8
    #: How many times the default confirmation an analysis gives a loss (R205): the race's leaders that
    #: contend again on fresh worlds (R181: two) and the cap on its rounds (R180: 16 times the first batch)
    #: are both multiplied by it.  A game whose playouts are noisy against its thresholds raises it.
    confirm_scale: int = 1
    #: Whether an analysis's confirmation keeps every contender until it is clearly behind the leader (R228),
    #: instead of the leader of its first batch alone (R181): for a game whose contenders differ by less than
    #: the first batch can tell apart, and whose thresholds are as close as that.
    confirm_eliminates: bool = False
    #: How many times its cap a confirmation may play a loss still within z standard errors of the mistake
    #: threshold (R255): that threshold decides "mistake or worse", the judgement two runs must share, and a loss
    #: near it is a coin toss at the cap.  Default 1: no further than the cap.
    confirm_edge_scale: int = 1
    #: Standard errors a loss must stand clear of the mistake threshold, and a contender behind the leader, before
    #: the confirmation settles either (R256; None: the thresholds' z).  A game whose paired differences spread
    #: wide, with long tails, against that threshold raises it, so that few losses stop early on its wrong side.
    confirm_edge_z: float | None = None
    #: Standard errors a loss must stand past the mistake and the blunder thresholds for either judgement (R275);
    #: a loss whose interval ``lost ± z·se`` still holds such a threshold after the confirmation's cap is given
    #: the judgement below it and named *near* it.  The confirmation's edge stage then measures against that
    #: decision (R276).  Default ``None``: the loss itself past the threshold, nothing named near.
    judge_clear_z: float | None = None
    #: Rounds an analysis's race plays every candidate before its first halving (R226): the default 4 suits
    #: playouts whose differences are small against the game's thresholds; a game whose single playouts spread
    #: wider than a move worth a mistake raises it, so that noise does not drop that move.
    first_halving: int = 4
    #: Whether an analysis's race keeps the world's :meth:`lead` to its end beside the move played (R226), so
    #: that it always contends again; default: the move played alone.
    race_keeps_lead: bool = False

    def __init__(self, ruleset: Any, engine: Engine) -> None:
        self.ruleset = ruleset
        self.engine = engine

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.engine!r}>"

    # -- what every game has ----------------------------------------------
    @property
    def player(self) -> str:
        """The player to move."""
        return self.engine.current_player

    @property
    def is_over(self) -> bool:
        """No decision is left: the game is over (or can no longer end)."""
        return self.engine.is_over or self.engine.is_blocked

    def copy(self) -> "World":
        """An independent copy of this world (the same sample)."""
        return type(self)(self.ruleset, self.engine.copy())

    def moves(self) -> list[Decision]:
        """Every decision the player to move may take, in a fixed order."""
        return list(self.ruleset.legal_turns(self.engine))

    def tree_moves(self) -> list[Decision]:
        """Every decision of the player to move, read from the game's tree of choices (:mod:`grn.rules.choices`):
        its leaves with this world's outcome at each chance point (:meth:`chance_words`), each as the
        decision it takes (:meth:`decision`), in the tree's order, each once.  :meth:`moves` lists the same."""
        from grn.rules.choices import leaves

        found = dict.fromkeys(self.decision(actions) for _, actions in
                              leaves(self.ruleset, self.engine, self.chance_words))
        return list(found)

    def chance_words(self, step: Step, chosen: Sequence[str]) -> list[str]:
        """The outcome this world follows at a chance point ``step`` of the tree, after the words ``chosen``
        (:meth:`tree_moves`).  Default: the face not known (``?``) where it may stay unknown, else the first
        outcome offered: a decision is what the player chooses, and where the turn goes on after a face is
        turned up (Gold's second card) the choices offered do not depend on the face (R421)."""
        words = [o.word for o in step.options]
        return ["?"] if "?" in words else words[:1]

    def decision(self, actions: Sequence[Command]) -> Decision:
        """The decision that plays the turn ``actions`` in this world (default: the ruleset's
        :meth:`~grn.rules.ruleset.Ruleset.decision_of`, without what the turn only revealed)."""
        return cast(Decision, self.ruleset.decision_of(self.engine, actions))

    def commands(self, decision: Decision) -> tuple[Command, ...]:
        """The commands of ``decision`` in this world, as a record writes them."""
        return tuple(cast("Iterable[Command]", decision))

    def recorded(self, decision: Decision) -> tuple[Command, ...]:
        """The commands of ``decision`` as the game's true table records them (default: :meth:`commands`);
        a game whose turns reveal hidden faces writes them here (the arena's table knows them)."""
        return self.commands(decision)

    def play(self, decision: Decision) -> list[Event]:
        """Play ``decision`` for the player to move; returns the engine's events."""
        return self.play_commands(self.commands(decision))

    def play_commands(self, commands: tuple[Command, ...]) -> list[Event]:
        """Play a turn's commands (as :meth:`commands` or :meth:`recorded` wrote them) for the player to move."""
        return self.engine.play_turn(self.player, commands)

    # -- evaluation ---------------------------------------------------------
    def value(self) -> dict[str, float]:
        """Each player's projected final score: the scores if the game ended now (after its final scoring)."""
        return {p: float(s) for p, s in self.engine.projected_scores().items()}

    #: The names of :meth:`features`, in order (the game's ``evaluation.json`` weighs them by name).
    feature_names: tuple[str, ...] = ()

    def phase(self) -> float:
        """The share of the game still to play, from 1 at the start to 0 at the end (default 0: unknown)."""
        return 0.0

    def features(self, player: str, upto: int | None = None) -> tuple[float, ...]:
        """What ``player``'s position holds for the future beyond :meth:`value` (:attr:`feature_names`), for
        the learned evaluation; default none.  With ``upto``, a world may stop after the first ``upto`` (what an
        evaluation reads, :attr:`grn.rules.evaluation.Evaluation.reads`: the review weighs fewer than the bot)."""
        return ()

    #: The file the review's evaluation (``evaluation.json``) is read from: a benchmark's knob (``--set
    #: MODULE.CLASS.review_evaluation=NAME``) for measuring the review with another fit (R505).
    review_evaluation = EVALUATION

    @classmethod
    def learned(cls, name: str = EVALUATION) -> Evaluation | None:
        """The learned evaluation the package of this world's module ships as ``name`` (beside the module; loaded
        once), or its ``evaluation.json`` when it ships no such file (the bot's evaluation, :data:`BOT_EVALUATION`,
        is a game's option); None when it ships neither or the file weighs features this world has not."""
        cache = cls.__dict__.get("_learned")
        if cache is None:
            cache = {}
            setattr(cls, "_learned", cache)
        other = name == EVALUATION and cls.review_evaluation != EVALUATION
        if other:
            name = cls.review_evaluation
        if name not in cache:
            # the package the world is defined in (a package's own __init__ is its package): grn's games' or a plug-in's
            module = sys.modules.get(cls.__module__)
            package = getattr(module, "__package__", None) or cls.__module__.rpartition(".")[0]
            found = None
            if package:  # a game without the file named gets its evaluation.json, unless the knob names it
                found = load(package, name) or (load(package) if name != EVALUATION and not other else None)
            if other and found is None:
                raise ValueError(f"review_evaluation: {package} ships no {name}")
            # data made for other features: weigh nothing rather than the wrong things
            cache[name] = found.for_features(cls.feature_names) if found is not None else None
        return cast("Evaluation | None", cache[name])

    def estimate(self, evaluation: str = EVALUATION) -> dict[str, float]:
        """Each player's expected final score: :meth:`value` plus the learned evaluation (the file ``evaluation``
        names, :meth:`learned`) of what the position holds for the future (R332: a follower in hand, a farm that
        grows), when the game ships one."""
        values = self.value()
        learned = self.learned(evaluation)
        if learned is None or self.is_over:
            return values
        reads = learned.reads
        return {p: v + learned.bonus(self.features(p, reads)) for p, v in values.items()}

    def outcome(self, player: str, learned: bool = True, evaluation: str = EVALUATION) -> tuple[float, float | None]:
        """``player``'s expected final margin (:meth:`estimate` by the file ``evaluation`` names, or :meth:`value`
        without ``learned``) and their chance to place first: the normal law of the margin still to come, whose
        spread by phase the game's learned evaluation gives (:meth:`grn.rules.evaluation.Evaluation.win_chance`,
        R333); None for a game that ships none (its margins alone cannot say how sure a lead is)."""
        m = margin(self.estimate(evaluation) if learned else self.value(), player)
        spread = self.learned(evaluation)
        if spread is None:
            return m, None
        return m, spread.win_chance(m, 0.0 if self.is_over else self.phase())

    def claim_playouts(self) -> None:
        """Make this world's playouts play as people claim (issue 41 item 5, R443): the bot's search asks for it,
        an analysis does not; a world passes it on to its copies.  Default: nothing (the game's playouts)."""

    def review_playouts(self) -> None:
        """Make this world's playouts the review's (R516): an analysis asks for it at every level but ``classic``
        (round one's engine), for its search, its confirmation and its luck alike; a world passes it on to its
        copies.  Default: nothing (the game's playouts)."""

    def search_playouts(self, playouts: int) -> int:
        """The playouts a bot's search of this world spends for a level's ``playouts`` (default: those): a game
        whose playouts are cheap may spend more within a level's time (R489).  Asked of a world the bot has
        made play as people do (:meth:`claim_playouts`), never by ``classic`` or an analysis."""
        return playouts

    def reserve(self, player: str) -> float:
        """Points a greedy bot credits for what ``player`` keeps for later (followers left); default none."""
        return 0.0

    def shortlist(self, rank: Callable[[Decision], float], limit: int) -> list[tuple[float, Decision]]:
        """The ``limit`` best decisions by ``rank`` (higher first), as (rank, decision).

        The default ranks every decision; a game with many decisions per turn
        ranks a cheap first cut (tile games: placements before their follow-ups).
        """
        ranked = sorted(((rank(d), i, d) for i, d in enumerate(self.moves())), key=lambda t: (-t[0], t[1]))
        return [(r, d) for r, _, d in ranked[:limit]]

    def candidates(self, width: int) -> list[Decision] | None:
        """The decisions an analysis weighs, read from the position alone (R225): the same list whatever the seed,
        the ``width`` best first, one of each set of decisions :meth:`effect` calls the same.  Default ``None``:
        the search ranks :meth:`shortlist` by the greedy bot's value over its own sampled worlds."""
        return None

    def effect(self, decision: Decision) -> Hashable:
        """What ``decision`` does, as far as the game can tell it from the position (R225): two decisions of
        one effect lead to the same outcomes in every world, so a search weighs only one of them.  Default: the
        decision itself (no two decisions are merged)."""
        return decision

    def reactions(self) -> list[Decision]:
        """Decisions taken in steps, each step chosen after seeing what the one before revealed (Gold: the
        second card after the first, R140): offered to the search beside :meth:`shortlist`, not to the greedy
        bot, which chooses a whole turn in advance.  Default: none."""
        return []

    def lead(self) -> Decision | None:
        """The decision a search must beat to play another (R201): the playout player's own choice, read from
        what the player to move knows, when the game has a playout player stronger than the greedy bot;
        default ``None`` (the greedy bot's best leads)."""
        return None

    def rollout_move(self, rng: random.Random) -> Decision:
        """A quick decision for a playout (default: :meth:`random_move`)."""
        return self.random_move(rng)

    def opponent_move(self, rng: random.Random) -> Decision:
        """A playout's decision for an opponent of the player whose move is searched: how the search models
        the other players (default: :meth:`rollout_move`, as the searching player plays)."""
        return self.rollout_move(rng)

    def random_move(self, rng: random.Random) -> Decision:
        """A legal decision at random (the ``random`` bot; default: one of :meth:`moves`)."""
        return rng.choice(self.moves())

    def play_out(self, rng: random.Random, horizon: int, searcher: str | None = None) -> None:
        """Play up to ``horizon`` turns of quick decisions (fewer when the game ends): :meth:`rollout_move`, or
        :meth:`opponent_move` for the players other than ``searcher`` (when given).  A game may play the same
        turns faster (a compiled loop of its own); the default plays them one by one through :meth:`play`."""
        for _ in range(horizon):
            if self.is_over:
                return
            if searcher is None or self.player == searcher:
                self.play(self.rollout_move(rng))
            else:
                self.play(self.opponent_move(rng))

    def hand(self) -> tuple[str, ...]:
        """What the player to move privately knows now (tile games: the tiles drawn this turn); default nothing."""
        return ()

    def draws(self) -> list[tuple[float, tuple[str, ...]]]:
        """What the chance event of this turn could have given the player to move, each with its weight: a
        ``hand`` (:meth:`hand`) for :meth:`grn.rules.ruleset.Ruleset.determinise`, for the luck of the draw
        (:mod:`grn.analysis.luck`).  Default: none (the game's luck is not measured, or it is turned inside the
        move: :meth:`turn_stages`)."""
        return []

    def turn_stages(self, actions: Sequence[Command]) -> list[tuple[Decision, tuple[tuple[Any, Any], ...], bool]]:
        """The recorded turn ``actions`` as the chain of its choices and the faces chance turned inside it, for a
        game whose chance comes after the player chose (Gold: a card is turned where the player chose, R453).

        Each stage is (a decision played from the position before the turn, the faces the world must show, as
        (place, face) pairs for :meth:`revealing`, whether the stage is chance): a chance stage's value less the
        stage's before it is luck, a choice stage's is the move.  The last stage is the turn as recorded.
        Default: none (a game whose chance, if any, comes before the choice: :meth:`draws`)."""
        return []

    def revealing(self, shown: Sequence[tuple[Any, Any]], rng: random.Random) -> "World":
        """A copy of this world whose hidden part shows ``shown`` (place, face pairs) and is otherwise this
        world's as far as it can be (the same deal but for what must change): common random numbers between a
        world and the same world once a face is known (R453).  Default: the world unchanged (nothing hidden)."""
        return self.copy()


def scaled_playouts(playouts: int, scale: int, cap: int) -> int:
    """A level's ``playouts`` times ``scale``, at most ``cap`` but never fewer than the level's: what a game's
    :meth:`World.search_playouts` spends when its playouts are cheap (R489) or a benchmark scales them (R502)."""
    return max(playouts, min(playouts * scale, cap))


def rollout(world: World, rng: random.Random, horizon: int, searcher: str | None = None) -> None:
    """Play up to ``horizon`` turns of quick decisions (fewer when the game ends); the turns of players other
    than ``searcher`` (when given) are :meth:`World.opponent_move` (:meth:`World.play_out`)."""
    world.play_out(rng, horizon, searcher)


__all__ = ["World", "Decision", "NoBot", "margin", "rollout", "scaled_playouts"]
