"""Carcassonne: Gold Rush rules on the generic board core (the Gold Rush rulebook and rules page).

:class:`GoldRushState` replays turns given as engine commands
(:mod:`grn.games.goldrush.commands`, :mod:`grn.games.tiling.commands`), refuses illegal ones with
:class:`~grn.core.errors.IllegalAction` (rule, section, hint, span) and leaves the
state unchanged when it does, scores completed features (step 3) and the
final scoring, and reports what happened as small :class:`Event` values.

Rulings where the documents are silent (each is tested):

* Merged mining-token stacks: when a tile joins mountains, their stacks are
  piled oldest mountain (earliest first tile) at the bottom, in that order,
  and the new tile's tokens go on top.
* Token supply exhausted: a tile places only the tokens left; its nugget
  symbols still score.
* Tokens that go back to the supply (completed mountain without gold miner,
  rules page, footnote 5) go to the bottom of the face-down supply.
* Scoring order within a turn: railroads, then mountains, then cities; within
  a kind by the first place (clockwise from NNW, on the board) the feature
  holds on the new tile; a city by the first such place among its railroads
  completed this turn.  RevealTokens lists the faces in that hand-out order.
* A mountain completed by this turn's tile counts as completed for step 2b
  (no tent there); mining it (2c) is allowed and happens before scoring (rules
  page, footnote 4).
* Moving one's tent to the segment it already stands on is illegal (nothing
  would change).
* Step 2 needs a tile placed this turn: a turn whose discards empty the bag
  has no step 2.
* Final scoring: every feature still holding cowboys scores with the
  incomplete-feature rules (a feature completed during a set-up turn 0 was
  never scored); tents and tokens still on mountains are removed first.
"""

from __future__ import annotations

from typing import Any, Sequence

from grn.rules.engine import Event
from grn.core.errors import IllegalAction
from grn.games.goldrush.actions import STEP_2, STEP_2_FIELDS
from grn.games.goldrush.commands import Mine, PlaceCowboy, PlaceTent, RevealTokens
from grn.games.goldrush.events import (
    FollowerReturned, ScoreEvent, TentReturned, TileDiscarded, TokenMined, TokensPlaced, TokensReturned, TokensTaken,
)
from grn.games.goldrush.moves import Moves
from grn.games.goldrush.options import Options
from grn.games.goldrush.scoring import SCORING_FIELDS
from grn.games.goldrush.terms import (  # noqa: F401  (the section names tests and callers import from here)
    MOUNTAIN, SEC_COWBOY, SEC_DIST, SEC_END, SEC_FINAL, SEC_GENERAL, SEC_MINE, SEC_MOUNTAIN, SEC_PLACING,
    SEC_PLAYING, SEC_PRAIRIES, SEC_SCORING, SEC_TENT, SEC_TOKENS, TILE_RULES,
)
from grn.games.goldrush.tokens import TOKEN_FIELDS, GoldCount
from grn.core.record import Command
from grn.rules.ruleset import COLOURS
from grn.games.tiling.commands import DiscardTile, PlaceTile
from grn.games.tiling.board import FeatureData
from grn.games.tiling.engine import TILE_FIELDS
from grn.games.tiling.tiles import TileSet, load_shipped_tileset

#: Every field of a GoldRushState (what copies take over and what pickle keeps).
_STATE_FIELDS: tuple[str, ...] = TILE_FIELDS + TOKEN_FIELDS + STEP_2_FIELDS + SCORING_FIELDS


