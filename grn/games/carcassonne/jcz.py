"""JCloisterZone saved games (``.jcz``) to GRN and back, for the base game and The Gold Mines.

:class:`JczImporter` and :class:`JczExporter` are what the ruleset offers to
``grn import`` and ``grn export``; the format's facts are in :mod:`.jcz_format`,
reading in :mod:`.jcz_read`, writing in :mod:`.jcz_write`.
"""

from __future__ import annotations

from grn.games.carcassonne.jcz_format import GRN_KEY, location_place, place_location
from grn.games.carcassonne.jcz_read import jcz_to_grn
from grn.games.carcassonne.jcz_write import grn_to_jcz
from grn.rules.interop import Exporter, Importer
from grn.core.record import Record


class JczImporter(Importer):
    """Reads JCloisterZone saved games (``.jcz``)."""

    name = "jcz"
    title = "a JCloisterZone saved game"
    suffixes = (".jcz",)

    def to_grn(self, text: str, *, tags: dict[str, str]) -> str:
        return jcz_to_grn(text, tags)


class JczExporter(Exporter):
    """Writes JCloisterZone saved games (``.jcz``)."""

    name = "jcz"
    suffix = ".jcz"

    def from_grn(self, record: Record) -> str:
        return grn_to_jcz(record)


__all__ = ["JczImporter", "JczExporter", "jcz_to_grn", "grn_to_jcz", "location_place", "place_location", "GRN_KEY"]
