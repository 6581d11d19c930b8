"""The plug-in contract every game implements: the registry, the ruleset and engine, codecs, positions, choices, a player's view."""
