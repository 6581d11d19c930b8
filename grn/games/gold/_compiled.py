"""The modules of this game that the build compiles with mypyc: its hot path, the card command and the engine,
and the playout player of its search (with self-play's player, which it calls in the Gold Rush)."""

COMPILED_MODULES: tuple[str, ...] = (
    "grn.games.gold.commands",
    "grn.games.gold.rules",
    "grn.games.gold.selfplay",
    "grn.games.gold.playout",
)
