"""What the command modules share (:mod:`grn.cli.app`, :mod:`grn.cli.validate`, :mod:`grn.archive.cli`): printing
a problem with its source line and caret, and loading ``--tileset``.

It sits below them, so that none imports another for it; like them, it is the command layer, which
imports what a command needs when the command runs.  It does not import typer: ``grn validate FILE``
runs without it (:mod:`grn.cli.launch`, R190), so a bad option here exits with :class:`SystemExit`, which
typer lets through with its code.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Optional

from grn.core.errors import Diagnostic, GrnError, no_game

if TYPE_CHECKING:
    from grn.games.tiling.tiles import TileSet


def load_tileset_option(path: Optional[Path]) -> TileSet | None:
    """The tile set of ``--tileset`` (None: the shipped one), or exit 1 with a one-line message."""
    if path is None:
        return None
    # the command layer imports lazily: a Gold file never needs the tile-laying core
    from grn.games.tiling.tiles import load_tileset

    try:
        return load_tileset(path)
    except GrnError as exc:
        # the loader's messages start with "FILE:" or "FILE:LINE:COL:"
        where, _, what = str(exc).partition(": ")
        print(f"{where}: error: {what}", file=sys.stderr)
        raise SystemExit(1)
    except OSError as exc:
        print(f"{path}: error: {exc.strerror or exc}", file=sys.stderr)
        raise SystemExit(1)


_LINES: dict[tuple[str, object], list[bytes]] = {}
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f\u2028\u2029]")


#: The most processes ``--jobs`` may ask for: far beyond any machine's cores, and below what the pool's
#: semaphores can count (a C int), so that a typo is a one-line usage error, not a crash in multiprocessing.
MAX_JOBS = 1024


def jobs_problem(jobs: int) -> str | None:
    """What is wrong with a ``--jobs`` value (it must be 1 to :data:`MAX_JOBS`), or None."""
    if jobs < 1:
        return f"--jobs must be 1 or more, not {jobs}"
    if jobs > MAX_JOBS:
        return f"--jobs must be at most {MAX_JOBS}, not {jobs}"
    return None


def source_line(file: str, line: int) -> str | None:
    """Line ``line`` of a record file (or of standard input), lines ending at "\\n" as the grammar counts them."""
    from grn.notation.sources import stdin_bytes, utf8_bytes

    try:
        if file == "<stdin>":
            data: bytes | None = stdin_bytes()
            key: tuple[str, object] = (file, id(data))
        elif file.startswith("<"):
            return None
        else:
            data = None
            stat = os.stat(file)
            key = (file, (stat.st_size, stat.st_mtime_ns))
    except OSError:
        return None
    lines = _LINES.get(key)
    if lines is None:
        try:
            if data is None and os.path.getsize(file) > (32 << 20):
                return _line_of_big_file(file, line)  # scanned to the line: memory stays bounded
            data = utf8_bytes(data if data is not None else Path(file).read_bytes())
        except OSError:
            return None
        _LINES.clear()  # one file at a time: reports come file by file
        lines = _LINES[key] = data.split(b"\n")
    if not 0 < line <= len(lines):
        return None
    return lines[line - 1].decode("utf-8", errors="replace")


def _line_of_big_file(file: str, line: int) -> str | None:
    from grn.notation.read import LONG_LINE, bounded_lines

    with open(file, "rb") as fh:
        for number, data in enumerate(bounded_lines(fh.readline, b""), start=1):
            if number == line:
                return None if data is LONG_LINE else data.decode("utf-8", errors="replace")
    return None


def print_diagnostic(d: Diagnostic) -> None:
    """Print one problem to standard error: its line, then the source line it points into with a caret."""
    print(d.one_line(), file=sys.stderr)
    if d.span is None:
        return
    source = d.source_line
    if source is None and d.file:
        # rule errors are found on commands, far from the text: fetch the line back
        source = source_line(d.file, d.span.line)
    if source is not None:
        # one column for one character: control characters (a lone CR, a form feed) would move the caret
        source = _CONTROL.sub(" ", source.rstrip("\r\n").lstrip("\ufeff"))
        column = d.span.column
        if len(source) > 120:
            # a window of the line around the column: a line of a million characters is no help
            start = max(0, column - 60)
            window = source[start:start + 120]
            source = ("..." if start else "") + window + ("..." if start + 120 < len(source) else "")
            column = column - start + (3 if start else 0)
        print("    " + source, file=sys.stderr)
        print("    " + " " * (column - 1) + "^", file=sys.stderr)
    for note in d.notes:
        print("    " + note, file=sys.stderr)


def report(diags: Iterable[Diagnostic]) -> int:
    """Print each problem (one line, then its source line and a caret) to standard error; return the errors."""
    count = 0
    for d in diags:
        print_diagnostic(d)
        count += d.severity == "error"
    return count


__all__ = ["MAX_JOBS", "jobs_problem", "load_tileset_option", "print_diagnostic", "report", "no_game", "source_line"]


class Progress:
    """A progress bar with the time left, on standard error when it is a terminal; silent otherwise (piped,
    redirected, a test), so that no script reading the output ever sees it (R357).

    ``with Progress("analysing", total) as bar: ... bar.step()``; :meth:`start` begins another task (the next
    game) and :meth:`say` prints a line above the bar.  rich is imported only when a bar is drawn.
    """

    def __init__(self, what: str, total: int | None = None, *, stream: object = None) -> None:
        self.what = what
        self.total = total
        stream = sys.stderr if stream is None else stream
        self.shown = bool(getattr(stream, "isatty", lambda: False)())
        self._bar: object = None
        self._task: object = None

    def __enter__(self) -> "Progress":
        if self.shown:
            from rich.console import Console
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress as Bar, TextColumn,
                                       TimeElapsedColumn, TimeRemainingColumn)

            bar = Bar(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      TextColumn("left"), TimeRemainingColumn(), console=Console(stderr=True), transient=True)
            bar.__enter__()
            self._bar = bar
            self._task = bar.add_task(self.what, total=self.total)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.__exit__(*exc)  # type: ignore[attr-defined]
            self._bar = None

    def start(self, what: str, total: int | None) -> None:
        """Begin counting anew: ``total`` units of ``what``."""
        if self._bar is not None:
            self._bar.reset(self._task, total=total, description=what)  # type: ignore[attr-defined]

    def step(self, count: int = 1) -> None:
        """``count`` units done."""
        if self._bar is not None:
            self._bar.advance(self._task, count)  # type: ignore[attr-defined]

    def say(self, line: str) -> None:
        """A line of its own on standard error (above the bar when one is drawn)."""
        if self._bar is not None:
            self._bar.console.print(line, markup=False, highlight=False)  # type: ignore[attr-defined]
        else:
            print(line, file=sys.stderr)
