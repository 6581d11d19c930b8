"""``grn lsp``'s command line, on its own: the console script runs it without loading grn's other commands
(:mod:`grn.launch`), so that the server answers an editor sooner; ``grn --help`` lists it with the rest."""

from __future__ import annotations

import typer

from grn.lsp import run


def lsp(pause: float = typer.Option(0.15, "--pause", metavar="SECONDS",
                                   help="Quiet after the last change before the diagnostics are sent.")) -> None:
    """Run the GRN language server over standard input and output, for editors (needs the lsp extra).

    Example: grn lsp   (docs/editors.md: VS Code, Neovim, Emacs)
    """
    raise typer.Exit(run(pause))


def main(args: list[str]) -> None:
    """Run ``grn lsp`` with the words that follow ``lsp`` on the command line."""
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False,
                      context_settings={"help_option_names": ["-h", "--help"]})
    app.command()(lsp)
    app(args=args, prog_name="grn lsp")


__all__ = ["lsp", "main"]
