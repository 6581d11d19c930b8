"""One definition per command: the codec that reads, writes and converts it.

A command's grammar rule lives in its game's ``.lark`` file (a terminal that
matches its word).  Everything else about it is one :class:`CommandCodec`
next to the command class: how a matched word becomes the command (used by
Lark's transformer and by :mod:`grn.notation.fastread` alike), how the writer spells
it, its JSON object both ways and that object's JSON Schema, and the words
used in "expected ..." messages.  A ruleset lists its codecs
(:attr:`grn.rules.ruleset.Ruleset.codecs`); ``tests/test_codecs.py`` proves that
every codec, grammar terminal and schema entry agree.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

from mypy_extensions import mypyc_attr

from grn.core.errors import Span
from grn.core.value import Value

Json = dict[str, Any]
#: Problems a codec notes while reading: (span, message).  The command is still made.
Problems = list[tuple[Span, str]]


# Rulesets outside the compiled modules (and tests) define codecs of their own.
@mypyc_attr(allow_interpreted_subclasses=True)
class CommandCodec:
    """How one engine command is read, written and converted (everything but its grammar rule).

    Subclasses set the four class attributes below and implement the five methods.
    """

    #: The command class this codec makes and spells.
    command: ClassVar[type] = Value
    #: The terminal of the game's grammar that matches the command's word.
    terminal: ClassVar[str] = ""
    #: The ``type`` of the command's JSON object.
    json_type: ClassVar[str] = ""
    #: What a player reads in "expected ..." when the word is missing.
    expected: ClassVar[str] = ""

    def read(self, text: str, span: Span, problems: Problems) -> Value:
        """The command for the word ``text`` the terminal matched.

        Words that are well formed but mean nothing (rotation 45) are noted in
        ``problems``; the command is still made so nothing is lost.
        """
        raise NotImplementedError

    def write(self, command: Any) -> str:
        """The canonical GRN spelling of ``command``."""
        raise NotImplementedError

    def to_json(self, command: Any) -> Json:
        """``command`` as a JSON object (with ``"type": json_type``)."""
        raise NotImplementedError

    def from_json(self, obj: Json) -> Value:
        """The command of a JSON object (already checked by :meth:`schema`)."""
        raise NotImplementedError

    def schema(self) -> Json:
        """The JSON Schema of the command's JSON object, ``type`` included."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.terminal} {self.json_type!r}>"


#: A GRN number has at most this many digits: a longer one is an error at its place, never a crash.
MAX_DIGITS: Final = 9


def read_int(text: str, span: Span, problems: Problems, what: str = "a number") -> int:
    """The integer a matched word holds, noting one too long to mean anything (at most :data:`MAX_DIGITS`)."""
    if len(text) > MAX_DIGITS and len(text.lstrip("+-")) > MAX_DIGITS:
        shown = text if len(text) <= 14 else text[:10] + "..."
        problems.append((span, f"{what} cannot be {shown}: a number in GRN has at most {MAX_DIGITS} digits"))
        return 0
    return int(text)


def object_schema(json_type: str, properties: Json, required: tuple[str, ...] = ()) -> Json:
    """A closed JSON object schema with ``"type": json_type`` (for :meth:`CommandCodec.schema`)."""
    return {"type": "object",
            "properties": {"type": {"const": json_type}, **properties},
            "required": ["type", *required],
            "additionalProperties": False}
