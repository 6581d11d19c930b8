"""What every tile-laying ruleset shares: its tile set, and diagram markup that points at tiles.

Markup in a tile-laying game names a tile ``x,y`` or a feature ``x,y:PLACE``,
and ``<ghost 17@2,0:90>`` shows a tile that is not there.
"""

from __future__ import annotations

import random
import re
from typing import TYPE_CHECKING, Any, Sequence, TypeVar, cast

from grn.rules.choices import ChoiceError, Option, Step, finished
from grn.core.errors import IllegalAction
from grn.core.record import Command, Markup, Record
from grn.rules.ruleset import PositionLike, Puzzles, Ruleset, Suggestion
from grn.games.tiling.commands import PlaceFigure, PlaceTile
from grn.games.tiling import markup
from grn.games.tiling.world import TileWorld, tile_hand
from grn.games.tiling.places import LOCATIONS, ROTATIONS
from grn.games.tiling.tiles import Segment, TileDesign, TileSet
from grn.rules.world import Decision

if TYPE_CHECKING:
    from grn.games.tiling.engine import TileEngine

#: The game's rules engine, a tile-laying one.
T = TypeVar("T", bound="TileEngine")

_LOOSE_PLACE = re.compile(r":([A-Z]+)$")
_LEADING_NUMBER = re.compile(r"^(\d+)(.*)$")


class TilePuzzles(Puzzles[T]):
    """A tile-laying game's puzzles: the answer is where the tile goes."""

    def answer(self, engine: T, decision: Decision) -> Decision:
        """The tile's placement (R397): a puzzle asks where the tile goes; the figure or tent that follows is
        the best of that placement's moves, shown with the solution but not asked for."""
        return next((c for c in cast(Sequence[Command], decision) if isinstance(c, PlaceTile)), decision)


