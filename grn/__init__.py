"""grn: record, check and draw games of the Gold Rush family.

The public API follows python-chess: :func:`read` yields the games of a GRN
file one by one, each a :class:`grn.core.record.Record` with its tags, its tree of
turns and the engine commands they hold.
"""

__version__ = "0.1.0"

import importlib  # noqa: E402
import os  # noqa: E402
import warnings  # noqa: E402
from typing import IO, TYPE_CHECKING, Iterable, Iterator  # noqa: E402

from grn import _compiled  # noqa: E402

_stale = _compiled.stale()  # a development install whose sources were edited after `pip install -e .`
if _stale:
    warnings.warn("grn: compiled modules are older than their sources (" + ", ".join(_stale)
                  + "): run `pip install -e .` again, or the old code runs", stacklevel=2)

if TYPE_CHECKING:
    from grn.analysis.judge import GameAnalysis
    from grn.notation.read import parse, read_game
    from grn.core.record import Record, Turn
    from grn.notation.writer import write_record, write_records

#: The public names of other modules, loaded when first asked for (PEP 562): ``import grn.lsp`` and
#: ``grn lsp`` need none of them before they answer an editor (docs/editors.md, R166).
_LAZY = {"parse": "grn.notation.read", "read_game": "grn.notation.read", "Record": "grn.core.record", "Turn": "grn.core.record",
         "write_record": "grn.notation.writer", "write_records": "grn.notation.writer"}
#: The modules ``import grn`` loaded before the names above became lazy, by the attribute names they had
#: before grn's packages showed its layers: still reachable as ``grn.record`` and ``grn.writer``.
_SUBMODULES = {"record": "grn.core.record", "writer": "grn.notation.writer"}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        if name in _SUBMODULES:  # `import grn; grn.writer` worked when the package imported it eagerly
            return importlib.import_module(_SUBMODULES[name])
        raise AttributeError(f"module 'grn' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # asked once: a plain attribute from then on
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


def read(source: "str | os.PathLike[str] | IO[str] | Iterable[str]", *, file: str | None = None) -> "Iterator[Record]":
    """Yield the games of a record file one by one: GRN text, or its JSON form for a ``.json`` path.

    ``source`` is a path or an open text file (any iterable of lines, such as
    ``io.StringIO(text)``); for GRN text in a string use :func:`parse`.

    Problems are in each record's ``diagnostics`` (a JSON file that cannot be
    read gives one record holding the problem and nothing else).
    """
    from grn.notation import read as notation
    from grn.core.record import Record

    if isinstance(source, str) and ("\n" in source or source.lstrip().startswith("[")):
        raise ValueError("grn.read() takes a path or an open file, and was given GRN text: "
                         "use grn.parse(text), or grn.read(io.StringIO(text))")
    if isinstance(source, (str, os.PathLike)) and os.fspath(source).lower().endswith(".json"):
        from grn.notation.sources import load

        for item in load(os.fspath(source)):
            if item.record is not None:
                yield item.record
            elif item.problem is not None:
                yield Record((), diagnostics=(item.problem,))
        return
    if isinstance(source, (str, os.PathLike)):
        from grn.notation.sources import read_path

        # bytes decoded by grn: a file that is not UTF-8 is a diagnostic, never a UnicodeDecodeError
        yield from read_path(os.fspath(source), file=file)
        return
    yield from notation.read(source, file=file)

def analyse(record: "Record", **options: object) -> "GameAnalysis":
    """Analyse a record's moves: points lost, judgements, best moves (:func:`grn.analysis.judge.analyse`)."""
    # imported here: the search and its data load only when asked for (grn's start-up stays quick)
    from grn.analysis.judge import analyse as run

    return run(record, **options)  # type: ignore[arg-type]


__all__ = ["analyse", "read", "read_game", "parse", "write_record", "write_records", "Record", "Turn"]
