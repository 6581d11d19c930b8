"""Issue 26 item 4, round fourteen: the dedup key's main line, for any command values (R286, R323).

The key's bytes are marshal's version-2 bytes of the whole flat list, and values that are equal but marshal
apart (``1`` and ``True``) are never taken for one another.  Round fourteen tried remembering each command's
bytes by its values (R323): these tests were written for it and stay, as the key's contract.
"""

from __future__ import annotations

import marshal
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from grn.archive import facts
from grn.core.record import Record, Turn
from grn.core.value import Value


class Move(Value):
    """A command of a made-up game: two fields, whatever their types."""

    __slots__ = ("a", "b", "span")
    _fields = ("a", "b", "span")

    def __init__(self, a: Any, b: Any, span: Any = None) -> None:
        self.a = a
        self.b = b
        self.span = span

    def _key(self) -> tuple[object, ...]:
        return (self.a, self.b)


class Other(Move):
    """Another class with the same fields: its name is part of the key."""


def _record(turns: list[tuple[int, list[Move]]]) -> Record:
    return Record((("Game", "madeup"),), tuple(Turn(n, "red", tuple(moves)) for n, moves in turns))


def _reference(record: Record) -> bytes:
    """The main line as round nine wrote it (R286): ``marshal.dumps`` of the whole flat list at once."""
    line: list[Any] = []
    for t in record.turns:
        line += [t.number, t.player.encode("utf-8")]
        for a in t.actions:
            line += [type(a).__name__.encode("utf-8"), a._key()]
    return marshal.dumps(line, 2)


def _line(record: Record) -> bytes:
    return facts._main_line(record, {}, None)[1]


_SCALARS = st.one_of(st.integers(-3, 3), st.integers(), st.booleans(), st.none(), st.sampled_from(["", "N", "é", "17"]),
                     st.text(max_size=4))
_VALUES = st.one_of(_SCALARS, st.tuples(_SCALARS), st.tuples(_SCALARS, st.tuples(_SCALARS)))
_MOVES = st.lists(st.builds(lambda cls, a, b: cls(a, b), st.sampled_from([Move, Other]), _VALUES, _VALUES),
                  max_size=3)
_TURNS = st.lists(st.tuples(st.one_of(st.integers(0, 80), st.integers()), _MOVES), max_size=6)


@settings(max_examples=300, deadline=None)
@given(st.lists(_TURNS, min_size=1, max_size=4))
def test_the_main_line_is_marshals_bytes_of_the_whole_list(records: list[Any]) -> None:
    # several records in a row: nothing one leaves behind changes the next one's key
    for turns in records:
        record = _record(turns)
        assert _line(record) == _reference(record)


def test_equal_values_that_marshal_apart_are_not_taken_for_one_another() -> None:
    """``(1, 0) == (True, False)`` and they hash alike, but marshal writes an int and a bool apart: two
    records that differ only so have different keys, in either order."""
    ints = _record([(1, [Move(1, 0)])])
    bools = _record([(1, [Move(True, False)])])
    nested_ints = _record([(1, [Move((1,), 0)])])
    nested_bools = _record([(1, [Move((True,), 0)])])
    for first, second in ((ints, bools), (bools, ints), (nested_ints, nested_bools), (nested_bools, nested_ints)):
        assert _line(first) == _reference(first)
        assert _line(second) == _reference(second)
        assert _line(first) != _line(second)
    # a turn's number: True is not 1 (compiled, a Turn keeps an int: True is then 1 there too)
    for record in (_record([(1, [])]), _record([(True, [])]), _record([(1, [])])):
        assert _line(record) == _reference(record)


def test_the_class_name_is_part_of_the_key() -> None:
    same_values = [_record([(1, [Move("17", 2)])]), _record([(1, [Other("17", 2)])])]
    lines = [_line(r) for r in same_values]
    assert lines == [_reference(r) for r in same_values] and lines[0] != lines[1]
