"""Which game reads a file or a link, and which writes a format: the converters of every known game.

The converters are the games' (:mod:`grn.rules.interop` defines what one is, and each game's ruleset lists its
own through the ``importers`` and ``exporters`` hooks); this module asks the registry for them.
"""

from __future__ import annotations

from typing import Iterator

from grn.core.record import Record
from grn.rules import registry
from grn.rules.interop import Exporter, Importer
from grn.rules.ruleset import Ruleset


def _rulesets() -> Iterator[Ruleset]:
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


def find_exporter(record: Record, fmt: str) -> Exporter | None:
    """The exporter named ``fmt`` of ``record``'s game (None: that game does not write it)."""
    return registry.find_ruleset(record.game).exporters().get(fmt)


__all__ = ["importers", "find_importer", "find_exporter"]
