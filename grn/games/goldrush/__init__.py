"""Carcassonne: Gold Rush (Hans im Glueck 2014), the first game of GRN.

Rules: the community rules page and the publisher's rulebook (both cited as
"Gold Rush rulebook").  The package holds the rules engine (:mod:`.rules`),
the game's commands and codecs (:mod:`.commands`; placing and discarding tiles
are :mod:`grn.games.tiling.commands`), its options, grammar (``goldrush.lark``), tile
set (``tileset.json``), drawing (:mod:`.render`, :mod:`.drawing`) and
self-play (:mod:`.selfplay`).  :data:`RULESET` is what :mod:`grn.games` finds.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from grn.games.goldrush import bot
from grn.games.goldrush.commands import CODECS, Mine, PlaceCowboy, PlaceTent, RevealTokens
from grn.games.goldrush.rules import GoldRushState, Options
from grn.games.goldrush.terms import ROLE
from grn.core.record import Record, Seat
from grn.rules.ruleset import PLAIN, Dealer, Drawing, PositionLike, Panel, SetupProblem, Suggestion
from grn.games.tiling.commands import DiscardTile, PlaceTile, tile_codecs
from grn.games.tiling.ruleset import TilePuzzles, TileRuleset
from grn.games.tiling.tiles import TileSet, load_shipped_tileset
from grn.rules.ruleset import Panel, SetupProblem

if TYPE_CHECKING:
    from grn.games.goldrush.render import TileDefs
    import random

    from grn.core.record import Command
    from grn.rules.choices import Step
    from grn.rules.engine import Event
    from grn.rules.interop import Exporter, Importer
    from grn.rules.world import Decision, World
    from grn.rules.selfplay import SelfPlayGame

__all__ = ["RULESET", "GoldRushRuleset", "GoldRushState", "Options", "load_tileset", "parse_options",
           "PlaceTile", "DiscardTile", "PlaceCowboy", "PlaceTent", "Mine", "RevealTokens"]


def load_tileset(path: str | Path | None = None) -> TileSet:
    """The shipped Gold Rush tile set, or the tile set of a JSON file."""
    if path is None:
        return load_shipped_tileset(__name__)
    from grn.games.tiling.tiles import load_tileset as load_file

    return load_file(path)


def parse_options(words: dict[str, str]) -> Options:
    """Gold Rush :class:`Options` from the ``Options`` tag's words.

    ``farmers=off`` plays without farmers (the rulebook's first-game advice);
    ``cowboys=5`` is the house rule that brings the scoring cowboy into play.
    """
    kwargs: dict[str, Any] = {}
    for key, value in words.items():
        if key == "farmers":
            if value not in ("on", "off"):
                raise SetupProblem(f"Options tag: farmers must be on or off, not {value!r}", "options",
                                   tag="Options")
            kwargs["farmers"] = value == "on"
        elif key == "cowboys":
            if value not in ("4", "5"):
                raise SetupProblem(f"Options tag: cowboys must be 4 or 5, not {value!r}", "options", tag="Options")
            kwargs["cowboys"] = int(value)
        else:
            raise SetupProblem(f"Options tag: unknown option {key!r}: the options are {GoldRushRuleset.options_help}",
                               "options", tag="Options")
    return Options(**kwargs)


class GoldRushPuzzles(TilePuzzles[GoldRushState]):
    """The themes of :mod:`grn.games.goldrush.themes` (``grn puzzles``)."""

    theme_names = ("mountain tokens", "locomotive", "tent", "close a city", "close a railroad", "prairie",
                   "steal a feature", "join a feature", "blocked feature")

    def themes(self, before: GoldRushState, after: GoldRushState, player: str, actions: Sequence[Command],
               events: Sequence[Event]) -> tuple[str, ...]:
        """What the turn did, in the words of :attr:`theme_names`."""
        # here, not at the top: the themes read the shapes with dataclasses, which grn validate never loads
        from grn.games.goldrush.themes import themes

        return themes(before, after, player, actions, events)


class GoldRushDealer(Dealer[GoldRushState]):
    """The deal of a game of Gold Rush against grn: the tile drawn, and the faces of the tokens."""

    def word(self, world: World, engine: GoldRushState, picked: Sequence[str]) -> str | None:
        """The tile drawn (the default), then the face of a mined token and of each token a scoring hands out, as
        the deal has them (R376): a person in a game against grn is not asked what the deal decides."""
        word = super().word(world, engine, picked)
        if word is not None:
            return word
        from grn.games.goldrush.recording import UNKNOWN

        ruleset = world.ruleset
        words, asked = list(picked), 0
        step = ruleset.turn_step(engine, words)
        while step is not None and not step.done:
            if not step.options or step.options[0].word != UNKNOWN or asked > 32:
                return None
            words.append(UNKNOWN)
            asked += 1
            step = ruleset.turn_step(engine, words)
        if not asked or step is None or step.actions is None:
            return None
        true = world.recorded(ruleset.decision_of(engine, step.actions))
        faces = [a.value for a in true if isinstance(a, Mine)]
        faces += [v for a in true if isinstance(a, RevealTokens) for v in a.values]
        index = len(faces) - asked
        face = faces[index] if 0 <= index < len(faces) else None
        return UNKNOWN if face is None else str(face)


class GoldRushRuleset(TileRuleset[GoldRushState]):
    """Carcassonne: Gold Rush: 2 to 5 players, 72 land tiles, cowboys, tents and mining tokens."""

    name = "goldrush"
    aliases = ("gold rush", "carcassonne: gold rush")
    title = "Carcassonne: Gold Rush"
    #: Its puzzles' themes.
    puzzles = GoldRushPuzzles()
    #: The tiles and token faces a game against grn deals.
    dealer = GoldRushDealer()
    _grammar = (__name__, "goldrush.lark")
    # "tent@2,0" is the tent, so no tile may be called "tent"
    codecs = tile_codecs(reserved=("tent",)) + CODECS
    _players_section = "Gold Rush rulebook, General Info and Comments"
    options_help = "farmers=on|off and cowboys=4|5"
    option_names = frozenset({"farmers", "cowboys"})
    render_options = frozenset({"legal", "diagram"})
    _tileset = (__name__, "tileset.json")

    def parse_options(self, words: dict[str, str]) -> Options:
        return parse_options(words)

    def new_engine(self, record: Record, seats: list[Seat], first: str | None,
                   tileset: TileSet | None = None) -> GoldRushState:
        options = self.parse_options(record.options())
        return GoldRushState.new(tileset or self.default_tileset(), [s.key for s in seats], options, first=first)

    def render_svg(self, position: PositionLike, drawing: Drawing = PLAIN, *,
                   shared_defs: TileDefs | None = None) -> str:
        from grn.games.goldrush.render import render_goldrush

        return render_goldrush(position, legal=drawing.legal, width=drawing.width, defs=shared_defs,
                               diagram=drawing.diagram, crop=drawing.crop, caption=drawing.caption,
                               panel=drawing.panel)

    def player_panel(self, position: PositionLike) -> Panel:
        """The panel in words: the viewer shows it beside the board, readable whatever the board's size."""
        from grn.games.goldrush.render import panel_text

        return panel_text(position)

    def page_defs(self) -> TileDefs:
        from grn.games.goldrush.render import TileDefs

        return TileDefs("grt", icons=True)

    def page_defs_svg(self, shared: TileDefs) -> str:
        return str(shared.defs())

    def render_tile_sheet(self, tileset: TileSet, *, columns: int = 6) -> str:
        from grn.games.goldrush.render import render_tile_sheet

        return render_tile_sheet(tileset, columns=columns)

    def choice_words(self, command: Command) -> tuple[str, ...]:
        """Mining is two points of the tree, the choice and the face turned up (``?``: not known); a scoring's
        tokens one face each."""
        if isinstance(command, Mine):
            return ("mine", "?" if command.value is None else str(command.value))
        if isinstance(command, RevealTokens):
            return tuple("?" if v is None else str(v) for v in command.values)
        return super().choice_words(command)

    def tile_picture(self, tile_id: str) -> str | None:
        """The tile alone, unturned: what the recorder's tile buttons show."""
        from grn.games.goldrush.drawing import tile_drawing
        from grn.render import style as st

        design = self.default_tileset().by_id.get(tile_id)
        if design is None:
            return None
        return st.svg_open(100, 100, (0, 0, 100, 100), cls="grn tile") + tile_drawing(design, 0) + "</svg>"

    def followup_step(self, engine: GoldRushState, before: tuple[Command, ...], placement: PlaceTile,
                      picked: Sequence[str], memo: dict[Any, Any] | None = None) -> Step:
        """Step 2 from the engine's legal follow-ups, then the faces of the tokens mined or handed out."""
        from grn.games.goldrush.recording import followup_step

        return followup_step(self, engine, before, placement, picked, memo)
    _world_class = bot.GoldRushWorld
    _roles = ROLE
    #: Gold Rush moves swing more points than Carcassonne's (mountains, tokens): calibrated in docs/analysis.md.
    analysis_thresholds = (4.0, 8.0, 16.0)

    def decision_of(self, engine: GoldRushState, actions: Sequence[Command]) -> Any:
        """The turn without the token faces it revealed (the player chose before seeing them)."""
        return bot.decision_of(actions)

    def seen_by(self, engine: GoldRushState, player: str, actions: Sequence[Command],
                viewer: str) -> tuple[Command, ...]:
        """Mining tokens are taken face down: a player sees the face of the token they mined, not another's,
        nor the faces a scoring hands out (R361: a face known to some is sent as unknown)."""
        out: list[Command] = []
        for a in actions:
            if isinstance(a, Mine) and player != viewer and a.value is not None:
                out.append(Mine())
            elif isinstance(a, RevealTokens):
                out.append(RevealTokens(tuple(None for _ in a.values)))
            else:
                out.append(a)
        return tuple(out)

    def unseen(self, engine: GoldRushState, hand: tuple[str, ...] = ()) -> dict[str, dict[str, int]]:
        """The bag's contents, and the mining-token faces not yet accounted for (the box's tokens less the
        faces the player has seen)."""
        pools = super().unseen(engine, hand)
        tokens = {str(v): n - engine.known.get(v, 0) for v, n in sorted(engine._token_counts.items())}
        pools["tokens"] = {v: n for v, n in tokens.items() if n > 0}
        return pools

    def action_words(self, command: Command) -> str:
        """An action in words for the viewer's move list: ``merchant on C``, ``mines a token worth 3``."""
        if isinstance(command, PlaceCowboy):
            role = {"C": "merchant"}.get(command.location, "cowboy")
            return f"{role} on {command.location}"
        if isinstance(command, PlaceTent):
            where = f" ({command.location})" if command.location else ""
            return f"tent on the mountain at {command.x},{command.y}{where}"
        if isinstance(command, Mine):
            return "mines a token" + (f" worth {command.value}" if command.value is not None else "")
        if isinstance(command, RevealTokens):
            faces = ", ".join("?" if v is None else str(v) for v in command.values)
            return f"mining tokens shown: {faces}"
        return super().action_words(command)

    def describe(self, position: PositionLike) -> list[str]:
        state = position.state
        scores = state.scores
        lines = []
        cowboys, tents, gold = state.cowboys, state.tents, state.gold()
        for seat in position.seats:
            key, name = seat.key, seat.name
            tent = "in supply" if tents[key] is None else "at {},{}".format(*tents[key])
            g = gold[key]
            tokens = f"{g.count} token{'s' if g.count != 1 else ''}"
            if g.count:
                tokens += f" (known {g.known}" + (f", {g.unknown} unknown)" if g.unknown else ")")
            lines.append(f"  {name} ({key}): {scores[key]} points, {cowboys[key]} cowboys in supply, "
                         f"tent {tent}, {tokens}")
        bag = {t: n for t, n in state.bag().items() if n}
        lines.append(f"  bag: {sum(bag.values())} tiles: " + " ".join(f"{t}x{n}" for t, n in sorted(bag.items())))
        info = state.token_info()
        known = ", ".join(f"{n}x{v}" for v, n in info["known"].items()) or "none"
        lines.append(f"  mining tokens: {info['supply']} in the supply, {info['on_mountains']} on mountains; "
                     f"faces known so far: {known}")
        return lines

    def selfplay(self, players: int, seed: int, options: Any = None) -> "SelfPlayGame":
        from grn.games.goldrush import selfplay

        return selfplay.play(players, seed=seed, options=options if options is not None else Options())


RULESET = GoldRushRuleset()
