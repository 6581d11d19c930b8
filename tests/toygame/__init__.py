"""Nim, as a GRN game defined entirely in the tests: the contract the next game uses.

A heap of 15 stones; players take 1, 2 or 3 in turn (``take=2``); whoever
takes the last stone scores 1.  Nothing in ``grn/`` knows this game: it has
its own grammar snippet, command, codec, engine, drawing and self-play, and
reaches grn only through :func:`grn.games.register`.
"""

from __future__ import annotations

import random
from typing import Any, Final, Sequence

from grn.rules.codec import CommandCodec, Json, Problems, object_schema
from grn.rules.engine import Engine, Event
from grn.core.errors import IllegalAction, Span
from grn.rules.interop import ConversionProblem, Exporter, Importer
from grn.core.record import Record, Seat
from grn.rules.ruleset import PLAIN, Drawing, Ruleset
from grn.rules.selfplay import PlayedTurn, SelfPlayGame
from grn.core.value import Value
from grn.rules.choices import ChoiceError, Option, Step, finished
from grn.rules.ruleset import Ruleset

GRAMMAR = r"""
// Nim: take=N takes N stones from the heap.
%import envelope (start, tag, intro, note, turn, extra, variation, comment, checkpoint, markup, markup_arg, action)
%import envelope (LSQB, RSQB, TAG_NAME, STRING, TURN_NUMBER, PLAYER, NAG, BRACE_COMMENT, LINE_COMMENT, SCORE, SCORE_ITEM, MARKUP_KIND, MARKUP_WORD)
%override action: TAKE
TAKE.2: /take=\d+/
%import common.WS
%ignore WS
"""
HEAP = 15
SECTION = "Nim rules, Taking stones"


class Take(Value):
    """Take ``count`` stones from the heap."""

    __slots__ = ("count", "span")
    _fields = ("count", "span")

    def __init__(self, count: int, span: Span | None = None) -> None:
        self.count: Final = count
        self.span: Final = span

    def _key(self) -> tuple[object, ...]:
        return (self.count,)

    def __repr__(self) -> str:
        return f"<Take {self.count}>"


class TakeCodec(CommandCodec):
    """``take=2``."""

    command = Take
    terminal = "TAKE"
    json_type = "take"
    expected = "stones taken such as take=2"

    def read(self, text: str, span: Span, problems: Problems) -> Take:
        count = int(text.partition("=")[2])
        if count == 0:
            problems.append((span, "take=0 takes nothing: take 1, 2 or 3 stones"))
        return Take(count, span)

    def write(self, command: Take) -> str:
        return f"take={command.count}"

    def to_json(self, command: Take) -> Json:
        return {"type": "take", "count": command.count}

    def from_json(self, obj: Json) -> Take:
        return Take(obj["count"])

    def schema(self) -> Json:
        return object_schema("take", {"count": {"type": "integer", "minimum": 0}}, ("count",))


class LastStone(Event):
    """``player`` took the last stone."""

    __slots__ = ("player",)
    _fields = ("player",)

    def __init__(self, player: str) -> None:
        self.player: Final = player

    def _key(self) -> tuple[object, ...]:
        return (self.player,)

    def describe(self) -> str:
        return f"{self.player} takes the last stone and scores 1"


class NimState(Engine):
    """A heap of stones and whose turn it is."""

    def __init__(self, players: Sequence[str], first: str | None = None) -> None:
        self.players = tuple(players)
        self.heap = HEAP
        self.seat = self.players.index(first) if first else 0
        self._scores = {p: 0 for p in self.players}

    @property
    def scores(self) -> dict[str, int]:
        return dict(self._scores)

    @property
    def current_player(self) -> str:
        return self.players[self.seat]

    @property
    def is_over(self) -> bool:
        return self.heap == 0

    def copy(self) -> "NimState":
        c = NimState(self.players)
        c.heap, c.seat, c._scores = self.heap, self.seat, dict(self._scores)
        return c

    def play_turn(self, player: str, actions: Sequence[Any]) -> list[Any]:
        span = actions[0].span if actions else None
        if player != self.current_player:
            raise IllegalAction(f"it is {self.current_player}'s turn, not {player}'s", rule="players take turns",
                                section=SECTION, span=span)
        if len(actions) != 1 or not isinstance(actions[0], Take):
            raise IllegalAction("a turn takes stones once", rule="take 1, 2 or 3 stones", section=SECTION, span=span)
        n = actions[0].count
        if not 1 <= n <= min(3, self.heap):
            raise IllegalAction(f"cannot take {n} stones from a heap of {self.heap}", rule="take 1, 2 or 3 stones",
                                section=SECTION, span=span, hint=f"take 1 to {min(3, self.heap)}")
        self.heap -= n
        events: list[Any] = []
        if self.heap == 0:
            self._scores[player] += 1
            events.append(LastStone(player))
        self.seat = (self.seat + 1) % len(self.players)
        return events


