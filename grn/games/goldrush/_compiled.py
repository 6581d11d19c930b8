"""The modules of this game that the build compiles with mypyc: its hot path, the commands and the engine's layers."""

COMPILED_MODULES: tuple[str, ...] = (
    "grn.games.goldrush.commands",
    "grn.games.goldrush.terms",
    "grn.games.goldrush.options",
    "grn.games.goldrush.events",
    "grn.games.goldrush.tokens",
    "grn.games.goldrush.actions",
    "grn.games.goldrush.scoring",
    "grn.games.goldrush.setup_turn",
    "grn.games.goldrush.moves",
    "grn.games.goldrush.rules",
)
