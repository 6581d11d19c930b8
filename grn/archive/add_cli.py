"""``grn archive add``: validate and index every game of some record files into an archive.

The command is defined once, here: :func:`add` with its options in its annotations, which typer reads when
:mod:`grn.archive.cli` registers it (:func:`register`).  The console script (:mod:`grn.cli.launch`) calls
:func:`add` directly for the commonest use, ``grn archive add [-q] DB FILE ...`` with no other option, so that
adding loads neither typer nor grn's other commands (R325), as ``grn validate FILE ...`` does (R190): every
other option then has the default written below, the one typer shows in ``--help``.

Exit codes as everywhere in grn: 0 all is well, 1 a file or the archive cannot be read, 2 a usage error.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Iterator, List, Optional

from grn.cli.common import Progress, jobs_problem, load_tileset_option

if TYPE_CHECKING:
    import typer

#: The options the console script reads itself (R325); any other goes to typer.
QUIET = ("-q", "--quiet")


def add(
    db: Annotated[Path, typer.Argument(help="The archive: one SQLite file.")],
    files: Annotated[List[str], typer.Argument(help="Record files (.grn, .json); - reads standard input.")],
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Validate and index in N processes.")] = 1,
    dask_scheduler: Annotated[Optional[str], typer.Option(
        "--dask-scheduler", metavar="ADDRESS",
        help="Validate and index on a Dask cluster (needs grn's dask extra).")] = None,
    tileset: Annotated[Optional[Path], typer.Option(
        "--tileset", help="Use this tile set JSON instead of the shipped one.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing but problems.")] = False,
    batch: Annotated[int, typer.Option(
        "--batch", min=1, help="Games per transaction in a large file (a stopped run loses at most these).")] = 5000,
    per_turn: Annotated[bool, typer.Option(
        "--per-turn", help="Also build each game's per-turn rows now (else the first search by --event, --action "
                           "or --beside builds them; grn archive index).")] = False,
) -> None:
    """Validate and index every game of FILES into the archive DB (made when missing).

    Adding a file again changes nothing; a run that was stopped goes on where it stopped.
    The per-turn rows (commands, events) are built when a search first needs them, unless --per-turn.

    Example: grn archive add club.db games/*.grn
    """
    # the archive's modules (and sqlite3) load when the command runs, not when grn --help lists it
    import sqlite3

    from grn.archive.db import ArchiveError, add_files, connect
    from grn.archive.indexer import indexing_validator
    from grn.check.workers import SchedulerError

    ts = load_tileset_option(tileset)
    if (problem := jobs_problem(jobs)) is not None:
        print(f"grn archive add: {problem}", file=sys.stderr)
        raise SystemExit(2)
    try:
        con = connect(db, create=True)
    except ArchiveError as exc:
        print(f"{db}: error: {exc}", file=sys.stderr)
        raise SystemExit(1)
    try:
        # a game validated with another tile set is given its per-turn rows now: the archive does not keep
        # the tile set a later build would need (R253)
        validator = indexing_validator(jobs=jobs, scheduler=dask_scheduler, tileset=ts,
                                       tileset_path=None if tileset is None else str(tileset),
                                       per_turn=per_turn or tileset is not None)
    except SchedulerError as exc:
        con.close()
        print(f"grn archive add: error: {exc}", file=sys.stderr)
        raise SystemExit(1)
    try:
        # on a terminal, a bar of the files with the time left (R357); the batch lines print above it
        with Progress("adding", len(files), stream=None if not quiet else False) as bar:
            def counted() -> Iterator[str]:
                for i, path in enumerate(files):
                    if i:
                        bar.step()  # the file before is done
                    yield path

            summary = add_files(con, counted(), validator, progress=None if quiet else bar.say, batch=batch)
    except sqlite3.DatabaseError as exc:
        print(f"{db}: error: cannot write the archive ({exc})", file=sys.stderr)
        raise SystemExit(1)
    finally:
        con.close()
        validator.runner.close()  # the worker processes (or the Dask client) end with the command
    for problem in summary.problems:
        print(problem, file=sys.stderr)
    if not quiet:
        print(f"{summary.games} game{'s' if summary.games != 1 else ''} added from {summary.files} "
              f"file{'s' if summary.files != 1 else ''} ({summary.invalid} invalid); "
              f"{summary.skipped} file{'s' if summary.skipped != 1 else ''} already archived")
    raise SystemExit(1 if summary.problems else 0)


def fast_path(args: List[str]) -> bool:
    """Whether ``grn archive add ARGS`` can run without typer: an archive and one file or more, and no option
    but ``-q``/``--quiet`` (R325).

    Anything else (another option, ``--help``, ``--``, no file) goes to typer, which parses it and reports a
    usage error as it does for every command.
    """
    given = _operands(args)
    return len(given) >= 2 and all(a == "-" or not a.startswith("-") for a in given)


def _operands(args: List[str]) -> List[str]:
    """The command line less ``-q``/``--quiet``."""
    return [a for a in args if a not in QUIET]


def load() -> None:
    """Import what :func:`add` runs: the console script imports a command's modules before it freezes what is
    loaded (R319)."""
    import grn.archive.db  # noqa: F401
    import grn.archive.indexer  # noqa: F401
    import grn.check.workers  # noqa: F401


def run_fast(args: List[str]) -> None:
    """``grn archive add ARGS`` for a command line :func:`fast_path` accepts: what typer would call."""
    given = _operands(args)
    add(Path(given[0]), given[1:], quiet=len(given) != len(args))


def register(app: typer.Typer) -> None:
    """Add ``add`` to the ``grn archive`` typer app.

    Typer reads the options from :func:`add`'s annotations, which name ``typer``: it is bound here, when the
    whole command line loads, and never on the fast path.
    """
    globals()["typer"] = sys.modules["typer"]
    app.command("add")(add)


__all__ = ["add", "fast_path", "load", "run_fast", "register"]
