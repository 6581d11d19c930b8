"""``python -m grn`` runs the command line."""

from grn.launch import run

run()
