"""The modules of this game that the build compiles with mypyc: the commands, the engine's layers and the playouts' weighing."""

COMPILED_MODULES: tuple[str, ...] = (
    "grn.games.carcassonne.commands",
    "grn.games.carcassonne.terms",
    "grn.games.carcassonne.options",
    "grn.games.carcassonne.events",
    "grn.games.carcassonne.completion",
    "grn.games.carcassonne.followers",
    "grn.games.carcassonne.gold",
    "grn.games.carcassonne.scoring",
    "grn.games.carcassonne.setup_turn",
    "grn.games.carcassonne.rules",
    # a playout turn's weighing of its placements (R516): forty a turn are what a field fight needs
    "grn.games.carcassonne.playout",
)
