"""Gold for bots: the faces of the cards nobody has seen are what a player cannot know.

A player remembers every card turned (:meth:`GoldState.known_faces`); the
cards never seen are exchangeable: a determinisation deals the faces still
unaccounted for among their places at random.  A decision is the tuple of
places turned over.  Since unseen cards are alike to the player, the
decisions list each pair of remembered cards, each remembered card with an
unseen one and two unseen ones, an unseen card standing for any (R75).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Callable, Hashable, Sequence

from grn.core.errors import IllegalAction
from grn.games.gold.commands import Card, FlipCard
from grn.games.gold import playout
from grn.games.gold.rules import RUSH_THRESHOLD, GoldState
from grn.games.gold.selfplay import _choose, best_partner
from grn.rules.world import Decision, World, scaled_playouts

if TYPE_CHECKING:
    from grn.core.record import Command
    from grn.rules.ruleset import Ruleset

#: The playout player (R175): ``"smart"`` (:func:`smart_move`) or ``"memory"`` (self-play's player, the
#: search's playouts before R175; kept to measure the two against each other, bench/gold_players.py).
ROLLOUT = "smart"
#: How the search's playouts play the opponents of the player searching (R200): ``"greedy"`` (:func:`greedy_move`,
#: the greedy bot's choice with exact odds) or ``"smart"`` (:func:`smart_move`, as the player searching plays).
OPPONENT = "greedy"
#: The decision the search must beat (R201): ``"smart"`` (:meth:`GoldWorld.lead`, the playout player's turn) or
#: ``"greedy"`` (the greedy bot's best, before R201).
LEAD = "smart"
#: How a reactive turn picks its second card (R175): ``"worth"`` (:func:`best_second`) or ``"partner"`` (R140).
REACTION = "worth"
#: How a playout picks the unseen card it turns (R227): ``"world"`` (the first in an order of the places each
#: world draws with its deal, the same in every branch of that world: common random numbers that follow the
#: places) or ``"draw"`` (a fresh draw at each turn, before R227).  Both pick uniformly among the unseen places.
PICK = "world"
#: Where an analysis's candidates come from (R225): ``"position"`` (:meth:`GoldWorld.candidates`: every turn of
#: its own effect, ranked by its exact expected worth) or ``"greedy"`` (the greedy bot's ranking over the
#: search's own sampled deals, before R225).
CANDIDATES = "position"

#: The second place of a reactive decision: chosen once the first card's face is seen (R140).
REACT = "?"
#: The second place of the reactive decision of the bot's search (round seven, R486): chosen once the first
#: card's face is seen, by what the pair is worth now and what it leaves on the table for the opponent's reply
#: and the player's next turn (:func:`ahead_second`).
REACT_AHEAD = "?!"

# The bot's search, round seven (R486-R491): what a world whose playouts play as people do
# (:meth:`GoldWorld.claim_playouts`, every level of ``mcts`` but ``classic``) does otherwise.
#: Whether its reactive turn is :data:`REACT_AHEAD`'s (else R140's :data:`REACT`).
AHEAD = True
#: How much the opponent's best carry from the remembered cards after a turn counts against it (R486).
AHEAD_REPLY = 1.0
#: How much the player's own best carry from the remembered cards left after that reply counts for it (R486).
AHEAD_FOLLOW = 1.0
#: Whether its playouts play the player searching with :func:`ahead_second` choosing the second card (else
#: :func:`smart_move`'s :func:`best_second`).
AHEAD_ROLLOUT = False
#: How its playouts play the opponents (``"greedy"``: :func:`greedy_move`, R200; ``"smart"``: :func:`smart_move`).
AHEAD_OPPONENT = "smart"
#: Turns its playouts play (``0``: the world's :attr:`GoldWorld.horizon`, 20).
AHEAD_HORIZON = 60
#: Its lead (R201's decision the search must beat): ``"smart"`` (:func:`smart_move`'s turn, with the reactive
#: turn of :data:`AHEAD`) or ``"ahead"`` (:func:`ahead_lead`: every kind of turn weighed a turn ahead).
AHEAD_LEAD = "smart"
#: Its candidates: ``"position"`` (every turn of its own effect, by exact expected worth, as an analysis's, R225)
#: or ``"greedy"`` (the greedy bot's ranking over sampled deals, as ``classic``'s).
AHEAD_CANDIDATES = "position"
#: How many times a level's playouts its search spends (R489: Gold's playouts are cheap), at most
#: :data:`AHEAD_CAP` (the most the ``max`` level plays anyway, within the levels' 2 s a move).
AHEAD_SCALE = 8
AHEAD_CAP = 3000


class PlaceOrder(random.Random):
    """A playout's picks in a fixed order of the places (R227): :meth:`choice` gives the first of the places
    offered in that order.  Drawn at random with a world's deal, it picks as uniformly among the unseen places
    as a fresh draw would, and every branch of the world turns the same places in the same order."""

    def __init__(self, order: dict[str, int], places: list[str] | None = None) -> None:
        super().__init__(0)
        self.order = order
        #: The places in that order (given by :meth:`GoldWorld.sample`, which drew them; else sorted here).
        self.places = places if places is not None else sorted(order, key=order.__getitem__)

    def __repr__(self) -> str:
        return f"<PlaceOrder {' '.join(self.places)}>"

    def choice(self, seq: Any) -> Any:
        """The first place of ``seq`` in this order."""
        return min(seq, key=self.order.__getitem__)


class GoldWorld(World):
    """A Gold game with one deal of the unseen cards: ``truth`` maps every face-down place to its face."""

    __slots__ = ("truth", "order", "claims")

    horizon = 20
    confirm_scale = 2  # R205: Gold's playouts are noisy against its thresholds of 2.5 and 5 points
    confirm_eliminates = True  # R228: a gold 3 and a gold 4 carried out are a point apart, a mistake 2.5
    confirm_edge_scale = 4  # R255: a loss near 2.5 at the cap (±0.17) is a coin toss; 4x the rounds halves it
    confirm_edge_z: float | None = 3.0  # R256: losses "clear" of 2.5 by 2 errors early were not, at the cap
    race_keeps_lead = True  # R226: a plain carry must contend, whatever 16 worlds say of it
    first_halving = 16  # R226: the difference of two turns spreads some 5 points a world, a mistake is 2.5

    def __init__(self, ruleset: Ruleset, engine: GoldState, truth: dict[str, Card],
                 order: "PlaceOrder | None" = None) -> None:
        super().__init__(ruleset, engine)
        self.truth = truth
        #: The order in which this world's playouts turn the places (R227; None: a fresh draw each turn).
        self.order = order
        #: Whether this world's search plays as round seven's bot (R486, :meth:`claim_playouts`).
        self.claims = False

    @classmethod
    def sample(cls, ruleset: Ruleset, engine: GoldState, rng: random.Random) -> "GoldWorld":
        """Deal the faces nobody has seen among the places nobody has seen."""
        # compiled (grn/games/gold/playout.py): the same draws as shuffling with ``rng`` here
        truth, places, rank = playout.deal(engine, rng, _by_text(engine.cards), PICK == "world")
        order = None if places is None or rank is None else PlaceOrder(rank, places)
        return cls(ruleset, engine.copy(), truth, order)

    @property
    def state(self) -> GoldState:
        engine = self.engine
        assert isinstance(engine, GoldState)
        return engine

    def phase(self) -> float:
        """The share of the places still face down (R333: how much of the game is left to turn)."""
        state = self.state
        return len(state.face_down()) / max(1, len(state.positions))

    def copy(self) -> "GoldWorld":
        # the deal never changes within a world: shared, not copied
        world = GoldWorld(self.ruleset, self.state.copy(), self.truth, self.order)
        world.claims = self.claims
        return world

    def claim_playouts(self) -> None:
        """Play as round seven's bot (R486): the reactive turn chooses its second card looking a turn ahead
        (:data:`REACT_AHEAD`), and the playouts as the ``AHEAD_*`` settings say.  The bot's search asks for it at
        every level but ``classic``; an analysis does not."""
        self.claims = True

    def moves(self) -> list[Decision]:
        state = self.state
        known = state.known_faces()
        down = state.face_down()
        seen = [p for p in down if p in known]
        unseen = [p for p in down if p not in known]
        if state.flips_due == 1:
            singles: list[Decision] = [(p,) for p in seen]
            return singles + ([(unseen[0],)] if unseen else [])
        out: list[Decision] = [(a, b) for i, a in enumerate(seen) for b in seen[i + 1:]]
        if unseen:
            out += [(a, unseen[0]) for a in seen]
        if len(unseen) >= 2:
            out.append((unseen[0], unseen[1]))
        return out

    def decision(self, actions: Sequence[Command]) -> Decision:
        """The places a turn turns over, taken in advance (the faces are not known when choosing), unseen cards
        by their stand-ins (:func:`canonical` without the faces)."""
        return canonical(self.state, [a.pos for a in actions if isinstance(a, FlipCard)])

    def effect(self, decision: Decision) -> Hashable:
        """What a turn does, places and colours aside (R225): a turn of remembered cards by the position it
        leads to (the scores, the gold cards, the remembered faces left, each miner by its owner and value, not
        its colour or place); a turn with unseen cards by the remembered faces it turns and how many unseen; the
        reactive turn by itself.  Two turns of one effect have the same outcomes in every deal (places of
        unseen cards are alike, and so are two miners of one value and owner)."""
        state = self.state
        places: tuple[str, ...] = tuple(decision)  # type: ignore[arg-type]
        if len(places) == 2 and places[1] in (REACT, REACT_AHEAD):
            return ("react", places[1])
        known = state.known_faces()
        seen = [p for p in places if p in known]
        faces = sorted(_kind(state, known[p]) for p in seen)
        if len(seen) < len(places):
            return ("unseen", len(places) - len(seen), tuple(faces))
        after = state.copy()
        try:
            after.play_turn(state.current_player, [FlipCard(p, known[p]) for p in places])
        except IllegalAction:
            return decision  # not a legal turn: its own effect
        left = sorted(_kind(after, c) for c in after.known_faces().values())
        return ("seen", tuple(after.scores.items()), tuple(after.gold_cards.items()), tuple(left))

    def shortlist(self, rank: Callable[[Decision], float], limit: int) -> list[tuple[float, Decision]]:
        """With round seven's search (R487, ``AHEAD_CANDIDATES = "position"``), the turns of distinct effects
        read from the position (:meth:`candidates`), ``rank`` unused; else the greedy bot's ``limit`` best."""
        if self.claims and AHEAD_CANDIDATES == "position":
            return [(0.0, d) for d in self._distinct(limit)]
        return super().shortlist(rank, limit)

    def search_playouts(self, playouts: int) -> int:
        """A level's playouts times :data:`AHEAD_SCALE` for round seven's search (R489), else the level's."""
        return scaled_playouts(playouts, AHEAD_SCALE, AHEAD_CAP) if self.claims else playouts

    def candidates(self, width: int) -> list[Decision] | None:
        """Every turn of its own :meth:`effect` when there are at most ``width``, else the ``width`` of the
        highest exact expected worth at once (:func:`expected_worth`, over the odds of the faces nobody has
        seen; ties in the order :meth:`moves` lists them).  Read from the position alone (R225), so two searches
        with different seeds weigh the same turns."""
        if CANDIDATES != "position":
            return None
        return self._distinct(width)

    def _distinct(self, width: int) -> list[Decision]:
        """:meth:`candidates`' list: the ``width`` turns of distinct effects of highest exact expected worth."""
        firsts: dict[Hashable, Decision] = {}
        for d in self.moves():
            firsts.setdefault(self.effect(d), d)
        distinct = list(firsts.values())
        state = self.state
        worth = [expected_worth(state, d) for d in distinct]
        ranked = sorted(range(len(distinct)), key=lambda i: (-worth[i], i))
        return [distinct[i] for i in ranked[:width]]

    def reactions(self) -> list[Decision]:
        """The reactive turn: an unseen card first, the second chosen after seeing it (R140)."""
        state = self.state
        if state.flips_due != 2:
            return []
        known = state.known_faces()
        down = state.face_down()
        unseen = [p for p in down if p not in known]
        react = REACT_AHEAD if self.claims and AHEAD else REACT
        return [(unseen[0], react)] if unseen and len(down) >= 2 else []

    def commands(self, decision: Decision) -> tuple[Command, ...]:
        """The cards ``decision`` turns in this deal; the reactive turn's second card is :func:`reaction`'s for
        the first card's face here.  ``(first, REACT, place)``, the luck's reactive turn (R454), turns ``place``
        where the reaction turns a card not seen yet: the card the player turned stands for the reaction's."""
        truth = self.truth
        places: tuple[str, ...] = tuple(decision)  # type: ignore[arg-type]
        if len(places) == 2 and places[1] == REACT_AHEAD:
            return playout.flips(truth, (places[0], ahead_second(self.state, places[0], truth[places[0]])))
        if len(places) >= 2 and places[1] == REACT:
            second = reaction(self.state, places[0], truth[places[0]])
            if len(places) == 3:
                known = self.state.known_faces()
                if second not in known and places[2] not in known and places[2] != places[0]:
                    second = places[2]
            places = (places[0], second)
        return playout.flips(truth, places)

    def turn_stages(self, actions: Sequence[Command]) -> list[tuple[Decision, tuple[tuple[Any, Any], ...], bool]]:
        """A Gold turn as its choices and the faces turned (R453, R454): the first card chosen (played on with the
        quick player's second card for whatever face shows: :func:`reaction`, the player's own card standing for an
        unseen one), its face shown (chance, when it was not remembered), the second card the player chose when it
        is not the reaction's to that face, its face shown (chance, when not remembered).  In the rush, one card
        and its face."""
        flips = [a for a in actions if isinstance(a, FlipCard)]
        if not flips or len(flips) > 2:
            return []
        state = self.state
        known = state.known_faces()
        first = flips[0]
        if len(flips) == 1:
            alone: tuple[str, ...] = (first.pos,)
            stages: list[tuple[Decision, tuple[tuple[Any, Any], ...], bool]] = [(alone, (), False)]
            if first.pos not in known:
                stages.append((alone, ((first.pos, first.face),), True))
            return stages
        second = flips[1]
        react = (first.pos, REACT, second.pos)
        shown: tuple[tuple[Any, Any], ...] = () if first.pos in known else ((first.pos, first.face),)
        stages = [(react, (), False)]
        if shown:
            stages.append((react, shown, True))
        quick = reaction(state, first.pos, first.face)
        pair = (first.pos, second.pos)
        if not (quick == second.pos or (quick not in known and second.pos not in known)):
            stages.append((pair, shown, False))  # the player's second card is not the quick player's
        if second.pos not in known:
            stages.append((pair, shown + ((second.pos, second.face),), True))
        return stages

    def revealing(self, shown: Sequence[tuple[Any, Any]], rng: random.Random) -> "GoldWorld":
        """This deal with each place of ``shown`` showing its face (R453): where the deal put another face there,
        it trades places with a card of that face drawn at random among the places nobody has seen (and not
        already fixed).  A deal drawn at random and traded so is a deal drawn at random among those that show
        ``shown``, and it keeps all but two places of this one: the same world, the face known."""
        truth = dict(self.truth)
        known = self.state.known_faces()
        fixed = set(known)
        for place, face in shown:
            if place not in fixed and truth.get(place) != face:
                holders = [q for q in truth if q not in fixed and q != place and truth[q] == face]
                if holders:
                    q = rng.choice(sorted(holders))
                    truth[q], truth[place] = truth[place], truth[q]
                else:  # a face the deal cannot hold (a record that breaks the card list): shown as it is
                    truth[place] = face
            fixed.add(place)
        world = GoldWorld(self.ruleset, self.state.copy(), truth, self.order)
        world.claims = self.claims
        return world

    def lead(self) -> Decision | None:
        """:func:`smart_move`'s turn as a decision (R201): the best remembered gold carried out, else the
        reactive turn; in the rush, the best remembered gold, else an unseen card.  Reads only what the player
        to move knows; ``None`` when nothing is left unseen (the greedy bot's best leads)."""
        if ROLLOUT != "smart" or LEAD != "smart":
            return None
        state = self.state
        known = state.known_faces()
        down = state.face_down()
        unseen = [p for p in down if p not in known]
        if state.flips_due == 1:
            return _rush_lead(known, unseen)
        if self.claims and AHEAD_LEAD == "ahead":
            return ahead_lead(state)
        pair = _carry(state, known)
        if pair is not None:
            return tuple(sorted(pair, key=down.index))
        reactive = self.reactions()
        return reactive[0] if reactive else None

    def rollout_move(self, rng: random.Random) -> Decision:
        """The playout player (:func:`smart_move`, R175)."""
        if ROLLOUT == "memory":
            return tuple(_choose(self.state, self.truth, rng))
        state = self.state
        order = self.order
        if self.claims and AHEAD_ROLLOUT:
            return tuple(ahead_move(state, self.truth, rng, order))
        table = _worth_table(state, state.current_player)
        if order is None:
            return tuple(playout.smart_move(state, self.truth, rng, table))
        return tuple(playout.ordered_move(state, self.truth, rng, table, order.places, order.order))

    def play_out(self, rng: random.Random, horizon: int, searcher: str | None = None) -> None:
        """The playout: with every player played by :func:`smart_move` (an analysis's playouts), a compiled loop
        (:func:`grn.games.gold.playout.play_out`) plays the turns :meth:`rollout_move` and :meth:`play` would."""
        if self.claims:
            horizon = AHEAD_HORIZON or horizon
            if AHEAD_OPPONENT == "smart" and not AHEAD_ROLLOUT:  # everyone plays smart_move: the compiled loop
                searcher = None
        if searcher is not None or ROLLOUT != "smart" or type(self) is not GoldWorld:  # a subclass plays its own
            super().play_out(rng, horizon, searcher)
            return
        state = self.state
        tables = {p: _worth_table(state, p) for p in state.players}
        order = self.order
        playout.play_out(state, self.truth, rng, tables, horizon,
                         None if order is None else (order.places, order.order))

    def opponent_move(self, rng: random.Random) -> Decision:
        """The opponents' playout player (R200): :func:`greedy_move`, or :func:`smart_move` with
        ``OPPONENT = "smart"``."""
        if (AHEAD_OPPONENT if self.claims else OPPONENT) == "greedy":
            return tuple(greedy_move(self.state))
        return self.rollout_move(rng)

    def random_move(self, rng: random.Random) -> Decision:
        """Any face-down cards, at random."""
        state = self.state
        return tuple(rng.sample(state.face_down(), state.flips_due))


