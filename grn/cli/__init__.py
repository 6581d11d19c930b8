"""The ``grn`` command line: the launcher, the typer app and its commands, and where their input and output go."""
