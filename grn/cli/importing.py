"""``grn import``'s inputs: one file or link, or a batch of them, each read within a size cap (issue 25).

The converters themselves are the games' :class:`grn.rules.interop.Importer`\\ s; this
module decides what to read and how much:

* :func:`read_input` reads a file (or standard input) with a size cap, refusing a
  larger one before anything is parsed (``/dev/zero`` is refused after 16 MiB),
  and decodes it (UTF-8, or UTF-16 with its byte-order mark);
* :func:`convert` turns one input into GRN text and checks that grn can read the
  text back (:func:`grn.rules.interop.check_written`);
* :func:`batch_items` lists what a batch holds: the files of a folder that an
  importer reads, and the lines of a list of links or file names (one a line, or a
  column of a CSV file), each named for messages by its file and line.

Every problem is an :class:`ImportProblem`, one line naming where.
"""

from __future__ import annotations

import csv
import io
import os
import sys
from pathlib import Path
from typing import IO, Callable, Iterable, Iterator, Optional

from grn.rules.interop import ConversionProblem, check_written, find_importer, importers

__all__ = ["ImportProblem", "Item", "single_item", "read_input", "decode", "convert", "is_batch", "batch_items", "run_batch",
           "BatchSummary", "LIST_SUFFIXES"]

#: The file suffixes of a list of links or file names.
LIST_SUFFIXES = (".txt", ".csv", ".tsv", ".list")


class ImportProblem(Exception):
    """One input cannot be imported: ``line()`` is the one-line message, naming where."""

    def __init__(self, label: str, message: str, where: str | None = None, exit_code: int = 1) -> None:
        super().__init__(message)
        self.label = label
        self.message = message
        self.where = where
        self.exit_code = exit_code

    def line(self) -> str:
        """``LABEL: WHERE: error: MESSAGE`` (WHERE left out when there is none)."""
        at = f"{self.label}: {self.where}" if self.where else self.label
        return f"{at}: error: {self.message}"


class Item:
    """One input of an import: a link or a file (``-``: standard input), and how messages name it."""

    __slots__ = ("source", "label")

    def __init__(self, source: str, label: str) -> None:
        self.source = source
        self.label = label

    def __repr__(self) -> str:
        return f"Item({self.source!r}, label={self.label!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Item) and (self.source, self.label) == (other.source, other.label)

    def __hash__(self) -> int:
        return hash((self.source, self.label))


def read_input(source: str, label: str, max_bytes: int) -> bytes:
    """The bytes of file ``source`` (``-``: standard input), at most ``max_bytes`` of them: a larger input is
    refused after reading one byte more than the cap, so memory and time stay bounded (R87)."""
    try:
        if source == "-":
            raw = sys.stdin.buffer.read(max_bytes + 1)
        else:
            with open(source, "rb") as fh:
                raw = fh.read(max_bytes + 1)
    except IsADirectoryError:
        raise ImportProblem(label, "is a folder: give it alone to import every file in it") from None
    except OSError as exc:
        raise ImportProblem(label, f"cannot read the file: {(exc.strerror or str(exc)).lower()}") from None
    if len(raw) > max_bytes:
        raise ImportProblem(label, f"larger than {max_bytes // (1024 * 1024)} MiB, the most grn reads from one "
                            "file to import (a saved game is a few hundred KB; docs/interop.md)")
    return raw


def decode(raw: bytes, label: str) -> str:
    """``raw`` as text: UTF-8 (a byte-order mark is dropped), or UTF-16 when it starts with UTF-16's mark."""
    for magic, kind in ((b"\x1f\x8b", "gzip"), (b"PK\x03\x04", "zip")):
        if raw.startswith(magic):
            raise ImportProblem(label, f"a {kind}-compressed file, not text (older programs saved so): uncompress "
                                "it, or save the game again with a current version")
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return raw.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise ImportProblem(label, f"not UTF-16 text, though it starts as UTF-16 does (byte {exc.start})") \
                from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ImportProblem(label, f"not UTF-8 text (byte {exc.start})") from None


def convert(item: Item, tags: dict[str, str], fmt: Optional[str] = None) -> str:
    """The GRN text of ``item`` (with ``tags`` set in its header), read by the importer its name (or ``fmt``)
    calls for, and checked to read back.  Raises :class:`ImportProblem`."""
    importer = find_importer(item.source, fmt)
    if importer is None:
        known = ", ".join(f"{i.name} ({' '.join(i.suffixes + i.prefixes)})" for i in importers())
        what = f"--from {fmt!r}" if fmt else "this kind of file"
        raise ImportProblem(item.label, f"no reader for {what}: grn imports {known}", exit_code=2)
    link = importer.reads_link(item.source) and fmt is None
    text = item.source if link else decode(read_input(item.source, item.label, importer.max_bytes), item.label)
    try:
        return check_written(importer.to_grn(text, tags=tags))
    except ConversionProblem as exc:
        raise ImportProblem(item.label, exc.message, exc.where) from None


def single_item(source: str, fmt: Optional[str] = None) -> Item:
    """The one input of an import that is no batch, named as messages name it (``<link>``, ``<stdin>``)."""
    link = fmt is None and any(i.reads_link(source) for i in importers())
    return Item(source, "<link>" if link else "<stdin>" if source == "-" else source)


