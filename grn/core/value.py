"""The base of grn's small immutable value types: commands, spans and the turns of a record.

These are made once per word of a record, so making one must be cheap.  A
frozen dataclass builds its instances with generated Python code that calls
``object.__setattr__`` per field (about 1.8 microseconds), and stays that slow
when grn is compiled with mypyc.  A plain class with ``Final`` attributes and
its own ``__init__`` is compiled by mypyc into a C struct: about 0.07
microseconds, and its attributes are then read-only at run time.  (In the
pure-Python build the attributes are read-only to mypy only.)

A subclass lists its fields in ``_fields`` (constructor order) and says in
:meth:`Value._key` which of them take part in equality and hashing: a source
:class:`~grn.core.errors.Span` never does, so two commands that say the same thing
are equal wherever they were written.

The value types grn builds on every ``grn validate`` (a record, its seats, a
diagnostic, a report, the tile set) are classes of this kind rather than
dataclasses for the start-up too: ``dataclasses`` compiles each class's methods
from generated source when the class is made, and with its import that was about
15 ms of a 45 ms command (docs/performance.md, "Start-up, round thirteen").
:class:`Struct` is the mutable kind (a report filled in while a game is checked).
"""

from __future__ import annotations

from typing import Any, ClassVar, TypeVar

from mypy_extensions import mypyc_attr

V = TypeVar("V", bound="Value")
S = TypeVar("S", bound="Struct")


# Games outside the compiled modules (a plug-in's commands and events) subclass it.
@mypyc_attr(allow_interpreted_subclasses=True)
class Value:
    """An immutable value: equality and hashing by :meth:`_key`, and :meth:`replace`."""

    __slots__ = ()

    #: The constructor's parameters, in order (what :meth:`replace` copies).
    _fields: ClassVar[tuple[str, ...]] = ()

    def _key(self) -> tuple[object, ...]:
        """The fields that make two values equal (spans left out)."""
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and isinstance(other, Value) and self._key() == other._key()

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._key()))

    def __reduce__(self) -> tuple[Any, ...]:
        # for pickle and copy.deepcopy: compiled classes have no __dict__ to restore
        return (type(self), tuple(getattr(self, f) for f in self._fields))

    def __repr__(self) -> str:
        # a dataclass's repr: the class and every field (types with more to hide write their own)
        return _fields_repr(self, self._fields)

    def replace(self: V, **changes: Any) -> V:
        """A copy with some fields changed, like :func:`dataclasses.replace`."""
        return _replaced(self, self._fields, changes)


@mypyc_attr(allow_interpreted_subclasses=True)
class Struct:
    """A mutable record of fields: equality by all of them, a dataclass's repr, not hashable.

    A subclass lists its fields in ``_fields`` (constructor order) and sets them in its ``__init__``.
    """

    __slots__ = ()

    #: The constructor's parameters, in order.
    _fields: ClassVar[tuple[str, ...]] = ()

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and all(getattr(self, f) == getattr(other, f) for f in self._fields)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        raise TypeError(f"unhashable type: {type(self).__name__!r}")

    def __repr__(self) -> str:
        return _fields_repr(self, self._fields)

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), tuple(getattr(self, f) for f in self._fields))

    def replace(self: S, **changes: Any) -> S:
        """A copy with some fields changed, like :func:`dataclasses.replace` (the others shared, not copied)."""
        return _replaced(self, self._fields, changes)


def _replaced(obj: Any, fields: tuple[str, ...], changes: dict[str, Any]) -> Any:
    """``obj``'s class made again from its ``fields``, ``changes`` in place of some (``replace`` of both kinds)."""
    for name in changes:
        if name not in fields:
            raise TypeError(f"{type(obj).__name__} has no field {name!r}")
    return type(obj)(**{f: changes[f] if f in changes else getattr(obj, f) for f in fields})


def _fields_repr(obj: object, fields: tuple[str, ...]) -> str:
    """``Name(field=value, ...)``, as a dataclass writes itself."""
    return f"{type(obj).__qualname__}({', '.join(f'{f}={getattr(obj, f)!r}' for f in fields)})"


def reduce_dataclass(obj: Any) -> tuple[Any, ...]:
    """``__reduce__`` for a dataclass in a compiled module: rebuild it from its fields.

    mypyc compiles a dataclass into a native class whose default unpickling sets
    fields one by one, which a frozen dataclass refuses; pickle and
    :func:`copy.deepcopy` call this instead.
    """
    import dataclasses  # only when such a value is pickled: grn's own value types are not dataclasses

    return (type(obj), tuple(getattr(obj, f.name) for f in dataclasses.fields(obj) if f.init))
