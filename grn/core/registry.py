"""The registry of games, at the bottom of grn: a game's name and aliases -> its ruleset.

It imports nothing of grn.  It knows each built-in game's name, aliases and
package from ``grn/games/games.json`` (:data:`BUILTIN`, :data:`BUILTIN_ALIASES`), and imports a
game's package only when a record asks for that game, so reading Gold records
never imports the tile-laying core.  A game kept outside grn registers itself
with :func:`register`, or through the ``grn.games`` entry point group of its
distribution (``name = "package.module:RULESET"``).  The generic modules
(the reader, the validator, the writer, the drawing) ask this module for a
ruleset; :mod:`grn.games` re-exports it under its historical name.

Besides the games, it names the few parts of grn that a value type offers
but does not own (the notebook view of a record: :data:`VIEWS`), loaded the
same way as a game's package, on demand, so the value types never import
the layers above them.
"""

from __future__ import annotations

import importlib
import json
import os
from typing import TYPE_CHECKING, Any, Callable, Iterator

if TYPE_CHECKING:
    from grn.rules.ruleset import Ruleset


def _builtin() -> dict[str, Any]:
    # a file beside the games' packages, read as data (checked by schemas/games.schema.json in the tests)
    with open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "games", "games.json"), "rb") as fh:
        return json.load(fh)  # type: ignore[no-any-return]


_DATA = _builtin()
#: Game name -> the module whose ``RULESET`` it is (``grn/games/games.json``, one entry per game).
BUILTIN: dict[str, str] = {g["name"]: g["package"] for g in _DATA["games"]}
#: The aliases of the built-in games (lower case) -> the game's name, known before its package is
#: imported; each package's ruleset gives the same ``aliases`` (tests/test_registry.py holds them in step).
BUILTIN_ALIASES: dict[str, str] = {a: g["name"] for g in _DATA["games"] for a in g["aliases"]}
#: The game of a record without a ``Game`` tag (GRN's first game).
DEFAULT: str = _DATA["default"]

#: What a value type shows in a notebook -> ``module:function`` that draws it.
VIEWS: dict[str, str] = {
    "record html": "grn.render.html:notebook_frame",
}

_LOADED: dict[str, "Ruleset"] = {}
_ALIASES: dict[str, str] = {}
_ENTRY_POINTS_READ = False
_GENERATION = 0


class UnknownGame(LookupError):
    """No ruleset has this name; the message lists the known ones."""


def register(ruleset: "Ruleset") -> "Ruleset":
    """Make ``ruleset`` known by its name and aliases (a later registration of a name wins)."""
    global _GENERATION
    _LOADED[ruleset.name] = ruleset
    for alias in ruleset.aliases:
        _ALIASES[alias] = ruleset.name
    _GENERATION += 1
    return ruleset


def unregister(name: str) -> None:
    """Forget a registered ruleset and its aliases (for tests of plug-ins)."""
    global _GENERATION
    ruleset = _LOADED.pop(name, None)
    if ruleset is not None:
        for alias in ruleset.aliases:
            _ALIASES.pop(alias, None)
        _GENERATION += 1


def _read_entry_points() -> None:
    global _ENTRY_POINTS_READ
    if _ENTRY_POINTS_READ:
        return
    _ENTRY_POINTS_READ = True
    # importlib.metadata costs ~10 ms to import: only a game grn does not ship needs it
    from importlib.metadata import entry_points

    for ep in entry_points(group="grn.games"):
        if ep.name not in _LOADED and ep.name not in BUILTIN:
            register(ep.load())


def generation() -> int:
    """A number that changes whenever a ruleset is registered or forgotten (for caches built from them)."""
    _read_entry_points()
    return _GENERATION


def names() -> list[str]:
    """Every known game name: the built-in ones, then those registered or installed."""
    _read_entry_points()
    return list(BUILTIN) + [n for n in _LOADED if n not in BUILTIN]


def known(name: str) -> bool:
    """Whether ``name`` (a game or an alias, any case) names a known game."""
    try:
        find_ruleset(name)
    except UnknownGame:
        return False
    return True


def find_ruleset(name: str | None = None) -> "Ruleset":
    """The ruleset of a ``Game`` tag value or alias (None: :data:`DEFAULT`).

    Imports the game's package the first time it is asked for.  Raises
    :class:`UnknownGame` naming the known games.
    """
    key = (name or DEFAULT).strip().lower()
    key = _ALIASES.get(key, key)
    ruleset = _LOADED.get(key)
    if ruleset is not None:
        return ruleset
    key = BUILTIN_ALIASES.get(key, key)
    module = BUILTIN.get(key)
    if module is not None:
        if key in _LOADED:  # asked for by a built-in alias after the game was loaded
            return _LOADED[key]
        ruleset = importlib.import_module(module).RULESET
        register(ruleset)
        return ruleset
    _read_entry_points()
    key = _ALIASES.get(key, key)
    if key in _LOADED:
        return _LOADED[key]
    raise UnknownGame(f"unknown game {key!r}: the Game tag must be one of {', '.join(names())}")


def loaded(name: str) -> "Ruleset | None":
    """The ruleset of ``name`` if its package is already imported, else None (imports nothing)."""
    key = name.strip().lower()
    key = _ALIASES.get(key, key)
    return _LOADED.get(BUILTIN_ALIASES.get(key, key))


def rulesets() -> Iterator["Ruleset"]:
    """Every known ruleset (importing the built-in ones)."""
    for name in names():
        yield find_ruleset(name)


def view(kind: str) -> Callable[..., Any]:
    """The function :data:`VIEWS` names for ``kind``, its module imported on first use."""
    module, _, attr = VIEWS[kind].partition(":")
    return getattr(importlib.import_module(module), attr)  # type: ignore[no-any-return]
