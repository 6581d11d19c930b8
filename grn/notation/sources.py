"""Loading record files for the commands: GRN text or its JSON form, a path or ``-``.

Errors are returned as diagnostics, never raised: a missing file, bytes that
are not UTF-8 text, JSON that is not JSON or breaks the schema.
"""

from __future__ import annotations

import io
import itertools
import json
import sys
from typing import Any, Callable, Final, Iterator

from grn.notation import read as notation
from grn.core.errors import Diagnostic, Span
from grn.core.record import MAX_VARIATION_DEPTH
from grn.core.record import Record
from grn.core.value import Value


class Loaded(Value):
    """What reading a source gave: one record or one problem that stopped the reading."""

    __slots__ = ("record", "problem")
    _fields = ("record", "problem")

    def __init__(self, record: Record | None, problem: Diagnostic | None = None) -> None:
        self.record: Final = record
        self.problem: Final = problem

    def _key(self) -> tuple[object, ...]:
        return (self.record, self.problem)


def is_json(path: str) -> bool:
    """Whether ``path`` names the JSON form (by its extension)."""
    return path.lower().endswith(".json")


class BadEncoding(Exception):
    """A line that is not UTF-8: where, in file coordinates."""

    def __init__(self, line: int, column: int, encoding: str = "utf-8") -> None:
        super().__init__(f"{line}:{column}")
        self.line = line
        self.column = column
        self.encoding = encoding


#: The byte-order marks of UTF-16 (Windows Notepad's "Unicode"), little- and big-endian.
UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


class _Utf16AsUtf8:
    """A UTF-16 file (with its byte-order mark) read as the UTF-8 lines the readers expect (R89)."""

    def __init__(self, raw: Any) -> None:
        self._text = io.TextIOWrapper(raw, encoding="utf-16", newline="")
        self.line = 0

    def readline(self, limit: int = -1) -> bytes:
        """The next line (at most ``limit`` characters), as UTF-8; an undecodable one raises BadEncoding."""
        try:
            text = self._text.readline(limit)
            data = text.encode("utf-8")  # a lone surrogate is no character
        except (UnicodeDecodeError, UnicodeEncodeError):
            raise BadEncoding(self.line + 1, 1, "utf-16") from None
        if text.endswith("\n"):
            self.line += 1
        return data

    def __iter__(self) -> Iterator[bytes]:
        return iter(lambda: self.readline(), b"")


def utf8_bytes(data: bytes) -> bytes:
    """``data`` as UTF-8: a UTF-16 text with its byte-order mark is converted (undecodable bytes replaced)."""
    if data.startswith(UTF16_BOMS):
        return data.decode("utf-16", errors="replace").encode("utf-8")
    return data


def decoded_lines(raw: Any, *, bounded: bool = True) -> Iterator[str]:
    """Decode the lines of a binary file as UTF-8, raising :class:`BadEncoding` at the first bad byte.

    A file that starts with UTF-16's byte-order mark is read as UTF-16 (R89).  ``bounded``: lines
    longer than GRN allows come as :data:`grn.notation.read.LONG_LINE`, their text not kept (a JSON
    document, whose one line may be long, is read whole).  Lines end at ``\n`` only (a CR before it
    stays, a lone CR or form feed ends no line), as the grammar counts them.
    """
    peek = getattr(raw, "peek", None)
    head = peek(2)[:2] if peek is not None else b""
    if not head and hasattr(raw, "getvalue"):
        head = raw.getvalue()[:2]
    if head in UTF16_BOMS:
        return _lines_one_by_one(_Utf16AsUtf8(raw), bounded)
    if bounded and hasattr(raw, "read"):
        # whole blocks decoded and cut at once, a list of lines each (R327): a C loop hands the lines on
        return itertools.chain.from_iterable(block_lines(raw.read))
    return _lines_one_by_one(raw, bounded)


def _lines_one_by_one(raw: Any, bounded: bool, most: int = notation.MAX_LINE_CHARS) -> Iterator[str]:
    """:func:`decoded_lines` a line at a time (UTF-16 files, unbounded reads, and the reference of the tests)."""
    lines = notation.bounded_lines(raw.readline, b"", most) if bounded else iter(raw)
    for number, data in enumerate(lines, start=1):
        if data is notation.LONG_LINE:
            yield data
            continue
        try:
            yield data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise BadEncoding(number, _column(data, exc.start)) from None