_BY_TEXT: dict[int, tuple[Any, list[Card]]] = {}


def _by_text(cards: Any) -> list[Card]:
    """The faces of the card list ``cards`` sorted by their ``repr`` (the order a world deals the unseen faces
    in before shuffling them), worked out once per card list, not for every world."""
    got = _BY_TEXT.get(id(cards))
    if got is None or got[0] is not cards:
        got = (cards, sorted(cards.counts(), key=repr))
        _BY_TEXT[id(cards)] = got
    return got[1]


def _pair_worth(owners: dict[str, str], player: str, a: Card, b: Card) -> float:
    """What turning faces ``a`` and ``b`` together is worth to ``player`` at once: gold carried out (to them, or
    to an opponent: negative), and half a point per miner of an opponent's removed (a duel, dynamite), minus
    half a point per miner of their own."""
    if a.kind == "dynamite" or b.kind == "dynamite":
        w = 0.0
        for c in (a, b):
            if c.kind == "miner":
                o = owners.get(c.colour)  # type: ignore[arg-type]
                w += 0.0 if o is None else (-MINER_WORTH if o == player else MINER_WORTH)
        return w
    if a.kind == "gold" and b.kind == "miner":
        a, b = b, a
    if a.kind == "miner" and b.kind == "gold":
        if a.value < b.value:
            return 0.0
        o = owners.get(a.colour)  # type: ignore[arg-type]
        return float(b.value) if o in (None, player) else -float(b.value)
    if a.kind == "miner" and b.kind == "miner" and a.value != b.value:
        weak = a if a.value < b.value else b
        o = owners.get(weak.colour)  # type: ignore[arg-type]
        return 0.0 if o is None else (-MINER_WORTH if o == player else MINER_WORTH)
    return 0.0


