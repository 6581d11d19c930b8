"""The games grn ships, one package each, and the registry under its historical name.

``grn.games.find_ruleset``, ``register`` and the rest are :mod:`grn.core.registry`'s
(the registry sits at the bottom of grn, below the generic modules that ask
it for a ruleset).  Adding a game is a new package under ``grn/games/`` (its
``RULESET``) and its entry in ``grn/games/games.json`` (name, package,
aliases), which the registry reads without importing any game.
"""

from __future__ import annotations

from grn.core.registry import (
    BUILTIN,
    BUILTIN_ALIASES,
    DEFAULT,
    UnknownGame,
    find_ruleset,
    generation,
    known,
    names,
    register,
    rulesets,
    unregister,
)

__all__ = ["BUILTIN", "BUILTIN_ALIASES", "DEFAULT", "UnknownGame", "find_ruleset", "generation", "known", "names",
           "register", "rulesets", "unregister"]
