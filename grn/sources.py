"""Loading record files for the commands: GRN text or its JSON form, a path or ``-``.

Errors are returned as diagnostics, never raised: a missing file, bytes that
are not UTF-8 text, JSON that is not JSON or breaks the schema.
"""

from __future__ import annotations

import io
import json
import sys
from dataclasses import dataclass
from typing import Iterator

from grn import notation
from grn.errors import Diagnostic, Span
from grn.jsonform import records_from_json
from grn.record import Record


@dataclass(frozen=True, slots=True)
class Loaded:
    """What reading a source gave: one record or one problem that stopped the reading."""

    record: Record | None
    problem: Diagnostic | None = None


def is_json(path: str) -> bool:
    """Whether ``path`` names the JSON form (by its extension)."""
    return path.lower().endswith(".json")


def _read_text(path: str) -> str:
    if path == "-":
        data = sys.stdin.buffer.read()
    else:
        with open(path, "rb") as fh:
            data = fh.read()
    return data.decode("utf-8")


def load(path: str, *, as_json: bool | None = None) -> Iterator[Loaded]:
    """Yield the records of ``path`` lazily (``-`` is standard input).

    GRN files stream game by game; a JSON document is read whole and checked
    against ``schemas/record.schema.json`` first.
    """
    name = "<stdin>" if path == "-" else path
    json_form = is_json(path) if as_json is None else as_json
    try:
        if json_form:
            text = _read_text(path)
            try:
                document = json.loads(text)
            except json.JSONDecodeError as exc:
                yield Loaded(None, Diagnostic(f"not valid JSON: {exc.msg}", Span(exc.lineno, exc.colno),
                                              name, code="json"))
                return
            records, problems = records_from_json(document, file=name)
            for p in problems:
                yield Loaded(None, p)
            for r in records:
                yield Loaded(r)
            return
        if path == "-":
            stream = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", newline="")
            yield from (Loaded(r) for r in notation.read(stream, file=name))
            return
        with open(path, encoding="utf-8", newline="") as fh:
            yield from (Loaded(r) for r in notation.read(fh, file=name))
    except FileNotFoundError:
        yield Loaded(None, Diagnostic("no such file", None, name, code="io"))
    except IsADirectoryError:
        yield Loaded(None, Diagnostic("is a directory, not a record file", None, name, code="io"))
    except PermissionError:
        yield Loaded(None, Diagnostic("permission denied", None, name, code="io"))
    except UnicodeDecodeError as exc:
        yield Loaded(None, Diagnostic(f"not UTF-8 text (byte {exc.start} of a line or file)", None, name,
                                      code="encoding"))