_WORTH: dict[tuple[Any, ...], dict[Card, dict[Card, float]]] = {}
#: Player -> (MINER_WORTH, owners, card set, table) of the table last given: the playouts ask every turn, and
#: the key of :data:`_WORTH` hashes the whole card set (the same objects, by identity, give the same table).
_LAST_WORTH: dict[str, tuple[float, dict[str, str], Any, dict[Card, dict[Card, float]]]] = {}


def _kind(state: GoldState, card: Card) -> tuple[str, int, str]:
    """A face as far as the rules tell faces apart: kind, value and a miner's owner ("" for nobody's)."""
    if card.kind != "miner":
        return (card.kind, card.value, "")
    return ("miner", card.value, state.owners.get(card.colour, "") or "")  # type: ignore[arg-type]


def expected_worth(state: GoldState, decision: Decision) -> float:
    """What a turn is worth at once to the player to move (:func:`_pair_worth`: gold carried out, a miner
    removed), its expectation over the faces nobody has seen, exact from their counts (R225).  In the rush a
    remembered gold is its value and an unseen card the mean gold of the unseen faces.  The reactive turn,
    whose second card depends on the first's face, counts as one unseen card and its best partner, averaged."""
    known = state.known_faces()
    places: tuple[str, ...] = tuple(decision)  # type: ignore[arg-type]
    pool = state.unseen_cards()
    n = sum(pool.values())
    if state.flips_due == 1:
        card = known.get(places[0])
        if card is not None:
            return float(card.value) if card.kind == "gold" else 0.0
        return sum(c.value * k for c, k in pool.items() if c.kind == "gold") / n if n else 0.0
    table = _worth_table(state, state.current_player)
    seen = [known[p] for p in places if p in known]
    if len(places) == 2 and places[1] == REACT:
        rest = list(known.values())
        total = 0.0
        for c, k in pool.items():  # the first card's face, then the best of a remembered card or an unseen one
            others = dict(pool)
            others[c] -= 1
            m = n - 1
            unseen_worth = sum(j * table[c][d] for d, j in others.items()) / m if m else -1e9
            total += k * max([unseen_worth] + [table[c][d] for d in rest])
        return total / n if n else 0.0
    if len(seen) == 2:
        return table[seen[0]][seen[1]]
    if len(seen) == 1:
        return sum(k * table[seen[0]][c] for c, k in pool.items()) / n if n else 0.0
    if n < 2:
        return 0.0
    total = 0.0
    for c, k in pool.items():
        row = table[c]
        total += k * (sum(j * row[d] for d, j in pool.items()) - row[c])
    return total / (n * (n - 1))


