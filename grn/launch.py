"""The ``grn`` console script: a light table of what each first word needs before loading grn's commands.

* ``grn lsp`` goes straight to the language server's own command line (:mod:`grn.lsp.command`):
  an editor waits for its answer to ``initialize`` (docs/editors.md, R166);
* ``grn validate FILE ...`` with no option runs :func:`grn.validate_cli.validate` itself, the
  command typer runs, with every option at its default (R190): checking a small file costs about
  as much as python-chess's import and ``read_game`` of one game, and typer, which vendors click,
  would add a third to that (docs/performance.md, "Start-up, round five");
* every other command line goes to :mod:`grn.cli`, the typer app with all of grn's commands.
"""

from __future__ import annotations

import sys
from typing import Callable


def main() -> None:
    """Entry point of the ``grn`` console script and of ``python -m grn``."""
    args = sys.argv[1:]
    # imported in each branch, not above: each loads only what its command needs
    if args[:1] == ["lsp"]:
        from grn.lsp.command import main as lsp

        _run(lambda: lsp(args[1:]))
    if args[:1] == ["validate"]:
        from grn import validate_cli

        if validate_cli.fast_path(args[1:]):
            _run(lambda: validate_cli.validate(args[1:]))
    from grn.cli import main as cli

    cli()


def _run(command: Callable[[], int | None]) -> None:
    """Run a command outside typer, ending as :func:`grn.cli.main` ends one (Ctrl-C 130, a closed pipe 0)."""
    try:
        raise SystemExit(command())
    except KeyboardInterrupt:  # pragma: no cover - interactive
        raise SystemExit(130)
    except BrokenPipeError:  # pragma: no cover - e.g. grn validate --explain big.grn | head
        raise SystemExit(0)


if __name__ == "__main__":  # pragma: no cover
    main()
