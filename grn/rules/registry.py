"""The registry of games, typed with the contract: each game as the :class:`~grn.rules.ruleset.Ruleset` it is.

:mod:`grn.core.registry` keeps the games (it sits at the bottom of grn and imports nothing of it, so it knows a
game only as the :class:`~grn.core.registry.Game` protocol); every layer above the contract asks this module,
whose answers are the rulesets themselves.  The names are the core registry's: ``find_ruleset``, ``rulesets``,
``loaded``, ``register``, and the data and lookups that need no ruleset (``DEFAULT``, ``names``, ``known``, ...).
"""

from __future__ import annotations

from typing import Iterator, cast

from grn.core import registry as _core
from grn.core.registry import (BUILTIN, BUILTIN_ALIASES, DEFAULT, VIEWS, Game, UnknownGame, generation, known, names,
                               unregister, view)
from grn.rules.ruleset import Ruleset


def find_ruleset(name: str | None = None) -> Ruleset:
    """The ruleset of a ``Game`` tag value or alias (None: :data:`DEFAULT`), its package imported on first use.

    Raises :class:`UnknownGame` naming the known games.
    """
    return cast(Ruleset, _core.find_ruleset(name))


def loaded(name: str) -> Ruleset | None:
    """The ruleset of ``name`` if its package is already imported, else None (imports nothing)."""
    return cast("Ruleset | None", _core.loaded(name))


def rulesets() -> Iterator[Ruleset]:
    """Every known ruleset (importing the built-in ones)."""
    return cast(Iterator[Ruleset], _core.rulesets())


def register(ruleset: Ruleset) -> Ruleset:
    """Make ``ruleset`` known by its name and aliases (a later registration of a name wins)."""
    _core.register(ruleset)
    return ruleset


__all__ = ["BUILTIN", "BUILTIN_ALIASES", "DEFAULT", "VIEWS", "Game", "UnknownGame", "find_ruleset", "generation",
           "known", "loaded", "names", "register", "rulesets", "unregister", "view"]
