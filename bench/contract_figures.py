"""The size of the game contract (issue 46 item 3): what a game must know of grn, in three figures.

* the public members of :class:`grn.rules.ruleset.Ruleset` (every name without a leading underscore that the
  class or its bases below ``object`` define) and those :class:`grn.games.tiling.ruleset.TileRuleset` adds;
* ``Any`` per 1,000 lines over ``grn/`` (each word ``Any`` in a ``.py`` file, comments and docstrings
  included, against every line of those files);
* the inheritance depth of each game's engine class: the classes above it, ``object`` not counted
  (Carcassonne's ``CarcassonneState`` -> ``SetUp`` -> ... -> ``Engine``).

``python bench/contract_figures.py`` prints them; ``tests/test_contract_size.py`` pins upper bounds so that they
cannot creep back (R479).
"""

from __future__ import annotations

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

_ANY = re.compile(r"\bAny\b")


def public_members(cls: type, below: type = object) -> list[str]:
    """The public names ``cls`` and its bases define, less those of ``below`` and its bases."""
    skip = set(dir(below))
    return sorted(n for n in dir(cls) if not n.startswith("_") and n not in skip)


def undocumented(cls: type, below: type = object) -> list[str]:
    """The public members of ``cls`` (less ``below``'s) with no docstring (a method) and no ``#:`` comment above
    their line in the class's module (an attribute)."""
    import inspect

    source = inspect.getsource(sys.modules[cls.__module__])
    out = []
    for name in public_members(cls, below):
        value = inspect.getattr_static(cls, name)
        if callable(value) or isinstance(value, (property, staticmethod, classmethod)):
            if not inspect.getdoc(getattr(cls, name)):
                out.append(name)
        elif not re.search(r"#:[^\n]*\n(?:\s*#:[^\n]*\n)*\s*" + re.escape(name) + r"\b", source):
            out.append(name)
    return out


def any_per_thousand(folder: str | None = None) -> tuple[int, int, float]:
    """(uses of ``Any``, lines, uses per 1,000 lines) over the ``.py`` files under ``folder`` (``grn/``)."""
    folder = folder or os.path.join(ROOT, "grn")
    uses = lines = 0
    for base, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith(".py"):
                with open(os.path.join(base, name), encoding="utf-8") as fh:
                    text = fh.read()
                uses += len(_ANY.findall(text))
                lines += text.count("\n")
    return uses, lines, 1000 * uses / lines if lines else 0.0


def engine_depths() -> dict[str, tuple[str, int]]:
    """Each built-in game's engine class and how many classes stand above it (``object`` not counted)."""
    from grn.games.carcassonne.rules import CarcassonneState
    from grn.games.gold.rules import GoldState
    from grn.games.goldrush.rules import GoldRushState

    out = {}
    for game, cls in (("goldrush", GoldRushState), ("carcassonne", CarcassonneState), ("gold", GoldState)):
        out[game] = (" -> ".join(c.__name__ for c in cls.__mro__[:-1]), len(cls.__mro__) - 2)
    return out


def figures() -> dict[str, object]:
    """Every figure, by name."""
    from grn.games.tiling.ruleset import TileRuleset
    from grn.rules.ruleset import Ruleset

    uses, lines, rate = any_per_thousand()
    return {"ruleset_public": len(public_members(Ruleset)),
            "tile_ruleset_extra": len(public_members(TileRuleset, Ruleset)),
            "any_uses": uses, "lines": lines, "any_per_1000": round(rate, 1),
            "depths": {game: depth for game, (_, depth) in engine_depths().items()}}


def main() -> None:
    from grn.games.tiling.ruleset import TileRuleset
    from grn.rules.ruleset import Ruleset

    ruleset = public_members(Ruleset)
    print(f"Ruleset: {len(ruleset)} public members: {', '.join(ruleset)}")
    extra = public_members(TileRuleset, Ruleset)
    print(f"TileRuleset adds {len(extra)}: {', '.join(extra)}")
    uses, lines, rate = any_per_thousand()
    print(f"Any over grn/: {uses} in {lines} lines, {rate:.1f} per 1,000")
    for game, (chain, depth) in engine_depths().items():
        print(f"{game}: depth {depth}: {chain}")


if __name__ == "__main__":
    main()
