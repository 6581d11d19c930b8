"""Imported by the process-pool's fork server: read and check one tiny game of each kind.

Worker processes are forked from the server, so they start with the grammar
parsers built and the tile sets loaded instead of each building them on its
first chunk.
"""

from __future__ import annotations


def warm() -> None:
    """Parse and validate a game with no turns of each known kind (only a head start: never fails)."""
    try:
        from grn.notation import read as notation
        from grn.core import registry
        from grn.check.validate import validate_record

        for kind in registry.names():
            for record in notation.parse(f'[Game "{kind}"]\n\n', file="<warm-up>"):
                validate_record(record)
    except Exception:  # noqa: BLE001 - a worker that was not warmed up still works
        pass


warm()
