"""The modules of this game that the build compiles with mypyc: the commands and the engine."""

COMPILED_MODULES: tuple[str, ...] = (
    "grn.games.carcassonne.commands",
    "grn.games.carcassonne.terms",
    "grn.games.carcassonne.options",
    "grn.games.carcassonne.events",
    "grn.games.carcassonne.rules",
)
