"""What every tile-laying ruleset shares: its tile set, and diagram markup that points at tiles.

Markup in a tile-laying game names a tile ``x,y`` or a feature ``x,y:PLACE``,
and ``<ghost 17@2,0:90>`` shows a tile that is not there.
"""

from __future__ import annotations

import re
from typing import Any, Sequence

from grn.errors import IllegalAction
from grn.ruleset import Ruleset, Suggestion
from grn.tiling import markup
from grn.tiling.places import LOCATIONS, ROTATIONS

_LOOSE_PLACE = re.compile(r":([A-Z]+)$")


class TileRuleset(Ruleset):
    """A :class:`~grn.ruleset.Ruleset` for a tile-laying game on :mod:`grn.tiling`."""

    uses_tileset = True
    #: The shipped tile set's package and file.
    tileset_package: str = ""
    tileset_file: str = "tileset.json"

    def action_words(self, command: Any) -> str:
        """Placing and discarding a tile in words (``tile 61 at -2,4 turned 270°``); the game's own commands
        as the game says them."""
        from grn.tiling.commands import DiscardTile, PlaceTile

        if isinstance(command, PlaceTile):
            turned = f" turned {command.rotation}\u00b0" if command.rotation else ""
            return f"tile {command.tile} at {command.x},{command.y}{turned}"
        if isinstance(command, DiscardTile):
            return f"discards tile {command.tile} (it fits nowhere)"
        return super().action_words(command)

    def default_tileset(self) -> Any:
        """The shipped tile set (loaded once)."""
        from grn.tiling.tiles import load_shipped_tileset

        return load_shipped_tileset(self.tileset_package, self.tileset_file)

    def load_tileset(self, path: Any) -> Any:
        from grn.tiling.tiles import load_tileset

        return load_tileset(path)

    def tile_table(self, tileset: Any) -> list[str]:
        """Every tile id of ``tileset`` as a line: copies, what lies on each edge, what lies inside, symbols."""
        lines = [f"{self.title}: {len(tileset.tiles)} tile ids, {tileset.total} tiles (start: {tileset.start})",
                 f"{'id':<6}{'copies':>6}  {'N':<10}{'E':<10}{'S':<10}{'W':<10}{'inside':<12}symbols"]
        for design in tileset.tiles:
            edges, inside, symbols = _tile_facts(design)
            lines.append(f"{design.id:<6}{design.count:>6}  " + "".join(f"{e:<10}" for e in edges)
                         + f"{inside:<12}{symbols}".rstrip())
        return lines

    def suggestions(self, engine: Any, player: str, written: Sequence[Any], word: str) -> list[Suggestion]:
        """Before a tile is written: the tile ids still in the bag, and every legal placement of the tile id
        typed (``17`` or ``17@...``); after it: what may follow the placement (:meth:`follow_ups`)."""
        from grn.tiling.commands import PlaceTile
        from grn.writer import command_text

        placed = [c for c in written if isinstance(c, PlaceTile)]
        if placed:
            return self.follow_ups(engine, player, written, placed[0])
        bag = {t: n for t, n in engine.bag().items() if n > 0}
        tile, at, _ = word.partition("@")
        out: list[Suggestion] = []
        if tile in bag:
            try:
                spots = engine.legal_placements(tile)
            except IllegalAction:
                spots = []
            out += [Suggestion(command_text(p, self), self.action_words(p), "placement") for p in spots]
        if not at:
            out += [Suggestion(t, f"{n} left in the bag", "tile") for t, n in sorted(bag.items())]
        return out

    def follow_ups(self, engine: Any, player: str, written: Sequence[Any], placement: Any) -> list[Suggestion]:
        """What may follow ``placement`` in the turn, after the commands ``written`` (default: nothing)."""
        return []

    def word_info(self, word: str, engine: Any) -> str | None:
        """A tile id: what lies on its edges and inside, its symbols, and how many are left in the bag."""
        tile = word.partition("@")[0]
        tileset = getattr(engine, "tileset", None)
        if tileset is None or tile not in tileset:
            return None
        edges, inside, symbols = _tile_facts(tileset[tile])
        text = f"tile {tile}: " + ", ".join(f"{side} {kind}" for side, kind in zip("NESW", edges))
        text += f"; inside: {inside}" if inside != "-" else ""
        text += f"; {symbols}" if symbols else ""
        return text + f"; {engine.bag().get(tile, 0)} left in the bag"

    def legal_problem(self, position: Any) -> str | None:
        from grn.tiling.commands import PlaceTile

        if position.final or position.state.is_over:
            return "the game is over: no tile is left to place"
        turn = position.next_turn()
        if turn is None:
            return "the record's line ends here, so it does not say which tile comes next"
        if not any(isinstance(a, PlaceTile) for a in turn.actions):
            return f"turn {turn.number} places no tile, so the next tile is not known"
        return None

    def header_warnings(self, record: Any, engine: Any) -> list[tuple[str, str]]:
        named = record.tag("Tileset")
        tileset = engine.tileset
        if named is not None and named.strip() != tileset.name:
            return [("Tileset", f"the Tileset tag names {named.strip()!r}, but the game is checked with the tile set "
                                f"{tileset.name!r}: pass the right one with --tileset FILE")]
        return []

    def target_problem(self, kind: str, word: str, engine: Any) -> str | None:
        problem = markup.point_problem(word)
        place = _LOOSE_PLACE.search(word)
        if (problem is None or markup.is_point_shaped(word)) and place is not None and place.group(1) not in LOCATIONS:
            return f"<{kind}>: {place.group(1)!r} is not a place on a tile: use one of {' '.join(LOCATIONS)}"
        return None if problem is None else f"<{kind}>: {problem}"

    def ghost_problem(self, word: str, engine: Any) -> str | None:
        g = markup.ghost(word)
        if g is None:
            return f"<ghost {word}>: write a placement such as 17@2,0:90"
        tile, _, _, rotation = g
        tileset = getattr(engine, "tileset", None)
        if tileset is not None and tile not in tileset:
            return f"<ghost>: there is no tile {tile} in the tile set"
        if rotation not in ROTATIONS:
            return f"<ghost>: rotation {rotation} is not one of 0, 90, 180, 270"
        return None


def _tile_facts(design: Any) -> tuple[list[str], str, str]:
    """What lies on a tile's four edges (N E S W), inside it, and its symbols, in words."""
    from grn.tiling.places import EDGE_MIDDLES

    segments = design.segments
    owner = {p: seg for seg in segments for p in seg.places}
    edges = [owner[m].kind if m in owner else "?" for m in EDGE_MIDDLES]
    inside = ",".join(seg.kind for seg in segments if not seg.places) or "-"
    counts: dict[str, int] = {}
    for seg in segments:
        for name, n in seg.symbols:
            counts[name] = counts.get(name, 0) + n
    return edges, inside, ", ".join(f"{n} {name}" for name, n in sorted(counts.items()))
