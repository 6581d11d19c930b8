"""``grn lsp``'s command line on its own: the console script runs it without loading grn's other commands or
typer (:mod:`grn.cli.launch`), so that the server answers an editor sooner (R166).  ``grn --help`` lists the
command through :mod:`grn.cli.app`, which takes its option's name, default and help from here."""

from __future__ import annotations

import argparse
import sys

from grn.lsp import PAUSE

PAUSE_HELP = "Quiet after the last change before the diagnostics are sent."
HELP = "Run the GRN language server over standard input and output, for editors (needs the lsp extra)."
EXAMPLE = "Example: grn lsp   (docs/editors.md: VS Code, Neovim, Emacs)"


def run(pause: float) -> int:
    """``grn lsp``: serve an editor over stdio; 1 when the ``lsp`` extra is not installed, 2 for a bad pause."""
    if pause < 0:
        print("grn lsp: --pause must be 0 or more seconds", file=sys.stderr)
        return 2
    try:
        # imported here: pygls, lsprotocol and the server load only once the command line is read
        from grn.lsp.server import serve
    except ImportError as exc:
        print(f"grn lsp needs pygls and lsprotocol ({exc.name} is missing): pip install 'grn[lsp]'", file=sys.stderr)
        return 1
    serve(pause)
    return 0


def main(args: list[str]) -> int:
    """Run ``grn lsp`` with the words that follow ``lsp`` on the command line; the exit code (2: usage)."""
    parser = argparse.ArgumentParser(prog="grn lsp", description=HELP, epilog=EXAMPLE)
    parser.add_argument("--pause", type=float, default=PAUSE, metavar="SECONDS", help=PAUSE_HELP)
    options = parser.parse_args(args)  # a usage error: argparse says it in one line and exits 2
    return run(options.pause)


__all__ = ["EXAMPLE", "HELP", "PAUSE", "PAUSE_HELP", "main", "run"]