def is_batch(sources: list[str], fmt: Optional[str] = None) -> bool:
    """Whether the sources make a batch: more than one, a folder, or a list of links or file names."""
    if len(sources) != 1:
        return True
    source = sources[0]
    if fmt == "list":
        return True
    if fmt is not None or any(i.reads_link(source) for i in importers()):
        return False
    return os.path.isdir(source) or source.lower().endswith(LIST_SUFFIXES)


def _readable(name: str) -> bool:
    return any(i.reads_file(name) for i in importers())


def batch_items(sources: list[str], column: Optional[str] = None) -> Iterator[Item | ImportProblem]:
    """Every input the sources hold, in order: a folder's files that an importer reads (sorted by name), a
    list's links and file names (file names relative to the list's folder), other files and links as given.
    A list that cannot be read, or a line that names nothing to import, is an :class:`ImportProblem` in the
    stream, so that a batch reports it and goes on."""
    for source in sources:
        if source != "-" and os.path.isdir(source):
            names = sorted(n for n in os.listdir(source) if _readable(n) and os.path.isfile(os.path.join(source, n)))
            if not names:
                yield ImportProblem(source, "the folder holds no file that grn imports ("
                                    + ", ".join(s for i in importers() for s in i.suffixes) + ")")
            for n in names:
                path = os.path.join(source, n)
                yield Item(path, path)
        elif source == "-" or source.lower().endswith(LIST_SUFFIXES) and not any(
                i.reads_link(source) for i in importers()):
            yield from _list_items(source, column)
        else:
            yield single_item(source)


def _list_items(source: str, column: Optional[str]) -> Iterator[Item | ImportProblem]:
    label = "<stdin>" if source == "-" else source
    try:
        text = decode(read_input(source, label, _LIST_MAX_BYTES), label)
    except ImportProblem as exc:
        yield exc
        return
    folder = Path(source).parent if source != "-" else Path(".")
    if source.lower().endswith((".csv", ".tsv")) or column is not None:
        yield from _csv_items(text, label, folder, column, "\t" if source.lower().endswith(".tsv") else ",")
        return
    for number, line in enumerate(text.splitlines(), start=1):
        entry = line.strip()
        if entry and not entry.startswith("#"):
            yield _entry(entry, f"{label}:{number}", folder)


#: A list of links is read whole (a million links is some 300 MB).
_LIST_MAX_BYTES = 512 * 1024 * 1024


def _entry(entry: str, label: str, folder: Path) -> Item:
    if any(i.reads_link(entry) for i in importers()):
        return Item(entry, label)
    return Item(entry if os.path.isabs(entry) else str(folder / entry), label)


def _csv_items(text: str, label: str, folder: Path, column: Optional[str], delimiter: str
               ) -> Iterator[Item | ImportProblem]:
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    rows: list[tuple[int, list[str]]] = []
    try:
        for row in reader:
            rows.append((reader.line_num, row))
    except csv.Error as exc:
        yield ImportProblem(f"{label}:{reader.line_num}", f"not CSV: {exc}")
        return
    if not rows:
        return
    index: Optional[int] = None
    start = 0
    if column is not None:
        header = [c.strip() for c in rows[0][1]]
        if column.isdigit() and 1 <= int(column) <= max(len(r) for _, r in rows):
            index = int(column) - 1
            start = 1 if header and index < len(header) and not _looks_like_input(header[index]) else 0
        elif column in header:
            index, start = header.index(column), 1
        else:
            yield ImportProblem(label, f"no column {column!r}: the first line names "
                                + ", ".join(repr(h) for h in header), exit_code=2)
            return
    else:
        for _, row in rows[:50]:
            index = next((k for k, cell in enumerate(row) if _looks_like_input(cell.strip())), None)
            if index is not None:
                break
        if index is None:
            yield ImportProblem(label, "no column holds links or files to import in its first 50 lines: "
                                "name it with --column NAME", exit_code=2)
            return
        start = 0 if _looks_like_input(rows[0][1][index].strip() if index < len(rows[0][1]) else "") else 1
    for number, row in rows[start:]:
        cell = row[index].strip() if index < len(row) else ""
        if cell:
            yield _entry(cell, f"{label}:{number}", folder)
        elif any(c.strip() for c in row):
            yield ImportProblem(f"{label}:{number}", f"column {index + 1} is empty")


def _looks_like_input(cell: str) -> bool:
    return any(i.reads_link(cell) for i in importers()) or _readable(cell)


class BatchSummary:
    """What a batch import did: games written, inputs refused."""

    __slots__ = ("games", "refused")

    def __init__(self) -> None:
        self.games = 0
        self.refused = 0

    def __repr__(self) -> str:
        return f"BatchSummary(games={self.games}, refused={self.refused})"


def run_batch(items: Iterable[Item | ImportProblem], out: IO[str], tags: dict[str, str], fmt: Optional[str] = None,
              *, refused: Callable[[ImportProblem], None], step: Callable[[], None] = lambda: None) -> BatchSummary:
    """Import every item into ``out``, one multi-game GRN text (games apart by a blank line); each input that
    cannot be imported is given to ``refused`` and the batch goes on.  ``step`` is called once per item (a
    progress bar)."""
    summary = BatchSummary()
    for item in items:
        step()
        if isinstance(item, ImportProblem):
            summary.refused += 1
            refused(item)
            continue
        try:
            text = convert(item, tags, None if fmt == "list" else fmt)
        except ImportProblem as exc:
            summary.refused += 1
            refused(exc)
            continue
        out.write(("\n" if summary.games else "") + text)
        summary.games += 1
    return summary
