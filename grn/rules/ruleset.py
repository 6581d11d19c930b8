"""What a game plugs into grn: the :class:`Ruleset` base class, and setting a game up from a header.

Each game is a package under ``grn/games/`` whose ``RULESET`` is an instance
of a :class:`Ruleset` subclass: its name (the ``Game`` tag's value) and
aliases, its grammar file, its command codecs, its options, a factory for its
rules engine (:class:`grn.rules.engine.Engine`), its drawing, its self-play and its
checks of diagram markup.  The core modules (reading, writing, JSON,
validating, positions, drawing, the command line) ask the ruleset and name no
game.  :mod:`grn.games` is the registry that finds a ruleset by name, the way
python-chess's ``find_variant`` does.

Every hook has a default, so a small game overrides only what it has
(``tests/test_plugin.py`` runs a toy game defined entirely in the tests).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Final, Generic, Hashable, Iterable, Protocol, Sequence, TypeVar, cast

from grn.core import registry
from grn.core import shipped
from grn.rules.codec import CommandCodec
from grn.core.errors import IllegalAction
from grn.core.record import Command, Markup, Record, Seat, Turn
from grn.core.value import Value
from grn.rules.world import Decision, NoBot, World

if TYPE_CHECKING:
    from grn.core.errors import Diagnostic
    from grn.rules.choices import Step
    from grn.rules.engine import Engine, Event
    from grn.rules.interop import Exporter, Importer
    from grn.rules.selfplay import SelfPlayGame

#: A game's rules engine: what its ruleset makes and is asked about (each game's own state class).
S = TypeVar("S", bound="Engine")


class PositionLike(Protocol):
    """A replayed position as a game's drawing and description hooks see it.

    :class:`grn.rules.position.Position` is one; the contract names only what it offers, so that the position
    module (which finds a record's ruleset) sits above the contract and not in a circle with it.
    """

    @property
    def record(self) -> Record: ...

    @property
    def state(self) -> Any: ...

    @property
    def seats(self) -> list[Seat]: ...

    @property
    def last(self) -> Turn | None: ...

    @property
    def turns_played(self) -> int: ...

    @property
    def markup(self) -> list[Markup]: ...

    @property
    def events(self) -> list[Event]: ...

    @property
    def address(self) -> str: ...

    @property
    def line(self) -> tuple[Turn, ...]: ...

    @property
    def ruleset(self) -> "Ruleset | None": ...

    @property
    def final(self) -> bool: ...

    @property
    def asked(self) -> str | None: ...

    @property
    def game(self) -> str: ...

    def next_turn(self) -> Turn | None: ...


#: Player colours, in the order the boxes list them: the default for a ruleset.
COLOURS: tuple[str, ...] = ("red", "yellow", "green", "blue", "black")


class Suggestion(Value):
    """A word an editor may offer at the cursor (``grn lsp``'s completion).

    ``text`` is what is written, ``detail`` a few words shown beside it, ``kind``
    what it is: ``"tile"`` (a tile id, still to be placed), ``"placement"``,
    ``"action"`` (a whole command), ``"position"`` (a word to complete further) or ``"value"``.
    """

    __slots__ = ("text", "detail", "kind")
    _fields = ("text", "detail", "kind")

    def __init__(self, text: str, detail: str = "", kind: str = "action") -> None:
        self.text: Final = text
        self.detail: Final = detail
        self.kind: Final = kind

    def _key(self) -> tuple[object, ...]:
        return (self.text, self.detail, self.kind)

    def __repr__(self) -> str:
        return f"<Suggestion {self.kind} {self.text}>"


class Drawing(Value):
    """How to draw a position: one value for every option of :meth:`Ruleset.render_svg`.

    ``legal`` (tile-laying games) overlays every legal placement of the next tile; ``reveal`` (card games)
    shows the faces known so far on the face-down cards; ``width`` fixes the picture's width in pixels;
    ``panel=False`` draws the board without the player panel (the viewer shows it from
    :meth:`Ruleset.player_panel`); ``diagram`` draws a picture for a rules discussion (only the board around
    the markup, or the ``crop`` box ``x0, y0, x1, y1``, with ``caption`` above it). A game draws what it can
    and ignores the rest (Gold has no diagram crop).
    """

    __slots__ = ("legal", "reveal", "width", "panel", "diagram", "crop", "caption")
    _fields = ("legal", "reveal", "width", "panel", "diagram", "crop", "caption")

    def __init__(self, *, legal: bool = False, reveal: bool = False, width: int | None = None, panel: bool = True,
                 diagram: bool = False, crop: tuple[int, int, int, int] | None = None,
                 caption: str | None = None) -> None:
        self.legal: Final = legal
        self.reveal: Final = reveal
        self.width: Final = width
        self.panel: Final = panel
        self.diagram: Final = diagram
        self.crop: Final = crop
        self.caption: Final = caption

    def _key(self) -> tuple[object, ...]:
        return (self.legal, self.reveal, self.width, self.panel, self.diagram, self.crop, self.caption)

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields
                          if getattr(self, name) != getattr(PLAIN, name, None))
        return f"<Drawing {shown or 'plain'}>"


#: The default drawing: the whole position with its panel, natural size.
PLAIN: Final = Drawing()


class Panel(Value):
    """What the viewer shows beside the board about a position, in words: ``lines`` about the whole position
    (what is left in the bag), and for each player (by key) short lines about their pieces."""

    __slots__ = ("lines", "players")
    _fields = ("lines", "players")

    def __init__(self, lines: tuple[str, ...], players: dict[str, tuple[str, ...]]) -> None:
        self.lines: Final = lines
        self.players: Final = players

    def _key(self) -> tuple[object, ...]:
        return (self.lines, self.players)

    def __repr__(self) -> str:
        return f"<Panel {len(self.lines)} lines, {len(self.players)} players>"


class SetupProblem(Exception):
    """The header does not describe a game that can be set up (bad Players, Options, ...).

    ``tag`` names the header tag at fault, so that the report points at it.
    """

    def __init__(self, message: str, code: str = "setup", rule: str | None = None,
                 section: str | None = None, tag: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.rule = rule
        self.section = section
        self.tag = tag


class SeriesChecker:
    """Checks that span the games of one file (for example a match of several games).

    :meth:`add` sees every validated game of the file, :meth:`check` reports
    at the end of the file.  The default checks nothing.
    """

    def add(self, record: Record, report: Any) -> None:
        """Remember what is needed of a validated game."""

    def check(self, file: str | None) -> tuple[list[Diagnostic], list[str]]:
        """Problems (diagnostics) and summary lines for the file."""
        return [], []


class Puzzles(Generic[S]):
    """A ruleset's part for ``grn puzzles`` (docs/puzzles.md, R482): what a solver must find of a move, and the
    themes a solution shows.  A game without themes keeps this default; one with them subclasses it and sets
    its ruleset's ``puzzles``."""

    #: The puzzle themes the game names (:meth:`themes`), for reports of which were found.
    theme_names: tuple[str, ...] = ()
    #: The fewest rounds the confirming search of ``grn puzzles`` gives each contender when the rounds are the
    #: level's (not named by ``--confirm-rounds``): a game whose playouts spread wide against its threshold needs
    #: more to tell a clear answer from noise (R493).  Default 0: the level's rounds.
    confirm_rounds: int = 0

    def answer(self, engine: S, decision: Decision) -> Hashable:
        """What a puzzle's solver must find of ``decision`` (R397): decisions of one answer count as one move
        in ``grn puzzles``, valued by the best of them.  Default: the decision itself."""
        return decision

    def themes(self, before: S, after: S, player: str, actions: Sequence[Command],
               events: Sequence[Event]) -> tuple[str, ...]:
        """The themes of a puzzle's solution: what ``player``'s turn ``actions`` did, read from its ``events``
        (what it scored) and the positions ``before`` and ``after`` it (the move's shape), as words of
        :attr:`theme_names`.  Default: none."""
        return ()

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"


class Dealer(Generic[S]):
    """A ruleset's part for a game the server deals (``grn serve`` against grn, R376, R482): what chance decides
    in a turn is taken from the deal, a :class:`~grn.rules.world.World` (its ``ruleset`` is the game's)."""

    def turn(self, world: World, engine: S, actions: Sequence[Command]) -> tuple[Command, ...]:
        """The turn ``actions`` a player chose at ``engine`` (as the recorder built it), with what chance decides
        taken from ``world``: a face the page offered is replaced by the dealt one.  Default: the world's
        record of the turn's decision (:meth:`Ruleset.decision_of`, :meth:`grn.rules.world.World.recorded`)."""
        return world.recorded(world.ruleset.decision_of(engine, actions))

    def word(self, world: World, engine: S, picked: Sequence[str]) -> str | None:
        """The word the next step of the turn being chosen takes from ``world`` when that step is chance (a
        tile drawn, a face turned), so that the page skips it; None when the player chooses it.  Default: the
        words of the hand :meth:`grn.rules.world.World.hand` deals, first."""
        hand = world.hand()
        if len(picked) < len(hand) and all(isinstance(h, str) for h in hand) and list(picked) == list(hand[:len(picked)]):
            return str(hand[len(picked)])
        return None

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"


class Ruleset(Generic[S]):
    """A game as grn knows it.  Subclass it in the game's package and set ``RULESET`` there.

    Generic in the game's rules engine ``S`` (R481): a game declares its state class,
    ``class GoldRuleset(Ruleset[GoldState])``, and its hooks receive and return that
    class, so a game's own code needs no cast to reach its engine's fields.  Class
    attributes describe the game; methods are hooks with defaults.
    """

    #: The ``Game`` tag's value (lower case).
    name: str = ""
    #: Other values of the ``Game`` tag that name this game.
    aliases: tuple[str, ...] = ()
    #: The game's name as its box prints it.
    title: str = ""
    #: The grammar file, (package, file name): it imports ``envelope`` and overrides ``action`` (None:
    #: :meth:`grammar_text` is overridden).  Only :meth:`grammar_text` reads it.
    _grammar: tuple[str, str] | None = None
    #: One codec per command, in the order "expected ..." lists them.
    codecs: tuple[CommandCodec, ...] = ()
    #: The colours players may choose.
    colours: tuple[str, ...] = COLOURS
    #: The fewest players the game is for.
    min_players: int = 2
    #: The most players the game is for.
    max_players: int = 5
    #: Where the rules say how many play (cited when the Players tag is off; :meth:`seats` reads it).
    _players_section: str | None = None
    #: The words of the ``Options`` tag, for messages: "farmers=on|off and cowboys=4|5".
    options_help: str = "none"
    #: The option names the ``Options`` tag carries (what self-play writes there).
    option_names: frozenset[str] = frozenset()
    #: Whether ``--tileset FILE`` applies (tile-laying games).
    uses_tileset: bool = False
    #: Drawing options this game understands (``legal``, ``reveal``): others are usage errors.
    render_options: frozenset[str] = frozenset()
    #: Extra JSON Schemas shipped with the game: name -> (package, file), for ``grn schema NAME``.
    schemas: dict[str, tuple[str, str]] = {}

    def __repr__(self) -> str:
        return f"<Ruleset {self.name}>"

    # -- notation -------------------------------------------------------
    def grammar_text(self) -> str:
        """The game's Lark grammar (it ``%import``s ``envelope`` and overrides ``action``)."""
        if self._grammar is None:
            raise NotImplementedError(f"{type(self).__name__} names no grammar file")
        return shipped.read_text(*self._grammar)

    def codec_for(self, command: object) -> CommandCodec | None:
        """The codec of an engine command of this game (None: not one of its commands)."""
        table = self.__dict__.get("_by_class")
        if table is None:
            table = self.__dict__["_by_class"] = {c.command: c for c in self.codecs}
        return table.get(type(command))

    def codec_named(self, json_type: str) -> CommandCodec | None:
        """The codec whose JSON objects have this ``type`` (None: not one of this game's)."""
        table = self.__dict__.get("_by_json")
        if table is None:
            table = self.__dict__["_by_json"] = {c.json_type: c for c in self.codecs}
        return table.get(json_type)

    # -- set-up ---------------------------------------------------------
    def seats(self, record: Record) -> list[Seat]:
        """The seats of the ``Players`` tag, checked: known colours, each once, the right number of players."""
        value = record.tag("Players")
        if value is None:
            example = ", ".join(f"{n} ({c})" for n, c in zip(("Anna", "Ben"), self.colours))
            raise SetupProblem(f'the Players tag is missing: write [Players "{example}"]', "players",
                               tag="Players")
        try:
            seats = record.seats()
        except ValueError as exc:
            raise SetupProblem(f"Players tag: {exc}", "players", tag="Players") from None
        colours = [c for s in seats for c in s.colours]
        unknown = [c for c in colours if c not in self.colours]
        if unknown:
            raise SetupProblem(f"Players tag: unknown colour {unknown[0]!r}; the colours are "
                               f"{', '.join(self.colours)}", "players", tag="Players")
        if len(set(colours)) != len(colours):
            raise SetupProblem("Players tag: a colour is taken twice", "players", tag="Players")
        low, high = self.min_players, self.max_players
        if not low <= len(seats) <= high:
            raise SetupProblem(f"the game is for {low} to {high} players, not {len(seats)}", "players",
                               rule=f"{low} to {high} players", section=self._players_section, tag="Players")
        return seats

    def parse_options(self, words: dict[str, str]) -> Any:
        """The game's options from the ``Options`` tag's words (default: the game has none)."""
        for key in words:
            raise SetupProblem(f"Options tag: unknown option {key!r}: the options are {self.options_help}",
                               "options", tag="Options")
        return None

    def new_engine(self, record: Record, seats: list[Seat], first: str | None, tileset: Any = None) -> S:
        """A fresh rules engine set up from the record's header; ``first`` starts (None: the first seat).

        Raises :class:`SetupProblem` when the header does not allow it.
        """
        raise NotImplementedError

    def load_tileset(self, path: Any) -> Any:
        """A tile set read from ``path`` (``--tileset``); only for games with :attr:`uses_tileset`."""
        raise SetupProblem(f"{self.title or self.name} has no tile set", "tileset")

    def header_warnings(self, record: Record, engine: S) -> list[tuple[str, str]]:
        """(tag, message) for header tags that do not fit the game being checked (warnings)."""
        return []

    # -- diagram markup ---------------------------------------------------
    def target_problem(self, kind: str, word: str, engine: S) -> str | None:
        """What is wrong with ``word`` as the place a ``<highlight>``, ``<arrow>`` or ``<label>`` points at."""
        return None

    def ghost_problem(self, word: str, engine: S) -> str | None:
        """What is wrong with the argument of ``<ghost>`` (default: the game has no ghosts)."""
        return f"<ghost> shows a tile: {self.title or self.name} has none"

    # -- editors ----------------------------------------------------------
    def suggestions(self, engine: S, player: str, written: Sequence[Command], word: str) -> list[Suggestion]:
        """What may be written next in ``player``'s turn (for an editor's completion).

        ``engine`` is the position before the turn (left unchanged), ``written`` the
        commands already written in the turn, ``word`` the part of the next word
        already typed (the editor filters by it).  Default: the commands the
        turn's tree (:meth:`choice_point`) offers after those written
        (:func:`grn.rules.choices.next_commands`), then :meth:`_notation_extras`.
        """
        from grn.rules.choices import next_commands

        found = [Suggestion(*parts) for parts in next_commands(self, engine, written, word)]
        return found + self._notation_extras(engine, player, written)

    def _notation_extras(self, engine: S, player: str, written: Sequence[Command]) -> list[Suggestion]:
        """Words the editor offers besides the tree's choices: commands a record may hold that are no choice
        of the player to move (Carcassonne's ``take@``, another taker's choice, R420).  Default: none."""
        return []

    def choice_words(self, command: Command) -> tuple[str, ...]:
        """The words of :meth:`choice_point`'s tree that choose ``command`` (so the editor finds where the
        commands written have got to).  Default: the command as the notation writes it, one option."""
        return (self.command_word(command),)

    def command_word(self, command: Command) -> str:
        """``command`` as this game's notation writes it (its codec's spelling)."""
        codec = self.codec_for(command)
        if codec is None:
            raise TypeError(f"not a command of {self.name}: {command!r}")
        return codec.write(command)

    def word_info(self, word: str, engine: S) -> str | None:
        """What one word of a turn stands for, in a line of text (an editor's hover on a tile id).

        Default: nothing more than the word itself says.
        """
        return None

    # -- what users see -------------------------------------------------
    def render_svg(self, position: "PositionLike", drawing: Drawing = PLAIN, *, shared_defs: Any = None) -> str:
        """The SVG of a position, drawn as ``drawing`` says (``shared_defs``: what :meth:`page_defs` made,
        for a page of many positions that writes them once)."""
        raise NotImplementedError(f"grn cannot draw a position of {self.title or self.name}")

    def action_words(self, command: Command) -> str:
        """One action of a turn in words, for the viewer's move list (default: its notation)."""
        codec = self.codec_for(command)
        if codec is None:  # another game's command (as grn.notation.writer.command_text finds it)
            codec = next((c for r in registry.rulesets() if (c := r.codec_for(command)) is not None), None)
            if codec is None:
                raise TypeError(f"not a command of a known game: {command!r}")
        return codec.write(command)

    def choice_point(self, engine: S, chosen: Sequence[str],
                     memo: dict[Any, Any] | None = None) -> "Step | None":
        """The turn's tree of choices: what the player to move may choose next at ``engine``, after the words
        ``chosen`` (:mod:`grn.rules.choices`); a :class:`~grn.rules.choices.Step` whose ``actions`` are set is a whole
        legal turn (a leaf).  A draw the player does not choose is a chance point (``Step.chance``).

        This is the game's one definition of a turn's choices: the recorder
        (:meth:`turn_step`), the editor (:meth:`suggestions`), the bots
        (:meth:`legal_turns`, :meth:`grn.rules.world.World.tree_moves`) and the engine
        protocol's legal moves walk it.  Every option must come from the rules
        engine, so that the words offered can only make a legal turn; a word in
        ``chosen`` that was not offered raises :class:`grn.rules.choices.ChoiceError`.
        ``memo`` (a walker's, for one position) may keep what a point computed
        for the points below it.  Default None: the game defines no tree (a turn
        is typed in GRN, and the game has no bot unless it lists
        :meth:`legal_turns` itself).
        """
        return None

    def turn_step(self, engine: S, picked: Sequence[str]) -> "Step | None":
        """The next choice of a turn entered by tapping, after the words ``picked`` (``grn serve``): the
        point of :meth:`choice_point`'s tree those words lead to."""
        return self.choice_point(engine, picked)

    def legal_problem(self, position: "PositionLike") -> str | None:
        """Why ``--legal`` cannot draw the next move at this position (None: it can)."""
        return None

    def page_defs(self) -> Any:
        """A fresh collector of the drawing definitions the positions of one page share (None: none).

        :meth:`render_svg` gets it as ``shared_defs`` and refers to its
        definitions; :meth:`page_defs_svg` writes them once for the page.
        """
        return None

    def page_defs_svg(self, shared: Any) -> str:
        """The SVG markup of what :meth:`page_defs` collected (placed once in a page)."""
        return ""

    def render_tile_sheet(self, tileset: Any, *, columns: int = 6) -> str:
        """An SVG sheet of every tile of ``tileset`` (tile-laying games)."""
        raise NotImplementedError(f"{self.title or self.name} has no tiles to draw")

    def tile_table(self, tileset: Any) -> list[str]:
        """Every tile of ``tileset`` as a line of text (tile-laying games)."""
        raise NotImplementedError(f"{self.title or self.name} has no tiles")

    def player_panel(self, position: "PositionLike") -> Panel | None:
        """The player panel in words, for the viewer to show beside the board at a readable size (then it asks
        :meth:`render_svg` for the board with ``panel=False``).  Default None: the drawing keeps its panel."""
        return None

    def best_move_markup(self, actions: Sequence[Command]) -> list[Markup]:
        """Diagram markup that shows ``actions`` (the best move an analysis found) on the board of the judged
        turn: a ghost tile, a ring on a card.  Default: nothing drawn (the move is still told in words)."""
        return []

    def open_squares(self, position: "PositionLike") -> dict[str, int]:
        """For each open place of the position where a piece may go next (by its name in the notation), how
        many of the pieces left could go there; 0: none left can fill it.  Default: nothing to say."""
        return {}

    def describe(self, position: "PositionLike") -> list[str]:
        """The lines ``grn show`` prints under the heading (default: each player's score)."""
        scores = position.state.scores
        return [f"  {s.name} ({s.key}): {scores[s.key]} points" for s in position.seats]

    def selfplay(self, players: int, seed: int, options: Any = None) -> "SelfPlayGame":
        """A complete random legal game, the same for the same seed."""
        raise NotImplementedError(f"grn cannot play {self.title or self.name} by itself")

    # -- bots (grn.bots, grn analyse, grn arena) ----------------------------
    #: Points lost from which ``grn analyse`` calls a move an inaccuracy, a mistake, a blunder (docs/analysis.md).
    analysis_thresholds: tuple[float, float, float] = (3.0, 6.0, 12.0)
    #: Determinisations a greedy bot averages its immediate values over (more than one where faces are hidden).
    greedy_samples: int = 1
    #: What a turn's luck weighs, in words (R456): its name and what it compares, for the text review, the
    #: viewer's luck bar and ``archive stats``.
    luck_words: tuple[str, str] = ("luck of the draw", "the tile drawn against what the bag held")
    #: How many times the level's rounds (R412) the luck of a turn plays (R457): a game whose luck's rounds
    #: spread wide against its margins, and whose analysis is cheap, buys a narrower luck with more of them.
    luck_rounds_scale: int = 1

    def legal_turns(self, engine: S) -> list[tuple[Command, ...]]:
        """Every legal turn of the player to move, each a tuple of commands: the leaves of
        :meth:`choice_point`'s tree (every outcome of a chance point).

        A game without hidden information needs only the tree to get every bot
        and ``grn analyse``; a game with hidden information overrides
        :meth:`determinise` instead (its world follows its own outcomes).
        """
        from grn.rules.choices import turns

        if self.choice_point(engine, ()) is None:
            raise NoBot(f"grn has no bot for {self.title or self.name}: the game defines no choices")
        return turns(self, engine)

    def determinise(self, engine: S, rng: random.Random, hand: tuple[str, ...] = ()) -> World:
        """A :class:`~grn.rules.world.World`: a copy of ``engine`` in which what the player to move cannot know is
        drawn at random (with ``rng``) from what they do know; ``hand`` is what they hold privately
        (:meth:`hand_of`).  Default: nothing is hidden."""
        return World(self, engine.copy())

    def hand_of(self, actions: Sequence[Command]) -> tuple[str, ...]:
        """What the player knew privately when choosing the recorded turn ``actions`` (tile games: the tiles
        drawn).  Default: nothing."""
        return ()

    #: How a game the server deals takes chance from the deal (``grn serve`` against grn): a :class:`Dealer`
    #: part (R482).
    dealer: Dealer[S] = Dealer()

    def picked_hand(self, engine: S, picked: Sequence[str]) -> tuple[str, ...]:
        """What the player to move holds privately once the recorder's words ``picked`` (the start of a turn
        being chosen, :meth:`turn_step`) are told: tile games, the tiles drawn.  Raises
        :class:`grn.rules.choices.ChoiceError` when the best move depends on a draw not told yet.  Default: nothing."""
        return ()

    def decision_of(self, engine: S, actions: Sequence[Command]) -> Decision:
        """The decision a recorded turn took, without what the turn only revealed afterwards.  Default: the
        commands as written."""
        return tuple(actions)

    def decision_actions(self, engine: S, decision: Decision, seen: Any = None) -> tuple[Command, ...] | None:
        """The commands that write ``decision`` as a variation at ``engine`` (None: it cannot be written, for
        example a card whose face nobody saw).  ``seen`` is what the whole record revealed.  Default: the
        decision's commands."""
        return tuple(cast(Iterable[Command], decision))

    def owned_words(self, words: str, owners: dict[str, str]) -> str:
        """``words`` of the review with a piece named by its owner (``owners``: colour -> name) where its colour
        alone does not say whose (default: as they are)."""
        return words

    def decision_words(self, engine: S, decision: Decision) -> str:
        """A decision in words, for the review (default: its commands in words)."""
        return ", ".join(self.action_words(c) for c in cast(Iterable[Command], decision))

    #: How the game's puzzles are judged and named (``grn puzzles``): a :class:`Puzzles` part (R482).
    puzzles: Puzzles[S] = Puzzles()

    # -- the engine protocol (grn.bots.protocol, docs/protocol.md) ----------------
    def seen_by(self, engine: S, player: str, actions: Sequence[Command], viewer: str) -> tuple[Command, ...]:
        """The commands of ``player``'s recorded turn ``actions`` (played at ``engine``) as ``viewer`` saw them
        at the table: a face only its owner saw is written unknown.  An engine is sent the record so (R361).
        Default: everything a turn records was seen by all."""
        return tuple(actions)

    def unseen(self, engine: S, hand: tuple[str, ...] = ()) -> dict[str, dict[str, int]]:
        """What the player to move, holding ``hand``, knows of what is hidden, by pool: each word (as the
        notation writes it, a tile id, a card face) and how many of it are left unseen, the hand not among
        them; never their order (R362).  Default: nothing is hidden."""
        return {}

    def move_text(self, engine: S, decision: Decision) -> str:
        """A decision of the player to move as the protocol lists it: the turn's commands as GRN writes them,
        a part the player cannot know before playing written unknown (R363).  Default: the decision's
        commands."""
        return self.move_texts(engine, [decision])[0]

    def move_texts(self, engine: S, decisions: Sequence[Decision]) -> list[str]:
        """:meth:`move_text` of each of ``decisions`` (all of the player to move at ``engine``).  The default
        writes each command once, however many decisions share it (a tile game's placement and its follow-ups:
        hundreds of moves a turn); a ruleset that overrides :meth:`move_text` has it called for each."""
        if type(self).move_text is not Ruleset.move_text:
            return [self.move_text(engine, d) for d in decisions]
        written: dict[int, str] = {}  # by id: the decisions hold their commands alive while this runs
        codecs = self.__dict__.get("_by_class")
        out = []
        for decision in decisions:
            parts = []
            for command in cast(Iterable[Command], decision):
                text = written.get(id(command))
                if text is None:
                    codec = codecs.get(type(command)) if codecs is not None else self.codec_for(command)
                    if codec is None:
                        raise TypeError(f"not a command of {self.name}: {command!r}")
                    codecs = self.__dict__.get("_by_class")
                    text = written[id(command)] = codec.write(command)
                parts.append(text)
            out.append(" ".join(parts))
        return out

    # -- other programs' files -------------------------------------------
    def importers(self) -> "list[Importer]":
        """Readers of other programs' files or links into this game's GRN (default: none)."""
        return []

    def exporters(self) -> "dict[str, Exporter]":
        """Writers of this game's records for other programs, by format name (default: none)."""
        return {}

    def in_series(self, record: Record) -> bool:
        """Whether :meth:`series_checker` needs this game's record (a match's game: Gold's ``Match`` tag)."""
        return False

    def series_checker(self) -> SeriesChecker:
        """Checks across the games of one file (default: none)."""
        return SeriesChecker()


def player_key(seats: Sequence[Seat], word: str) -> str:
    """The key (first colour) of the player a turn names by any of their colours."""
    for s in seats:
        if word in s.colours:
            return s.key
    return word


def first_player(record: Record, seats: Sequence[Seat]) -> str | None:
    """Who plays the record's first turn, if seated (else None: that turn reports it, the game starts as seated)."""
    first = next((player_key(seats, t.player) for t in record.turns if t.number > 0), None)
    return first if first in {s.key for s in seats} else None


def engine_for(ruleset: Ruleset[S], record: Record, seats: list[Seat], tileset: Any = None) -> S:
    """A fresh engine for ``record``; an engine's refusal of the seats becomes a :class:`SetupProblem`."""
    try:
        return ruleset.new_engine(record, seats, first_player(record, seats), tileset)
    except IllegalAction as exc:
        # the seats are all the engine is told about: the problem is in the Players tag
        raise SetupProblem(exc.message, "players", exc.rule, exc.section, tag="Players") from None
