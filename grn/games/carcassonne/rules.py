"""Carcassonne (base game) with The Gold Mines, on the tiling core's :class:`~grn.tiling.engine.TileEngine`.

:class:`CarcassonneState` replays turns given as engine commands
(:mod:`grn.games.carcassonne.commands`, :mod:`grn.tiling.commands`): a turn is
any discards of tiles that fit nowhere, one tile, with a Gold Mines tile the
second ingot (``ingot@x,y``), at most one follower (``+N``), and optionally
the tiles the turn's gold is taken from (``take@x,y``).  Everything is checked
before anything changes, so an illegal turn raises
:class:`~grn.errors.IllegalAction` (rule, section, hint, span) and leaves the
game as it was.  Rulings where the rules are silent are in docs/rulings.md.
"""

from __future__ import annotations

from typing import Any, Sequence, cast

from grn.engine import Event
from grn.errors import IllegalAction
from grn.games.carcassonne.commands import PlaceFollower, PlaceIngot, TakeIngot
from grn.games.carcassonne.events import (
    FollowersReturned, IngotsPlaced, IngotsRemoved, IngotTaken, ScoreEvent, TileDiscarded,
)
from grn.games.carcassonne.options import Options
from grn.games.carcassonne.terms import (
    CITY, CLOISTER, FIELD, FOLLOWERS, INGOT_MARK, PENNANTS, Q_FARMERS_OFF, Q_FOLLOWER_FREE,
    Q_FOLLOWER_NEW, Q_FOLLOWER_SUPPLY, Q_ORDER_BASE, Q_PLACE, Q_SEQUENCE, Q_SETUP, Q_SHARE, Q_STACK, Q_TWO,
    ROAD, ROLE, SEC_FARMERS, SEC_FOLLOWER, SEC_GENERAL, SEC_GOLD_PLACE, SEC_GOLD_SETUP,
    SEC_GOLD_TAKE, SEC_PLAYING, TILE_RULES, counted, ingot_value,
)
from grn.record import Command
from grn.ruleset import COLOURS
from grn.tiling.board import FeatureData, PlacedTile, Placement
from grn.tiling.commands import DiscardTile, PlaceTile
from grn.tiling.engine import TILE_FIELDS, TileEngine
from grn.tiling.tiles import TileDesign, TileSet, load_shipped_tileset

#: The fields Carcassonne adds to a tile-laying engine.
OWN_FIELDS: tuple[str, ...] = ("options", "supply", "follower_at", "ingots", "held", "final_done")
_STATE_FIELDS: tuple[str, ...] = TILE_FIELDS + OWN_FIELDS
#: The eight squares around a tile, clockwise from the north-west.
AROUND: tuple[tuple[int, int], ...] = ((-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0))
_KIND_ORDER = {ROAD: 0, CITY: 1, CLOISTER: 2}
_WORDS = {1: "one", 2: "two", 3: "three"}


def _pennants(count: int) -> str:
    if not count:
        return ""
    return f" with {_WORDS.get(count, str(count))} pennant{'s' if count != 1 else ''}"


def _seated(followers: Any) -> list[tuple[int, int]]:
    """The board's followers as (seat, segment id): this engine's owners are seats."""
    return cast("list[tuple[int, int]]", followers or [])


class Completion:
    """A feature the turn completes (worked out before anything changes): what scores and what gold it claims."""

    __slots__ = ("kind", "tiles", "followers", "pennants", "group", "sid", "winners")

    def __init__(self, kind: str, tiles: set[tuple[int, int]], followers: list[tuple[int, int]], pennants: int,
                 group: int, sid: int, winners: list[int]) -> None:
        self.kind = kind
        self.tiles = tiles
        self.followers = followers
        self.pennants = pennants
        #: the new tile's segment group (roads, cities) or -1
        self.group = group
        #: the cloister's segment id or -1
        self.sid = sid
        self.winners = winners