def _worth_table(state: GoldState, player: str) -> dict[Card, dict[Card, float]]:
    """:func:`_pair_worth` of every two faces of the card list for ``player`` (computed once per seating:
    the playouts ask for it every turn)."""
    last = _LAST_WORTH.get(player)
    if last is not None and last[0] == MINER_WORTH and last[1] is state.owners and last[2] is state.cards:
        return last[3]
    key = (player, MINER_WORTH, tuple(state.owners.items()), state.cards)
    table = _WORTH.get(key)
    if table is None:
        faces = list(state.cards.counts())
        table = {a: {b: _pair_worth(state.owners, player, a, b) for b in faces} for a in faces}
        _WORTH[key] = table
    _LAST_WORTH[player] = (MINER_WORTH, state.owners, state.cards, table)
    return table


def best_second(state: GoldState, first: str, face: Card, rng: random.Random | None = None) -> str:
    """The second card of a turn whose first card ``first`` showed ``face`` (R175): the remembered card, or an
    unseen one, whose pairing with ``face`` is worth most to the player at once (an unseen card by the odds of
    the faces nobody has seen, ``face`` now seen); ties go to an unseen card (the first one left, or one at
    random with ``rng``).  Reads only ``face``."""
    known = state.known_faces()
    return _second(state, first, face, known, [p for p in state.face_down() if p not in known], rng)


