"""Bots for every game grn knows, and the search behind ``grn analyse`` and ``grn arena``.

* :mod:`grn.bots.bot`: the ``random``, ``greedy`` and ``mcts`` bots, and the named levels.
* :mod:`grn.bots.search`: Monte-Carlo evaluation of candidate moves over determinised worlds.
* :mod:`grn.bots.arena`: duplicate matches between bots, with an Elo difference.

What a bot may know is a :class:`grn.rules.world.World`, which each game's ruleset
draws (:meth:`grn.rules.ruleset.Ruleset.determinise`).
"""

from grn.bots.bot import BOTS, DEFAULT_LEVEL, LEVELS, Bot, GreedyBot, Level, MctsBot, RandomBot, UnknownBot, make_bot
from grn.bots.search import Estimate, evaluate

__all__ = ["Bot", "RandomBot", "GreedyBot", "MctsBot", "BOTS", "LEVELS", "DEFAULT_LEVEL", "Level", "make_bot",
           "UnknownBot", "Estimate", "evaluate"]