class CarcassonneState(TileEngine):
    """A game of Carcassonne in progress (with The Gold Mines when its option is on).

    Build with :meth:`new`; play with :meth:`play_turn`; end with
    :meth:`final_scoring`.  Players are colours in clockwise seat order.
    """

    __slots__ = OWN_FIELDS

    options: Options
    #: Per seat, followers in the supply.
    supply: list[int]
    #: Segment id -> the seat whose follower stands there.
    follower_at: dict[int, int]
    #: Tile position -> gold ingots on it.
    ingots: dict[tuple[int, int], int]
    #: Per seat, gold ingots taken.
    held: list[int]
    final_done: bool

    @classmethod
    def new(cls, tileset: TileSet | None, players: Sequence[str], options: Options = Options(),
            first: str | None = None) -> CarcassonneState:
        """A new game: the start tile D at 0,0, the other tiles in the bag (the Gold Mines tiles with ``goldmines``)."""
        if tileset is None:
            tileset = load_shipped_tileset("grn.games.carcassonne")
        players = tuple(players)
        if not 2 <= len(players) <= 5:
            raise IllegalAction(f"Carcassonne is for 2 to 5 players, not {len(players)}",
                                rule="for 2 to 5 players", section=SEC_GENERAL)
        for colour in players:
            if colour not in COLOURS:
                raise IllegalAction(f"unknown colour {colour!r}", rule="each player takes the followers of a colour",
                                    section=SEC_GENERAL, hint="the colours are " + ", ".join(COLOURS))
        if len(set(players)) != len(players):
            raise IllegalAction("a colour is taken twice", rule="each player takes the followers of a colour",
                                section=SEC_GENERAL)
        if first is None:
            first = players[0]
        if first not in players:
            raise IllegalAction(f"first player {first!r} is not playing", rule="the start player",
                                section=SEC_PLAYING)
        s = CarcassonneState.__new__(CarcassonneState)
        s._start(tileset, players, first, TILE_RULES)
        if not options.goldmines:
            for t in tileset.tiles:
                if INGOT_MARK in t.marks:
                    s.bag_left -= s._bag[t.id]
                    s._bag[t.id] = 0
        s.options = options
        s.supply = [FOLLOWERS] * len(players)
        s.follower_at = {}
        s.ingots = {}
        s.held = [0] * len(players)
        s.final_done = False
        return s

    def copy(self) -> CarcassonneState:
        """An independent copy."""
        c = CarcassonneState.__new__(CarcassonneState)
        c._adopt(self)
        c.board = self.board.copy()
        c._bag = self._bag.copy()
        c._scores = self._scores[:]
        c.supply = self.supply[:]
        c.follower_at = self.follower_at.copy()
        c.ingots = self.ingots.copy()
        c.held = self.held[:]
        return c

    def _adopt(self, other: TileEngine) -> None:
        for name in _STATE_FIELDS:
            setattr(self, name, getattr(other, name))

    def __reduce__(self) -> tuple[Any, ...]:
        return (_restore_state, (tuple(getattr(self, name) for name in _STATE_FIELDS),))

    def __repr__(self) -> str:
        sc = ", ".join(f"{p} {s}" for p, s in zip(self.players, self._scores))
        return (f"<CarcassonneState turn {self.turn}, {self.current_player} to play, {len(self.board)} tiles, "
                f"{self.bag_left} in bag; {sc}>")

    def fingerprint(self) -> Any:
        """A hashable summary of the whole state (tests check that an illegal turn changes nothing)."""
        return (self.board.state_key(), self.seat, self.turn, tuple(sorted(self._bag.items())), self.bag_left,
                tuple(self._scores), tuple(self.supply), tuple(sorted(self.follower_at.items())),
                tuple(sorted(self.ingots.items())), tuple(self.held), self.final_done)

    # ------------------------------------------------------------------
    # read-only views
    # ------------------------------------------------------------------
    @property
    def followers_in_supply(self) -> dict[str, int]:
        """Followers in each player's supply."""
        return dict(zip(self.players, self.supply))

    @property
    def gold(self) -> dict[str, int]:
        """Gold ingots each player has taken ("The players' gold ingots are never hidden")."""
        return dict(zip(self.players, self.held))

    def followers_on(self, x: int, y: int, location: str) -> list[str]:
        """Colours of the followers on the feature at ``location`` of the tile at ``(x, y)``."""
        t = self.board.tiles[(x, y)]
        sid = self._segment_of(t.design, t.orientation, t.base, location)
        return [self.players[s] for s, _ in _seated(self.board.followers(sid))]

    def placed_followers(self) -> list[tuple[str, int, int, int, str]]:
        """Every follower on the board: (colour, x, y, local segment, kind)."""
        out = []
        for sid, seat in sorted(self.follower_at.items()):
            x, y = self.board.segment_tile[sid]
            t = self.board.tiles[(x, y)]
            out.append((self.players[seat], x, y, sid - t.base, self.board.kind[sid]))
        return out

    # ------------------------------------------------------------------
    # a turn
    # ------------------------------------------------------------------
    def play_turn(self, player: str, actions: Sequence[Command]) -> list[Event]:
        """Play one turn of ``player``; returns what happened.  Raises IllegalAction and changes nothing when illegal."""
        seat = self._seat_to_play(player, actions)
        n = len(actions)
        i = 0
        while i < n and type(actions[i]) is DiscardTile:
            i += 1
        discards: list[DiscardTile] = [a for a in actions[:i] if isinstance(a, DiscardTile)]
        place: PlaceTile | None = None
        a0 = actions[i] if i < n else None
        if isinstance(a0, PlaceTile):
            place = a0
            i += 1
        ingot: PlaceIngot | None = None
        a1 = actions[i] if i < n else None
        if isinstance(a1, PlaceIngot):
            ingot = a1
            i += 1
        follow: PlaceFollower | None = None
        a2 = actions[i] if i < n else None
        if isinstance(a2, PlaceFollower):
            follow = a2
            i += 1
        takes: list[TakeIngot] = []
        while i < n:
            a = actions[i]
            if not isinstance(a, TakeIngot):
                break
            takes.append(a)
            i += 1
        if i < n or (place is None and (ingot is not None or follow is not None or takes)):
            bad = actions[i] if i < n else (ingot or follow or takes[0])
            raise IllegalAction(f"{self._word(bad)} is out of order", rule=Q_SEQUENCE if self.options.goldmines
                                else Q_ORDER_BASE, section=SEC_PLAYING, span=getattr(bad, "span", None),
                                hint="write a turn as: discards, the tile, the second ingot, the follower, "
                                     "then the tiles gold is taken from")

        used = self._check_discards(discards) if discards else {}
        events: list[Event] = []
        if place is None:
            if self.bag_left - len(discards) > 0:
                span = discards[-1].span if discards else None
                left = self.bag_left - len(discards)
                raise IllegalAction("the turn places no tile", rule=self.rules.draw_and_place,
                                    section=SEC_PLAYING, span=span,
                                    hint=f"{counted(left, 'tile')} {'is' if left == 1 else 'are'} left in the bag: "
                                         "write the tile drawn and where it goes, such as K@1,0:90")
            for d in discards:
                self._take_from_bag(d.tile)
                events.append(TileDiscarded(player, d.tile))
            self._next_turn(seat)
            return events

        design = self._design(place.tile, place.span)
        gold = INGOT_MARK in design.marks
        if gold and not self.options.goldmines:
            raise IllegalAction(f"tile {design.id} is a Gold Mines tile, and this game is played without "
                                "The Gold Mines", rule=Q_SETUP, section=SEC_GOLD_SETUP, span=place.span,
                                hint='add the option: [Options "goldmines"]')
        if self._bag[design.id] - used.get(design.id, 0) <= 0:
            raise self._bag_error(design, place.span)
        p = self._preview(place, design)
        pos = (p.x, p.y)
        second = (0, 0)
        if gold:
            if ingot is None:
                raise IllegalAction(f"tile {design.id} has a gold ingot: set the second ingot on a tile next to it",
                                    rule=Q_PLACE + " " + Q_TWO, section=SEC_GOLD_PLACE, span=place.span,
                                    hint="add one of: " + " ".join(f"ingot@{x},{y}" for x, y in self._ingot_spots(pos)))
            second = self._check_ingot(pos, ingot)
        elif ingot is not None:
            raise IllegalAction(f"tile {design.id} has no gold ingot, so no ingot is set",
                                rule=Q_PLACE, section=SEC_GOLD_PLACE, span=ingot.span,
                                hint="ingots are set only after placing a tile with a gold ingot")
        local = self._check_follower(seat, p, follow) if follow is not None else -1
        done = self._completions(p, seat, local)
        picks: list[tuple[int, tuple[int, int]]] = []
        if takes or (done and (gold or self.ingots)):
            pile = self.ingots.copy()
            if gold:
                pile[pos] = pile.get(pos, 0) + 1
                pile[second] = pile.get(second, 0) + 1
            picks = self._distribute(done, pile, takes)

        # ---- apply --------------------------------------------------------
        for d in discards:
            self._take_from_bag(d.tile)
            events.append(TileDiscarded(player, d.tile))
        targets = self._lay(p)
        if gold:
            self.ingots[pos] = self.ingots.get(pos, 0) + 1
            self.ingots[second] = self.ingots.get(second, 0) + 1
            events.append(IngotsPlaced((pos, second)))
        if local >= 0:
            self._put_follower(seat, p.base + local)
        for c in done:
            self._score(c, targets, events)
        for s, q in picks:
            left = self.ingots[q] - 1
            if left:
                self.ingots[q] = left
            else:
                del self.ingots[q]
            self.held[s] += 1
            events.append(IngotTaken(self.players[s], q[0], q[1]))
        self._next_turn(seat)
        return events

    def _word(self, action: Any) -> str:
        names = {PlaceTile: "the tile", DiscardTile: "a discard", PlaceIngot: "the ingot",
                 PlaceFollower: "the follower", TakeIngot: "an ingot taken"}
        return names.get(type(action), repr(action))

    # ------------------------------------------------------------------
    # followers
    # ------------------------------------------------------------------
    def _put_follower(self, seat: int, sid: int) -> None:
        self.board.add_follower(sid, seat)
        self.follower_at[sid] = seat
        self.supply[seat] -= 1

    def _locations(self, design: TileDesign, o: Any) -> str:
        return ", ".join(f"+{self._location_name(o, i)} ({k})" for i, k in enumerate(design.kinds)
                         if k != FIELD or self.options.farmers)

    def _check_follower(self, seat: int, p: Placement, cmd: PlaceFollower) -> int:
        """The local segment a follower goes on, checked (supply, a feature of the new tile, unoccupied)."""
        design = p.design
        if self.supply[seat] <= 0:
            raise IllegalAction(f"{self.players[seat]} has no follower left in the supply", rule=Q_FOLLOWER_SUPPLY,
                                section=SEC_FOLLOWER, span=cmd.span,
                                hint=f"each player has {FOLLOWERS}; they come back when their feature is scored")
        local = self._segment_of(design, p.orientation, 0, cmd.location)
        if local < 0:
            raise IllegalAction(f"{cmd.location} names no feature of tile {design.id}", rule=Q_FOLLOWER_NEW,
                                section=SEC_FOLLOWER, span=cmd.span,
                                hint="the features of the new tile: " + self._locations(design, p.orientation))
        kind = design.kinds[local]
        if kind == FIELD and not self.options.farmers:
            raise IllegalAction("this game is played without farmers", rule=Q_FARMERS_OFF, section=SEC_FARMERS,
                                span=cmd.span, hint="the features of the new tile: " +
                                self._locations(design, p.orientation))
        g = p.group[local]
        root_data = self.board.root_data
        for r in p.group_roots[g]:
            f = root_data[r]
            if f is not None and f.followers:
                owners = ", ".join(sorted({self.players[s] for s, _ in _seated(f.followers)}))
                free = [i for i, k in enumerate(design.kinds)
                        if (k != FIELD or self.options.farmers) and not self._occupied(p, i)]
                hint = ("free features of the new tile: " + ", ".join(
                    f"+{self._location_name(p.orientation, i)} ({design.kinds[i]})" for i in free)) if free \
                    else "every feature of the new tile is occupied: place no follower"
                raise IllegalAction(f"the {kind} at {cmd.location} is already occupied ({owners}: "
                                    f"{ROLE[kind]})", rule=Q_FOLLOWER_FREE, section=SEC_FOLLOWER, span=cmd.span,
                                    hint=hint)
        return local

    def _occupied(self, p: Placement, local: int) -> bool:
        root_data = self.board.root_data
        for r in p.group_roots[p.group[local]]:
            f = root_data[r]
            if f is not None and f.followers:
                return True
        return False

    def follower_options(self, placement: PlaceTile) -> list[PlaceFollower]:
        """Every legal follower after ``placement`` by the current player (one per feature of the tile)."""
        design = self._design(placement.tile, placement.span)
        p = self._preview(placement, design)
        if self.supply[self.seat] <= 0:
            return []
        return [PlaceFollower(self._location_name(p.orientation, i)) for i, k in enumerate(design.kinds)
                if (k != FIELD or self.options.farmers) and not self._occupied(p, i)]

    # ------------------------------------------------------------------
    # gold ingots
    # ------------------------------------------------------------------
    def _ingot_spots(self, pos: tuple[int, int]) -> list[tuple[int, int]]:
        tiles = self.board.tiles
        x, y = pos
        return [(x + dx, y + dy) for dx, dy in AROUND if (x + dx, y + dy) in tiles]

    def ingot_options(self, placement: PlaceTile) -> list[PlaceIngot]:
        """Where the second ingot may go after ``placement`` (empty when the tile has no ingot)."""
        design = self._design(placement.tile, placement.span)
        if INGOT_MARK not in design.marks:
            return []
        return [PlaceIngot(x, y) for x, y in self._ingot_spots((placement.x, placement.y))]

    def _check_ingot(self, pos: tuple[int, int], cmd: PlaceIngot) -> tuple[int, int]:
        q = (cmd.x, cmd.y)
        spots = self._ingot_spots(pos)
        hint = "the tiles next to it: " + " ".join(f"ingot@{x},{y}" for x, y in spots)
        if q == pos:
            raise IllegalAction("the second ingot goes on a tile next to the new one, not on the new tile",
                                rule=Q_PLACE, section=SEC_GOLD_PLACE, span=cmd.span, hint=hint)
        if q not in spots:
            what = "no tile" if q not in self.board.tiles else "a tile that is not next to the new one"
            raise IllegalAction(f"{q[0]},{q[1]} is {what}", rule=Q_PLACE + " " + Q_STACK,
                                section=SEC_GOLD_PLACE, span=cmd.span, hint=hint)
        return q

    def _distribute(self, done: list[Completion], pile: dict[tuple[int, int], int],
                    takes: Sequence[TakeIngot]) -> list[tuple[int, tuple[int, int]]]:
        """Who takes which ingot this turn, one at a time from the active player on (rulings 13-15)."""
        claims: dict[tuple[int, int], set[int]] = {}
        for c in done:
            if not c.winners:
                continue
            for q in c.tiles:
                if pile.get(q, 0) > 0:
                    claims.setdefault(q, set()).update(c.winners)
        picks: list[tuple[int, tuple[int, int]]] = []
        left = {q: pile[q] for q in claims}
        order = self._clockwise(self.seat)
        k = 0
        while any(left.values()):
            for s in order:
                mine = [q for q in left if left[q] and s in claims[q]]
                if not mine:
                    continue
                if k < len(takes):
                    t = takes[k]
                    q = (t.x, t.y)
                    if q not in mine:
                        raise IllegalAction(
                            f"{self.players[s]} takes the next ingot, and may not take it from {q[0]},{q[1]}",
                            rule=Q_SHARE, section=SEC_GOLD_TAKE, span=t.span,
                            hint=f"{self.players[s]} may take from: " +
                                 " ".join(f"take@{x},{y}" for x, y in self._by_default(mine, claims)))
                else:
                    q = self._by_default(mine, claims)[0]
                k += 1
                left[q] -= 1
                picks.append((s, q))
        if len(takes) > k:
            t = takes[k]
            raise IllegalAction(f"only {counted(k, 'ingot')} {'is' if k == 1 else 'are'} handed out this turn, "
                                f"but {len(takes)} are taken", rule=Q_SHARE, section=SEC_GOLD_TAKE, span=t.span,
                                hint="drop the extra take@ words" if k else
                                "no completed feature with followers holds gold this turn")
        return picks

    @staticmethod
    def _by_default(mine: list[tuple[int, int]], claims: dict[tuple[int, int], set[int]]) -> list[tuple[int, int]]:
        """The default choice (ruling 14): the tile most players claim, then north to south, then west to east."""
        return sorted(mine, key=lambda q: (-len(claims[q]), -q[1], q[0]))

    # ------------------------------------------------------------------
    # scoring
    # ------------------------------------------------------------------
    def _completions(self, p: Placement, seat: int, local: int) -> list[Completion]:
        """The roads, cities and cloisters this placement completes, worked out on the unchanged board."""
        board = self.board
        root_data = board.root_data
        design = p.design
        pos = (p.x, p.y)
        out: list[Completion] = []
        for g, segs in enumerate(p.group_segments):
            kind = design.kinds[segs[0]]
            if p.group_open[g] or (kind != ROAD and kind != CITY):
                continue
            tiles = {pos}
            followers: list[tuple[int, int]] = []
            pennants = 0
            for r in p.group_roots[g]:
                f = root_data[r]
                assert f is not None
                tiles |= f.tiles
                if f.followers:
                    followers += _seated(f.followers)
                if f.symbols:
                    pennants += f.symbols.get(PENNANTS, 0)
            for ls in segs:
                pennants += design.segments[ls].count(PENNANTS)
            if local >= 0 and p.group[local] == g:
                followers.append((seat, p.base + local))
            out.append(Completion(kind, tiles, followers, pennants, g, -1, self._majority(followers)))
        out.sort(key=lambda c: _KIND_ORDER[c.kind])
        tiles_now = board.tiles
        # the new tile's cloister, then the cloisters around it, clockwise from the north-west
        for ls, kind in enumerate(design.kinds):
            if kind == CLOISTER and all((p.x + dx, p.y + dy) in tiles_now for dx, dy in AROUND):
                followers = [(seat, p.base + ls)] if ls == local else []
                area = {pos} | {(p.x + dx, p.y + dy) for dx, dy in AROUND}
                out.append(Completion(CLOISTER, area, followers, 0, -1, p.base + ls, self._majority(followers)))
        for dx, dy in AROUND:
            t = tiles_now.get((p.x + dx, p.y + dy))
            if t is None or CLOISTER not in t.design.kinds:
                continue
            if all((t.x + ex, t.y + ey) in tiles_now or (t.x + ex, t.y + ey) == pos for ex, ey in AROUND):
                for ls, kind in enumerate(t.design.kinds):
                    if kind == CLOISTER:
                        sid = t.base + ls
                        followers = _seated(board.followers(sid))
                        area = {(t.x, t.y)} | {(t.x + ex, t.y + ey) for ex, ey in AROUND}
                        out.append(Completion(CLOISTER, area, followers, 0, -1, sid, self._majority(followers)))
        return out

    def _city_points(self, tiles: int, pennants: int, complete: bool) -> int:
        if not complete:
            return tiles + pennants
        if self.options.smallcity and tiles == 2:
            return tiles + pennants
        return 2 * tiles + 2 * pennants

    def _score(self, c: Completion, targets: list[int], events: list[Event]) -> None:
        board = self.board
        if not c.followers:
            return
        n = len(c.tiles)
        if c.kind == ROAD:
            points, detail = n, f"a completed road of {counted(n, 'tile')}"
        elif c.kind == CITY:
            points = self._city_points(n, c.pennants, True)
            detail = f"a completed city of {counted(n, 'tile')}{_pennants(c.pennants)}"
        else:
            points, detail = 9, "a completed cloister"
        for s in c.winners:
            self._scores[s] += points
            events.append(ScoreEvent(self.players[s], points, c.kind, detail))
        sid = c.sid if c.sid >= 0 else targets[c.group]
        back = _seated(board.remove_followers(sid))
        for s, f in back:
            self.supply[s] += 1
            self.follower_at.pop(f, None)
        events.append(FollowersReturned(c.kind, tuple(self.players[s] for s, _ in back)))

    def final_scoring(self) -> list[Event]:
        """Score the end of the game once: incomplete features, farmers, then the gold table."""
        if self.final_done:
            return []
        self.final_done = True
        board = self.board
        events: list[Event] = []
        root_data = board.root_data
        held: list[tuple[int, FeatureData]] = []
        for r in board.roots():
            f = root_data[r]
            if f is not None and f.followers:
                held.append((r, f))
        order = {ROAD: 0, CITY: 1, CLOISTER: 2, FIELD: 3}
        held.sort(key=lambda rf: (order[rf[1].kind], rf[0]))
        bordering: dict[int, set[int]] | None = None
        for r, f in held:
            followers = _seated(f.followers)[:]
            winners = self._majority(followers)
            n = len(f.tiles)
            kind = f.kind
            if kind == ROAD:
                points = n
                detail = f"{'a completed' if f.open == 0 else 'an incomplete'} road of {counted(n, 'tile')}"
            elif kind == CITY:
                pennants = (f.symbols or {}).get(PENNANTS, 0)
                points = self._city_points(n, pennants, f.open == 0)
                detail = (f"{'a completed' if f.open == 0 else 'an incomplete'} city of {counted(n, 'tile')}"
                          f"{_pennants(pennants)}")
            elif kind == CLOISTER:
                x, y = board.segment_tile[r]
                near = sum(1 for dx, dy in AROUND if (x + dx, y + dy) in board.tiles)
                points = 1 + near
                detail = (f"an {'incomplete ' if near < 8 else ''}cloister with {counted(near, 'tile')} around it")
            else:
                if not self.options.farmers:
                    continue
                if bordering is None:
                    bordering = board.bordering()
                cities = [c for c in bordering.get(r, ()) if board.kind[c] == CITY and board.is_closed(c)]
                points = 3 * len(cities)
                if not points:
                    continue
                detail = f"a field beside {counted(len(cities), 'completed city', 'completed cities')}"
            for s in winners:
                self._scores[s] += points
                events.append(ScoreEvent(self.players[s], points, kind, detail, final=True))
        if self.options.goldmines:
            left = sum(self.ingots.values())
            if left:
                events.append(IngotsRemoved(left))
                self.ingots = {}
            for s in self._clockwise(0):
                count = self.held[s]
                if count:
                    value = ingot_value(count)
                    self._scores[s] += count * value
                    events.append(ScoreEvent(self.players[s], count * value, "gold",
                                             f"{counted(count, 'gold ingot')} at {value} each", final=True))
        return events

    # ------------------------------------------------------------------
    # set-up turns (turn 0): a position written directly
    # ------------------------------------------------------------------
    def setup(self, player: str, actions: Sequence[Command]) -> None:
        """Set up a position directly (a rules diagram): nothing scores, turn order is not checked.

        PlaceTile: must touch and fit.  PlaceFollower: on the tile placed last,
        from ``player``'s supply, on any of its features.  PlaceIngot: an ingot
        on any placed tile.  TakeIngot: ``player`` takes an ingot from that
        tile.  DiscardTile: a copy leaves the bag.  All or nothing.
        """
        work = self.copy()
        work._setup(player, actions)
        self._adopt(work)

    def _setup(self, player: str, actions: Sequence[Command]) -> None:
        seat = self._player_seat(player, getattr(actions[0], "span", None) if actions else None)
        last: PlacedTile | None = self._last_tile()
        for a in actions:
            if isinstance(a, PlaceTile):
                design = self._design(a.tile, a.span)
                if INGOT_MARK in design.marks and not self.options.goldmines:
                    raise IllegalAction(f"tile {design.id} is a Gold Mines tile, and this game is played without "
                                        "The Gold Mines", rule=Q_SETUP, section=SEC_GOLD_SETUP, span=a.span,
                                        hint='add the option: [Options "goldmines"]')
                if self._bag[design.id] <= 0:
                    raise self._bag_error(design, a.span)
                p = self._preview(a, design)
                self._lay(p)
                last = self.board.tiles[(p.x, p.y)]
            elif isinstance(a, PlaceFollower):
                if last is None:
                    raise IllegalAction("a set-up follower goes on the tile placed last", rule=Q_FOLLOWER_NEW,
                                        section=SEC_FOLLOWER, span=a.span, hint="place a tile first")
                if self.supply[seat] <= 0:
                    raise IllegalAction(f"{player} has no follower left in the supply", rule=Q_FOLLOWER_SUPPLY,
                                        section=SEC_FOLLOWER, span=a.span,
                                        hint=f"each player has {FOLLOWERS} followers")
                local = self._segment_of(last.design, last.orientation, 0, a.location)
                if local < 0:
                    raise IllegalAction(f"{a.location} names no feature of tile {last.design.id}",
                                        rule=Q_FOLLOWER_NEW, section=SEC_FOLLOWER, span=a.span,
                                        hint="the features of the tile: " + self._locations(last.design,
                                                                                            last.orientation))
                if last.design.kinds[local] == FIELD and not self.options.farmers:
                    raise IllegalAction("this game is played without farmers", rule=Q_FARMERS_OFF,
                                        section=SEC_FARMERS, span=a.span,
                                        hint="the features of the tile: " + self._locations(last.design,
                                                                                            last.orientation))
                self._put_follower(seat, last.base + local)
            elif isinstance(a, PlaceIngot):
                q = (a.x, a.y)
                if q not in self.board.tiles:
                    raise IllegalAction(f"there is no tile at {a.x},{a.y}", rule=Q_STACK, section=SEC_GOLD_PLACE,
                                        span=a.span, hint="ingots go on placed tiles")
                self.ingots[q] = self.ingots.get(q, 0) + 1
            elif isinstance(a, TakeIngot):
                q = (a.x, a.y)
                if self.ingots.get(q, 0) <= 0:
                    raise IllegalAction(f"there is no gold ingot on {a.x},{a.y}", rule=Q_SHARE,
                                        section=SEC_GOLD_TAKE, span=a.span,
                                        hint="tiles with gold: " + (" ".join(f"take@{x},{y}" for x, y in
                                                                             sorted(self.ingots)) or "none"))
                self.ingots[q] -= 1
                if not self.ingots[q]:
                    del self.ingots[q]
                self.held[seat] += 1
            elif isinstance(a, DiscardTile):
                design = self._design(a.tile, a.span)
                if self._bag[design.id] <= 0:
                    raise self._bag_error(design, a.span)
                self._take_from_bag(design.id)
            else:
                raise IllegalAction(f"{a!r} cannot be part of a set-up", rule="a set-up writes a position directly",
                                    section=SEC_PLAYING, span=getattr(a, "span", None),
                                    hint="a set-up places tiles, followers and ingots, takes ingots or discards")


def _restore_state(values: tuple[Any, ...]) -> CarcassonneState:
    state = CarcassonneState.__new__(CarcassonneState)
    for name, value in zip(_STATE_FIELDS, values):
        setattr(state, name, value)
    return state


__all__ = ["CarcassonneState", "Options", "Completion", "AROUND", "Event", "ScoreEvent", "FollowersReturned",
           "IngotsPlaced", "IngotTaken", "IngotsRemoved", "TileDiscarded"]
