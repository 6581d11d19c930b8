"""``python -m grn`` runs the command line."""

from grn.cli import main

main()