class TileRuleset(Ruleset[T]):
    """A :class:`~grn.rules.ruleset.Ruleset` for a tile-laying game on :mod:`grn.games.tiling`, generic in the
    game's :class:`~grn.games.tiling.engine.TileEngine` subclass ``T``."""

    uses_tileset = True
    #: The shipped tile set, (package, file name): :meth:`default_tileset` reads it.
    _tileset: tuple[str, str] = ("", "tileset.json")
    #: The bots' world of the game (its follow-ups and values, :mod:`grn.games.tiling.world`): :meth:`determinise`
    #: samples it.
    _world_class: type[TileWorld] = TileWorld
    #: A puzzle asks where the tile goes.
    puzzles: Puzzles[T] = TilePuzzles()

    def determinise(self, engine: T, rng: random.Random, hand: tuple[str, ...] = ()) -> TileWorld:
        """The bag shuffled, the tiles of ``hand`` (drawn this turn) on top."""
        return self._world_class.sample(self, engine, rng, hand)

    def unseen(self, engine: T, hand: tuple[str, ...] = ()) -> dict[str, dict[str, int]]:
        """The bag's contents (tile id and copies left), the tiles in hand taken out; not its order."""
        bag = engine.bag()
        for tile in hand:
            bag[tile] = bag.get(tile, 0) - 1
        return {"bag": {tile: n for tile, n in sorted(bag.items()) if n > 0}}

    def hand_of(self, actions: Sequence[Command]) -> tuple[str, ...]:
        """The tiles the turn drew: the player saw them before choosing."""
        return tile_hand(actions)

    def picked_hand(self, engine: T, picked: Sequence[str]) -> tuple[str, ...]:
        """The tiles drawn this turn, as the recorder was told them: those that fit nowhere, then the one to
        place.  The best move depends on the tile, so one must be told."""
        bag = engine.bag()
        hand: list[str] = []
        for tile in picked:
            if bag.get(tile, 0) <= 0:
                raise ChoiceError(f"tile {tile!r} is not in the bag")
            hand.append(tile)
            bag[tile] -= 1
            if engine.legal_placements(tile):
                return tuple(hand)
        raise ChoiceError("pick the tile drawn first: the best move depends on it")

    def action_words(self, command: Command) -> str:
        """Placing and discarding a tile in words (``tile 61 at -2,4 turned 270°``); the game's own commands
        as the game says them."""
        from grn.games.tiling.commands import DiscardTile, PlaceTile

        if isinstance(command, PlaceTile):
            turned = f" turned {command.rotation}\u00b0" if command.rotation else ""
            return f"tile {command.tile} at {command.x},{command.y}{turned}"
        if isinstance(command, DiscardTile):
            return f"discards tile {command.tile} (it fits nowhere)"
        return super().action_words(command)

    #: What a figure is called on each kind of feature (``{"city": "knight"}``): the review names a
    #: follower by its role on the tile just placed (R358), in :meth:`turn_words`.  A game without roles leaves
    #: it empty.
    _roles: dict[str, str] = {}

    def turn_words(self, actions: Sequence[Command], tileset: TileSet | None = None) -> str:
        """A turn's actions in words, each figure by its role on the tile placed before it (``knight on N``
        rather than ``follower on N``); ``tileset`` defaults to the shipped one."""
        out: list[str] = []
        placed: PlaceTile | None = None
        for command in actions:
            if isinstance(command, PlaceTile):
                placed = command
            elif isinstance(command, PlaceFigure) and placed is not None and self._roles:
                role = self._role_at(placed, command.location, tileset or self.default_tileset())
                if role:
                    out.append(f"{role} on {command.location}")
                    continue
            out.append(self.action_words(command))
        return ", ".join(out)

    def _role_at(self, placed: PlaceTile, location: str, tileset: TileSet) -> str | None:
        """The role of a figure at ``location`` of the tile ``placed`` (None when the place names nothing)."""
        from grn.games.tiling.engine import TileEngine

        design = tileset.by_id.get(placed.tile)
        if design is None or placed.rotation % 90:
            return None
        sid = TileEngine._segment_of(design, design.orientations[placed.rotation // 90 % 4], 0, location)
        return self._roles.get(design.segments[sid].kind) if sid >= 0 else None

    def decision_words(self, engine: T, decision: Decision) -> str:
        """A decision in words for the review, its figure named by its role."""
        return self.turn_words(tuple(cast(Sequence[Command], decision)), engine.tileset)

    def default_tileset(self) -> TileSet:
        """The shipped tile set (loaded once)."""
        from grn.games.tiling.tiles import load_shipped_tileset

        return load_shipped_tileset(*self._tileset)

    def load_tileset(self, path: Any) -> TileSet:
        """A tile set read from the JSON file at ``path`` (``--tileset``), checked."""
        from grn.games.tiling.tiles import load_tileset

        return load_tileset(path)

    def tile_table(self, tileset: TileSet) -> list[str]:
        """Every tile id of ``tileset`` as a line: copies, what lies on each edge, what joins what (``city N+W``
        is one feature on two edges, ``city N, city W`` two; a path's end inside the tile after a dash), what
        lies inside, and the symbols and marks printed on it."""
        fields = _field_kinds(tileset)
        rows = []
        for design in tileset.tiles:
            edges, inside, symbols = _tile_facts(design)
            joins = ", ".join(_joins(seg) for seg in design.segments if seg.places and seg.kind not in fields)
            rows.append((design.id, design.count, edges, inside, joins or "-", symbols))
        width = max([len("joins")] + [len(r[4]) for r in rows]) + 2
        lines = [f"{self.title}: {len(tileset.tiles)} tile ids, {tileset.total} tiles (start: {tileset.start})",
                 f"{'id':<6}{'copies':>6}  {'N':<10}{'E':<10}{'S':<10}{'W':<10}{'inside':<12}"
                 f"{'joins':<{width}}symbols"]
        for tid, count, edges, inside, joins, symbols in rows:
            lines.append((f"{tid:<6}{count:>6}  " + "".join(f"{e:<10}" for e in edges)
                          + f"{inside:<12}{joins:<{width}}{symbols}").rstrip())
        return lines

    def open_squares(self, position: PositionLike) -> dict[str, int]:
        """Each empty square beside a tile (``x,y``, sorted) and how many tiles left in the bag fit it in some
        rotation; 0: no tile left can fill it (the game may end with that hole)."""
        state = position.state
        board = state.board
        bag = [(tile, left) for tile, left in state.bag().items() if left > 0]
        counts: dict[str, int] = {}
        for (x, y) in sorted(board.frontier):
            fits = board.designs_fitting(x, y)
            counts[f"{x},{y}"] = sum(left for tile, left in bag if tile in fits)
        return counts

    def choice_words(self, command: Command) -> tuple[str, ...]:
        """A placement is three choices of the tree (the tile, the square, the rotation), a discard the tile
        drawn; the game's own commands are one each."""
        from grn.games.tiling.commands import DiscardTile, PlaceTile

        if isinstance(command, PlaceTile):
            return (command.tile, f"{command.x},{command.y}", str(command.rotation))
        if isinstance(command, DiscardTile):
            return (command.tile,)
        return super().choice_words(command)

    def word_info(self, word: str, engine: T) -> str | None:
        """A tile id: what lies on its edges and inside, its symbols, and how many are left in the bag."""
        tile = word.partition("@")[0]
        tileset = engine.tileset
        if tile not in tileset:
            return None
        edges, inside, symbols = _tile_facts(tileset[tile])
        text = f"tile {tile}: " + ", ".join(f"{side} {kind}" for side, kind in zip("NESW", edges))
        text += f"; inside: {inside}" if inside != "-" else ""
        text += f"; {symbols}" if symbols else ""
        return text + f"; {engine.bag().get(tile, 0)} left in the bag"

    def legal_problem(self, position: PositionLike) -> str | None:
        from grn.games.tiling.commands import PlaceFigure, PlaceTile

        if position.final or position.state.is_over:
            return "the game is over: no tile is left to place"
        asked = position.asked
        if asked is not None:
            tileset = position.state.tileset
            if asked not in tileset:
                return f"--tile {asked}: there is no tile {asked} in the tile set (grn tiles lists them)"
            if position.state.bag().get(asked, 0) <= 0:
                return f"--tile {asked}: no tile {asked} is left in the bag at this position"
            return None
        turn = position.next_turn()
        if turn is None:
            return "the record's line ends here, so it does not say which tile comes next"
        if not any(isinstance(a, PlaceTile) for a in turn.actions):
            return f"turn {turn.number} places no tile, so the next tile is not known"
        return None

    def header_warnings(self, record: Record, engine: T) -> list[tuple[str, str]]:
        named = record.tag("Tileset")
        tileset = engine.tileset
        if named is not None and named.strip() != tileset.name:
            return [("Tileset", f"the Tileset tag names {named.strip()!r}, but the game is checked with the tile set "
                                f"{tileset.name!r}: pass the right one with --tileset FILE")]
        return []

    def target_problem(self, kind: str, word: str, engine: T) -> str | None:
        problem = markup.point_problem(word)
        place = _LOOSE_PLACE.search(word)
        if (problem is None or markup.is_point_shaped(word)) and place is not None and place.group(1) not in LOCATIONS:
            return f"<{kind}>: {place.group(1)!r} is not a place on a tile: use one of {' '.join(LOCATIONS)}"
        return None if problem is None else f"<{kind}>: {problem}"

    def best_move_markup(self, actions: Sequence[Command]) -> list[Markup]:
        """The best move's tile as a ghost where it would have gone (``<ghost 33@2,0:90>``), and a ring on the
        feature where it puts a figure (``<highlight 2,0:N>``)."""
        out: list[Markup] = []
        tile: PlaceTile | None = None
        for a in actions:
            if isinstance(a, PlaceTile):
                tile = a
                out.append(Markup("ghost", (f"{a.tile}@{a.x},{a.y}:{a.rotation}",)))
            elif isinstance(a, PlaceFigure) and tile is not None:
                out.append(Markup("highlight", (f"{tile.x},{tile.y}:{a.location}",)))
        return out

    def ghost_problem(self, word: str, engine: T) -> str | None:
        g = markup.ghost(word)
        if g is None:
            return f"<ghost {word}>: write a placement such as 17@2,0:90"
        tile, _, _, rotation = g
        if tile not in engine.tileset:
            return f"<ghost>: there is no tile {tile} in the tile set"
        if rotation not in ROTATIONS:
            return f"<ghost>: rotation {rotation} is not one of 0, 90, 180, 270"
        return None

    # -- the turn's choices (grn.rules.choices: the recorder, the editor, the bots) ----------------------
    def choice_point(self, engine: T, chosen: Sequence[str], memo: dict[Any, Any] | None = None) -> Step | None:
        """The tile drawn (a chance point of the bag, with its copies left; one that fits nowhere is set aside
        and the next tile drawn), the square (every square where it fits), the rotation (those that fit there:
        the option adds the placement), then what the game lets follow (:meth:`followup_step`)."""
        from grn.games.tiling.commands import DiscardTile

        if engine.is_over:
            return Step("The game is over: no tile is left in the bag")
        memo = {} if memo is None else memo
        bag = engine.bag()
        done: list[DiscardTile] = []
        words = list(chosen)
        i = 0
        while True:
            left = {t: n for t, n in bag.items() if n > 0}
            note = "".join(f"tile {d.tile} fits nowhere and is set aside; " for d in done)
            if not left:
                # every tile left was set aside: the turn is those discards, and the game ends
                return finished(tuple(done), "; ".join(self.action_words(a) for a in done))
            if i == len(words):
                opts = tuple(Option(t, f"tile {t}", count=n, picture=t) for t, n in sorted(left.items(), key=_id_order))
                return Step(f"{note}which tile was drawn?" if note else "Which tile was drawn?", opts, chance="bag")
            tile = words[i]
            if tile not in left:
                raise ChoiceError(f"tile {tile!r} is not in the bag")
            i += 1
            placements = memo.get(("placements", tile))
            if placements is None:
                placements = memo[("placements", tile)] = engine.legal_placements(tile)
            if placements:
                break
            done.append(DiscardTile(tile))
            bag[tile] -= 1
        squares: dict[tuple[int, int], list[PlaceTile]] = {}
        for p in placements:
            squares.setdefault((p.x, p.y), []).append(p)
        if i == len(words):
            return Step(f"{note}Where does tile {tile} go?",
                        tuple(Option(f"{x},{y}", f"at {x},{y}", f"highlight {x},{y}") for x, y in sorted(squares)))
        try:
            x, y = (int(v) for v in words[i].split(","))
            fits = squares[(x, y)]
        except (ValueError, KeyError):
            raise ChoiceError(f"tile {tile} does not fit at {words[i]!r}") from None
        i += 1
        if i == len(words):
            return Step(f"Turn tile {tile} at {x},{y}",
                        tuple(Option(str(p.rotation), f"turned {p.rotation}\u00b0", f"ghost {tile}@{x},{y}:{p.rotation}",
                                     command=p)
                              for p in fits))
        placement = next((p for p in fits if str(p.rotation) == words[i]), None)
        if placement is None:
            raise ChoiceError(f"tile {tile} does not fit at {x},{y} turned {words[i]!r}")
        return self.followup_step(engine, tuple(done), placement, words[i + 1:], memo)

    def tile_picture(self, tile_id: str) -> str | None:
        """Tile ``tile_id`` of the shipped set, unturned, alone as a small SVG, for a page that offers it
        (None: the game draws no tile alone, or there is no such tile)."""
        return None

    def followup_step(self, engine: T, before: tuple[Command, ...], placement: PlaceTile, picked: Sequence[str],
                      memo: dict[Any, Any] | None = None) -> Step:
        """What may follow ``placement`` (after the tiles set aside, ``before``), after the words ``picked``
        (``memo``: :meth:`choice_point`'s).

        Default: nothing, the turn is the placement.  A game offers its pieces here, from its engine.
        """
        if picked:
            raise ChoiceError(f"{picked[0]!r} is not a choice here: the turn is whole")
        actions = (*before, placement)
        return finished(actions, "; ".join(self.action_words(a) for a in actions))


def _id_order(item: tuple[str, int]) -> tuple[int, str]:
    """Tile ids in the order a player reads them: by their number (``01a`` beside ``1``), then the rest."""
    m = _LEADING_NUMBER.match(item[0])
    return (int(m.group(1)), m.group(2)) if m else (1 << 30, item[0])

def _field_kinds(tileset: TileSet) -> set[str]:
    """The kinds that play the field role in ``tileset``: some segment of theirs holds half an edge whose
    middle it does not hold (a path holds edge middles only, an edge-role kind whole edges)."""
    out: set[str] = set()
    for design in tileset.tiles:
        for seg in design.segments:
            held = set(seg.places)
            if any(p % 3 != 1 and (3 * (p // 3) + 1) not in held for p in held):
                out.add(seg.kind)
    return out


def _joins(seg: Segment) -> str:
    """One feature of a tile in words: its kind, the edges it touches joined by ``+``, and where a path
    ends inside the tile (``road S-junction``)."""
    edges = "+".join("NESW"[e] for e in sorted({p // 3 for p in seg.places}))
    ends = "".join(f"-{end}" for end in seg.ends)
    return f"{seg.kind} {edges}{ends}"


def _tile_facts(design: TileDesign) -> tuple[list[str], str, str]:
    """What lies on a tile's four edges (N E S W), inside it, and the symbols and marks printed on it, in words."""
    from grn.games.tiling.places import EDGE_MIDDLES

    segments = design.segments
    owner = {p: seg for seg in segments for p in seg.places}
    edges = [owner[m].kind if m in owner else "?" for m in EDGE_MIDDLES]
    inside = ",".join(seg.kind for seg in segments if not seg.places) or "-"
    counts: dict[str, int] = {}
    for seg in segments:
        for name, n in seg.symbols:
            counts[name] = counts.get(name, 0) + n
    symbols = ", ".join([f"{n} {name}" for name, n in sorted(counts.items())]
                        + [f"{mark} printed" for mark in design.marks])
    return edges, inside, symbols
