"""``grn puzzles``: puzzles mined from records or an archive, written as GRN, JSON, SVG diagrams or a trainer page.

:func:`register` adds the command to grn's typer app; the command line module
hands over how it prints diagnostics, so this module does not import it.
"""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, List, Optional

import typer

from grn.bots.bot import LEVELS
from grn.cli.common import Progress
from grn.core.errors import Diagnostic
from grn.core.output import OutputError, check_target, output_folder, writing
from grn.core.record import Record

#: The JSON document's format version (``schemas/puzzles.schema.json``).
FORMAT = 1


def _usage(message: str) -> typer.Exit:
    print(f"grn puzzles: {message}", file=sys.stderr)
    return typer.Exit(2)


def file_records(files: List[str], report: Callable[[Iterable[Diagnostic]], int],
                 errors: list[int]) -> Iterator[tuple[str, int, Record]]:
    """The readable games of ``files`` as (file, game number, record); each problem reported, errors counted."""
    from grn import read
    from grn.check.validate import validate_record

    for path in files:
        name = "<stdin>" if path == "-" else path
        try:
            games = list(read(sys.stdin if path == "-" else path, file=name))
        except OSError as exc:
            print(f"grn puzzles: cannot read {name}: {exc.strerror or exc}", file=sys.stderr)
            errors[0] += 1
            continue
        if not games:
            errors[0] += report([Diagnostic("no game found: the file holds no record", None, name, code="empty")])
        for index, record in enumerate(games, start=1):
            if not record.ok:
                errors[0] += report(record.diagnostics[:1])
                continue
            result = validate_record(record, file=name, index=index - 1, keep_turns=False)
            errors[0] += report([d for d in result.diagnostics if d.severity == "error"])
            yield name, index, record


def archive_records(db: Path, errors: list[int]) -> Iterator[tuple[str, int, Record]]:
    """The valid games of the archive ``db`` as (``DB#id``, id, record), oldest first."""
    from grn.archive.db import ArchiveError, connect
    from grn.archive.stored import record_of

    try:
        con = connect(db, readonly=True)
    except ArchiveError as exc:
        print(f"{db}: error: {exc}", file=sys.stderr)
        errors[0] += 1
        return
    try:
        rows = list(con.execute("SELECT id, text, format FROM games WHERE valid = 1 ORDER BY id"))
    except sqlite3.DatabaseError as exc:
        print(f"{db}: error: cannot read the archive ({exc})", file=sys.stderr)
        errors[0] += 1
        return
    finally:
        con.close()
    for game_id, text, fmt in rows:
        try:
            record = record_of(text, fmt)
        except ValueError as exc:
            print(f"{db}: game {game_id}: {exc}", file=sys.stderr)
            continue
        yield f"{db}#{game_id}", int(game_id), record


def diagram_svg(puzzle: Any) -> str:
    """The puzzle's position as an SVG picture for a forum: the board around the play, the question as its
    caption (a game without a diagram form: its whole picture)."""
    from grn.rules import registry
    from grn.rules.position import position_at
    from grn.render import render_svg

    ruleset = registry.find_ruleset(puzzle.game)
    position = position_at(puzzle.record, str(puzzle.turn - 1))
    return render_svg(position, diagram="diagram" in ruleset.render_options)


