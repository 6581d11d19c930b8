"""Reading other programs' game files into GRN, and writing GRN out for them.

A game offers converters through two :class:`~grn.rules.ruleset.Ruleset` hooks:
:meth:`~grn.rules.ruleset.Ruleset.importers` (what it reads: file suffixes, or the
start of a link) and :meth:`~grn.rules.ruleset.Ruleset.exporters` (the formats it
writes, by name).  ``grn import`` and ``grn export`` ask every registered
ruleset, so this module, like the rest of the core, names no game and no
format.  A converter reports bad input by raising :class:`ConversionProblem`:
one line, with where in the input (a JSON path such as ``$.replay[3]``).
"""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING, Iterator

from grn.core import registry
from grn.core.record import Checkpoint, Comment, Markup, Nag, Record, Variation

if TYPE_CHECKING:
    from grn.rules.ruleset import Ruleset


class ConversionProblem(Exception):
    """The input cannot be converted: ``message`` says why, ``where`` where (a JSON path, a part of a link)."""

    def __init__(self, message: str, where: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.where = where

    def line(self, source: str) -> str:
        """The one-line report: ``source: where: error: message``."""
        at = f"{source}: {self.where}" if self.where else source
        return f"{at}: error: {self.message}"


def one_line(text: str) -> str:
    """``text`` on one line without control characters: what a GRN tag value or comment can hold."""
    kept = "".join(" " if unicodedata.category(c)[0] in "CZ" else c for c in text)
    return " ".join(kept.split())


#: The most bytes an import reads from one file: a real saved game is a few hundred KB (docs/interop.md, R87).
MAX_IMPORT_BYTES = 16 * 1024 * 1024
#: The longest player's name an import writes (R87).
MAX_NAME_CHARS = 200
#: The longest line of a record an import writes: a tag value, a comment (R87).
MAX_IMPORT_LINE = 100_000


def player_name(text: str, where: str | None = None) -> str:
    """A player's name as the ``Players`` tag can hold it (no comma, parenthesis, quote or backslash).

    A name longer than :data:`MAX_NAME_CHARS` is a :class:`ConversionProblem` at ``where`` (R87).
    """
    if len(text) > 4 * MAX_NAME_CHARS:  # never clean a million characters only to refuse them
        raise ConversionProblem(f"a player's name of {len(text):,} characters: grn takes at most {MAX_NAME_CHARS}",
                                where)
    name = one_line(re.sub(r"[,()\"\\]", " ", text))
    if len(name) > MAX_NAME_CHARS:
        raise ConversionProblem(f"a player's name of {len(name):,} characters: grn takes at most {MAX_NAME_CHARS}",
                                where)
    return name


def check_written(text: str) -> str:
    """``text``, a record an importer wrote, if grn's reader can hold it (R87): no line longer than
    :data:`MAX_IMPORT_LINE` (a tag value or comment from the input); else a :class:`ConversionProblem`."""
    start = 0
    number = 1
    while True:
        end = text.find("\n", start)
        stop = len(text) if end < 0 else end
        if stop - start > MAX_IMPORT_LINE:
            what = "a tag" if text.startswith("[", start) else "a comment" if text.startswith("{", start) else "a line"
            raise ConversionProblem(f"the record would hold {what} of {stop - start:,} characters (line {number}); "
                                    f"grn writes at most {MAX_IMPORT_LINE:,} from an import")
        if end < 0:
            return text
        start = end + 1
        number += 1


class Importer:
    """Reads one foreign format into GRN text.  Subclass it in a game's package.

    ``suffixes`` are the file name endings it reads (``.jcz``) and
    ``prefixes`` the starts of links it reads (``https://...``): for those the
    link itself is the input.
    """

    #: A short name, for ``grn import --from NAME`` (standard input has no suffix).
    name: str = ""
    #: What it reads, in a few words (for messages and help).
    title: str = ""
    #: The most bytes read from one input: past it the input is refused before it is parsed.
    max_bytes: int = MAX_IMPORT_BYTES
    suffixes: tuple[str, ...] = ()
    prefixes: tuple[str, ...] = ()

    def reads_link(self, source: str) -> bool:
        """Whether ``source`` is a link this importer reads (the link is then the input, not a file name)."""
        return any(source.startswith(p) for p in self.prefixes)

    def reads_file(self, source: str) -> bool:
        """Whether a file named ``source`` is one this importer reads (by its suffix)."""
        low = source.lower()
        return any(low.endswith(s) for s in self.suffixes)

    def to_grn(self, text: str, *, tags: dict[str, str]) -> str:
        """The GRN record of the game in ``text``; ``tags`` (from the command line) are set in its header.

        Raises :class:`ConversionProblem` when the input is broken or holds
        what the game's GRN cannot say.
        """
        raise NotImplementedError


class Exporter:
    """Writes a GRN record in one foreign format.  Subclass it in a game's package."""

    #: The format's name, for ``grn export --to NAME``.
    name: str = ""
    #: The file suffix of the format.
    suffix: str = ""
    #: Whether the format holds comments, variations, NAGs, markup and score checkpoints.
    keeps_annotations: bool = False

    def from_grn(self, record: "Record") -> str:
        """The text of ``record`` in this format.  Raises :class:`ConversionProblem` when it cannot be said there."""
        raise NotImplementedError


def annotations_of(record: "Record") -> list[str]:
    """What a record holds besides its game, counted ("2 comments", "1 variation"): what a format without
    annotations leaves out."""
    kinds = ((Comment, "comment"), (Variation, "variation"), (Nag, "NAG"), (Markup, "diagram markup"),
             (Checkpoint, "score checkpoint"))
    notes = list(record.intro) + [e for t in record.turns for e in t.extras]
    out = []
    for kind, word in kinds:
        n = sum(isinstance(e, kind) for e in notes)
        if n:
            out.append(f"{n} {word}{'' if n == 1 or word.endswith('markup') else 's'}")
    return out


def _rulesets() -> Iterator["Ruleset"]:
    return registry.rulesets()


def importers() -> list[Importer]:
    """Every importer of every known game."""
    return [imp for r in _rulesets() for imp in r.importers()]


def find_importer(source: str, fmt: str | None = None) -> Importer | None:
    """The importer for ``source`` (a file name or a link), or the one named ``fmt``; None when none reads it."""
    every = importers()
    if fmt is not None:
        return next((i for i in every if i.name == fmt), None)
    return (next((i for i in every if i.reads_link(source)), None)
            or next((i for i in every if i.reads_file(source)), None))


def find_exporter(record: "Record", fmt: str) -> Exporter | None:
    """The exporter named ``fmt`` of ``record``'s game (None: that game does not write it)."""
    return registry.find_ruleset(record.game).exporters().get(fmt)


__all__ = ["ConversionProblem", "Importer", "Exporter", "importers", "find_importer", "find_exporter", "one_line",
           "player_name", "annotations_of", "check_written", "MAX_IMPORT_BYTES", "MAX_NAME_CHARS", "MAX_IMPORT_LINE"]
