"""From a record's header to a rules engine: seats, options, the engine itself.

Shared by :mod:`grn.validate` and :mod:`grn.position` so that both set a game
up the same way.
"""

from __future__ import annotations

from typing import Any, Protocol

from grn.commands import COLOURS
from grn.errors import IllegalAction
from grn.record import Record, Seat


class Engine(Protocol):
    """What the validator and the renderer need of a game's rules engine (``docs/design.md``)."""

    @property
    def scores(self) -> dict[str, int]: ...

    @property
    def is_over(self) -> bool: ...

    def play_turn(self, player: str, actions: Any) -> list[Any]: ...

    def copy(self) -> "Engine": ...


class SetupProblem(Exception):
    """The header does not describe a game that can be set up (bad Players, Options, ...)."""

    def __init__(self, message: str, code: str = "setup", rule: str | None = None,
                 section: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.rule = rule
        self.section = section


def seats_of(record: Record) -> list[Seat]:
    """The seats of the ``Players`` tag, checked: known colours, each once, 2 to 5 players."""
    value = record.tag("Players")
    if value is None:
        raise SetupProblem("the Players tag is missing: write [Players \"Anna (red), Ben (blue)\"]", "players")
    try:
        seats = record.seats()
    except ValueError as exc:
        raise SetupProblem(f"Players tag: {exc}", "players") from None
    colours = [c for s in seats for c in s.colours]
    unknown = [c for c in colours if c not in COLOURS]
    if unknown:
        raise SetupProblem(f"Players tag: unknown colour {unknown[0]!r}; the colours are {', '.join(COLOURS)}",
                           "players")
    if len(set(colours)) != len(colours):
        raise SetupProblem("Players tag: a colour is taken twice", "players")
    if not 2 <= len(seats) <= 5:
        raise SetupProblem(f"the game is for 2 to 5 players, not {len(seats)}", "players",
                           rule="2 to 5 players", section="000 General Info and Comments")
    return seats


def player_key(seats: list[Seat], word: str) -> str:
    """The key (first colour) of the player a turn names by any of their colours."""
    for s in seats:
        if word in s.colours:
            return s.key
    return word


def goldrush_options(tags: dict[str, str]) -> Any:
    """Gold Rush :class:`~grn.goldrush.Options` from the ``Options`` tag's words.

    ``farmers=off`` plays without farmers (the rulebook's first-game advice);
    ``cowboys=5`` is the house rule that brings the scoring cowboy into play.
    """
    from grn.goldrush import Options

    kwargs: dict[str, Any] = {}
    for key, value in tags.items():
        if key == "farmers":
            if value not in ("on", "off"):
                raise SetupProblem(f"Options tag: farmers must be on or off, not {value!r}", "options")
            kwargs["farmers"] = value == "on"
        elif key == "cowboys":
            if value not in ("4", "5"):
                raise SetupProblem(f"Options tag: cowboys must be 4 or 5, not {value!r}", "options")
            kwargs["cowboys"] = int(value)
        else:
            raise SetupProblem(
                f"Options tag: unknown option {key!r}: the options are farmers=on|off and cowboys=4|5",
                "options")
    return Options(**kwargs)


def gold_positions(record: Record) -> tuple[str, ...] | None:
    """The layout positions of a Gold record (``None``: the default 8x8 grid)."""
    layout = (record.tag("Layout") or "8x8").strip().lower()
    if layout == "8x8":
        return None
    if layout == "free":
        return tuple(f"p{i}" for i in range(1, 65))
    raise SetupProblem(f"Layout tag: {layout!r} is not 8x8 or free", "layout")


def new_engine(record: Record, seats: list[Seat], tileset: Any = None) -> Engine:
    """A fresh rules engine for the record's game, set up from its header.

    Raises :class:`SetupProblem` when the header does not allow it.
    """
    game = record.game
    first = next((player_key(seats, t.player) for t in record.turns if t.number > 0), None)
    if first not in {s.key for s in seats}:
        # a first turn by someone not playing: that turn reports it, the game starts as seated
        first = None
    if game == "goldrush":
        from grn.goldrush import GoldRushState
        from grn.tiles import load_tileset

        options = goldrush_options(record.options())
        return GoldRushState.new(tileset or load_tileset(), [s.key for s in seats], options,  # type: ignore[return-value]
                                 first=first)
    if game == "gold":
        from grn.gold import GoldState

        positions = gold_positions(record)
        if len(seats) == 2 and any(len(s.colours) != 2 for s in seats):
            raise SetupProblem('with two players each owns two colours: write them as '
                               '[Players "Anna (red+yellow), Ben (green+blue)"]', "players",
                               rule="If there are only two players, each of them should pick two colors.",
                               section="001 Gold: setup")
        try:
            return GoldState.new([(s.key, s.colours) for s in seats], first=first,  # type: ignore[return-value]
                                 positions=positions)
        except IllegalAction as exc:
            # the seats are all the engine is told about: the problem is in the Players tag
            raise SetupProblem(exc.message, "players", exc.rule, exc.section) from None
    if game == "carcassonne":
        raise SetupProblem("Carcassonne with The Gold Mines is not supported yet (coming later)", "unsupported")
    raise SetupProblem(f"unknown game {game!r}", "unknown-game")
