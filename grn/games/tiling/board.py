"""The generic tile-laying core: placed tiles, placement legality and growing features.

Every segment of every placed tile gets a *segment id* (``sid``), an integer
given in placement order.  Segments that meet across tile edges are merged
into *features* with a union-find (path compression); the root of a feature
is always its oldest segment (its smallest sid), so roots also say which
feature is older.  Each root keeps the feature's kind, the set of its tiles,
its count of *open places* (border places not yet met by a neighbour: a
feature with none is closed), its symbol totals, its followers and its links
(segments of other features it is joined to, e.g. a Gold Rush city and its
rails).

Placing is two steps so that a rules engine can check everything before
anything changes: :meth:`Board.preview` works out, without changing the
board, which features the new segments would join (a :class:`Placement`),
and :meth:`Board.place` applies it.

Coordinates: ``x`` grows east, ``y`` grows north.  Edge ``e`` (0=N, 1=E, 2=S,
3=W) of the tile at ``(x, y)`` meets edge ``(e + 2) % 4`` of the neighbour.

No game word lives here: kinds and symbols are plain strings from the tile set,
followers are ``(owner, sid)`` pairs with any hashable owner.
"""

from __future__ import annotations

from typing import Any, Callable, Final, Hashable, Iterable, Iterator

from grn.games.tiling.places import POSITIONS
from grn.games.tiling.tiles import EDGE_PAIRS, Orientation, TileDesign, TileSet
from grn.core.value import Value


def neighbours(x: int, y: int) -> tuple[tuple[int, int], ...]:
    """The four orthogonal neighbours of ``(x, y)`` in edge order N, E, S, W."""
    return ((x, y + 1), (x + 1, y), (x, y - 1), (x - 1, y))


class PlacedTile:
    """A tile on the board: its design, rotation, orientation and first segment id."""

    __slots__ = ("design", "rotation", "orientation", "base", "x", "y")

    def __init__(self, design: TileDesign, rotation: int, orientation: Orientation, base: int,
                 x: int, y: int) -> None:
        self.design = design
        self.rotation = rotation
        self.orientation = orientation
        self.base = base
        self.x = x
        self.y = y

    @property
    def tile(self) -> str:
        """The tile id."""
        return self.design.id

    def sid(self, local: int) -> int:
        """The segment id of the design's segment ``local`` on this tile."""
        return self.base + local

    def segment_at(self, place: int) -> int:
        """The segment id at board place ``place`` (0..11) of this tile."""
        return self.base + self.orientation.place_segment[place]

    def __reduce__(self) -> tuple[Any, ...]:
        # the orientation is the design's own: take it from the (unpickled) design again
        return (_placed_tile, (self.design, self.rotation, self.base, self.x, self.y))

    def __repr__(self) -> str:
        rot = f":{self.rotation}" if self.rotation else ""
        return f"<PlacedTile {self.design.id}@{self.x},{self.y}{rot}>"


class Placement:
    """What placing a tile would do, computed without changing the board.

    ``group[i]`` is the group of the new tile's segment ``i``: new segments in
    one group end up in one feature.  Per group: ``group_segments`` (local
    indices), ``group_roots`` (roots of the existing features it joins, oldest
    first) and ``group_open`` (open places of the merged feature).
    ``root_group`` maps each joined existing root to its group.  ``base`` is
    the sid the new tile's segment 0 will get.  The lists may be shared
    between placements: read them, never change them.
    """

    __slots__ = ("design", "rotation", "orientation", "x", "y", "base", "group", "group_segments",
                 "group_roots", "group_open", "root_group", "merges")

    def __init__(self, design: TileDesign, rotation: int, orientation: Orientation, x: int, y: int,
                 base: int, group: list[int], group_segments: list[list[int]], group_roots: list[list[int]],
                 group_open: list[int], root_group: dict[int, int], merges: bool = False) -> None:
        self.design = design
        self.rotation = rotation
        self.orientation = orientation
        self.x = x
        self.y = y
        self.base = base
        self.group = group
        self.group_segments = group_segments
        self.group_roots = group_roots
        self.group_open = group_open
        self.root_group = root_group
        #: whether some group joins two or more existing features
        self.merges = merges

    def __repr__(self) -> str:
        return (f"<Placement {self.design.id}@{self.x},{self.y}:{self.rotation} "
                f"groups={len(self.group_segments)}>")