class NimMovesImporter(Importer):
    """A toy foreign format: ``.nimmoves`` files, "players: red blue" then the stones taken, one number a move."""

    name = "nimmoves"
    title = "a list of Nim moves"
    suffixes = (".nimmoves",)

    def to_grn(self, text: str, *, tags: dict[str, str]) -> str:
        head, _, moves = text.partition("\n")
        if not head.startswith("players:"):
            raise ConversionProblem("the first line is 'players: COLOUR COLOUR ...'", "line 1")
        players = head.split(":", 1)[1].split()
        lines = ['[Game "nim"]', f'[Players "{", ".join(players)}"]']
        lines += [f'[{k} "{v}"]' for k, v in tags.items()] + [""]
        for n, word in enumerate(moves.split(), start=1):
            if not word.isdigit():
                raise ConversionProblem(f"{word!r} is not a number of stones", f"move {n}")
            lines.append(f"{n}. {players[(n - 1) % len(players)]} take={word}")
        return "\n".join(lines) + "\n"


class NimMovesExporter(Exporter):
    """Writes ``.nimmoves`` files (the main line only)."""

    name = "nimmoves"
    suffix = ".nimmoves"

    def from_grn(self, record: Record) -> str:
        seats = [s.key for s in record.seats()]
        takes = [str(a.count) for t in record.mainline() for a in t.actions if isinstance(a, Take)]
        return "players: " + " ".join(seats) + "\n" + " ".join(takes) + "\n"


class NimRuleset(Ruleset[NimState]):
    """Nim for 2 to 4 players."""

    name = "nim"
    aliases = ("toy nim",)
    title = "Nim"
    codecs = (TakeCodec(),)
    max_players = 4

    def grammar_text(self) -> str:
        return GRAMMAR

    def new_engine(self, record: Record, seats: list[Seat], first: str | None, tileset: Any = None) -> NimState:
        return NimState([s.key for s in seats], first)

    def render_svg(self, position: Any, drawing: Drawing = PLAIN, *, shared_defs: Any = None) -> str:
        heap = position.state.heap
        stones = "".join(f'<circle cx="{20 + 30 * i}" cy="30" r="12" class="stone"/>' for i in range(heap))
        return f'<svg xmlns="http://www.w3.org/2000/svg" width="480" height="60">{stones}</svg>'

    def describe(self, position: Any) -> list[str]:
        return [f"  {position.state.heap} stones in the heap"]

    #: A stone is one point: a move that hands the last stone away loses 1.
    analysis_thresholds = (0.3, 0.6, 0.9)

    def choice_point(self, engine: Any, chosen: Sequence[str], memo: dict[Any, Any] | None = None) -> Step | None:
        """The one hook a game without hidden information adds to get the recorder, the editor's completion,
        every bot and ``grn analyse``: how many stones to take, then the whole turn."""
        if engine.is_over:
            return Step("The game is over: the heap is empty")
        takes = {f"take={n}": Take(n) for n in range(1, min(3, engine.heap) + 1)}
        if not chosen:
            return Step("How many stones?", tuple(Option(w, f"takes {t.count}", command=t) for w, t in takes.items()))
        if chosen[0] not in takes or len(chosen) > 1:
            raise ChoiceError(f"{chosen[-1]!r} is not a choice here")
        return finished((takes[chosen[0]],), f"takes {takes[chosen[0]].count}")

    def importers(self) -> list[Importer]:
        return [NimMovesImporter()]

    def exporters(self) -> dict[str, Exporter]:
        return {"nimmoves": NimMovesExporter()}

    def selfplay(self, players: int, seed: int, options: Any = None) -> SelfPlayGame:
        from grn.rules.ruleset import COLOURS

        rng = random.Random(seed)
        state = NimState(COLOURS[:players])
        turns = []
        while not state.is_over:
            player = state.current_player
            take = Take(rng.randint(1, min(3, state.heap)))
            state.play_turn(player, [take])
            turns.append(PlayedTurn(player, (take,), state.scores))
        return SelfPlayGame("nim", state.players, tuple(turns), state.scores)


RULESET = NimRuleset()