def _column(line: bytes, start: int) -> int:
    """The column (in characters, from 1) of the byte ``start`` of ``line``, which is not UTF-8 there."""
    return len(line[:start].decode("utf-8", errors="replace")) + 1


#: The bytes :func:`block_lines` reads at a time.
BLOCK: Final = 1 << 16
#: What ends a line for ``str.splitlines`` besides ``\n`` and ``\r\n``: where one of them is in a block,
#: the block is cut at ``\n`` alone (GRN's line end).
_OTHER_BREAKS: Final = ("\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")


def block_lines(read: Callable[[int], bytes], most: int = notation.MAX_LINE_CHARS,
                block: int = BLOCK) -> Iterator[list[str]]:
    """The decoded lines of a binary stream, a list of them for every ``block`` bytes read (R327).

    The same lines as reading them one by one (:func:`grn.notation.read.bounded_lines` and a decode a
    line): each keeps its ``\n``; one longer than ``most`` bytes comes as
    :data:`grn.notation.read.LONG_LINE`, skipped, not kept; at the first line that is not UTF-8 the lines
    before it are given, then :class:`BadEncoding` is raised with its line and column.
    """
    number = 0  # lines given so far
    rest = b""  # the start of a line whose end is not read yet
    data = read(block)
    while data:
        cut = data.rfind(b"\n")
        if cut < 0:
            rest += data
            if len(rest) > most:  # a line too long: skipped to its end, nothing of it kept
                number += 1
                yield [notation.LONG_LINE]
                rest = b""
                after = _skip_line(read, block)
                if after is None:
                    return
                data = after or read(block)
                continue
        else:
            whole = rest + data[:cut + 1] if rest else data[:cut + 1]
            rest = data[cut + 1:]
            lines, problem = _decode_lines(whole, number, most)
            number += len(lines)
            if lines:
                yield lines
            if problem is not None:
                raise problem
        data = read(block)
    if rest:  # the last line, with no line end
        lines, problem = _decode_lines(rest, number, most)
        if lines:
            yield lines
        if problem is not None:
            raise problem


def _skip_line(read: Callable[[int], bytes], block: int) -> bytes | None:
    """Read past the next line end: what follows it in the block read, or None at the end of the stream."""
    while True:
        data = read(block)
        if not data:
            return None
        end = data.find(b"\n")
        if end >= 0:
            return data[end + 1:]


def _cut(pieces: list[Any], newline: Any) -> list[Any]:
    """The lines of a text or bytes split at ``newline``, each with its ``newline`` again (the last piece is
    what follows the last line end: a line only when not empty)."""
    last = pieces.pop()
    lines = [piece + newline for piece in pieces]
    if last:
        lines.append(last)
    return lines


def _decode_lines(data: bytes, number: int, most: int) -> tuple[list[str], BadEncoding | None]:
    """The lines of ``data``, the first of them line ``number + 1``, and the problem that stopped them.

    ``data`` holds whole lines: it ends at a line end, or at the end of the stream.
    """
    if len(data) <= most:  # no line in it can be too long
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            pass  # found again below, line by line, with the line's number
        else:
            # ("in" finds a character at memory speed; counting a pair is slower, so only where a CR is)
            no_lone_cr = "\r" not in text or text.count("\r") == text.count("\r\n")
            if no_lone_cr and not any(b in text for b in _OTHER_BREAKS):
                return text.splitlines(True), None  # it cuts where GRN does: at \n (\r\n is \n with a CR)
            return _cut(text.split("\n"), "\n"), None
    out: list[str] = []
    for piece in _cut(data.split(b"\n"), b"\n"):
        number += 1
        if len(piece) - piece.endswith(b"\n") > most:
            out.append(notation.LONG_LINE)
            continue
        try:
            out.append(piece.decode("utf-8"))
        except UnicodeDecodeError as exc:
            return out, BadEncoding(number, _column(piece, exc.start))
    return out, None


def text_chunks(text: str) -> Iterator[notation.Chunk]:
    """The games of GRN ``text`` held in memory (an editor's buffer), cut as a file of the same text is cut:
    lines end at ``\n`` and a line longer than GRN allows is not kept."""
    return notation.split_games(notation.bounded_lines(io.StringIO(text, newline="\n").readline, ""))


_STDIN: tuple[object, bytes] | None = None


