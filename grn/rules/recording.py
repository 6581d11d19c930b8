"""Editing a record as it is played: a turn added at a position, the last turn taken back, notes added.

A position is named by its address (:mod:`grn.rules.position`: ``12``, ``12(1)13``).
Playing at a position that is not the end of its line follows the line when
the move is the one already there, enters the variation that starts with it,
or starts a new variation.  Every function returns a new :class:`Record` and
the address of the position after the edit; records are immutable.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Sequence

from grn.rules.position import Position, parse_address, position_at
from grn.core.record import Comment, Extra, Nag, Record, Turn, Variation

if TYPE_CHECKING:
    from grn.core.record import Command

#: The glyphs a recorder offers (GRN's own, docs/notation.md).
GLYPHS = ("!", "?", "!!", "??", "!?", "?!")

Line = tuple[Turn, ...]


class EditError(ValueError):
    """An edit that cannot be made at that position (a one-line reason)."""


def address_of(steps: Sequence[tuple[int, int]], number: int) -> str:
    """The address of turn ``number`` on the line reached by the variation ``steps``."""
    return "".join(f"{t}({k})" for t, k in steps) + str(number)


def _edit(line: Line, steps: Sequence[tuple[int, int]], fn: Callable[[Line], Line]) -> Line:
    """``line`` with the line that ``steps`` reach replaced by ``fn`` of it (a variation left empty goes)."""
    if not steps:
        return fn(line)
    (branch, k), rest = steps[0], steps[1:]
    out = list(line)
    for i, turn in enumerate(out):
        if turn.number == branch and turn.number > 0:
            seen = 0
            extras: list[Extra] = []
            for e in turn.extras:
                if isinstance(e, Variation):
                    seen += 1
                    if seen == k:
                        turns = _edit(e.turns, rest, fn)
                        if turns:
                            extras.append(e.replace(turns=turns))
                        continue
                extras.append(e)
            if seen < k:
                raise EditError(f"turn {branch} has no variation {k}")
            out[i] = turn.replace(extras=tuple(extras))
            return tuple(out)
    raise EditError(f"no turn {branch} in that line")


def _line(record: Record, steps: Sequence[tuple[int, int]]) -> Line:
    found: list[Line] = []

    def keep(line: Line) -> Line:
        found.append(line)
        return line

    _edit(record.turns, steps, keep)
    return found[0]


def _cursor(record: Record, address: str) -> tuple[list[tuple[int, int]], int]:
    steps, target = parse_address(address)
    if target is None:
        line = _line(record, steps)
        target = max((t.number for t in line), default=0)
    return steps, target


def play(record: Record, address: str, player: str, actions: Sequence[Command]) -> tuple[Record, str]:
    """Record ``player``'s turn ``actions`` at the position ``address``; the new record and its address.

    The caller has checked the turn with the engine (:func:`grn.rules.position.position_at` replays it).
    """
    steps, target = _cursor(record, address)
    line = _line(record, steps)
    turn = Turn(target + 1, player, tuple(actions))
    after = [t for t in line if t.number > target]
    if not after:
        # the end of the line: the turn is added to it
        return record.replace(turns=_edit(record.turns, steps, lambda ln: (*ln, turn))), address_of(steps, target + 1)
    following = after[0]
    if following.number != target + 1:
        raise EditError(f"the line goes from turn {target} to turn {following.number}")
    if (following.player, following.actions) == (player, tuple(actions)):
        return record, address_of(steps, target + 1)
    for k, v in enumerate(following.variations, 1):
        if v.turns and (v.turns[0].player, v.turns[0].actions) == (player, tuple(actions)):
            return record, address_of([*steps, (following.number, k)], target + 1)
    k = len(following.variations) + 1

    def branch(ln: Line) -> Line:
        return tuple(t.replace(extras=(*t.extras, Variation((turn,)))) if t is following else t for t in ln)

    return (record.replace(turns=_edit(record.turns, steps, branch)),
            address_of([*steps, (following.number, k)], target + 1))


def undo(record: Record, address: str) -> tuple[Record, str]:
    """Take back the turn at ``address``, the last of its line; the record and the position before it."""
    steps, target = _cursor(record, address)
    line = _line(record, steps)
    played = [t for t in line if t.number > 0]
    if not played or target == 0 or (steps and target < steps[-1][0]):
        raise EditError("no turn to take back here")
    if played[-1].number != target:
        raise EditError(f"only the last turn of a line can be taken back (this line goes on to turn "
                        f"{played[-1].number})")
    last = played[-1]
    turns = _edit(record.turns, steps, lambda ln: tuple(t for t in ln if t is not last))
    if steps and len(played) == 1:
        # the variation is gone: back to the position it branched from, on the line it left
        return record.replace(turns=turns), address_of(steps[:-1], steps[-1][0] - 1)
    return record.replace(turns=turns), address_of(steps, target - 1)


def annotate(record: Record, address: str, *, comment: str | None = None, glyph: str | None = None) -> Record:
    """Add a comment or a glyph to the turn at ``address`` (a comment at the start goes before the first turn)."""
    if glyph is not None and glyph not in GLYPHS:
        raise EditError(f"{glyph!r} is not a glyph: use one of {' '.join(GLYPHS)}")
    if comment is not None and ("{" in comment or "}" in comment):
        raise EditError("a comment cannot hold { or }")
    steps, target = _cursor(record, address)
    if target == 0 and not steps:
        if glyph is not None:
            raise EditError("a glyph belongs to a turn: play one first")
        return record.replace(intro=(*record.intro, Comment(comment or "")))
    line = _line(record, steps)
    turn = next((t for t in line if t.number == target), None)
    if turn is None:
        raise EditError(f"no turn {target} on that line")
    extra: Extra = Nag(glyph) if glyph is not None else Comment(comment or "")
    return record.replace(turns=_edit(record.turns, steps, lambda ln: tuple(
        t.replace(extras=(*t.extras, extra)) if t is turn else t for t in ln)))


def position(record: Record, address: str) -> Position:
    """The position at ``address`` for recording: never after a final scoring, so that play can go on."""
    steps, target = _cursor(record, address)
    return position_at(record, address_of(steps, target))


def normalise(record: Record, address: str) -> str:
    """``address`` with its turn number written out (``end`` and ``12(1)`` name the end of their line)."""
    steps, target = _cursor(record, address)
    return address_of(steps, target)


def line_at(record: Record, address: str) -> tuple[list[tuple[int, int]], Line]:
    """The variation steps of ``address`` and the turns of the line it lies on."""
    steps, _ = _cursor(record, address)
    return steps, _line(record, steps)


def line_to(record: Record, address: str) -> Line:
    """The turns played to reach ``address``, from the start (set-up included), without their variations:
    the main line of a game that goes on from that position."""
    steps, target = _cursor(record, address)
    out: list[Turn] = []
    line = record.turns
    for branch, k in steps:
        out += [t for t in line if t.number < branch]
        turn = next((t for t in line if t.number == branch and t.number > 0), None)
        if turn is None or not 1 <= k <= len(turn.variations):
            raise EditError(f"no variation {k} at turn {branch}")
        line = turn.variations[k - 1].turns
    out += [t for t in line if t.number <= target]
    return tuple(t.replace(extras=tuple(e for e in t.extras if not isinstance(e, Variation))) for t in out)


def from_position(record: Record, address: str) -> Record:
    """A new game that goes on from the position ``address`` of ``record``: its tags (less the Result)
    and the turns that lead there."""
    return Record(tuple((k, v) for k, v in record.tags if k != "Result"), line_to(record, address), record.intro)
