"""The modules of this game that the build compiles with mypyc (its hot path: commands and rules)."""

COMPILED_MODULES: tuple[str, ...] = (
    "grn.games.goldrush.commands",
    "grn.games.goldrush.rules",
)
