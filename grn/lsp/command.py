"""``grn lsp``'s command line on its own: the console script runs it without loading grn's other commands or
typer (:mod:`grn.launch`), so that the server answers an editor sooner (R166).  ``grn --help`` lists the
command through :mod:`grn.cli`, which takes its option's name, default and help from here."""

from __future__ import annotations

import argparse

from grn.lsp import run

#: Seconds of quiet after the last change before the diagnostics are sent (``--pause``).
PAUSE = 0.15
PAUSE_HELP = "Quiet after the last change before the diagnostics are sent."
HELP = "Run the GRN language server over standard input and output, for editors (needs the lsp extra)."
EXAMPLE = "Example: grn lsp   (docs/editors.md: VS Code, Neovim, Emacs)"


def main(args: list[str]) -> int:
    """Run ``grn lsp`` with the words that follow ``lsp`` on the command line; the exit code (2: usage)."""
    parser = argparse.ArgumentParser(prog="grn lsp", description=HELP, epilog=EXAMPLE)
    parser.add_argument("--pause", type=float, default=PAUSE, metavar="SECONDS", help=PAUSE_HELP)
    options = parser.parse_args(args)  # a usage error: argparse says it in one line and exits 2
    return run(options.pause)


__all__ = ["EXAMPLE", "HELP", "PAUSE", "PAUSE_HELP", "main"]
