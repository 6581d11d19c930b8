"""The registry of games: which rulesets grn knows, found by the ``Game`` tag's value.

Adding a game is a new package under ``grn/games/`` (its ``RULESET``) and one
line in :data:`BUILTIN`.  A game kept outside grn registers itself with
:func:`register`, or through the ``grn.games`` entry point group of its
distribution (``name = "package.module:RULESET"``).  Packages are imported
only when their game is asked for, so reading Gold records never imports
the tile-laying code.
"""

from __future__ import annotations

import importlib
from typing import Iterator

from grn.ruleset import Ruleset

#: Game name -> the module whose ``RULESET`` it is.  One line per game.
BUILTIN: dict[str, str] = {
    "goldrush": "grn.games.goldrush",
    "gold": "grn.games.gold",
    "carcassonne": "grn.games.carcassonne",
}
#: The game of a record without a ``Game`` tag (GRN's first game).
DEFAULT = "goldrush"

_LOADED: dict[str, Ruleset] = {}
_ALIASES: dict[str, str] = {}
_ENTRY_POINTS_READ = False
_GENERATION = 0


class UnknownGame(LookupError):
    """No ruleset has this name; the message lists the known ones."""


def register(ruleset: Ruleset) -> Ruleset:
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


def find_ruleset(name: str | None = None) -> Ruleset:
    """The ruleset of a ``Game`` tag value or alias (None: :data:`DEFAULT`).

    Raises :class:`UnknownGame` naming the known games.
    """
    key = (name or DEFAULT).strip().lower()
    key = _ALIASES.get(key, key)
    ruleset = _LOADED.get(key)
    if ruleset is not None:
        return ruleset
    module = BUILTIN.get(key)
    if module is not None:
        ruleset = importlib.import_module(module).RULESET
        register(ruleset)
        return ruleset
    _read_entry_points()
    key = _ALIASES.get(key, key)
    if key in _LOADED:
        return _LOADED[key]
    raise UnknownGame(f"unknown game {key!r}: the Game tag must be one of {', '.join(names())}")


def rulesets() -> Iterator[Ruleset]:
    """Every known ruleset (importing the built-in ones)."""
    for name in names():
        yield find_ruleset(name)
