"""Scoring: the roads, cities and cloisters a placement completes, and the final scoring with farmers and gold.

Completed roads score 1 per tile, cities 2 per tile and 2 per pennant (the
``smallcity`` option: 1 and 1 for a city of two tiles), cloisters 9; at the end
incomplete roads 1 per tile, cities 1 and 1, cloisters 1 plus 1 per tile
around, farmers 3 per completed city beside their field, and the gold table.
"""

from __future__ import annotations

from typing import Final

from grn.rules.engine import Event
from grn.games.carcassonne.completion import AROUND, Completion, seated
from grn.games.carcassonne.events import FollowersReturned, ScoreEvent
from grn.games.carcassonne.followers import Followers
from grn.games.carcassonne.gold import GoldMines
from grn.games.carcassonne.terms import CITY, CLOISTER, FIELD, PENNANTS, ROAD, counted
from grn.games.tiling.board import FeatureData, PlacedTile, Placement, cell_key

#: The fields this layer adds: The Gold Mines' part (None when the option is off, R480) and whether the game
#: was scored.
SCORING_FIELDS: tuple[str, ...] = ("mines", "final_done")
_KIND_ORDER: Final = {ROAD: 0, CITY: 1, CLOISTER: 2}
_WORDS = {1: "one", 2: "two", 3: "three"}


#: :data:`AROUND` as :func:`~grn.games.tiling.board.cell_key` offsets.
_AROUND_STEPS: Final[tuple[int, ...]] = tuple(cell_key(dx, dy) for dx, dy in AROUND)


def _surrounded(cells: dict[int, PlacedTile], centre: int, new: int) -> bool:
    """Whether all eight squares around the square ``centre`` hold a tile or are ``new`` (being placed)."""
    for step in _AROUND_STEPS:
        k = centre + step
        if k != new and k not in cells:
            return False
    return True


def _pennants(count: int) -> str:
    if not count:
        return ""
    return f" with {_WORDS.get(count, str(count))} pennant{'s' if count != 1 else ''}"


class Scoring(Followers):
    """Carcassonne with its scoring, and The Gold Mines' part when the option is on."""

    __slots__ = SCORING_FIELDS

    #: The Gold Mines' ingots (:class:`~grn.games.carcassonne.gold.GoldMines`), None without the option.
    mines: GoldMines | None
    final_done: bool

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
                    followers += seated(f.followers)
                if f.symbols:
                    pennants += f.symbols.get(PENNANTS, 0)
            for ls in segs:
                pennants += design.segments[ls].count(PENNANTS)
            if local >= 0 and p.group[local] == g:
                followers.append((seat, p.base + local))
            out.append(Completion(kind, tiles, followers, pennants, g, -1, self._majority(followers)))
        out.sort(key=lambda c: _KIND_ORDER[c.kind])
        # the squares by int key (board.cells): eight look-ups a turn, no (x, y) tuple made for any
        cells = board.cells
        key = cell_key(p.x, p.y)
        # the new tile's cloister, then the cloisters around it, clockwise from the north-west
        if CLOISTER in design.kinds and _surrounded(cells, key, key):
            for ls, kind in enumerate(design.kinds):
                if kind == CLOISTER:
                    followers = [(seat, p.base + ls)] if ls == local else []
                    area = {pos} | {(p.x + dx, p.y + dy) for dx, dy in AROUND}
                    out.append(Completion(CLOISTER, area, followers, 0, -1, p.base + ls, self._majority(followers)))
        for step in _AROUND_STEPS:
            t = cells.get(key + step)
            if t is None or CLOISTER not in t.design.kinds:
                continue
            if _surrounded(cells, key + step, key):
                for ls, kind in enumerate(t.design.kinds):
                    if kind == CLOISTER:
                        sid = t.base + ls
                        followers = seated(board.followers(sid))
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
        counts: tuple[tuple[str, int], ...] = (("tiles", n),)
        if c.kind == ROAD:
            points, detail = n, f"a completed road of {counted(n, 'tile')}"
        elif c.kind == CITY:
            points = self._city_points(n, c.pennants, True)
            detail = f"a completed city of {counted(n, 'tile')}{_pennants(c.pennants)}"
            counts = (("tiles", n), ("pennants", c.pennants))
        else:
            points, detail, counts = 9, "a completed cloister", (("tiles", 9),)
        for s in c.winners:
            self._scores[s] = self._scores[s] + points
            events.append(ScoreEvent(self.players[s], points, c.kind, detail, counts=counts))
        sid = c.sid if c.sid >= 0 else targets[c.group]
        back = seated(board.remove_followers(sid))
        for s, f in back:
            self.supply[s] = self.supply[s] + 1
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
            followers = seated(f.followers)[:]
            winners = self._majority(followers)
            n = len(f.tiles)
            kind = f.kind
            counts: tuple[tuple[str, int], ...] = (("tiles", n),)
            if kind == ROAD:
                points = n
                detail = f"{'a completed' if f.open == 0 else 'an incomplete'} road of {counted(n, 'tile')}"
            elif kind == CITY:
                pennants = (f.symbols or {}).get(PENNANTS, 0)
                points = self._city_points(n, pennants, f.open == 0)
                counts = (("tiles", n), ("pennants", pennants))
                detail = (f"{'a completed' if f.open == 0 else 'an incomplete'} city of {counted(n, 'tile')}"
                          f"{_pennants(pennants)}")
            elif kind == CLOISTER:
                x, y = board.segment_tile[r]
                near = sum(1 for dx, dy in AROUND if (x + dx, y + dy) in board.tiles)
                points = 1 + near
                counts = (("tiles", 1 + near),)
                detail = (f"an {'incomplete ' if near < 8 else ''}cloister with {counted(near, 'tile')} around it")
            else:
                if not self.options.farmers:
                    continue
                if bordering is None:
                    bordering = board.bordering()
                cities = [c for c in bordering.get(r, ()) if board.kind[c] == CITY and board.is_closed(c)]
                points = 3 * len(cities)
                counts = (("cities", len(cities)),)
                if not points:
                    continue
                detail = f"a field beside {counted(len(cities), 'completed city', 'completed cities')}"
            for s in winners:
                self._scores[s] = self._scores[s] + points
                events.append(ScoreEvent(self.players[s], points, kind, detail, final=True, counts=counts))
        if self.mines is not None:
            self.mines.final_scoring(self, self._scores, events)
        return events
