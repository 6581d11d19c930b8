"""The modules of this game that the build compiles with mypyc: its hot path, the card command and the engine."""

COMPILED_MODULES: tuple[str, ...] = (
    "grn.games.gold.commands",
    "grn.games.gold.rules",
)