def _second(state: GoldState, first: str, face: Card, known: dict[str, Card], unknown: list[str],
            rng: random.Random | None) -> str:
    # ``unknown``: the places never seen, ``first`` among them unless it was remembered
    return playout.second(state, first, face, known, unknown, rng, _worth_table(state, state.current_player)[face])


#: The remembered miner of the player's own (or nobody's) and the best remembered gold it carries out.
_carry = playout.carry


def smart_move(state: GoldState, truth: dict[str, Card], rng: random.Random) -> list[str]:
    """Self-play's player, with :func:`best_second` choosing the card after an unseen first one: carry out the
    best remembered gold with a miner of one's own (or nobody's), else turn an unseen card and pair it with
    what is worth most (reading only that card's face).  Compiled: :func:`grn.games.gold.playout.smart_move`."""
    return playout.smart_move(state, truth, rng, _worth_table(state, state.current_player))


def greedy_move(state: GoldState) -> list[str]:
    """The greedy bot's turn, with the exact odds of the faces nobody has seen instead of its 8 sampled deals
    (R200): the turn whose expected immediate gold (the player's minus the mean of the opponents') is highest,
    the first in the order the bots list turns on a tie (remembered pairs, a remembered card with an unseen
    one, two unseen).  Reads only what the player to move knows.

    Kept whole: the three kinds of turn share the exact odds and the best found so far, in one
    pass."""
    player = state.current_player
    owners = state.owners
    against = -1.0 / max(1, len(state.players) - 1)
    known = state.known_faces()
    down = state.face_down()
    seen = [p for p in down if p in known]
    unseen = [p for p in down if p not in known]
    n = len(unseen)
    # over the faces nobody has seen: gold_upto[v], the gold of value <= v; miners_from[v], the miners of
    # value >= v, each counted +1 when it carries for the player (theirs or nobody's), else ``against``
    gold_upto = [0.0] * 8
    miners_from = [0.0] * 8
    for c, k in state.unseen_cards().items():
        if c.kind == "gold":
            gold_upto[c.value] += c.value * k
        elif c.kind == "miner":
            o = owners.get(c.colour)  # type: ignore[arg-type]
            miners_from[c.value] += k if o is None or o == player else against * k
    for v in range(1, 8):
        gold_upto[v] += gold_upto[v - 1]
    for v in range(6, -1, -1):
        miners_from[v] += miners_from[v + 1]

    def beside_unseen(c: Card) -> float:  # the worth of ``c`` with an unseen card, times ``n``
        if c.kind == "gold":
            return c.value * miners_from[c.value]
        if c.kind == "miner":
            o = owners.get(c.colour)  # type: ignore[arg-type]
            return (1.0 if o is None or o == player else against) * gold_upto[c.value]
        return 0.0

    if state.flips_due == 1:
        best, choice = -1e9, [down[0]]
        for p in seen:
            c = known[p]
            w = float(c.value) if c.kind == "gold" else 0.0
            if w > best:
                best, choice = w, [p]
        if n and gold_upto[7] / n > best:
            choice = [unseen[0]]
        return choice
    best, pair = -1e9, down[:2]
    if len(seen) >= 2:

        def carried(a: Card, b: Card) -> float:  # the gold two remembered cards carry out, from the player's side
            g, m = (a, b) if a.kind == "gold" else (b, a)
            if g.kind != "gold" or m.kind != "miner" or m.value < g.value:
                return 0.0
            o = owners.get(m.colour)  # type: ignore[arg-type]
            return g.value * (1.0 if o is None or o == player else against)

        best, pair = carried(known[seen[0]], known[seen[1]]), seen[:2]
        if best < 0:
            # the first two remembered cards carry a gold out for an opponent: the first pair that gives nothing
            # away (or, if every pair does, the least costly) is the remembered pair to weigh against the others
            for i, a in enumerate(seen):
                for b in seen[i + 1:]:
                    w = carried(known[a], known[b])
                    if w > best:
                        best, pair = w, [a, b]
                if best >= 0:
                    break
        miners = [p for p in seen if known[p].kind == "miner"]
        for g in seen:
            gc = known[g]
            if gc.kind != "gold":
                continue
            for m in miners:
                mc = known[m]
                if mc.value >= gc.value:
                    o = owners.get(mc.colour)  # type: ignore[arg-type]
                    w = gc.value * (1.0 if o is None or o == player else against)
                    if w > best:
                        best, pair = w, sorted((g, m), key=down.index)
    if n:
        for p in seen:
            w = beside_unseen(known[p]) / n
            if w > best:
                best, pair = w, [p, unseen[0]]
    if n >= 2:
        total = 0.0
        for c, k in state.unseen_cards().items():
            total += k * beside_unseen(c)
        if total / (n * (n - 1)) > best:
            pair = unseen[:2]
    return pair