def stdin_bytes() -> bytes:
    """Standard input, read once (``grn fmt --check -`` reads it twice)."""
    global _STDIN
    if _STDIN is None or _STDIN[0] is not sys.stdin:
        _STDIN = (sys.stdin, sys.stdin.buffer.read())
    return _STDIN[1]


def raw_bytes(path: str) -> bytes:
    """The bytes of ``path`` (``-``: standard input)."""
    if path == "-":
        return stdin_bytes()
    with open(path, "rb") as fh:
        return fh.read()


def encoding_problem(exc: BadEncoding, name: str) -> Diagnostic:
    """The diagnostic of a file that cannot be decoded."""
    if exc.encoding == "utf-16":
        return Diagnostic("UTF-16 text that cannot be decoded (it starts with UTF-16's byte-order mark): save "
                          "the file as UTF-8", Span(exc.line, exc.column), name, code="encoding")
    return Diagnostic("not UTF-8 text: save the file as UTF-8", Span(exc.line, exc.column), name, code="encoding")


def read_path(path: str, *, file: str | None = None) -> Iterator[Record]:
    """The GRN records of the file ``path``, as :func:`grn.read` gives them: a file that cannot be decoded
    ends in a record holding that problem as a diagnostic (an unreadable path raises ``OSError``)."""
    name = file or path
    with open(path, "rb") as fh:
        try:
            yield from notation.read(decoded_lines(fh), file=name)
        except BadEncoding as exc:
            yield Record((), diagnostics=(encoding_problem(exc, name),))


def load(path: str, *, as_json: bool | None = None) -> Iterator[Loaded]:
    """Yield the records of ``path`` lazily (``-`` is standard input).

    GRN files stream game by game, and so do JSON documents of the usual shape, each
    game checked against ``schemas/record.schema.json`` as it is read; a JSON document
    the streaming reader cannot take is read whole (:func:`grn.notation.jsonform.stream_records`).
    """
    name = "<stdin>" if path == "-" else path
    json_form = is_json(path) if as_json is None else as_json
    if path == "-" and as_json is None:
        # standard input has no extension: take it as JSON when it is a JSON object
        # (a GRN file may start with a {comment}, which is not valid JSON)
        data = stdin_bytes()
        if data.lstrip().startswith(b"{"):
            from grn.notation.jsonform import loads

            try:
                json_form = isinstance(loads(data.decode("utf-8")), dict)
            except RecursionError:
                json_form = True  # reported as too deep when read below
            except (ValueError, UnicodeDecodeError):
                json_form = False
    try:
        if json_form:
            from grn.notation.jsonform import ReadWhole, loads, records_from_json, stream_records  # (jsonschema: JSON only)

            skip, said = 0, set()
            try:
                with (io.BytesIO(stdin_bytes()) if path == "-" else open(path, "rb")) as fh:
                    for item in stream_records(fh, file=name):
                        yield Loaded(item) if isinstance(item, Record) else Loaded(None, item)
                return
            except ReadWhole as stop:
                skip, said = stop.told, stop.said
            text = "".join(decoded_lines(io.BytesIO(raw_bytes(path)), bounded=False))
            try:
                document = loads(text)
            except json.JSONDecodeError as exc:
                yield Loaded(None, Diagnostic(f"not valid JSON: {exc.msg}", Span(exc.lineno, exc.colno),
                                              name, code="json"))
                return
            except RecursionError:
                yield Loaded(None, Diagnostic("JSON nested too deep to read: variations nest at most "
                                              f"{MAX_VARIATION_DEPTH} deep", None, name, code="json"))
                return
            records, problems = records_from_json(document, file=name)
            for p in problems:
                if p.message not in said:
                    yield Loaded(None, p)
            for r in records[skip:]:
                yield Loaded(r)
            return
        if path == "-":
            yield from (Loaded(r) for r in notation.read(decoded_lines(io.BytesIO(stdin_bytes())), file=name))
            return
        with open(path, "rb") as fh:
            yield from (Loaded(r) for r in notation.read(decoded_lines(fh), file=name))
    except BadEncoding as exc:
        yield Loaded(None, encoding_problem(exc, name))
    except FileNotFoundError:
        yield Loaded(None, Diagnostic("no such file", None, name, code="io"))
    except IsADirectoryError:
        yield Loaded(None, Diagnostic("is a directory, not a record file", None, name, code="io"))
    except PermissionError:
        yield Loaded(None, Diagnostic("permission denied", None, name, code="io"))
