"""The modules of this game that the build compiles with mypyc: its hot path, the card command and the engine,
and the players of its playouts and self-play (grn/games/gold/playout.py)."""

COMPILED_MODULES: tuple[str, ...] = (
    "grn.games.gold.commands",
    "grn.games.gold.rules",
    "grn.games.gold.playout",
)