#: What a miner is worth to its owner while it may still carry gold (the playout player's duels, R175).
MINER_WORTH = 1.5


def reaction(state: GoldState, first: str, face: Card) -> str:
    """The second place of a reactive turn once ``first`` showed ``face``: :func:`best_second` (R175; with
    ``REACTION = "partner"``, R140's rule: the remembered card that helps the player most, as self-play's player
    looks for a partner, else the first unseen card left, else any)."""
    if REACTION == "worth":
        return best_second(state, first, face)
    known = state.known_faces()
    second = best_partner(state, state.current_player, first, face, known)
    if second is not None:
        return second
    down = [p for p in state.face_down() if p != first]
    unseen = [p for p in down if p not in known]
    return (unseen or down)[0]


def _survivors(a: Card, b: Card) -> tuple[Card, ...]:
    """The cards of a turn that turned ``a`` and ``b`` that stay face down (and remembered) after it: both, the
    stronger miner of a duel, or none (dynamite, gold carried out)."""
    if a.kind == "dynamite" or b.kind == "dynamite":
        return ()
    if a.kind == "miner" and b.kind == "miner":
        if a.value == b.value:
            return (a, b)
        return (a,) if a.value > b.value else (b,)
    if a.kind == "gold" and b.kind == "gold":
        return (a, b)
    miner, gold = (a, b) if a.kind == "miner" else (b, a)
    return () if miner.value >= gold.value else (a, b)


