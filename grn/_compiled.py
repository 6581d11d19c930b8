"""Which modules the build compiles with mypyc, and whether this install runs them compiled.

``setup.py`` reads ``COMPILED_MODULES`` (:func:`all_modules`); :func:`status` tells the
benchmark and ``grn --version`` how this install runs, and :func:`stale`
finds compiled modules older than their source (a development install whose
sources were edited since ``pip install -e .``).
"""

from __future__ import annotations

import functools
import importlib.machinery
import os
import sys

#: The core modules on the hot path of ``grn validate``: the value types, the
#: command codecs, the reader, the engine contract, the tile-laying core and the
#: validator.  A game adds its own hot modules in ``grn/games/<game>/_compiled.py``.
CORE_MODULES: tuple[str, ...] = (
    "grn.core.value",
    "grn.core.errors",
    "grn.rules.codec",
    "grn.core.record",
    "grn.rules.engine",
    "grn.games.tiling.places",
    "grn.games.tiling.commands",
    "grn.games.tiling.tiles",
    "grn.games.tiling.board",
    "grn.games.tiling.events",
    "grn.games.tiling.engine",
    "grn.notation.fastread",
    "grn.notation.read",
    "grn.check.validate",
    # the archive's facts of a game (commands' and events' JSON, the rows): grn archive add's own share (R195)
    "grn.archive.facts",
)


def _game_modules() -> tuple[str, ...]:
    """The hot modules the games' packages list (read as data: a build has not installed grn)."""
    import ast

    games = os.path.join(os.path.dirname(os.path.abspath(__file__)), "games")
    out: list[str] = []
    for name in sorted(os.listdir(games)) if os.path.isdir(games) else ():
        path = os.path.join(games, name, "_compiled.py")
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as fh:
                tree = ast.parse(fh.read())
            for node in tree.body:
                if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "COMPILED_MODULES":
                    out += ast.literal_eval(node.value)  # type: ignore[arg-type]
    return tuple(out)


@functools.lru_cache(maxsize=None)
def all_modules() -> tuple[str, ...]:
    """Every module the build compiles: the core's and the games' (read once, when asked: the games' lists
    are parsed with :mod:`ast`, which a command's start-up need not import)."""
    return CORE_MODULES + _game_modules()


def __getattr__(name: str) -> tuple[str, ...]:
    # COMPILED_MODULES, as setup.py reads it, made on first use (PEP 562)
    if name == "COMPILED_MODULES":
        return all_modules()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _is_extension(path: str | None) -> bool:
    return bool(path) and path.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))  # type: ignore[union-attr]


def compiled_modules() -> list[str]:
    """The modules of :func:`all_modules` that are loaded as compiled extensions."""
    return [name for name in all_modules()
            if _is_extension(getattr(sys.modules.get(name), "__file__", None))]


def status() -> str:
    """``compiled`` (every hot module), ``pure Python`` (none) or ``partly compiled``."""
    import importlib

    for name in all_modules():  # load the hot path
        importlib.import_module(name)

    done = len(compiled_modules())
    if done == len(all_modules()):
        return "compiled"
    return "pure Python" if done == 0 else "partly compiled"


def stale() -> list[str]:
    """Compiled modules whose ``.py`` source beside them is newer than the extension.

    Asked only of a development install (the package sits in its source tree,
    beside ``setup.py``); an installed wheel's file times say nothing.  Every
    extension beside a source counts, so a module no longer compiled whose old
    extension is still there (and still imported in its place) is found too.
    """
    here = os.path.dirname(os.path.abspath(__file__))
    if not os.path.exists(os.path.join(os.path.dirname(here), "setup.py")):
        return []
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    out = []
    for folder, dirs, files in os.walk(here):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for file in files:
            suffix = next((s for s in suffixes if file.endswith(s)), None)
            if suffix is None:
                continue
            source = os.path.join(folder, file[:-len(suffix)] + ".py")
            if os.path.exists(source) and os.path.getmtime(source) > os.path.getmtime(os.path.join(folder, file)):
                parts = os.path.relpath(source, os.path.dirname(here))[:-3].split(os.sep)
                out.append(".".join(parts))
    return out
