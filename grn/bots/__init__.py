"""Bots for every game grn knows, and the search behind ``grn analyse`` and ``grn arena``.

* :mod:`grn.bots.bot`: the ``random``, ``greedy`` and ``mcts`` bots, the search budgets, and the ladder of levels
  to play against (``beginner``, ``casual``, ``easy``, ``normal``, ``strong``, ``master``:
  :data:`~grn.bots.bot.PLAY_LEVELS`).
* :mod:`grn.bots.search`: Monte-Carlo evaluation of candidate moves over determinised worlds.
* :mod:`grn.bots.arena`: duplicate matches between bots, with an Elo difference.

What a bot may know is a :class:`grn.rules.world.World`, which each game's ruleset
draws (:meth:`grn.rules.ruleset.Ruleset.determinise`).
"""

from grn.bots.bot import (BOTS, DEFAULT_LEVEL, LEVELS, PLAY_LEVELS, Bot, GreedyBot, Level, MctsBot, PlayLevel, RandomBot,
                          SlipBot, UnknownBot, make_bot)
from grn.bots.search import Estimate, evaluate

__all__ = ["Bot", "RandomBot", "GreedyBot", "SlipBot", "MctsBot", "BOTS", "LEVELS", "DEFAULT_LEVEL", "Level",
           "PLAY_LEVELS", "PlayLevel", "make_bot", "UnknownBot", "Estimate", "evaluate"]