class Feature(Value):
    """A snapshot of one feature (for inspection and tests; the board keeps its own data)."""

    __slots__ = ("root", "kind", "tiles", "open_places", "symbols", "followers", "links")
    _fields = ("root", "kind", "tiles", "open_places", "symbols", "followers", "links")

    def __init__(self, root: int, kind: str, tiles: frozenset[tuple[int, int]], open_places: int,
                 symbols: dict[str, int], followers: tuple[tuple[Hashable, int], ...], links: tuple[int, ...]) -> None:
        self.root: Final = root
        self.kind: Final = kind
        self.tiles: Final = tiles
        self.open_places: Final = open_places
        self.symbols: Final = symbols
        self.followers: Final = followers
        self.links: Final = links

    def _key(self) -> tuple[object, ...]:
        return (self.root, self.kind, self.tiles, self.open_places, self.symbols, self.followers, self.links)

    @property
    def closed(self) -> bool:
        """No open places left (a Gold Rush railroad or mountain is then complete)."""
        return self.open_places == 0

    @property
    def size(self) -> int:
        """Number of distinct tiles in the feature."""
        return len(self.tiles)

    def __repr__(self) -> str:
        symbols = "".join(f" {k}={v}" for k, v in sorted(self.symbols.items()) if v)
        return (f"<Feature {self.kind} #{self.root} tiles={len(self.tiles)} open={self.open_places}{symbols}"
                f" followers={list(self.followers)}>")


class FeatureData:
    """The mutable data of one feature, kept at its root (board internals)."""

    __slots__ = ("kind", "open", "tiles", "symbols", "followers", "links")

    def __init__(self, kind: str, tiles: set[tuple[int, int]], open: int = 0,
                 symbols: dict[str, int] | None = None, followers: list[tuple[Hashable, int]] | None = None,
                 links: list[int] | None = None) -> None:
        self.kind = kind
        self.open = open
        self.tiles = tiles
        self.symbols = symbols
        self.followers = followers
        self.links = links

    def __reduce__(self) -> tuple[Any, ...]:
        return (FeatureData, (self.kind, self.tiles, self.open, self.symbols, self.followers, self.links))

    def copy(self) -> FeatureData:
        """An independent copy."""
        return FeatureData(self.kind, self.tiles.copy(), self.open, None if self.symbols is None else self.symbols.copy(),
                    None if self.followers is None else self.followers[:], None if self.links is None else self.links[:])

    def absorb(self, other: FeatureData) -> None:
        """Merge ``other`` (a feature joined to this one) into this one (open places are set by the caller)."""
        if len(other.tiles) > len(self.tiles):
            other.tiles |= self.tiles
            self.tiles = other.tiles
        else:
            self.tiles |= other.tiles
        if other.symbols:
            if self.symbols:
                d = self.symbols
                for k, v in other.symbols.items():
                    d[k] = d.get(k, 0) + v
            else:
                self.symbols = other.symbols
        if other.followers:
            self.followers = self.followers + other.followers if self.followers else other.followers
        if other.links:
            self.links = self.links + other.links if self.links else other.links

    def __repr__(self) -> str:
        return f"<FeatureData {self.kind} tiles={len(self.tiles)} open={self.open} symbols={self.symbols} followers={self.followers}>"


