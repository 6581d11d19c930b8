"""Positions of a record: the state after turn N of the main line or of a variation.

An **address** names a position (docs/notation.md, "Positions"):

* ``12``: after turn 12 of the main line; ``0``: the start (after any set-up);
* ``12(1)15``: in the first variation at turn 12 (which branches from the
  position before turn 12), after its turn 15;
* ``12(1)14(2)16``: variations nest the same way;
* empty or ``end``: after the last turn of the main line, and after the final
  scoring when that turn ends the game (``final`` says the same, and refuses a
  line that does not end the game); the last turn's number names the position
  before the final scoring.

:func:`position_at` replays the record with its rules engine up to that point.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence

from grn.rules import registry
from grn.core.errors import IllegalAction
from grn.core.record import Markup, Record, Seat, Turn
from grn.rules.ruleset import Ruleset, SetupProblem, engine_for, player_key

if TYPE_CHECKING:
    from grn.rules.engine import Engine, Event


class PositionError(Exception):
    """The address names no position of the record, or the record cannot be replayed to it.

    ``usage`` is True when the address itself is at fault (the command line's
    mistake), False when the record is.
    """

    def __init__(self, message: str, *, usage: bool = False, span: Any = None, rule: bool = False) -> None:
        super().__init__(message)
        self.usage = usage
        #: Where in the record the problem lies (a header tag's line and column), when known.
        self.span = span
        #: True when a turn breaks the rules (``grn validate`` says the same, in full).
        self.rule = rule


def rejected_markup(diagnostics: Sequence[Any]) -> frozenset[tuple[int, int]]:
    """Where (line, column) the markup the validator rejected stands: what no drawing shows (R89)."""
    return frozenset((d.span.line, d.span.column) for d in diagnostics
                     if getattr(d, "code", None) == "markup" and d.span is not None)


def drawable(markup: Sequence[Markup], rejected: frozenset[tuple[int, int]]) -> list[Markup]:
    """``markup`` less what the validator rejected (``rejected``: :func:`rejected_markup`)."""
    if not rejected:
        return list(markup)
    return [m for m in markup if m.span is None or (m.span.line, m.span.column) not in rejected]


@dataclass(slots=True)
class Position:
    """A replayed position: the engine state, the last turn played and the markup to draw."""

    record: Record
    state: Any
    seats: list[Seat]
    last: Turn | None
    turns_played: int
    markup: list[Markup] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    address: str = ""
    #: The turns of the line the position lies on (the main line, or the variation the address enters).
    line: tuple[Turn, ...] = ()
    #: The game's ruleset (None: looked up from the record's ``Game`` tag).
    ruleset: Ruleset | None = None
    #: The position is after the final scoring (``events`` are its events).
    final: bool = False
    #: What ``render --legal`` asks about instead of what the record plays next (``--tile``), if anything.
    asked: str | None = None

    def __post_init__(self) -> None:
        if self.ruleset is None:
            self.ruleset = registry.find_ruleset(self.record.game)

    def _repr_svg_(self) -> str:
        """The position drawn, so that a Jupyter notebook shows the board (as python-chess does)."""
        assert self.ruleset is not None  # set by __post_init__
        return self.ruleset.render_svg(self)

    def next_turn(self) -> Turn | None:
        """The turn that follows this position on its line (None at the end of the line)."""
        start = 0
        for i, t in enumerate(self.line):
            if t is self.last:
                start = i + 1
                break
        for t in self.line[start:]:
            if t.number > 0:
                return t
        return None

    @property
    def game(self) -> str:
        return self.record.game


def state_svg(state: Any, game: str) -> str:
    """An engine state of ``game`` drawn as SVG (a game state's ``_repr_svg_``: Jupyter shows it as a board).

    The players are named by their colours; nothing of a record is needed.
    """
    ruleset = registry.find_ruleset(game)
    owned = getattr(state, "colours", None)
    players = ", ".join(f"{p} ({'+'.join(owned[p]) if isinstance(owned, dict) and p in owned else p})"
                        for p in state.players)
    record = Record((("Game", ruleset.name), ("Players", players)))
    position = Position(record, state, ruleset.seats(record), None, getattr(state, "turn", 0), ruleset=ruleset)
    return ruleset.render_svg(position)


_ADDRESS_RE = re.compile(r"([0-9]+)\(([0-9]+)\)")


def parse_address(text: str | int | None) -> tuple[list[tuple[int, int]], int | None]:
    """Split an address into its variation steps ``[(turn, k), ...]`` and the final turn number."""
    if text is None:
        return [], None
    text = str(text).strip()
    if text in ("", "end", "final"):
        return [], None
    steps: list[tuple[int, int]] = []
    pos = 0
    while True:
        m = _ADDRESS_RE.match(text, pos)
        if not m:
            break
        if len(m.group(1)) > 9 or len(m.group(2)) > 9:
            raise PositionError(f"cannot read the position {text[:40]!r}: a turn number has at most 9 digits",
                                usage=True)
        steps.append((int(m.group(1)), int(m.group(2))))
        pos = m.end()
    rest = text[pos:]
    if rest in ("", "end", "final"):
        return steps, None
    if re.fullmatch(r"[0-9]{1,9}", rest) is None:
        # [0-9], not isdigit(): "²" is a digit to Python but no turn number
        raise PositionError(f"cannot read the position {text[:40]!r}: write N (at most 9 digits), or N(k)M for "
                            "a variation", usage=True)
    return steps, int(rest)


def play_record_turn(state: Engine, seats: list[Seat], turn: Turn) -> list[Event]:
    """Apply one turn of a record to ``state``: a set-up turn (0) with its score checkpoint, or a played turn;
    returns the events.  Raises :class:`~grn.core.errors.IllegalAction` and changes nothing when illegal."""
    player = player_key(seats, turn.player)
    if turn.number == 0:
        state.setup(player, turn.actions)
        cp = turn.checkpoint
        if cp is not None:
            state.set_scores({player_key(seats, p): s for p, s in cp.scores})
        return []
    return list(state.play_turn(player, turn.actions))


def _play(state: Engine, seats: list[Seat], turn: Turn) -> list[Event]:
    try:
        return play_record_turn(state, seats, turn)
    except IllegalAction as exc:
        where = f"{exc.span.line}:{exc.span.column}" if exc.span else f"turn {turn.number}"
        raise PositionError(f"the record breaks the rules at {where}: {exc.message} "
                            f"(run grn validate)", span=exc.span, rule=True) from None


def position_at(record: Record, address: str | int | None = None, *, tileset: Any = None) -> Position:
    """Replay ``record`` to the position ``address`` names (default: the end of the main line)."""
    if not record.ok:
        first = record.diagnostics[0]
        raise PositionError(f"the record cannot be read: {first.one_line()}")
    steps, target = parse_address(address)
    wants_final = str(address or "").strip().endswith("final")
    try:
        ruleset = registry.find_ruleset(record.game)
        seats = ruleset.seats(record)
        state = engine_for(ruleset, record, seats, tileset)
    except SetupProblem as exc:
        raise PositionError(str(exc), span=record.tag_span(exc.tag or "Game")) from None
    except registry.UnknownGame as exc:
        raise PositionError(str(exc), span=record.tag_span("Game")) from None
    line: Sequence[Turn] = record.turns
    markup: list[Markup] = list(record.intro)  # type: ignore[arg-type]
    markup = [m for m in markup if isinstance(m, Markup)]
    last: Turn | None = None
    played = 0
    events: list[Event] = []

    def step(turn: Turn) -> None:
        nonlocal events, last, played, markup
        events = _play(state, seats, turn)
        last = turn
        played += turn.number > 0
        # markup belongs to the position after its turn; set-up markup adds up
        markup = list(turn.markup) if turn.number > 0 else markup + list(turn.markup)

    for branch_turn, k in steps:
        for turn in line:
            if turn.number == branch_turn and turn.number > 0:
                vars_ = turn.variations
                if not 1 <= k <= len(vars_):
                    raise PositionError(f"turn {branch_turn} has {len(vars_)} variation(s), not {k}", usage=True)
                line = vars_[k - 1].turns
                markup = [m for m in vars_[k - 1].intro if isinstance(m, Markup)]
                break
            step(turn)
        else:
            raise PositionError(f"no turn {branch_turn} in that line", usage=True)
    if steps and target is not None and target < steps[-1][0] - 1:
        # the variation branches after turn N-1: an earlier turn lies on the line it leaves
        branch, k = steps[-1]
        raise PositionError(f"variation {k} at turn {branch} begins after turn {branch - 1}: "
                            f"no turn {target} on it", usage=True)
    for turn in line:
        if target is not None and turn.number > target:
            break
        step(turn)
    else:
        if target is not None and (last is None or last.number < target) and target > 0:
            raise PositionError(f"the line ends at turn {last.number if last else 0}, before turn {target}", usage=True)
    scored = False
    if target is None and state.is_over:
        # a finished game's last position is after its final scoring (the last turn's number names the one before)
        events = list(state.final_scoring())
        scored = True
    elif wants_final:
        where = f"after turn {last.number}" if last is not None and last.number else "at the start"
        raise PositionError(f"the game is not over {where}: there is no final scoring to show", usage=True)
    return Position(record, state, seats, last, played, markup, events, str(address or "end"), tuple(line),
                    ruleset, scored)
