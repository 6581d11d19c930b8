"""The ``grn`` console script: ``grn lsp`` goes straight to the language server's own command line
(:mod:`grn.lsp.command`), every other command to :mod:`grn.cli`.

An editor starts ``grn lsp`` and waits for its answer to ``initialize``; loading
all of grn's commands (and the readers and engines they import) first would
add a third of a second or more to that wait for nothing (docs/editors.md, R166).
"""

from __future__ import annotations

import sys


def main() -> None:
    """Entry point of the ``grn`` console script and of ``python -m grn``."""
    if sys.argv[1:2] == ["lsp"]:
        # imported here, not above: each branch loads only what its commands need
        from grn.lsp.command import main as lsp

        try:
            raise SystemExit(lsp(sys.argv[2:]))
        except KeyboardInterrupt:  # pragma: no cover - interactive
            raise SystemExit(130)
    from grn.cli import main as cli

    cli()


if __name__ == "__main__":  # pragma: no cover
    main()
