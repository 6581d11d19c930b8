"""Carcassonne (base game, the rules since 2014) with The Gold Mines mini-expansion.

The package holds the rules engine (:mod:`.rules`), the game's commands and
codecs (:mod:`.commands`: followers, the second gold ingot, the ingots taken;
placing and discarding tiles are :mod:`grn.games.tiling.commands`), its options
(:mod:`.options`), grammar (``carcassonne.lark``), tile set (``tileset.json``:
the 72 base tiles A-X and the 8 Gold Mines tiles), drawing (:mod:`.render`)
and self-play (:mod:`.selfplay`).  :data:`RULESET` is what :mod:`grn.games` finds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from grn.games.carcassonne import bot
from grn.games.carcassonne.commands import CODECS, PlaceFollower, PlaceIngot, TakeIngot
from grn.games.carcassonne.options import MAX_COPIES, OPTIONS_HELP, Options, parse_options, start_of
from grn.games.carcassonne.rules import CarcassonneState
from grn.games.carcassonne.terms import ROLE, SEC_GENERAL
from grn.core.errors import IllegalAction
from grn.core.record import Record, Seat
from grn.rules.ruleset import PLAIN, Drawing, PositionLike, Panel, SetupProblem, Suggestion
from grn.games.tiling.commands import DiscardTile, PlaceTile, tile_codecs
from grn.games.tiling.ruleset import TilePuzzles, TileRuleset

if TYPE_CHECKING:
    from grn.games.carcassonne.render import TileDefs
    import random

    from grn.core.record import Command
    from grn.rules.choices import Step
    from grn.rules.engine import Event
    from grn.rules.interop import Exporter, Importer
    from grn.rules.world import Decision, World
    from grn.games.tiling.tiles import TileSet
    from grn.rules.selfplay import SelfPlayGame

__all__ = ["RULESET", "CarcassonneRuleset", "CarcassonneState", "Options", "parse_options", "PlaceTile",
           "DiscardTile", "PlaceFollower", "PlaceIngot", "TakeIngot"]

class CarcassonnePuzzles(TilePuzzles[CarcassonneState]):
    """The themes of :mod:`grn.games.carcassonne.themes` (``grn puzzles``)."""

    theme_names = ("close a city", "close a road", "cloister", "farm", "steal a feature", "join a feature",
                   "blocked feature", "gold ingot race")

    def themes(self, before: CarcassonneState, after: CarcassonneState, player: str, actions: Sequence[Command],
               events: Sequence[Event]) -> tuple[str, ...]:
        """What the turn did, in the words of :attr:`theme_names`."""
        # here, not at the top: the themes read the shapes with dataclasses, which grn validate never loads
        from grn.games.carcassonne.themes import themes

        return themes(before, after, player, actions, events)


class CarcassonneRuleset(TileRuleset[CarcassonneState]):
    """Carcassonne: 2 to 5 players, 72 land tiles (80 with The Gold Mines), 7 followers each."""

    name = "carcassonne"
    aliases = ("carcassonne base", "carcassonne: the gold mines")
    title = "Carcassonne"
    #: Its puzzles' themes.
    puzzles = CarcassonnePuzzles()
    _grammar = (__name__, "carcassonne.lark")
    # "ingot@1,1" and "take@1,0" are commands, so no tile may be called "ingot" or "take"
    codecs = tile_codecs(reserved=("ingot", "take")) + CODECS
    _players_section = SEC_GENERAL
    options_help = OPTIONS_HELP
    option_names = frozenset({"goldmines", "farmers", "smallcity", "basic"})
    render_options = frozenset({"legal", "diagram"})
    _tileset = (__name__, "tileset.json")

    def parse_options(self, words: dict[str, str]) -> Options:
        return parse_options(words)

    def new_engine(self, record: Record, seats: list[Seat], first: str | None,
                   tileset: TileSet | None = None) -> CarcassonneState:
        options = self.parse_options(record.options())
        start = start_of(record)
        try:
            return CarcassonneState.new(tileset or self.default_tileset(), [s.key for s in seats], options,
                                        first=first, start=start)
        except IllegalAction as exc:
            if start is None:
                raise
            raise SetupProblem(f"Start tag: {exc.message}", "start", tag="Start") from None

    def render_svg(self, position: PositionLike, drawing: Drawing = PLAIN, *,
                   shared_defs: TileDefs | None = None) -> str:
        from grn.games.carcassonne.render import render_position

        return render_position(position, legal=drawing.legal, width=drawing.width, defs=shared_defs,
                               diagram=drawing.diagram, crop=drawing.crop, caption=drawing.caption,
                               panel=drawing.panel)

    def player_panel(self, position: PositionLike) -> Panel:
        """The panel in words: the viewer shows it beside the board, readable whatever the board's size."""
        from grn.games.carcassonne.render import panel_text

        return panel_text(position)

    def page_defs(self) -> TileDefs:
        from grn.games.carcassonne.render import TileDefs

        return TileDefs("cct")

    def page_defs_svg(self, shared: TileDefs) -> str:
        return str(shared.defs())

    def render_tile_sheet(self, tileset: TileSet, *, columns: int = 6) -> str:
        from grn.games.carcassonne.render import render_tile_sheet

        return render_tile_sheet(tileset, columns=columns)

    def _notation_extras(self, engine: CarcassonneState, player: str, written: Sequence[Command]) -> list[Suggestion]:
        """With The Gold Mines, after the placement: ``take@`` on each tile the next ingot handed out may come
        from (any tile that holds one, the new tile and the second ingot's square included), each only if the
        engine takes the turn with it added.  Not a choice of the turn's tree: the taker, often another player,
        chooses, and the tree plays the default choice (R37, R102); a record may still write it (R420)."""
        from grn.notation.writer import command_text

        placement = next((c for c in written if isinstance(c, PlaceTile)), None)
        mines = engine.mines
        if placement is None or mines is None:
            return []
        spots = {q for q, n in mines.ingots.items() if n > 0} | {(placement.x, placement.y)}
        spots |= {(c.x, c.y) for c in written if isinstance(c, PlaceIngot)}
        out = []
        for x, y in sorted(spots):
            c = TakeIngot(x, y)
            try:
                engine.copy().play_turn(player, [*written, c])
            except IllegalAction:
                continue
            out.append(Suggestion(command_text(c, self), self.action_words(c), "action"))
        return out

    def tile_picture(self, tile_id: str) -> str | None:
        """The tile alone, unturned: what the recorder's tile buttons show."""
        from grn.games.carcassonne.render import tile_drawing
        from grn.render import style as st

        design = self.default_tileset().by_id.get(tile_id)
        if design is None:
            return None
        return st.svg_open(100, 100, (0, 0, 100, 100), cls="grn tile") + tile_drawing(design) + "</svg>"

    def followup_step(self, engine: CarcassonneState, before: tuple[Command, ...], placement: PlaceTile,
                      picked: Sequence[str], memo: dict[Any, Any] | None = None) -> Step:
        """The second ingot and a follower, from the engine's options."""
        from grn.games.carcassonne.recording import followup_step

        return followup_step(self, engine, before, placement, picked, memo)
    _world_class = bot.CarcassonneWorld
    _roles = ROLE

    def action_words(self, command: Command) -> str:
        """An action in words for the viewer's move list: ``follower on N``, ``second ingot on 1,1``."""
        if isinstance(command, PlaceFollower):
            return f"follower on {command.location}"
        if isinstance(command, PlaceIngot):
            return f"second gold ingot on {command.x},{command.y}"
        if isinstance(command, TakeIngot):
            return f"takes a gold ingot from {command.x},{command.y}"
        return super().action_words(command)

    def describe(self, position: PositionLike) -> list[str]:
        state: CarcassonneState = position.state
        scores = state.scores
        lines = []
        for seat in position.seats:
            key = seat.key
            line = (f"  {seat.name} ({key}): {scores[key]} points, "
                    f"{state.followers_in_supply[key]} followers in supply")
            if state.mines is not None:
                g = state.mines.gold[key]
                line += f", {g} gold ingot{'s' if g != 1 else ''}"
            lines.append(line)
        bag = {t: n for t, n in state.bag().items() if n}
        lines.append(f"  bag: {sum(bag.values())} tiles: " + " ".join(f"{t}x{n}" for t, n in sorted(bag.items())))
        if state.mines is not None:
            on = ", ".join(f"{x},{y}: {n}" for (x, y), n in sorted(state.mines.ingots.items())) or "none"
            lines.append(f"  gold ingots on tiles: {on}")
        return lines

    def importers(self) -> list[Importer]:
        from grn.games.carcassonne.carcassonnelab import CarcassonneLabImporter
        from grn.games.carcassonne.jcz import JczImporter

        return [JczImporter(), CarcassonneLabImporter()]

    def exporters(self) -> dict[str, Exporter]:
        from grn.games.carcassonne.jcz import JczExporter

        return {"jcz": JczExporter()}

    def selfplay(self, players: int, seed: int, options: Any = None) -> "SelfPlayGame":
        from grn.games.carcassonne import selfplay

        return selfplay.play(players, seed=seed, options=options if options is not None else Options())


RULESET = CarcassonneRuleset()
