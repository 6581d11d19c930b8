"""``python -m grn`` runs the command line."""

from grn.cli.launch import run

run()