#: A square's int key in :attr:`Board.cells`: ``x * CELL_STRIDE + y``, distinct for every |y| < 2**31.
#: An int hashes and compares for far less than an (x, y) tuple, which must also be made for every look-up.
#: Computed as ``(x << CELL_SHIFT) + y``, the same number: a compiled multiplication by a factor of 2**31 or
#: more always takes mypyc's slow path (both ints boxed, ``PyNumber_Multiply``, about 300 instructions),
#: a shift of a short int does not.
CELL_SHIFT: Final = 32
CELL_STRIDE: Final = 1 << CELL_SHIFT
#: The largest |y| a tile may be placed at (a GRN number has at most nine digits, far below), so that
#: the squares beside every tile have distinct keys too.
MAX_Y: Final = 1 << 30
#: (edge, key offset of the neighbour across it, the neighbour's facing edge) for N, E, S, W; typed as a
#: tuple of any length so that the compiled loop over it indexes the tuple instead of asking for an iterator
_EDGES: Final[tuple[tuple[int, int, int], ...]] = ((0, 1, 2), (1, CELL_STRIDE, 3), (2, -1, 0), (3, -CELL_STRIDE, 1))
# Shared by every Placement whose new segments each make their own group; never changed.
_SOLO_GROUP: Final[list[list[int]]] = [list(range(m)) for m in range(64)]
_SOLO_SEGMENTS: Final[list[list[list[int]]]] = [[[i] for i in range(m)] for m in range(64)]
_NO_ROOTS: Final[list[int]] = []
#: ``[None] * m`` made once per size: what a placement appends to ``root_data`` (extended from, never changed).
_NONES: Final[list[list[None]]] = [[None] * m for m in range(64)]


#: id(tile set) -> (the set, kept so that its id is not reused; what the four sides of an empty square need, N E S
#: W, -1 where no tile is -> the ids of the set's designs that fit there): few patterns, met again and again.
_FITTING: dict[int, tuple[TileSet, dict[tuple[int, ...], frozenset[str]]]] = {}


def cell_key(x: int, y: int) -> int:
    """The key of square ``(x, y)`` in :attr:`Board.cells`."""
    return (x << CELL_SHIFT) + y


def _data_at(root_data: list[FeatureData | None], root: int) -> FeatureData:
    """The feature data kept at ``root`` (roots always hold one)."""
    f = root_data[root]
    assert f is not None, "not a feature root"
    return f