def _best_carry(owners: dict[str, str], player: str, cards: Sequence[Card]) -> tuple[int, int, int]:
    """The best gold ``player`` can carry out from remembered ``cards`` with a miner of their own (or nobody's):
    (its value, the gold's index, the miner's index); value 0 when none."""
    best = (0, -1, -1)
    for i, m in enumerate(cards):
        if m.kind != "miner":
            continue
        owner = owners.get(m.colour)  # type: ignore[arg-type]
        if owner is not None and owner != player:
            continue
        for j, g in enumerate(cards):
            if g.kind == "gold" and m.value >= g.value > best[0]:
                best = (g.value, j, i)
    return best


def _left_worth(owners: dict[str, str], player: str, opponent: str, cards: Sequence[Card], rush: bool) -> float:
    """What the remembered ``cards`` left face down after ``player``'s turn are worth to them (R486): minus
    :data:`AHEAD_REPLY` times the gold the opponent then carries out from them, plus :data:`AHEAD_FOLLOW` times the
    gold the player carries out of what that leaves.  When the turn starts the rush (``rush``), remembered gold
    is anyone's: the opponent takes the best, the player the next."""
    if rush:
        golds = sorted((c.value for c in cards if c.kind == "gold"), reverse=True) + [0, 0]
        return -AHEAD_REPLY * golds[0] + AHEAD_FOLLOW * golds[1]
    value, g, m = _best_carry(owners, opponent, cards)
    if value:
        cards = [c for k, c in enumerate(cards) if k != g and k != m]
    mine = _best_carry(owners, player, cards)[0]
    return -AHEAD_REPLY * value + AHEAD_FOLLOW * mine


def ahead_second(state: GoldState, first: str, face: Card, order: dict[str, int] | None = None) -> str:
    """The second card of round seven's reactive turn (R486), once ``first`` showed ``face``: the remembered card,
    or an unseen one, whose pairing with ``face`` is worth most now (:func:`_pair_worth`, as :func:`best_second`)
    plus what the turn leaves remembered on the table (:func:`_left_worth`: the opponent's best carry from it
    next turn counts against it, the player's own after that for it); an unseen card by the odds of the faces
    nobody has seen (``face`` now seen).  Ties go to an unseen card (the first left, or the first in ``order``).
    Reads only what the player knows and ``face``."""
    player = state.current_player
    players = state.players
    opponent = players[(players.index(player) + 1) % len(players)]
    owners = state.owners
    known = state.known_faces()
    down = state.face_down()
    row = _worth_table(state, player)[face]
    rest = [(p, c) for p, c in known.items() if p != first]
    others = [p for p in down if p not in known and p != first]
    best = -1e9
    chosen: str | None = None
    if others:
        pool = state.unseen_cards()
        if first not in known:
            pool[face] = pool.get(face, 0) - 1
        n = len(others)
        cards = [c for _, c in rest]
        total = 0.0
        for c, k in pool.items():
            if k <= 0:
                continue
            after = _survivors(face, c)
            gone = 2 - len(after)
            total += k * (row[c] + _left_worth(owners, player, opponent, cards + list(after),
                                               len(down) - gone <= RUSH_THRESHOLD))
        best = total / n
        chosen = playout.first_in(others, order) if order is not None else others[0]
    for i, (p, c) in enumerate(rest):
        after = _survivors(face, c)
        cards = [d for j, (_, d) in enumerate(rest) if j != i] + list(after)
        w = row[c] + _left_worth(owners, player, opponent, cards, len(down) - (2 - len(after)) <= RUSH_THRESHOLD)
        if w > best:
            best, chosen = w, p
    if chosen is None:  # nothing else face down but ``first``: cannot happen on a turn of two cards
        chosen = next(p for p in down if p != first)
    return chosen


def _ahead_pair(owners: dict[str, str], player: str, opponent: str, row: dict[Card, float], face: Card,
                rest: list[Card], partner: Card, down: int) -> float:
    """A turn that turns ``face`` and ``partner`` (``rest``: the other remembered cards) weighed a turn ahead:
    what the pair is worth at once plus :func:`_left_worth` of what stays remembered."""
    after = _survivors(face, partner)
    return row[partner] + _left_worth(owners, player, opponent, rest + list(after),
                                      down - (2 - len(after)) <= RUSH_THRESHOLD)


def _rush_lead(known: dict[str, Card], unseen: list[str]) -> Decision | None:
    """In the rush (one card a turn): the best remembered gold, else an unseen card; None when none is left."""
    gold = playout.best_known_gold(known)
    if gold is not None:
        return (gold,)
    return (unseen[0],) if unseen else None


