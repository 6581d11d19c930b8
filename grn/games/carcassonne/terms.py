"""The words of the Carcassonne and The Gold Mines rules the engine uses: sections, quotes, kinds.

Rule messages cite the rules by section names a player finds in the rulebooks
("Carcassonne rules, Scoring: cities", "The Gold Mines rules, placing gold").
The Gold Mines quotes are the expansion's own sentences, word for word.
"""

from __future__ import annotations

from typing import Final

from grn.games.tiling.engine import TileRules

RULES: Final = "Carcassonne rules"
SEC_GENERAL: Final = f"{RULES}, Game setup"
SEC_PLAYING: Final = f"{RULES}, Playing the game"
SEC_PLACING: Final = f"{RULES}, Placing a tile"
SEC_FOLLOWER: Final = f"{RULES}, Placing a follower"
SEC_ROADS: Final = f"{RULES}, Scoring: roads"
SEC_CITIES: Final = f"{RULES}, Scoring: cities"
SEC_CLOISTERS: Final = f"{RULES}, Scoring: cloisters"
SEC_FARMERS: Final = f"{RULES}, Farmers"
SEC_END: Final = f"{RULES}, End of the game"
SEC_FINAL: Final = f"{RULES}, Final scoring"
SEC_DIST: Final = f"{RULES}, Tile overview"

GOLD: Final = "The Gold Mines rules"
SEC_GOLD_SETUP: Final = f"{GOLD}, Game setup"
SEC_GOLD_PLACE: Final = f"{GOLD}, placing gold"
SEC_GOLD_TAKE: Final = f"{GOLD}, distributing gold"
SEC_GOLD_END: Final = f"{GOLD}, end of the game"

# The Gold Mines, word for word.
Q_SETUP: Final = "The new tiles are mixed with those of the base set."
Q_PLACE: Final = ("Whenever a player draws a tile with a gold ingot on it, he places it as usual. He then sets a gold "
           "ingot on that tile and on an adjacent tile (even diagonally).")
Q_TWO: Final = "As such, a player will always place 2 gold ingots after placing a tile with an ingot."
Q_STACK: Final = "An ingot may be placed on a tile where there already is one or more ingots."
Q_ORDER: Final = "After placing 2 gold ingots, the player can set a follower as usual."
Q_TAKE: Final = ("When a feature is completed, the gold ingots on the tiles forming the completed feature are taken by "
          "the player.")
Q_MAJORITY: Final = ("The player with the most followers takes all the gold ingots from the tiles forming the completed "
              "feature.")
Q_CLOISTER: Final = "For monasteries, count the tile with the monastery and the 8 adjacent tiles that complete it."
Q_SHARE: Final = ("Starting with the active player and followed by the other players in turn order, each player that can "
           "receive gold ingots takes one ingot. Proceed accordingly until all gold ingots have been distributed "
           "amongst the players.")
Q_SEQUENCE: Final = ("1. Place a tile with a gold ingot  2. Place 2 gold ingots  3. Place a follower or not   "
              "4. Score completed features  5. Distribute gold ingots")
Q_LEFTOVER: Final = "At the end of the game, gold ingots that are still on a tile are removed from the game."
Q_FARMERS: Final = "Farmers do not receive gold ingots."
Q_TABLE: Final = ("After the final scoring, consult the table below. Players score points depending on the number of "
           "gold ingots they collected during the game.")

# The base game's rules, as the rulebook words them.
Q_FOLLOWER_NEW: Final = "You may place a follower only on the tile you have just placed."
Q_FOLLOWER_FREE: Final = ("You may not place a follower on a feature that is already occupied by a follower, "
                   "no matter how far away it is.")
Q_FOLLOWER_SUPPLY: Final = "You may only place a follower from your supply."
Q_ONE_FOLLOWER: Final = "Place at most one follower on the tile you have just placed."
Q_FARMERS_OFF: Final = "The game is played without farmers (the Options tag says farmers=off)."
Q_ORDER_BASE: Final = "Each turn: place a tile, then you may place a follower, then completed features are scored."

# Final: the compiled build inlines the words instead of looking them up in this module's dict
ROAD: Final = "road"
CITY: Final = "city"
FIELD: Final = "field"
CLOISTER: Final = "cloister"
INGOT_MARK: Final = "ingot"
PENNANTS: Final = "pennants"
#: What a follower is called on each kind of feature.
ROLE: Final = {ROAD: "thief", CITY: "knight", FIELD: "farmer", CLOISTER: "monk"}
FOLLOWERS: Final = 7

_NUMBER = {1: "one", 2: "two", 3: "three"}


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``3 tiles``, ``1 tile``."""
    return f"{count} {noun if count == 1 else (plural or noun + 's')}"


def ingot_value(count: int) -> int:
    """Points per ingot for a player holding ``count`` ingots (The Gold Mines rules, the table)."""
    if count <= 0:
        return 0
    if count <= 3:
        return 1
    if count <= 6:
        return 2
    if count <= 9:
        return 3
    return 4


TILE_RULES: Final = TileRules(
    general=SEC_GENERAL, playing=SEC_PLAYING, placing=SEC_PLACING, distribution=SEC_DIST, end=SEC_END,
    must_touch="The tile must be placed so that at least one of its edges touches a tile already placed; "
               "touching only at a corner is not enough.",
    must_match="Every edge that touches a placed tile must continue it: city to city, road to road, field to field.",
    discard="If a tile cannot be placed anywhere, it is removed from the game and the player draws another.",
    clockwise="Players take turns in clockwise order.",
    game_end="The game ends after the turn in which the last tile is placed.",
    draw_and_place="Each turn, a player draws a tile and places it.",
)