def register(app: typer.Typer, report: Callable[[Iterable[Diagnostic]], int]) -> None:
    """Add ``grn puzzles`` to ``app``; ``report`` prints diagnostics as ``grn validate`` does (returns the errors).

    Long for its options: the command's signature lists each option with its help, which typer reads from it
    (and shows as ``--help``); the command's body is short."""

    @app.command("puzzles")
    def puzzles_command(
        files: Optional[List[str]] = typer.Argument(None, help="Record files (.grn or .json); - reads standard input."),
        archive: Optional[Path] = typer.Option(None, "--archive", metavar="DB", help="Look for puzzles in the valid games of "
                                               "this archive (grn archive add) instead of files."),
        output: Optional[Path] = typer.Option(None, "-o", "--output", help="Write here instead of standard output "
                                              "(a folder with --diagram or --html)."),
        as_json: bool = typer.Option(False, "--json", help="Write JSON (schemas/puzzles.schema.json) instead of GRN."),
        diagram: bool = typer.Option(False, "--diagram", help="Write each puzzle as an SVG diagram and its GRN "
                                     "record into the folder -o names."),
        html: bool = typer.Option(False, "--html", help="Write a trainer page (index.html) into the folder -o names: "
                                  "solve each puzzle by tapping the board."),
        found: bool = typer.Option(False, "--found", help="Keep the turns where the player found the move too "
                                   "(self-play); default: only the moves a player missed."),
        points: Optional[float] = typer.Option(None, "--points", help="Points by which the best move must beat "
                                               "every other (default: the game's inaccuracy threshold)."),
        win: float = typer.Option(0.10, "--win", help="Or, in a close game, the chance to win (0 to 1) by which "
                                  "it must beat every other."),
        level: str = typer.Option("normal", "--level", help="The first search's budget: " + ", ".join(LEVELS) + "."),
        playouts: Optional[int] = typer.Option(None, "--playouts", help="Playouts of the first search (overrides "
                                               "--level)."),
        confirm_rounds: Optional[int] = typer.Option(None, "--confirm-rounds", metavar="N",
                                                     help="Worlds each contender plays in the confirming search "
                                                          "(default: four times the first search's per move, "
                                                          "at least 32, or more where the game asks it)."),
        seed: int = typer.Option(0, "--seed", help="The same seed gives the same puzzles."),
        keep: Optional[Path] = typer.Option(None, "--keep", metavar="DB", help="Keep the puzzles in this archive too "
                                            "(the Puzzles page of grn serve rates them)."),
    ) -> None:
        """Find puzzles in records: turns where one move clearly beats every other, confirmed by a deeper search.

        Example: grn puzzles games.grn --html -o puzzles/
        """
        from grn.analysis.puzzles import Criteria, budget_for, mine_games

        if not files and archive is None:
            raise _usage("give record files or --archive DB")
        if files and archive is not None:
            raise _usage("give record files or --archive DB, not both")
        if sum((as_json, diagram, html)) > 1:
            raise _usage("--json, --diagram and --html write different things: give one")
        if (diagram or html) and output is None:
            raise _usage(f"--{'diagram' if diagram else 'html'} writes a folder: give it with -o DIR")
        if level not in LEVELS:
            raise _usage(f"--level must be one of {', '.join(LEVELS)}, not {level!r}")
        if points is not None and not 0 < points <= 1000:
            raise _usage(f"--points must be more than 0 and at most 1000, not {points:g}")
        if not 0 < win < 1:
            raise _usage(f"--win must be more than 0 and less than 1, not {win:g}")
        if playouts is not None and not 1 <= playouts <= 1_000_000:
            raise _usage(f"--playouts must be from 1 to 1000000, not {playouts}")
        if confirm_rounds is not None and not 2 <= confirm_rounds <= 100_000:
            raise _usage(f"--confirm-rounds must be from 2 to 100000, not {confirm_rounds}")
        if diagram or html:
            assert output is not None
            try:
                folder = output_folder(output)
            except OutputError as exc:
                print(exc.line(), file=sys.stderr)
                raise typer.Exit(exc.exit_code)
        else:
            check_target(output)
        criteria = Criteria(points, win, found=found)
        budget = budget_for(level, playouts=playouts, confirm_rounds=confirm_rounds, seed=seed)
        errors = [0]
        source = archive_records(archive, errors) if archive is not None else file_records(files or [], report, errors)
        kept: list[Any] = []
        outcomes = 0
        bar = Progress("finding puzzles")
        with bar:
            def games() -> Iterator[tuple[str, int, Record]]:
                for name, index, record in source:
                    bar.start(f"{Path(name).name} game {index}", sum(1 for t in record.turns if t.number > 0))
                    yield name, index, record

            for outcome in mine_games(games(), criteria, budget, step=bar.step):
                outcomes += 1
                if outcome.puzzle is not None:
                    kept.append(outcome.puzzle)
        rejected = outcomes - len(kept)
        print(f"grn puzzles: {len(kept)} puzzle{'' if len(kept) == 1 else 's'} kept, {rejected} candidate"
              f"{'' if rejected == 1 else 's'} rejected by the confirming search", file=sys.stderr)
        if keep is not None:
            from grn.archive.db import ArchiveError, connect
            from grn.archive.puzzles import keep as keep_puzzles

            try:
                con = connect(keep, create=True)
                try:
                    new = keep_puzzles(con, kept)
                finally:
                    con.close()
            except (ArchiveError, sqlite3.DatabaseError) as exc:
                print(f"{keep}: error: cannot keep the puzzles ({exc})", file=sys.stderr)
                raise typer.Exit(1)
            print(f"grn puzzles: {new} new puzzle{'' if new == 1 else 's'} kept in {keep}", file=sys.stderr)
        if diagram:
            from grn.notation.writer import write_record

            for p in kept:
                (folder / f"{p.id}.svg").write_text(diagram_svg(p), encoding="utf-8")
                (folder / f"{p.id}.grn").write_text(write_record(p.record), encoding="utf-8")
        elif html:
            from grn.render.trainer import trainer_page

            (folder / "index.html").write_text(trainer_page(kept), encoding="utf-8")
        else:
            with writing(output) as sink:
                if as_json:
                    doc = {"grn_puzzles": FORMAT, "level": level, "seed": seed,
                           "puzzles": [p.to_json() for p in kept]}
                    sink.write(json.dumps(doc, ensure_ascii=False, indent=1) + "\n")
                else:
                    from grn.notation.writer import write_records

                    if kept:
                        sink.write(write_records(p.record for p in kept))
        raise typer.Exit(1 if errors[0] else 0)


__all__ = ["register", "file_records", "archive_records", "diagram_svg", "FORMAT"]
