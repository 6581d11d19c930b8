"""The words of the Gold Rush rules the engine uses: section names for citations, feature kinds and roles.

Rule messages cite the rules by the rulebook's own section names, the way a
player finds them ("Gold Rush rulebook, step 2b. Pitch a Tent").
"""

from __future__ import annotations

from typing import Final

from grn.games.tiling.engine import TileRules

#: How rule messages cite the rules: by the rulebook's own section names.
RULEBOOK: Final = "Gold Rush rulebook"
SEC_GENERAL: Final = f"{RULEBOOK}, General Info and Comments"
SEC_PLAYING: Final = f"{RULEBOOK}, Playing the Game"
SEC_PLACING: Final = f"{RULEBOOK}, step 1. Placing Land Tiles"
SEC_TOKENS: Final = f"{RULEBOOK}, Placing Mining Tokens"
SEC_COWBOY: Final = f"{RULEBOOK}, step 2a. Place a cowboy"
SEC_TENT: Final = f"{RULEBOOK}, step 2b. Pitch a Tent"
SEC_MINE: Final = f"{RULEBOOK}, step 2c. Mine for gold"
SEC_SCORING: Final = f"{RULEBOOK}, step 3. Scoring Completed Railroads, Mountains and Cities"
SEC_MOUNTAIN: Final = f"{RULEBOOK}, Completed Mountain"
SEC_END: Final = f"{RULEBOOK}, Game End"
SEC_FINAL: Final = f"{RULEBOOK}, Final Scoring"
SEC_DIST: Final = f"{RULEBOOK}, Tile Distribution"
SEC_PRAIRIES: Final = f"{RULEBOOK}, The Prairies"

# Final: the compiled build inlines the words instead of looking them up in this module's dict
RAIL: Final = "rail"
MOUNTAIN: Final = "mountain"
CITY: Final = "city"
PRAIRIE: Final = "prairie"
#: What a cowboy is called on each kind of feature.
ROLE: Final = {RAIL: "railwayman", MOUNTAIN: "gold miner", CITY: "merchant", PRAIRIE: "farmer"}
#: ScoreEvent.feature names.
FEATURE_NAME: Final = {RAIL: "railroad", MOUNTAIN: "mountain", CITY: "city", PRAIRIE: "prairie"}

_NUMBER = {1: "one", 2: "two", 3: "three"}


def counted(count: int, noun: str, plural: str | None = None, words: bool = False) -> str:
    """``3 tiles``, ``1 tile``; ``words=True`` writes one to three as words."""
    word = _NUMBER.get(count, str(count)) if words else str(count)
    return f"{word} {noun if count == 1 else (plural or noun + 's')}"


#: How the rules word what every tile-laying game checks alike (:class:`grn.games.tiling.engine.TileRules`).
TILE_RULES: Final = TileRules(
    general=SEC_GENERAL, playing=SEC_PLAYING, placing=SEC_PLACING, distribution=SEC_DIST, end=SEC_END,
    must_touch="The newly placed tile must be placed adjacent to at least one existing tile. "
               "Diagonal adjacency is not sufficient.",
    must_match="Railroad tracks, mountains, and prairies must continue from this newly placed tile "
               "to existing adjacent tiles.",
    discard="In the rare case that a drawn tile cannot be legally placed, it is discarded from the game.",
    clockwise="The game is played in clockwise order from the start player.",
    game_end="The game ends immediately after the turn during which the last Land tile is placed.",
    draw_and_place="The player must draw a Land tile and place it",
)