class Board:
    """A board of placed tiles with features kept by union-find."""

    __slots__ = ("tileset", "tiles", "cells", "_frontier", "parent", "kind", "segment_tile", "root_data")

    def __init__(self, tileset: TileSet) -> None:
        self.tileset = tileset
        #: (x, y) -> PlacedTile
        self.tiles: dict[tuple[int, int], PlacedTile] = {}
        #: the same tiles by :func:`cell_key` (the placement checks' look-ups)
        self.cells: dict[int, PlacedTile] = {}
        self._frontier: set[tuple[int, int]] | None = None
        #: per segment id: union-find parent, kind, tile position
        self.parent: list[int] = []
        self.kind: list[str] = []
        self.segment_tile: list[tuple[int, int]] = []
        #: per segment id: the feature data at roots, None elsewhere
        self.root_data: list[FeatureData | None] = []

    # ------------------------------------------------------------------
    def copy(self) -> Board:
        """An independent copy (tile designs and placed tiles are shared, they never change)."""
        b = Board(self.tileset)
        b.tiles = self.tiles.copy()
        b.cells = self.cells.copy()
        b.parent = self.parent[:]
        b.kind = self.kind[:]
        b.segment_tile = self.segment_tile[:]
        b.root_data = [None if f is None else f.copy() for f in self.root_data]
        return b

    def __len__(self) -> int:
        return len(self.tiles)

    def __contains__(self, pos: object) -> bool:
        return pos in self.tiles

    def __reduce__(self) -> tuple[Any, ...]:
        return (_restore_board, (self.tileset, self.tiles, self.parent, self.kind, self.segment_tile, self.root_data))

    def __repr__(self) -> str:
        return f"<Board {len(self.tiles)} tiles, {len(self.parent)} segments>"

    @property
    def frontier(self) -> set[tuple[int, int]]:
        """The empty squares next to at least one tile (computed when asked, then kept until a placement)."""
        f = self._frontier
        if f is None:
            tiles = self.tiles
            f = {n for (x, y) in tiles for n in ((x, y + 1), (x + 1, y), (x, y - 1), (x - 1, y)) if n not in tiles}
            self._frontier = f
        return f

    # ------------------------------------------------------------------
    def find(self, sid: int) -> int:
        """The root (oldest segment id) of the feature segment ``sid`` belongs to."""
        parent = self.parent
        r = sid
        while parent[r] != r:
            r = parent[r]
        while parent[sid] != r:
            parent[sid], sid = r, parent[sid]
        return r

    def data(self, sid: int) -> FeatureData:
        """The live feature data of the feature of ``sid`` (do not keep it across placements)."""
        return _data_at(self.root_data, self.find(sid))


    def segment_at(self, x: int, y: int, place: int | str) -> int:
        """The segment id at ``place`` (index or name) of the tile at ``(x, y)``."""
        if isinstance(place, str):
            place = POSITIONS.index(place)
        return self.tiles[(x, y)].segment_at(place)

    def open_places(self, sid: int) -> int:
        """Open places of the feature of ``sid``."""
        return self.data(sid).open

    def is_closed(self, sid: int) -> bool:
        """Whether the feature of ``sid`` has no open places."""
        return self.data(sid).open == 0

    def size(self, sid: int) -> int:
        """Distinct tiles in the feature of ``sid``."""
        return len(self.data(sid).tiles)

    def symbols(self, sid: int) -> dict[str, int]:
        """Symbol totals of the feature of ``sid``."""
        return dict(self.data(sid).symbols or {})

    def followers(self, sid: int) -> list[tuple[Hashable, int]]:
        """``(owner, sid)`` of the followers on the feature of ``sid``."""
        return list(self.data(sid).followers or ())

    def links(self, sid: int) -> list[int]:
        """Segment ids linked to the feature of ``sid``."""
        return list(self.data(sid).links or ())

    def feature(self, sid: int) -> Feature:
        """A snapshot of the feature of ``sid``."""
        r = self.find(sid)
        f = self.root_data[r]
        assert f is not None
        return Feature(r, f.kind, frozenset(f.tiles), f.open, dict(f.symbols or {}), tuple(f.followers or ()),
                       tuple(f.links or ()))

    def bordering(self) -> dict[int, set[int]]:
        """Feature root -> roots of the features its segments border (a tile set's ``borders``), in one pass.

        Only features whose segments list ``borders`` appear (a field and the cities beside it).
        """
        out: dict[int, set[int]] = {}
        for pos, t in self.tiles.items():
            for local, seg in enumerate(t.design.segments):
                if seg.borders:
                    near = out.setdefault(self.find(t.base + local), set())
                    for bi in seg.borders:
                        near.add(self.find(t.base + bi))
        return out

    def roots(self) -> Iterator[int]:
        """The root of every feature, oldest first."""
        parent = self.parent
        return (s for s in range(len(parent)) if parent[s] == s)

    def features(self) -> list[Feature]:
        """Snapshots of every feature, oldest first."""
        return [self.feature(r) for r in self.roots()]

    # ------------------------------------------------------------------
    def add_follower(self, sid: int, owner: Hashable) -> None:
        """Put a follower of ``owner`` on segment ``sid`` (no checks)."""
        f = self.data(sid)
        if f.followers is None:
            f.followers = [(owner, sid)]
        else:
            f.followers = f.followers + [(owner, sid)]

    def remove_followers(self, sid: int) -> list[tuple[Hashable, int]]:
        """Take every follower off the feature of ``sid``; returns them."""
        f = self.data(sid)
        followers = f.followers or []
        f.followers = None
        return followers

    # ------------------------------------------------------------------
    def fits(self, design: TileDesign, x: int, y: int, rotation: int) -> bool:
        """Whether ``design`` turned ``rotation`` may go to ``(x, y)``: free, touching, matching."""
        if y > MAX_Y or y < -MAX_Y:
            return False  # no tile can go there (preview refuses it)
        cells = self.cells
        key = (x << CELL_SHIFT) + y
        if key in cells:
            return False
        o = design.orientations[rotation // 90]
        need = o.edge_need
        touching = False
        for e, step, _ in _EDGES:
            nb = cells.get(key + step)
            if nb is not None:
                if nb.orientation.edge_sig[(e + 2) & 3] != need[e]:
                    return False
                touching = True
        return touching

    def mismatches(self, design: TileDesign, x: int, y: int, rotation: int) -> list[str]:
        """The edges (``N``, ``E``...) where ``design`` turned ``rotation`` at ``(x, y)`` would not match."""
        o = design.orientations[rotation // 90]
        out = []
        for e, npos in enumerate(neighbours(x, y)):
            nb = self.tiles.get(npos)
            if nb is not None and nb.orientation.edge_sig[(e + 2) & 3] != o.edge_need[e]:
                out.append("NESW"[e])
        return out

    def _fitting(self, design: TileDesign, squares: Iterable[tuple[int, int]]) -> Iterator[tuple[int, int, int]]:
        """``(x, y, rotation)`` of ``squares`` where ``design`` fits, one of identical rotations."""
        cells = self.cells
        orients = [design.orientations[r // 90] for r in design.unique_rotations]
        for (x, y) in squares:
            key = (x << CELL_SHIFT) + y
            nbs: list[tuple[int, int]] = []
            for e, step, f in _EDGES:
                nb = cells.get(key + step)
                if nb is not None:
                    nbs.append((e, nb.orientation.edge_sig[f]))
            for o in orients:
                need = o.edge_need
                for e, sig in nbs:
                    if need[e] != sig:
                        break
                else:
                    yield (x, y, o.rotation)

    def designs_fitting(self, x: int, y: int) -> frozenset[str]:
        """The ids of the tile set's designs that may go to the empty square ``(x, y)`` beside the board in some
        rotation, as the squares around it stand, whatever the bag holds (cached by the edges around it)."""
        cells = self.cells
        key = (x << CELL_SHIFT) + y
        need: list[int] = []
        for e, step, f in _EDGES:
            nb = cells.get(key + step)
            need.append(-1 if nb is None else nb.orientation.edge_sig[f])
        tileset = self.tileset
        cache = _FITTING.get(id(tileset))
        if cache is None:
            cache = (tileset, {})
            _FITTING[id(tileset)] = cache
        pattern = tuple(need)
        found = cache[1].get(pattern)
        if found is None:
            found = frozenset([d.id for d in tileset.tiles if next(self._fitting(d, ((x, y),)), None) is not None])
            cache[1][pattern] = found
        return found

    def legal_positions(self, design: TileDesign) -> list[tuple[int, int, int]]:
        """Every ``(x, y, rotation)`` where ``design`` may go, sorted, one of identical rotations."""
        return list(self._fitting(design, sorted(self.frontier)))

    def sample_placements(self, design: TileDesign, rand: Callable[[], float], want: int,
                          tries: int) -> list[Placement]:
        """Up to ``want`` placements of ``design`` drawn by rejection (R143): at most ``tries`` times a random square
        of the frontier and a random rotation (two calls of ``rand`` each, in that order), kept when the tile fits
        there.  A playout's draw: the same distribution as a choice among every legal placement, without listing
        them all; a placement may be drawn twice."""
        squares = list(self.frontier)  # a set of int pairs: the same order in every run
        rotations = design.unique_rotations
        n = len(squares)
        k = len(rotations)
        out: list[Placement] = []
        for _ in range(tries):
            x, y = squares[int(rand() * n)]
            r = rotations[int(rand() * k)]
            p = self.preview(design, x, y, r)
            if p is not None:
                out.append(p)
                if len(out) >= want:
                    break
        return out

    def has_legal_position(self, design: TileDesign) -> bool:
        """Whether ``design`` fits anywhere (in any rotation)."""
        return next(self._fitting(design, self.frontier), None) is not None

    # ------------------------------------------------------------------
    def preview(self, design: TileDesign, x: int, y: int, rotation: int,
                *, first: bool = False) -> Placement | None:
        """What placing ``design`` at ``(x, y)`` turned ``rotation`` would do, or None when illegal.

        Illegal: the square is taken, no tile touches it (unless ``first``, for
        the start tile of an empty board), or a touching place differs in kind.
        The board is not changed (beyond union-find path compression).

        Kept whole: the bots' hottest path (compiled), one pass over the tile's segments and
        its neighbours' edges.
        """
        if y > MAX_Y or y < -MAX_Y:
            raise ValueError(f"y = {y} is out of the board's range (at most {MAX_Y} either way)")
        cells = self.cells
        key = (x << CELL_SHIFT) + y
        if key in cells:
            return None
        o = design.orientations[rotation // 90]
        need = o.edge_need
        parent = self.parent
        pc = list(o.place_counts)
        touch: dict[int, int] = {}
        lp: list[int] | None = None
        touching = False
        for e, step, f in _EDGES:
            nb = cells.get(key + step)
            if nb is None:
                continue
            no = nb.orientation
            if no.edge_sig[f] != need[e]:
                return None
            touching = True
            near_id = o.edge_ids[e]
            far_id = no.edge_rev_ids[f]
            pairs = None
            if near_id < len(EDGE_PAIRS):  # rows indexed by the two pattern ids: no int boxed for a dict key
                row = EDGE_PAIRS[near_id]
                if far_id < len(row):
                    pairs = row[far_id]
            if pairs is None:
                pairs = o.edge_pairs(e, no)
            base = nb.base
            for ml, tl, cnt in pairs:
                s = base + tl
                r = parent[s]
                if r != s:
                    while parent[r] != r:
                        r = parent[r]
                    while parent[s] != r:
                        parent[s], s = r, parent[s]
                # written out, not "-=": mypyc compiles an augmented item assignment as a boxed Python op
                pc[ml] = pc[ml] - (cnt + cnt)
                # one look-up (and one boxing of r) for both "seen?" and "remember"
                t = touch.setdefault(r, ml)
                if t != ml:
                    if lp is None:
                        lp = list(range(len(pc)))
                    a = t
                    while lp[a] != a:
                        a = lp[a]
                    b = ml
                    while lp[b] != b:
                        b = lp[b]
                    if a < b:
                        lp[b] = a
                    elif b < a:
                        lp[a] = b
        if not touching and not (first and not cells):
            return None
        m = len(pc)
        root_data = self.root_data
        group: list[int]
        gsegs: list[list[int]]
        gopen: list[int]
        groots: list[list[int]]
        merges = False
        if lp is None:
            # every new segment is its own group (the usual case): shared lists, no new ones
            group = _SOLO_GROUP[m]
            gsegs = _SOLO_SEGMENTS[m]
            gopen = pc
            groots = [_NO_ROOTS] * m
            for r, ml in touch.items():
                gr = groots[ml]
                if gr is _NO_ROOTS:
                    groots[ml] = [r]
                else:
                    gr.append(r)
                gopen[ml] = gopen[ml] + _data_at(root_data, r).open
            root_group = touch
        else:
            group = [0] * m
            gsegs = []
            gopen = []
            for i in range(m):
                a = i
                while lp[a] != a:
                    a = lp[a]
                if a == i:
                    group[i] = len(gsegs)
                    gsegs.append([i])
                    gopen.append(pc[i])
                else:
                    g = group[i] = group[a]
                    gsegs[g].append(i)
                    gopen[g] = gopen[g] + pc[i]
            groots = [[] for _ in gsegs]
            root_group = {}
            for r, ml in touch.items():
                g = group[ml]
                root_group[r] = g
                groots[g].append(r)
                gopen[g] = gopen[g] + _data_at(root_data, r).open
        for roots in groots:
            if len(roots) > 1:
                roots.sort()
                merges = True
        return Placement(design, rotation, o, x, y, len(parent), group, gsegs, groots, gopen, root_group, merges)

    def place(self, p: Placement) -> list[int]:
        """Apply a :meth:`preview` (made on this board, unchanged since); returns the root per group."""
        design = p.design
        # one boxed tuple for every use below (a tuple[int, int] variable is unboxed by mypyc, and boxed
        # anew each time it goes into a set, a dict or a list)
        pos: Any = (p.x, p.y)
        # boxed once for both dict operations below (an int variable is boxed anew for each)
        key: Any = (p.x << CELL_SHIFT) + p.y
        parent = self.parent
        base = len(parent)
        cells = self.cells
        if base != p.base or key in cells:
            raise ValueError("stale placement preview")
        root_data = self.root_data
        kinds = design.kinds
        m = len(kinds)
        root_data.extend(_NONES[m])
        extras = design.extras
        targets: list[int] = []
        gopen = p.group_open
        groots = p.group_roots
        g = 0
        for segs in p.group_segments:
            roots = groots[g]
            if roots:
                t = roots[0]
                F = _data_at(root_data, t)
                if len(roots) > 1:
                    for r in roots[1:]:
                        parent[r] = t
                        F.absorb(_data_at(root_data, r))
                        root_data[r] = None
                F.tiles.add(pos)
            else:
                t = base + segs[0]
                F = FeatureData(kinds[segs[0]], {pos})
                root_data[t] = F
            F.open = gopen[g]
            for ls in segs:
                # typed, so that the compiled code indexes the tuple and walks the dict natively
                ex: tuple[dict[str, int], tuple[int, ...]] | None = extras[ls]
                if ex is not None:
                    # indexed, not unpacked: unpacking asks for an iterator
                    symbols = ex[0]
                    lk = ex[1]
                    if symbols:
                        d = F.symbols
                        if d is None:
                            F.symbols = symbols.copy()  # the design's dict: copied, never changed
                        else:
                            for k, v in symbols.items():
                                d[k] = d.get(k, 0) + v
                    if lk:
                        new = [base + li for li in lk]
                        F.links = F.links + new if F.links else new
            targets.append(t)
            g += 1
        group = p.group
        if group is _SOLO_GROUP[m]:
            parent.extend(targets)  # segment i is group i: its root is targets[i] (no int unboxed and boxed again)
        else:
            for gi in group:
                parent.append(targets[gi])
        self.kind.extend(kinds)
        self.segment_tile.extend([pos] * m)
        placed = PlacedTile(design, p.rotation, p.orientation, base, p.x, p.y)
        self.tiles[pos] = placed
        cells[key] = placed
        self._frontier = None
        return targets

    def place_tile(self, design: TileDesign, x: int, y: int, rotation: int = 0) -> list[int]:
        """Preview and place in one go; raises ValueError when illegal.  Returns the root per new segment."""
        p = self.preview(design, x, y, rotation, first=True)
        if p is None:
            raise ValueError(f"{design.id} does not fit at {x},{y}:{rotation}")
        targets = self.place(p)
        return [targets[g] for g in p.group]

    def state_key(self) -> Any:
        """A hashable summary of the board (tiles, feature partition, open places, followers)."""
        roots = tuple(self.find(s) for s in range(len(self.parent)))
        feats = [self.root_data[r] for r in sorted(set(roots))]
        return (tuple(sorted((pos, t.design.id, t.rotation) for pos, t in self.tiles.items())), roots,
                tuple((f.open, len(f.tiles), tuple(sorted((f.symbols or {}).items())),  # type: ignore[union-attr]
                       tuple(sorted(map(repr, f.followers or ()))), tuple(sorted(f.links or ())))  # type: ignore[union-attr]
                      for f in feats))


def _placed_tile(design: TileDesign, rotation: int, base: int, x: int, y: int) -> PlacedTile:
    return PlacedTile(design, rotation, design.orientations[rotation // 90], base, x, y)


def _restore_board(tileset: TileSet, tiles: dict[tuple[int, int], PlacedTile], parent: list[int], kind: list[str],
                   segment_tile: list[tuple[int, int]], root_data: list[FeatureData | None]) -> Board:
    """A Board from what :meth:`Board.__reduce__` gave (pickle and copy.deepcopy)."""
    board = Board(tileset)
    board.tiles, board.parent, board.kind, board.segment_tile, board.root_data = tiles, parent, kind, segment_tile, root_data
    board.cells = {(x << CELL_SHIFT) + y: t for (x, y), t in tiles.items()}
    return board
