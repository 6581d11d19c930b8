"""What the command modules share (:mod:`grn.cli` and :mod:`grn.archive.cli`): loading ``--tileset``.

It sits below both, so that neither imports the other for it; like them, it is the command layer,
which imports what a command needs when the command runs.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer

from grn.errors import GrnError


def load_tileset_option(path: Optional[Path]) -> object:
    """The tile set of ``--tileset`` (None: the shipped one), or exit 1 with a one-line message."""
    if path is None:
        return None
    # the command layer imports lazily: a Gold file never needs the tile-laying core
    from grn.tiling.tiles import load_tileset

    try:
        return load_tileset(path)
    except GrnError as exc:
        # the loader's messages start with "FILE:" or "FILE:LINE:COL:"
        where, _, what = str(exc).partition(": ")
        print(f"{where}: error: {what}", file=sys.stderr)
        raise typer.Exit(1)
    except OSError as exc:
        print(f"{path}: error: {exc.strerror or exc}", file=sys.stderr)
        raise typer.Exit(1)