class GoldRushState(Moves):
    """A game of Carcassonne: Gold Rush in progress.

    Build with :meth:`new`; play with :meth:`play_turn` (or :meth:`after` on a
    copy); end with :meth:`final_scoring`.  Players are colours, in clockwise
    seat order.  The engine is built in layers, one job each: the tile-laying
    core (:class:`grn.games.tiling.engine.TileEngine`), mining tokens
    (:mod:`.tokens`), step 2 (:mod:`.actions`), scoring (:mod:`.scoring`),
    set-up turns (:mod:`.setup_turn`) and move generation (:mod:`.moves`);
    this class adds the turn itself.
    """

    __slots__ = ()

    @classmethod
    def new(cls, tileset: TileSet | None, players: Sequence[str], options: Options = Options(),
            first: str | None = None) -> GoldRushState:
        """A new game: the start tile at 0,0 (with its mining tokens), the other tiles in the bag.

        ``players`` are 2-5 distinct colours of :data:`grn.rules.ruleset.COLOURS`
        in clockwise seat order; ``first`` (default ``players[0]``) begins.
        """
        if tileset is None:
            tileset = load_shipped_tileset("grn.games.goldrush")
        players = tuple(players)
        if not 2 <= len(players) <= 5:
            raise IllegalAction(f"Gold Rush is for 2 to 5 players, not {len(players)}",
                                rule="for 2 to 5 players", section=SEC_GENERAL)
        for colour in players:
            if colour not in COLOURS:
                raise IllegalAction(f"unknown colour {colour!r}", rule="players choose a colour",
                                    section=SEC_GENERAL, hint="the colours are " + ", ".join(COLOURS))
        if len(set(players)) != len(players):
            raise IllegalAction("a colour is taken twice", rule="players choose a colour", section=SEC_GENERAL)
        if first is None:
            first = players[0]
        if first not in players:
            raise IllegalAction(f"first player {first!r} is not playing", rule="the start player",
                                section=SEC_PLAYING)
        s = GoldRushState.__new__(GoldRushState)
        p, targets = s._start(tileset, players, first, TILE_RULES)
        s._start_tokens()
        n = len(players)
        s.options = options
        s.supply = [options.cowboys] * n
        s.tent = [-1] * n
        s.tent_at = {}
        s.cowboy_at = {}
        s.final_done = False
        s._put_tokens(p, targets)  # the start tile's mining tokens
        return s

    def copy(self) -> GoldRushState:
        """An independent copy (cheap: flat lists and small dicts)."""
        c = GoldRushState.__new__(GoldRushState)
        c._adopt(self)
        # then fresh copies of everything that changes during play
        c.board = self.board.copy()
        c._bag = self._bag.copy()
        c._scores = self._scores[:]
        c.supply = self.supply[:]
        c.tent = self.tent[:]
        c.tent_at = self.tent_at.copy()
        c.cowboy_at = self.cowboy_at.copy()
        c.token_supply = self.token_supply[:]
        c.stacks = {r: st[:] for r, st in self.stacks.items()}
        c.hands = [h[:] for h in self.hands]
        c.token_value = self.token_value.copy()
        c.known = self.known.copy()
        return c

    def state_fields(self) -> tuple[str, ...]:
        return _STATE_FIELDS

    def __repr__(self) -> str:
        sc = ", ".join(f"{p} {s}" for p, s in zip(self.players, self._scores))
        return (f"<GoldRushState turn {self.turn}, {self.current_player} to play, {len(self.board)} tiles, "
                f"{self.bag_left} in bag; {sc}>")

    def _repr_svg_(self) -> str:
        """The position drawn as SVG, so that a Jupyter notebook shows the board (as python-chess's Board does)."""
        # imported here: drawing (svgwrite, the renderer) loads only when a notebook asks
        from grn.rules.position import state_svg

        return state_svg(self, "goldrush")

    def fingerprint(self) -> Any:
        """A hashable summary of the whole state (tests use it to check an illegal turn changed nothing)."""
        return (self.board.state_key(), self.seat, self.turn, tuple(sorted(self._bag.items())), self.bag_left,
                tuple(self._scores), tuple(self.supply), tuple(self.board.find(t) if t >= 0 else -1 for t in self.tent),
                tuple(sorted(self.tent_at.items())), tuple(sorted(self.cowboy_at.items())), tuple(self.token_supply),
                tuple(sorted((self.board.find(r), tuple(st)) for r, st in self.stacks.items())),
                tuple(tuple(h) for h in self.hands), tuple(sorted(self.token_value.items())), self.final_done)

    def play_turn(self, player: str, actions: Sequence[Command]) -> list[Event]:
        """Play one turn of ``player``; returns what happened.

        ``actions``: any DiscardTile (only for tiles that fit nowhere), one
        PlaceTile (unless the bag runs out), at most one of PlaceCowboy /
        PlaceTent / Mine, optionally RevealTokens (faces of the tokens handed
        out by this turn's scoring, in hand-out order).  Raises
        :class:`~grn.core.errors.IllegalAction` and changes nothing when illegal.

        Kept whole: the turn's steps in the rulebook's order, every one checked before
        anything changes.
        """
        seat = self._seat_to_play(player, actions)
        # a tuple (a record's turn already holds one: tuple() hands it back): compiled indexing is then a C read
        acts = tuple(actions)
        n = len(acts)
        i = 0
        while i < n and type(acts[i]) is DiscardTile:
            i += 1
        discards: Sequence[DiscardTile] = acts[:i]  # type: ignore[assignment]  # checked by type() above
        place: PlaceTile | None = None
        if i < n and type(acts[i]) is PlaceTile:
            place = acts[i]  # type: ignore[assignment]
            i += 1
        follow: Any = None
        ft0 = type(acts[i]) if i < n else None
        if ft0 is PlaceCowboy or ft0 is PlaceTent or ft0 is Mine:  # STEP_2
            if place is None:
                raise self._order_error(acts, i, False)
            follow = acts[i]
            i += 1
        reveal: RevealTokens | None = None
        if i < n and type(acts[i]) is RevealTokens:
            reveal = acts[i]  # type: ignore[assignment]
            i += 1
        if i < n:
            raise self._order_error(acts, i, place is not None)

        board = self.board
        # no dict made for the usual turn without discards
        used = self._check_discards(discards) if discards else None
        if place is None:
            if self.bag_left - len(discards) > 0:
                span = reveal.span if reveal is not None else (discards[-1].span if discards else None)
                raise IllegalAction("the turn places no tile", rule=self.rules.draw_and_place,
                                    section=SEC_PLAYING, span=span)
            if reveal is not None and reveal.values:
                raise IllegalAction(f"no token was handed out this turn, but {len(reveal.values)} are revealed",
                                    rule="Scoring completed mountains hands out their Mining tokens",
                                    section=SEC_MOUNTAIN, span=reveal.span, hint="drop the token list")
            events: list[Event] = self._discard(player, discards)
            self._next_turn(seat)
            return events

        design = self.tileset.by_id.get(place.tile)
        if design is None:
            design = self._design(place.tile, place.span)
        if self._bag[design.id] - (used.get(design.id, 0) if used else 0) <= 0:
            raise self._bag_error(design, place.span)
        p = self._preview(place, design)
        alloc = self._alloc_tokens(design) if self._nuggets[design.id] else []

        # step 2 checks (nothing changed yet)
        cowboy_ls = -1
        tent_sid = -1
        mine_g = -1
        mine_root = -1
        if follow is not None:
            ft = type(follow)
            if ft is PlaceCowboy:
                cowboy_ls = self._check_cowboy(seat, p, follow)
            elif ft is PlaceTent:
                tent_sid = self._check_tent(seat, p, follow)
            else:
                mine_root, mine_g = self._check_mine(seat, p, follow, alloc)
        # the count of tokens handed out by step 3, for RevealTokens
        if reveal is not None:
            due = 0
            root_data: list[FeatureData] = board.root_data  # type: ignore[assignment]  # roots hold a FeatureData
            for g, segs in enumerate(p.group_segments):
                if p.group_open[g] or design.segments[segs[0]].kind != MOUNTAIN:
                    continue
                miners = any(root_data[r].followers for r in p.group_roots[g]) or (cowboy_ls >= 0 and p.group[cowboy_ls] == g)
                if miners:
                    due += self._post_stack(p, g, alloc) - (1 if mine_g == g else 0)
            if len(reveal.values) != due:
                raise IllegalAction(f"{due} mining token{'s were' if due != 1 else ' was'} handed out this turn, "
                                    f"but {len(reveal.values)} {'are' if len(reveal.values) != 1 else 'is'} revealed",
                                    rule="The player who has the most gold miners on a completed mountain first "
                                         "takes all Mining tokens that remain on the mountain",
                                    section=SEC_MOUNTAIN, span=reveal.span,
                                    hint=f"list {due} values (? for an unknown face)")
            extra: dict[int, int] = {}
            if type(follow) is Mine and follow.value is not None:
                extra[follow.value] = 1
            for v in reveal.values:
                self._check_value(v, extra, reveal.span, "a revealed token", SEC_MOUNTAIN)

        # ---- apply --------------------------------------------------------
        events = self._discard(player, discards) if discards else []
        targets = self._lay(p)
        if alloc or p.merges:
            events += self._put_tokens(p, targets, alloc)
        if cowboy_ls >= 0:
            self._put_cowboy(seat, p.base + cowboy_ls)
        elif tent_sid >= 0:
            self._move_tent(seat, tent_sid)
        elif mine_g >= 0 or mine_root >= 0:
            value = follow.value
            tid = self._mine_top(seat, self.stacks[board.find(self.tent[seat])], value)
            events.append(TokenMined(player, value, tid))
        closed = False
        for left in p.group_open:  # a loop over the ints: "0 in" boxes 0 and compares objects
            if left == 0:
                closed = True
                break
        if closed:
            self._score_completed(p, targets, events, reveal.values if reveal is not None else None)
        self._next_turn(seat)
        return events


__all__ = [
    "Options", "GoldRushState", "Event", "ScoreEvent", "TokensTaken", "TokenMined", "TokensPlaced", "TokensReturned",
    "FollowerReturned", "TentReturned", "TileDiscarded", "GoldCount",
]
