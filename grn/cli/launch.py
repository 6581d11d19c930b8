"""The ``grn`` console script: a light table of what each first word needs before loading grn's commands.

* ``grn lsp`` goes straight to the language server's own command line (:mod:`grn.lsp.command`):
  an editor waits for its answer to ``initialize`` (docs/editors.md, R166);
* ``grn validate FILE ...`` with no option runs :func:`grn.cli.validate.validate` itself, the
  command typer runs, with every option at its default (R190): checking a small file costs about
  as much as python-chess's import and ``read_game`` of one game, and typer, which vendors click,
  would add a third to that (docs/performance.md, "Start-up, round five");
* ``grn archive add [-q] DB FILE ...`` with no other option runs :func:`grn.archive.add_cli.add` itself, the
  command typer runs, likewise (R325): typer's import was half of ``add``'s start-up beyond ``validate``'s;
* every other command line goes to :mod:`grn.cli.app`, the typer app with all of grn's commands.

``grn validate --dask-scheduler`` ends without the interpreter's teardown (R299).  A process of grn's own
(:func:`run`) imports its command with the garbage collector off and freezes what it imported (R319), and runs
it with a young generation of 20,000 objects rather than 700 (R322).
"""

from __future__ import annotations

import gc
import os
import sys
from typing import Callable

#: True in a process :func:`run` started: its start-up is grn's to tune (R319); not when a host calls :func:`main`.
_OWN_PROCESS = False
#: The young generation's threshold while a command of grn's own process runs (Python's default is 700): fewer
#: walks of the containers a command keeps alive for a while, as ``archive add`` keeps a batch of games' rows
#: between inserts (R322).
YOUNG_THRESHOLD = 20_000


def run() -> None:
    """The ``grn`` console script and ``python -m grn``: :func:`main` in a process of grn's own.

    Its command's modules are imported with the cyclic garbage collector off and then frozen, before the
    command runs with the collector on (R319): importing builds some hundred thousand objects that live as
    long as the process, and the collections an import set off walked them again and again (12% of the
    instructions of a small file's validate); frozen, no later collection walks them either.
    """
    global _OWN_PROCESS
    _OWN_PROCESS = True
    gc.disable()
    main()


def _settle() -> None:
    """Before a command runs: what its imports made frozen, the collector on again (in a process of grn's own)."""
    if _OWN_PROCESS and not gc.isenabled():
        gc.freeze()
        gc.set_threshold(YOUNG_THRESHOLD, *gc.get_threshold()[1:])
        gc.enable()


def main() -> None:
    """Run the command line in ``sys.argv`` (what :func:`run`, the console script's entry point, runs; a
    program may call it too, its collector left as it is)."""
    args = sys.argv[1:]
    # validate writes only to stdout and stderr; other commands may leave files for the teardown to close
    if args[:1] != ["validate"] or not any(a == "--dask-scheduler" or a.startswith("--dask-scheduler=")
                                           for a in args):
        _main(args)
        return
    try:
        _main(args)
    except SystemExit as done:
        _end_now(done.code)


def _end_now(code: object) -> None:
    """End the process now, its output flushed, without freeing every module and object (R299).

    A process that imported ``distributed`` spends about 0.3 s of wall, after its last line, freeing the
    modules and objects of Dask, tornado and the rest: some 4% of a seven-second ``validate
    --dask-scheduler``, with nothing left to do (the client is closed, the report written). mypy ends
    the same way (``mypy.util.hard_exit``).
    """
    if code is None:
        status = 0
    elif isinstance(code, int):
        status = code
    else:  # SystemExit("message"): Python prints the message and exits 1
        print(code, file=sys.stderr)
        status = 1
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:  # pragma: no cover - e.g. grn validate --dask-scheduler ... | head
        status = 0
    os._exit(status)


def _main(args: list[str]) -> None:
    """Run the command line ``args`` (``sys.argv[1:]``); it ends by raising :class:`SystemExit`."""
    # imported in each branch, not above: each loads only what its command needs
    if args[:1] == ["lsp"]:
        from grn.lsp.command import main as lsp

        _settle()
        _run(lambda: lsp(args[1:]))
    if args[:1] == ["validate"]:
        from grn.cli import validate as validate_cli

        if validate_cli.fast_path(args[1:]):
            _settle()
            _run(lambda: validate_cli.validate(args[1:]))
    if args[:2] == ["archive", "add"]:
        from grn.archive import add_cli

        if add_cli.fast_path(args[2:]):
            add_cli.load()
            _settle()
            _run(lambda: add_cli.run_fast(args[2:]))
    from grn.cli.app import main as cli

    _settle()
    cli()


def _run(command: Callable[[], int | None]) -> None:
    """Run a command outside typer, ending as :func:`grn.cli.app.main` ends one (Ctrl-C 130, a closed pipe 0)."""
    try:
        raise SystemExit(command())
    except KeyboardInterrupt:  # pragma: no cover - interactive
        raise SystemExit(130)
    except BrokenPipeError:  # pragma: no cover - e.g. grn validate --explain big.grn | head
        raise SystemExit(0)


if __name__ == "__main__":  # pragma: no cover
    run()
