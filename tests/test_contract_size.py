"""The game contract stays narrow (issue 46 item 3, R479): upper bounds on what a game must know of grn.

The figures come from ``bench/contract_figures.py`` (which prints them); each bound is the figure when it was
last cut, so a change that widens the contract, types more with ``Any`` or stacks another layer on an engine
fails here and says so.  Lower a bound when a change cuts a figure; raise one only with a ruling that says why.
"""

from __future__ import annotations

from tests.benchmods import load_bench

figures = load_bench("contract_figures")

#: Public members of Ruleset (attributes and methods), and those TileRuleset adds.
RULESET_PUBLIC = 62
TILE_RULESET_EXTRA = 4
#: Uses of ``Any`` per 1,000 lines over grn/.
ANY_PER_1000 = 20.0
#: Classes above each game's engine class (``object`` not counted).
DEPTHS = {"goldrush": 7, "carcassonne": 5, "gold": 1}


def test_ruleset_public_members() -> None:
    from grn.games.tiling.ruleset import TileRuleset
    from grn.rules.ruleset import Ruleset

    assert len(figures.public_members(Ruleset)) <= RULESET_PUBLIC, figures.public_members(Ruleset)
    assert len(figures.public_members(TileRuleset, Ruleset)) <= TILE_RULESET_EXTRA


def test_every_public_member_is_documented() -> None:
    """What a game and its callers see of the contract says what it is (a docstring, or a ``#:`` comment)."""
    from grn.games.tiling.ruleset import TileRuleset
    from grn.rules.ruleset import Dealer, Puzzles, Ruleset

    for cls, below in ((Ruleset, object), (TileRuleset, Ruleset), (Puzzles, object), (Dealer, object)):
        assert figures.undocumented(cls, below) == [], cls


def test_any_per_thousand_lines() -> None:
    uses, lines, rate = figures.any_per_thousand()
    assert rate <= ANY_PER_1000, f"{uses} uses of Any in {lines} lines: {rate:.1f} per 1,000"


def test_engine_depths() -> None:
    for game, (chain, depth) in figures.engine_depths().items():
        assert depth <= DEPTHS[game], f"{game}'s engine stands {depth} classes deep: {chain}"


def test_each_ruleset_declares_its_state() -> None:
    """R481: a game's ruleset is generic in its own engine class, so its hooks are typed with that class."""
    from typing import get_args

    from grn.games.carcassonne.rules import CarcassonneState
    from grn.games.gold.rules import GoldState
    from grn.games.goldrush.rules import GoldRushState
    from grn.rules import registry

    for name, state in (("carcassonne", CarcassonneState), ("goldrush", GoldRushState), ("gold", GoldState)):
        ruleset = registry.find_ruleset(name)
        declared = [get_args(base) for base in getattr(type(ruleset), "__orig_bases__", ())]
        assert (state,) in declared, (name, declared)