def ahead_lead(state: GoldState) -> Decision | None:
    """Round seven's lead (R486, with ``AHEAD_LEAD = "ahead"``): the turn worth most a turn ahead, every kind
    weighed alike by what it is worth at once plus what it leaves remembered (:func:`_left_worth`), exactly over
    the odds of the faces nobody has seen: two remembered cards (carrying out, a duel, or turning back what both
    players know: nothing new shown), a remembered card and an unseen one, and the reactive turn
    (:data:`REACT_AHEAD`: an unseen card, then the best second for its face).  In the rush the best remembered
    gold, else an unseen card.  Reads only what the player to move knows."""
    known = state.known_faces()
    down = state.face_down()
    unseen = [p for p in down if p not in known]
    if state.flips_due == 1:
        return _rush_lead(known, unseen)
    player = state.current_player
    players = state.players
    opponent = players[(players.index(player) + 1) % len(players)]
    owners = state.owners
    table = _worth_table(state, player)
    n_down = len(down)
    places = list(known)
    cards = [known[p] for p in places]
    best = -1e9
    choice: Decision | None = None
    for i in range(len(places)):
        for j in range(i + 1, len(places)):
            rest = [c for k, c in enumerate(cards) if k != i and k != j]
            w = _ahead_pair(owners, player, opponent, table[cards[i]], cards[i], rest, cards[j], n_down)
            if w > best:
                best, choice = w, tuple(sorted((places[i], places[j]), key=down.index))
    if not unseen:
        return choice
    pool = state.unseen_cards()
    n = sum(pool.values())
    for i in range(len(places)):
        rest = [c for k, c in enumerate(cards) if k != i]
        row = table[cards[i]]
        w = sum(k * _ahead_pair(owners, player, opponent, row, cards[i], rest, c, n_down)
                for c, k in pool.items()) / n
        if w > best:
            best, choice = w, (places[i], unseen[0])
    if len(unseen) >= 2:
        total = 0.0
        for f, k in pool.items():  # the first card's face, then the best second for it
            row = table[f]
            others = dict(pool)
            others[f] -= 1
            m = n - 1
            second = sum(j * _ahead_pair(owners, player, opponent, row, f, cards, c, n_down)
                         for c, j in others.items() if j > 0) / m
            for i in range(len(cards)):
                rest = [c for q, c in enumerate(cards) if q != i]
                second = max(second, _ahead_pair(owners, player, opponent, row, f, rest, cards[i], n_down))
            total += k * second
        if total / n >= best:  # on a tie the reactive turn, which may choose on what it sees
            best, choice = total / n, (unseen[0], REACT_AHEAD)
    return choice


def ahead_move(state: GoldState, truth: dict[str, Card], rng: random.Random,
               order: "PlaceOrder | None" = None) -> list[str]:
    """Round seven's playout player for the player searching (R486, with ``AHEAD_ROLLOUT``): :func:`smart_move`'s
    turn with :func:`ahead_second` choosing the card after an unseen first one."""
    rank = None if order is None else order.order
    if state.flips_due == 1:
        return playout.choose(state, truth, rng, rank)
    known = state.known_faces()
    pair = _carry(state, known)
    if pair is not None:
        return pair
    unknown = [p for p in state.face_down() if p not in known]
    if not unknown:
        return playout.choose(state, truth, rng, rank)
    first = playout.pick(unknown, rng, rank)
    return [first, ahead_second(state, first, truth[first], rank)]


def canonical(engine: GoldState, positions: Sequence[str], faces: Sequence[Card | None] = ()) -> tuple[str, ...]:
    """A turn's places as the decision the bots list: remembered cards first, unseen ones by their stand-ins.

    With the faces the turn showed (``faces``), a turn that turned an unseen card first and then the card
    :func:`reaction` picks for that face is the reactive decision (R140).
    """
    known = engine.known_faces()
    down = engine.face_down()
    unseen = [p for p in down if p not in known]
    if (len(positions) == 2 and len(faces) == 2 and engine.flips_due == 2 and positions[0] in unseen
            and faces[0] is not None and positions[1] != positions[0]):
        second = reaction(engine, positions[0], faces[0])
        if positions[1] == second or (second in unseen and positions[1] in unseen):
            return (unseen[0], REACT)
    order = {p: i for i, p in enumerate(down)}
    seen_part = sorted((p for p in positions if p in known), key=lambda p: order.get(p, 0))
    n_unseen = sum(1 for p in positions if p not in known)
    if n_unseen > len(unseen):  # not a legal turn: keep it as written, the engine will refuse it
        return tuple(positions)
    return tuple(seen_part) + tuple(unseen[:n_unseen])


def words(engine: GoldState, decision: Sequence[str]) -> str:
    """``turn over c3 (red miner 2) and a card not seen yet``."""
    known = engine.known_faces()
    if len(decision) == 2 and decision[1] == REACT:
        return ("turn over a card not seen yet, then the remembered card that pairs with it best "
                "(another card not seen yet if that is worth more)")
    if len(decision) == 2 and decision[1] == REACT_AHEAD:
        return ("turn over a card not seen yet, then the card that pairs with it best, counting what the "
                "opponent could carry out next turn of what stays on the table")
    parts = []
    for p in decision:
        card = known.get(p)
        if card is None:
            parts.append("a card not seen yet")
        else:
            what = {"gold": f"gold {card.value}", "dynamite": "dynamite"}.get(card.kind,
                                                                                f"{card.colour} miner {card.value}")
            parts.append(f"{p} ({what})")
    return "turn over " + " and ".join(parts)


__all__ = ["GoldWorld", "REACT", "REACT_AHEAD", "ahead_second", "ahead_move", "greedy_move", "smart_move", "best_second", "reaction", "canonical", "words"]
