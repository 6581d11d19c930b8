"""Tile designs and tile sets, loaded from JSON data (docs/design.md, "Tile set JSON").

A tile's border has twelve *places* (:data:`grn.games.tiling.places.POSITIONS`), numbered
0..11 clockwise from the west half of the north edge.  A :class:`TileDesign`
is a list of :class:`Segment` values; every place belongs to exactly one
segment.  For fast placement checks each design precomputes its four
:class:`Orientation` values (place -> kind, place -> segment, a small integer
signature per edge), so that the board core only does tuple and dict lookups.

This module knows no game: segment kinds and symbol names are plain strings
from the data, and so is each kind's *role* (the tile set's ``kinds``):
``path`` (meets edges at their middles, two ends), ``edge`` (holds whole
edges), ``centre`` (no edges) or ``field`` (any places).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final, Iterator, Mapping

from grn.core import shipped
from grn.core.errors import GrnError
from grn.core.value import Value
from grn.games.tiling.places import EDGE_MIDDLES, PLACE_INDEX, POSITIONS, opposite_place, rotate_place

__all__ = ["Segment", "Orientation", "TileDesign", "TileSet", "tileset_from_dict", "load_tileset",
           "load_shipped_tileset", "ROLES", "PLACE_INDEX", "EDGE_MIDDLES", "opposite_place", "rotate_place"]

#: Segment keys that are not symbol counters.
RESERVED_KEYS = frozenset({"kind", "edges", "ends", "links", "borders", "name", "notes"})
#: The roles a segment kind may play (the tile set's ``kinds`` object):
#: ``path`` segments meet edges only at edge middles and have exactly two ends,
#: each an edge or an ``ends`` entry; ``edge`` segments hold whole edges (all
#: three places of an edge); ``centre`` segments hold no edge; ``field`` any places.
ROLES: tuple[str, ...] = ("path", "edge", "centre", "field")


_SIGNATURES: Final[dict[tuple[str, str, str], int]] = {}


def _signature(kinds: tuple[str, str, str]) -> int:
    """A small integer naming the kinds along one edge (interned, process-wide)."""
    sig = _SIGNATURES.get(kinds)
    if sig is None:
        sig = _SIGNATURES[kinds] = len(_SIGNATURES)
    return sig


class Segment(Value):
    """One feature piece on a tile.

    ``places`` are place indices on the unturned tile; ``ends`` says how a
    path's ends stop inside the tile; ``links`` are the indices of other
    segments of the same tile this one is joined to (a Gold Rush city's
    ``rails``); ``symbols`` is a sorted tuple of ``(name, count)`` pairs with
    non-zero counts; ``borders`` are the indices of other segments of the tile
    this one touches without joining them (a field and the cities it lies
    beside: :meth:`grn.games.tiling.board.Board.bordering` follows it across tiles).
    """

    __slots__ = ("kind", "places", "ends", "links", "symbols", "borders")
    _fields = ("kind", "places", "ends", "links", "symbols", "borders")

    def __init__(self, kind: str, places: tuple[int, ...], ends: tuple[str, ...] = (), links: tuple[int, ...] = (),
                 symbols: tuple[tuple[str, int], ...] = (), borders: tuple[int, ...] = ()) -> None:
        self.kind: Final = kind
        self.places: Final = places
        self.ends: Final = ends
        self.links: Final = links
        self.symbols: Final = symbols
        self.borders: Final = borders

    def _key(self) -> tuple[object, ...]:
        return (self.kind, self.places, self.ends, self.links, self.symbols, self.borders)

    def count(self, symbol: str) -> int:
        """How many ``symbol`` symbols the segment shows (0 when none)."""
        for name, n in self.symbols:
            if name == symbol:
                return n
        return 0


    @property
    def edges(self) -> tuple[str, ...]:
        """The names of the places the segment holds (unturned)."""
        return tuple(POSITIONS[i] for i in self.places)

    def __repr__(self) -> str:
        parts = [self.kind, "[" + " ".join(self.edges) + "]"]
        if self.ends:
            parts.append("ends=" + ",".join(self.ends))
        if self.links:
            parts.append("links=" + ",".join(map(str, self.links)))
        if self.borders:
            parts.append("borders=" + ",".join(map(str, self.borders)))
        parts += [f"{n}={c}" for n, c in self.symbols]
        return "<Segment " + " ".join(parts) + ">"


#: The segment indices along one edge (three places) -> a small id, process-wide: two edges with the same
#: pattern meet their neighbours alike, and an id is a cheaper key than the tuple.
_EDGE_PATTERNS: Final[dict[tuple[int, ...], int]] = {}
#: Bits of an edge pattern id: at most ``1 << PATTERN_BITS`` patterns (far more than a tile set can have).
PATTERN_BITS: Final = 20
#: ``EDGE_PAIRS[my edge's pattern id][the facing edge's reversed pattern id]`` -> :meth:`Orientation.edge_pairs`,
#: None where not yet worked out (the board core reads it first; few patterns, all tile sets share them).  Rows
#: of a list, not a dict keyed by the two ids: a compiled look-up then boxes no int key.
EDGE_PAIRS: Final[list[list[tuple[tuple[int, int, int], ...] | None]]] = []


def _pattern_id(segments: tuple[int, ...]) -> int:
    """The id of the segment pattern along one edge."""
    pid = _EDGE_PATTERNS.get(segments)
    if pid is None:
        pid = _EDGE_PATTERNS[segments] = len(_EDGE_PATTERNS)
        if pid >= 1 << PATTERN_BITS:
            raise ValueError("too many edge patterns")
    return pid


class Orientation:
    """A design turned ``rotation`` degrees: everything a placement check needs.

    Indices are board places (after turning).  ``edge_sig[e]`` names the kinds
    along edge ``e`` (0=N, 1=E, 2=S, 3=W) read clockwise; ``edge_need[e]`` is
    the signature the neighbour's facing edge must have.  ``edge_segments[e]``
    lists the segments at the edge's three places clockwise, and
    ``edge_segments_rev[e]`` the same reversed (how a neighbour meets them);
    ``edge_ids`` and ``edge_rev_ids`` name those patterns (:data:`EDGE_PAIRS` keys).
    ``place_counts``: places per segment (board core: open places of a new segment).
    Equal only to itself (it is made once per design and turn).
    """

    __slots__ = ("rotation", "kinds", "place_segment", "segment_places", "edge_sig", "edge_need", "edge_segments",
                 "edge_segments_rev", "canonical", "place_counts", "edge_ids", "edge_rev_ids")

    def __init__(self, rotation: int, kinds: tuple[str, ...], place_segment: tuple[int, ...],
                 segment_places: tuple[tuple[int, ...], ...], edge_sig: tuple[int, ...], edge_need: tuple[int, ...],
                 edge_segments: tuple[tuple[int, ...], ...], edge_segments_rev: tuple[tuple[int, ...], ...],
                 canonical: Any, place_counts: tuple[int, ...] = (), edge_ids: tuple[int, ...] = (),
                 edge_rev_ids: tuple[int, ...] = ()) -> None:
        self.rotation: Final = rotation
        self.kinds: Final = kinds
        self.place_segment: Final = place_segment
        self.segment_places: Final = segment_places
        self.edge_sig: Final = edge_sig
        self.edge_need: Final = edge_need
        self.edge_segments: Final = edge_segments
        self.edge_segments_rev: Final = edge_segments_rev
        self.canonical: Final = canonical
        self.place_counts: Final = place_counts
        self.edge_ids: Final = edge_ids
        self.edge_rev_ids: Final = edge_rev_ids

    def edge_pairs(self, e: int, other: Orientation) -> tuple[tuple[int, int, int], ...]:
        """How edge ``e`` meets ``other`` (the neighbour across it): distinct (mine, theirs, places) pairs."""
        # the answer depends only on the segment indices along the two edges: few patterns, met again
        # and again by every pair of orientations that share them
        f = (e + 2) & 3
        near_id = self.edge_ids[e]
        far_id = other.edge_rev_ids[f]
        while len(EDGE_PAIRS) <= near_id:
            EDGE_PAIRS.append([])
        row = EDGE_PAIRS[near_id]
        while len(row) <= far_id:
            row.append(None)
        pairs = row[far_id]
        if pairs is None:
            # (ours, theirs) in order of first meeting, with their counts: an edge has three places, so
            # short lists searched by index (a dict of tuple keys cost several times as much, per new key)
            ours = self.edge_segments[e]
            theirs = other.edge_segments_rev[f]
            pa: list[int] = []
            pb: list[int] = []
            pn: list[int] = []
            for i in range(len(ours)):
                a = ours[i]
                b = theirs[i]
                for j in range(len(pa)):
                    if pa[j] == a and pb[j] == b:
                        pn[j] = pn[j] + 1
                        break
                else:
                    pa.append(a)
                    pb.append(b)
                    pn.append(1)
            pairs = tuple([(pa[j], pb[j], pn[j]) for j in range(len(pa))])
            row[far_id] = pairs
        return pairs

    def __repr__(self) -> str:
        return f"<Orientation {self.rotation} {' '.join(k[:1] for k in self.kinds)}>"


def _orient(segments: tuple[Segment, ...], rotation: int) -> Orientation:
    place_segment = [0] * 12
    seg_places: list[tuple[int, ...]] = []
    for si, seg in enumerate(segments):
        turned = tuple(sorted(rotate_place(p, rotation) for p in seg.places))
        seg_places.append(turned)
        for p in turned:
            place_segment[p] = si
    kinds = tuple(segments[place_segment[p]].kind for p in range(12))
    edge_sig = tuple(_signature(kinds[3 * e:3 * e + 3]) for e in range(4))  # type: ignore[arg-type]
    edge_need = tuple(_signature(tuple(reversed(kinds[3 * e:3 * e + 3]))) for e in range(4))  # type: ignore[arg-type]
    edge_segments = tuple(tuple(place_segment[3 * e:3 * e + 3]) for e in range(4))
    edge_segments_rev = tuple(tuple(reversed(s)) for s in edge_segments)
    canonical = frozenset(
        (seg.kind, seg_places[si], tuple(sorted(seg.ends)), seg.symbols,
         frozenset(seg_places[li] for li in seg.links), frozenset(seg_places[bi] for bi in seg.borders))
        for si, seg in enumerate(segments))
    return Orientation(rotation, kinds, tuple(place_segment), tuple(seg_places), edge_sig, edge_need,
                       edge_segments, edge_segments_rev, canonical, tuple(len(p) for p in seg_places),
                       tuple(_pattern_id(s) for s in edge_segments), tuple(_pattern_id(s) for s in edge_segments_rev))


class TileDesign(Value):
    """One tile id of a set: its segments, copies in the box and precomputed orientations.

    ``orientations[r]`` is the design turned ``90 * r`` degrees.
    ``unique_rotations`` lists the rotations (degrees) that give different
    tiles, keeping the lowest of identical ones (symmetric tiles).  ``extras``:
    per segment, (symbols as a dict the board copies, never changes; linked
    segment indices) or None when it has neither (board core); ``kinds``: per
    segment, its kind; ``marks``: marks printed on the tile as a whole, not on
    one segment (words of the tile set's ``marks``).  Two designs are equal when
    their id, design, count, segments and marks are (the rest is worked out from them).
    """

    __slots__ = ("id", "design", "count", "segments", "orientations", "unique_rotations", "backlinks", "extras",
                 "kinds", "marks")
    _fields = ("id", "design", "count", "segments", "orientations", "unique_rotations", "backlinks", "extras",
               "kinds", "marks")

    def __init__(self, id: str, design: str, count: int, segments: tuple[Segment, ...],
                 orientations: tuple[Orientation, ...], unique_rotations: tuple[int, ...],
                 backlinks: tuple[tuple[int, ...], ...], extras: tuple[Any, ...] = (), kinds: tuple[str, ...] = (),
                 marks: tuple[str, ...] = ()) -> None:
        self.id: Final = id
        self.design: Final = design
        self.count: Final = count
        self.segments: Final = segments
        self.orientations: Final = orientations
        self.unique_rotations: Final = unique_rotations
        self.backlinks: Final = backlinks
        self.extras: Final = extras
        self.kinds: Final = kinds
        self.marks: Final = marks

    def _key(self) -> tuple[object, ...]:
        return (self.id, self.design, self.count, self.segments, self.marks)

    @classmethod
    def build(cls, id: str, design: str, count: int, segments: tuple[Segment, ...],
              marks: tuple[str, ...] = ()) -> TileDesign:
        """Make a design and precompute its orientations."""
        orients = tuple(_orient(segments, r) for r in (0, 90, 180, 270))
        unique: list[int] = []
        seen: set[Any] = set()
        for o in orients:
            if o.canonical not in seen:
                seen.add(o.canonical)
                unique.append(o.rotation)
        back: list[list[int]] = [[] for _ in segments]
        for si, seg in enumerate(segments):
            for li in seg.links:
                back[li].append(si)
        backlinks = tuple(tuple(b) for b in back)
        extras = tuple((dict(seg.symbols), seg.links + backlinks[i]) if seg.symbols or seg.links or backlinks[i] else None
                       for i, seg in enumerate(segments))
        return cls(id, design, count, segments, orients, tuple(unique), backlinks, extras,
                   tuple(seg.kind for seg in segments), marks)

    def orientation(self, rotation: int) -> Orientation:
        """The design turned ``rotation`` degrees (0, 90, 180 or 270)."""
        return self.orientations[rotation // 90]

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled as what it is built from; the orientations are worked out again
        return (TileDesign.build, (self.id, self.design, self.count, self.segments, self.marks))


    def __repr__(self) -> str:
        return f"<TileDesign {self.id} (design {self.design}) x{self.count}: {len(self.segments)} segments>"


class TileSet(Value):
    """A box of tiles: the designs by id, the start tile, and an optional token supply.

    Two sets are equal when everything but ``by_id`` (the designs by id, made from ``tiles``) is.
    """

    __slots__ = ("name", "game", "description", "start", "tiles", "tokens", "kinds", "by_id")
    _fields = ("name", "game", "description", "start", "tiles", "tokens", "kinds", "by_id")

    def __init__(self, name: str, game: str, description: str, start: str, tiles: tuple[TileDesign, ...],
                 tokens: tuple[tuple[int, int], ...] = (), kinds: tuple[str, ...] = (),
                 by_id: dict[str, TileDesign] | None = None) -> None:
        self.name: Final = name
        self.game: Final = game
        self.description: Final = description
        self.start: Final = start
        self.tiles: Final = tiles
        self.tokens: Final = tokens
        self.kinds: Final = kinds
        self.by_id: Final[dict[str, TileDesign]] = {} if by_id is None else by_id

    def _key(self) -> tuple[object, ...]:
        return (self.name, self.game, self.description, self.start, self.tiles, self.tokens, self.kinds)

    def __getitem__(self, tile_id: str) -> TileDesign:
        return self.by_id[tile_id]

    def __reduce__(self) -> tuple[Any, ...]:
        return (TileSet, (self.name, self.game, self.description, self.start, self.tiles, self.tokens, self.kinds,
                          dict(self.by_id)))

    def __contains__(self, tile_id: object) -> bool:
        return tile_id in self.by_id

    def __iter__(self) -> Iterator[TileDesign]:
        return iter(self.tiles)

    def __len__(self) -> int:
        return len(self.tiles)

    @property
    def total(self) -> int:
        """Number of tiles in the box, start tile included."""
        return sum(t.count for t in self.tiles)

    @property
    def token_counts(self) -> dict[int, int]:
        """Token value -> number of such tokens."""
        return dict(self.tokens)

    @property
    def token_total(self) -> int:
        """Number of tokens in the box."""
        return sum(n for _, n in self.tokens)

    def __repr__(self) -> str:
        return f"<TileSet {self.name}: {len(self.tiles)} ids, {self.total} tiles, start {self.start}>"


# --------------------------------------------------------------------------
# loading
# --------------------------------------------------------------------------

def _fail(source: str, path: str, message: str) -> GrnError:
    return GrnError(f"{source}: {path}: {message}")


def _segment_from_dict(raw: Mapping[str, Any], source: str, path: str) -> Segment:
    if not isinstance(raw, Mapping):
        raise _fail(source, path, "a segment must be an object")
    kind = raw.get("kind")
    if not isinstance(kind, str) or not kind:
        raise _fail(source, path + ".kind", "missing or not a string")
    edges = raw.get("edges", [])
    if not isinstance(edges, list):
        raise _fail(source, path + ".edges", "must be a list of place names")
    places: list[int] = []
    for j, name in enumerate(edges):
        if name not in PLACE_INDEX:
            raise _fail(source, f"{path}.edges[{j}]", f"unknown place {name!r}; the places are {' '.join(POSITIONS)}")
        if PLACE_INDEX[name] in places:
            raise _fail(source, f"{path}.edges[{j}]", f"place {name} listed twice")
        places.append(PLACE_INDEX[name])
    ends = raw.get("ends", [])
    if not isinstance(ends, list) or not all(isinstance(e, str) for e in ends):
        raise _fail(source, path + ".ends", "must be a list of words")
    links = raw.get("links", [])
    if not isinstance(links, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in links):
        raise _fail(source, path + ".links", "must be a list of segment indices")
    borders = raw.get("borders", [])
    if not isinstance(borders, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in borders):
        raise _fail(source, path + ".borders", "must be a list of segment indices")
    symbols: list[tuple[str, int]] = []
    for key, value in raw.items():
        if key in RESERVED_KEYS:
            continue
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise _fail(source, f"{path}.{key}", "a symbol count must be a non-negative integer")
        if value:
            symbols.append((key, value))
    return Segment(kind, tuple(sorted(places)), tuple(ends), tuple(links), tuple(sorted(symbols)), tuple(borders))


def _check_design(segments: tuple[Segment, ...], roles: Mapping[str, str], source: str, path: str) -> None:
    owner: dict[int, int] = {}
    for si, seg in enumerate(segments):
        for p in seg.places:
            if p in owner:
                raise _fail(source, f"{path}.segments[{si}].edges",
                            f"place {POSITIONS[p]} is already in segment {owner[p]}")
            owner[p] = si
    missing = [POSITIONS[p] for p in range(12) if p not in owner]
    if missing:
        raise _fail(source, f"{path}.segments", f"places {' '.join(missing)} are in no segment")
    for si, seg in enumerate(segments):
        spath = f"{path}.segments[{si}]"
        role = roles.get(seg.kind)
        if role == "path":
            if any(p not in EDGE_MIDDLES for p in seg.places):
                raise _fail(source, spath + ".edges", f"a {seg.kind} meets edges only at N, E, S or W")
            if len(seg.places) + len(seg.ends) != 2:
                raise _fail(source, spath, f"a {seg.kind} has two ends: edges + ends must be 2, "
                                           f"not {len(seg.places)} + {len(seg.ends)}")
        elif seg.ends and roles:
            paths = sorted(k for k, r in roles.items() if r == "path")
            raise _fail(source, spath + ".ends", f"only {'/'.join(paths) or 'path'} segments have ends")
        if role == "centre" and seg.places:
            raise _fail(source, spath + ".edges", f"a {seg.kind} sits in the centre and holds no edge")
        if role == "edge":
            for p in seg.places:
                e = p // 3
                if not all(q in seg.places for q in (3 * e, 3 * e + 1, 3 * e + 2)):
                    raise _fail(source, spath + ".edges", f"a {seg.kind} holds whole edges "
                                                          f"(edge {'NESW'[e]} is only partly listed)")
        for bi in seg.borders:
            if not 0 <= bi < len(segments) or bi == si:
                raise _fail(source, spath + ".borders", f"segment index {bi} does not name another segment")
        for li in seg.links:
            if not 0 <= li < len(segments) or li == si:
                raise _fail(source, spath + ".links", f"segment index {li} does not name another segment")
            if seg.kind not in segments[li].ends:
                raise _fail(source, spath + ".links",
                            f"segment {li} is linked but does not end in a {seg.kind}")
    linking_kinds = {seg.kind for seg in segments if seg.links}
    for si, seg in enumerate(segments):
        for end in seg.ends:
            if end in linking_kinds and not any(si in other.links for other in segments if other.kind == end):
                raise _fail(source, f"{path}.segments[{si}].ends",
                            f"ends in a {end} but no {end} segment lists it")


def tileset_from_dict(data: Mapping[str, Any], source: str = "<tileset>") -> TileSet:
    """Build a :class:`TileSet` from a parsed JSON object, checking the structural invariants.

    Raises :class:`~grn.core.errors.GrnError` with a one-line message naming
    ``source`` and the JSON path of the first problem.
    """
    if not isinstance(data, Mapping):
        raise _fail(source, "$", "a tile set must be an object")
    raw_tiles = data.get("tiles")
    if not isinstance(raw_tiles, list) or not raw_tiles:
        raise _fail(source, "$.tiles", "must be a non-empty list")
    designs: list[TileDesign] = []
    by_id: dict[str, TileDesign] = {}
    kinds_declared = data.get("kinds")
    roles: dict[str, str] = {}
    if isinstance(kinds_declared, Mapping):
        for kind, role in kinds_declared.items():
            if role not in ROLES:
                raise _fail(source, f"$.kinds.{kind}", f"role {role!r} is not one of {', '.join(ROLES)}")
            roles[str(kind)] = str(role)
        kinds_declared = list(roles)
    for ti, raw in enumerate(raw_tiles):
        path = f"$.tiles[{ti}]"
        if not isinstance(raw, Mapping):
            raise _fail(source, path, "a tile must be an object")
        tid = raw.get("id")
        if not isinstance(tid, str) or not tid:
            raise _fail(source, path + ".id", "missing or not a string")
        if tid in by_id:
            raise _fail(source, path + ".id", f"tile id {tid!r} is used twice")
        count = raw.get("count", 1)
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise _fail(source, path + ".count", "must be a positive integer")
        raw_segs = raw.get("segments")
        if not isinstance(raw_segs, list) or not raw_segs:
            raise _fail(source, path + ".segments", "must be a non-empty list")
        segs = tuple(_segment_from_dict(s, source, f"{path}.segments[{si}]") for si, s in enumerate(raw_segs))
        if isinstance(kinds_declared, list):
            for si, seg in enumerate(segs):
                if seg.kind not in kinds_declared:
                    raise _fail(source, f"{path}.segments[{si}].kind",
                                f"kind {seg.kind!r} is not in the set's kinds {kinds_declared}")
        _check_design(segs, roles, source, path)
        marks = raw.get("marks", [])
        if not isinstance(marks, list) or not all(isinstance(m, str) and m for m in marks):
            raise _fail(source, path + ".marks", "must be a list of words")
        d = TileDesign.build(tid, str(raw.get("design", tid)), count, segs, tuple(marks))
        designs.append(d)
        by_id[tid] = d
    start = data.get("start")
    if start not in by_id:
        raise _fail(source, "$.start", f"start tile {start!r} is not a tile id of the set")
    tokens_raw = data.get("tokens", {})
    if not isinstance(tokens_raw, Mapping):
        raise _fail(source, "$.tokens", "must be an object value -> count")
    tokens: list[tuple[int, int]] = []
    for key, n in tokens_raw.items():
        try:
            value = int(key)
        except (TypeError, ValueError):
            raise _fail(source, f"$.tokens.{key}", "a token value must be an integer") from None
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise _fail(source, f"$.tokens.{key}", "a token count must be a non-negative integer")
        tokens.append((value, n))
    total = data.get("total")
    if total is not None and total != sum(d.count for d in designs):
        raise _fail(source, "$.total", f"the counts add up to {sum(d.count for d in designs)}, not {total}")
    kinds = tuple(kinds_declared) if isinstance(kinds_declared, list) else tuple(
        sorted({s.kind for d in designs for s in d.segments}))
    return TileSet(str(data.get("name", "")), str(data.get("game", data.get("name", ""))),
                   str(data.get("description", "")), str(start), tuple(designs), tuple(sorted(tokens)),
                   kinds, by_id)


_SCHEMA_VALIDATOR: Any = None


def _schema_validator() -> Any:
    """The jsonschema validator of ``schemas/tileset.schema.json`` (None when the file is absent)."""
    global _SCHEMA_VALIDATOR
    if _SCHEMA_VALIDATOR is None:
        try:
            text = shipped.read_text("grn.schemas", "tileset.schema.json")
        except (FileNotFoundError, ModuleNotFoundError, OSError):
            _SCHEMA_VALIDATOR = False
            return None
        import jsonschema

        schema = json.loads(text)
        cls = jsonschema.validators.validator_for(schema)
        _SCHEMA_VALIDATOR = cls(schema)
    return _SCHEMA_VALIDATOR or None


_CACHE: dict[tuple[str, str], TileSet] = {}


def load_shipped_tileset(package: str, file: str = "tileset.json") -> TileSet:
    """A tile set shipped in a game's package (``grn/games/<game>/tileset.json``), loaded once.

    The shipped sets are checked against the schema by the tests, not here:
    checking them on every run would cost a tenth of a second (most of it
    importing jsonschema) for data that cannot change.
    """
    key = (package, file)
    hit = _CACHE.get(key)
    if hit is None:
        source = f"{package.replace('.', '/')}/{file}"
        try:
            text = shipped.read_text(package, file)
        except (FileNotFoundError, ModuleNotFoundError, OSError):
            raise GrnError(f"{source}: no such shipped tile set") from None
        hit = _CACHE[key] = _from_text(text, source, check_schema=False)
    return hit


def load_tileset(path: str | Path) -> TileSet:
    """Load a tile set from a JSON file (``--tileset FILE``).

    The data is checked against ``schemas/tileset.schema.json`` and against the
    structural invariants; a problem raises :class:`~grn.core.errors.GrnError` with
    a one-line message naming the file and the JSON path.
    """
    source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise GrnError(f"{source}: cannot read: {exc.strerror or exc}") from None
    return _from_text(text, source, check_schema=True)


def _from_text(text: str, source: str, check_schema: bool) -> TileSet:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise GrnError(f"{source}:{exc.lineno}:{exc.colno}: not valid JSON: {exc.msg}") from None
    validator = _schema_validator() if check_schema else None
    if validator is not None:
        import jsonschema

        error = jsonschema.exceptions.best_match(validator.iter_errors(data))
        if error is not None:
            message = error.message.splitlines()[0]
            if len(message) > 200:
                message = message[:197] + "..."
            raise GrnError(f"{source}: {error.json_path}: {message}")
    return tileset_from_dict(data, source)
