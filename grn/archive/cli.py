"""The ``grn archive`` commands (a typer sub-app that ``grn.cli.app`` registers).

Exit codes as everywhere in grn: 0 all is well, 1 a file or the archive
cannot be read (``DB: error: ...``), 2 a usage error (a filter that cannot be read).
"""

from __future__ import annotations

import json
import re
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Iterator, List, Optional

import typer

from grn.core.output import check_target, output_folder, writing
from grn.archive.add_cli import register as register_add
from grn.cli.common import jobs_problem, load_tileset_option

if TYPE_CHECKING:  # the commands import the archive's modules (and sqlite3) when they run: grn starts faster
    import sqlite3

    from grn.archive.search import FilterError, Filters

app = typer.Typer(
    no_args_is_help=True,
    help="Keep many games in one SQLite file: add (validated and indexed), search, stats, dedup, export.",
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
)

DbArg = typer.Argument(..., help="The archive: one SQLite file.")
_GAME = typer.Option(None, "--game", help="Only games of this kind (the Game tag).")
_PLAYER = typer.Option(None, "--player", help="A player's name, at any seat (repeat: all of them played).")
_FROM = typer.Option(None, "--from", help="Played on or after this date (2026-11-19, 2026-11, 2026).")
_TO = typer.Option(None, "--to-date", help="Played on or before this date.")
_TAG = typer.Option(None, "--tag", help='A tag: NAME=VALUE (exact, any case) or NAME~TEXT (contains), e.g. "Event~club".')
_RESULT = typer.Option(None, "--result", help="The Result tag contains this text.")
_WINNER = typer.Option(None, "--winner", help="This player (name or colour) won (ties: every tied player).")
_SCORE = typer.Option(None, "--score", help='A final score: ">=60" (any seat), "Ada>=60", "red<40".')
_VALID = typer.Option(None, "--valid/--invalid", help="Only games that follow the rules / that break them.")
_COMPLETE = typer.Option(None, "--complete/--incomplete", help="Only finished / unfinished games.")
_EVENT = typer.Option(None, "--event", help='An engine event of the game: "type=ScoreEvent feature=X points>=10".')
_ACTION = typer.Option(None, "--action", help='A command of the main line: "type=place tile=33 x>=2".')
_BESIDE = typer.Option(None, "--beside", help="Tile A placed orthogonally next to tile B: A,B.")
_DUPS = typer.Option(False, "--duplicates", help="Only games archived more than once (by dedup key).")


def _filters(game: Optional[str], player: Optional[List[str]], date_from: Optional[str], date_to: Optional[str],
             tag: Optional[List[str]], result: Optional[str], winner: Optional[List[str]],
             score: Optional[List[str]], valid: Optional[bool], complete: Optional[bool],
             event: Optional[List[str]], action: Optional[List[str]], beside: Optional[List[str]],
             duplicates: bool) -> Filters:
    from grn.archive.search import Filters

    return Filters(game=game, players=player or [], date_from=date_from, date_to=date_to, tags=tag or [],
                   result=result, winners=winner or [], scores=score or [], valid=valid, complete=complete,
                   events=event or [], actions=action or [], beside=beside or [], duplicates=duplicates)


def _fail(where: object, message: str) -> typer.Exit:
    print(f"{where}: error: {message}", file=sys.stderr)
    return typer.Exit(1)


def _open(db: Path, *, create: bool = False, readonly: bool = False) -> sqlite3.Connection:
    from grn.archive.db import ArchiveError, connect

    try:
        return connect(db, create=create, readonly=readonly)
    except ArchiveError as exc:
        raise _fail(db, str(exc))


def _usage(command: str, exc: FilterError) -> typer.Exit:
    print(f"grn archive {command}: {exc}", file=sys.stderr)
    return typer.Exit(2)


@contextmanager
def _output(path: Optional[Path]) -> Iterator[IO[str]]:
    """A file (written whole, then renamed: grn.core.output), or standard output, streamed."""
    with writing(path, whole=False) as fh:
        yield fh


# ``add`` is defined in grn.archive.add_cli, which the console script runs without typer (R325); registered here,
# first, as the commands are listed in --help
register_add(app)


_JOBS = typer.Option(1, "--jobs", "-j", help="Build missing per-turn rows in N processes (see grn archive index).")
_DASK = typer.Option(None, "--dask-scheduler", metavar="ADDRESS",
                     help="Build missing per-turn rows on a Dask cluster (needs grn's dask extra).")


@app.command()
def index(
    db: Path = DbArg,
    jobs: int = typer.Option(1, "--jobs", "-j", help="Build in N processes."),
    dask_scheduler: Optional[str] = _DASK,
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print nothing but problems."),
) -> None:
    """Build the per-turn rows (commands, events) of every game that lacks them, e.g. after a bulk add.

    Otherwise the first search by --event, --action or --beside (or a Parquet export) builds them.

    Example: grn archive index club.db --jobs 2
    """
    import sqlite3

    from grn.archive.points import expand
    from grn.archive.turns import build, runner_for
    from grn.check.workers import SchedulerError

    if (problem := jobs_problem(jobs)) is not None:
        print(f"grn archive index: {problem}", file=sys.stderr)
        raise typer.Exit(2)
    con = _open(db)
    try:
        run = runner_for(jobs, dask_scheduler)
    except SchedulerError as exc:
        con.close()
        print(f"grn archive index: error: {exc}", file=sys.stderr)
        raise typer.Exit(1)
    try:
        summary = build(con, runner=run, workers=getattr(run, "workers", jobs),
                        progress=None if quiet else lambda m: print(m, file=sys.stderr))
        expanded = expand(con)  # the points rows add kept packed, too (R310)
    except sqlite3.DatabaseError as exc:
        raise _fail(db, f"cannot write the archive ({exc})")
    finally:
        run.close()
        con.close()
    if summary.unreadable:
        print(f"{db}: {summary.unreadable} game{'s' if summary.unreadable != 1 else ''} whose stored text cannot "
              "be read again: no commands or events kept", file=sys.stderr)
    if not quiet:
        print(f"per-turn rows built for {summary.built} game{'s' if summary.built != 1 else ''}")
        if expanded:
            print(f"points rows expanded for {expanded} game{'s' if expanded != 1 else ''}")


def _turns_ready(db: Path, con: sqlite3.Connection, jobs: int, scheduler: Optional[str],
                 f: Optional[Filters] = None) -> None:
    """Build the per-turn rows a search needs that are not built yet (R250); ``con`` is left in a read
    transaction in which every game has them.  The filters ``f`` are read first: a usage error builds nothing."""
    from grn.archive.search import where
    from grn.archive.turns import TurnsUnbuilt, ensure
    from grn.check.workers import SchedulerError

    if f is not None:
        where(f)  # raises FilterError

    if (problem := jobs_problem(jobs)) is not None:
        print(f"grn archive: {problem}", file=sys.stderr)
        raise typer.Exit(2)
    try:
        summary = ensure(con, db, jobs=jobs, scheduler=scheduler,
                         progress=lambda m: print(f"{db}: {m}", file=sys.stderr))
    except (TurnsUnbuilt, SchedulerError) as exc:
        raise _fail(db, str(exc))
    if summary.unreadable:
        print(f"{db}: {summary.unreadable} game{'s' if summary.unreadable != 1 else ''} whose stored text cannot "
              "be read again: no commands or events kept", file=sys.stderr)


def _table(con: sqlite3.Connection, ids: List[int], out: IO[str]) -> None:
    from grn.archive.export import batches
    from grn.archive.review import reviewed

    # the widest game name of the archive: the columns stay in line however long a game's name is (the
    # table streams in batches, so the width is asked of the database once, up front)
    (longest,) = con.execute("SELECT MAX(LENGTH(game)) FROM games").fetchone()
    wide = max(4, longest or 0)
    unfinished = reviews = 0
    out.write(f"{'id':>6}  {'game':<{wide}} {'date':<10}  {'event':<24} {'valid':<8} players (final scores)\n")
    for rows in batches(con, ids, "id, game, date, event, valid, complete"):
        marks = ",".join("?" * len(rows))
        seats: dict[int, list[str]] = {}
        for gid, name, score in con.execute(f"SELECT game_id, name, score FROM seats WHERE game_id IN ({marks}) "
                                            "ORDER BY game_id, seat", [r[0] for r in rows]):
            seats.setdefault(gid, []).append(name if score is None else f"{name} {score}")
        marked = reviewed(con, [r[0] for r in rows])
        for gid, game, date, event, valid, complete in rows:
            state = ("valid" if valid else "INVALID") + ("" if complete else "*")
            unfinished += 0 if complete else 1
            reviews += gid in marked
            out.write(f"{gid:>6}  {game:<{wide}} {(date or '-')[:10]:<10}  {(event or '-')[:24]:<24} {state:<8} "
                      f"{', '.join(seats.get(gid, []))}{'  [reviewed]' if gid in marked else ''}\n")
    notes = ([f"{unfinished} unfinished, marked *"] if unfinished else []) + \
        ([f"{reviews} with a review, marked [reviewed]"] if reviews else [])
    legend = f" ({'; '.join(notes)})" if notes else ""
    out.write(f"{len(ids)} game{'s' if len(ids) != 1 else ''}{legend}\n")


#: A ``--sql`` query that names the per-turn views or their table.
_PER_TURN_SQL = re.compile(r"\b(actions|events|game_turns)\b", re.IGNORECASE)
#: A ``--sql`` query that names the ``points`` table (or a column of that name: expanding is harmless).
_POINTS_SQL = re.compile(r"\bpoints\b", re.IGNORECASE)


def _run_sql(db: Path, sql: str, fmt: str, out: IO[str], timeout: float, jobs: int = 1,
             scheduler: Optional[str] = None) -> None:
    import sqlite3

    from grn.archive.points import any_pending, ensure as expand_points
    from grn.archive.sql import SqlRefused, SqlTimeout, run_query, shown_value

    con = _open(db, readonly=True)
    try:
        if _POINTS_SQL.search(sql):  # the points rows add kept packed, expanded first (R310)
            expand_points(con, db)
            if any_pending(con):
                print(f"{db}: note: some games' points rows are still packed in points_packed (the archive cannot be "
                      "written now to expand them: grn archive index does)", file=sys.stderr)
        if _PER_TURN_SQL.search(sql):  # a query of the per-turn views: every game's rows built first (R250)
            _turns_ready(db, con, jobs, scheduler)
        names, rows = run_query(con, sql, timeout)
        if fmt == "json":
            # one row after another, the layout json.dumps(indent=1) gives a list of objects
            out.write("[")
            n = 0
            for r in rows:
                text = json.dumps(dict(zip(names, map(shown_value, r))), ensure_ascii=False,
                                  indent=1).replace("\n", "\n ")
                out.write(("," if n else "") + "\n " + text)
                n += 1
            out.write(("\n]" if n else "]") + "\n")
        else:
            out.write("\t".join(names) + "\n")
            for r in rows:
                out.write("\t".join("" if v is None else str(shown_value(v)) for v in r) + "\n")
    except (SqlRefused, SqlTimeout) as exc:
        raise _fail(db, str(exc))
    except sqlite3.OperationalError as exc:
        text = str(exc)
        if "readonly" in text or "read-only" in text or "query_only" in text.replace(" ", "_"):
            raise _fail(db, f"--sql is read-only: {text}")
        raise _fail(db, f"SQL: {text}")
    except (sqlite3.DatabaseError, sqlite3.Warning, OverflowError, ValueError) as exc:
        raise _fail(db, f"SQL: {exc}")
    finally:
        con.close()


@app.command("analyse")
def analyse_games(
    ctx: typer.Context,
    db: Path = DbArg,
    level: str = typer.Option("normal", "--level", help="Search budget: quick, normal, deep, max (as grn analyse)."),
    playouts: Optional[int] = typer.Option(None, "--playouts", help="Playouts per move (overrides --level)."),
    seconds: Optional[float] = typer.Option(None, "--seconds", help="Seconds per move (overrides --level)."),
    seed: int = typer.Option(0, "--seed", help="The same seed gives the same analysis."),
    thresholds: Optional[str] = typer.Option(None, "--thresholds", metavar="I,M,B",
                                             help="Points lost for an inaccuracy, a mistake, a blunder."),
    jobs: int = typer.Option(1, "--jobs", "-j", help="Analyse the turns of each game in N processes."),
    dask_scheduler: Optional[str] = typer.Option(None, "--dask-scheduler", metavar="ADDRESS",
                                                 help="Analyse on a Dask cluster (needs grn's dask extra)."),
    limit: Optional[int] = typer.Option(None, "--limit", min=1, help="Analyse at most this many games this run."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print nothing but problems."),
) -> None:
    """Analyse the archived games not analysed yet and keep each move's figures in the archive.

    Each game is kept as soon as it is analysed: a stopped run goes on where it stopped.

    Example: grn archive analyse club.db --level quick --jobs 2
    """
    from grn.cli.analyse import budget
    from grn.archive.review import analyse_archive

    limits, runner, parts = budget(ctx, "grn archive analyse", level, playouts, seconds, thresholds, jobs,
                                   dask_scheduler)
    con = _open(db)
    try:
        summary = analyse_archive(con, level=level, playouts=playouts, seconds=seconds, seed=seed,
                                  thresholds=limits, runner=runner, parts=parts, limit=limit,
                                  progress=None if quiet else lambda m: print(m, file=sys.stderr))
    except sqlite3.DatabaseError as exc:
        raise _fail(db, f"cannot write the archive ({exc})")
    finally:
        con.close()
    for problem in summary.problems:
        print(f"{db}: {problem}", file=sys.stderr)
    if not quiet:
        print(f"{summary.analysed} game{'s' if summary.analysed != 1 else ''} analysed, {summary.skipped} "
              f"that cannot be; {summary.left} left to analyse")


@app.command()
def search(
    db: Path = DbArg,
    game: Optional[str] = _GAME, player: Optional[List[str]] = _PLAYER, date_from: Optional[str] = _FROM,
    date_to: Optional[str] = _TO, tag: Optional[List[str]] = _TAG, result: Optional[str] = _RESULT,
    winner: Optional[List[str]] = _WINNER, score: Optional[List[str]] = _SCORE, valid: Optional[bool] = _VALID,
    complete: Optional[bool] = _COMPLETE, event: Optional[List[str]] = _EVENT,
    action: Optional[List[str]] = _ACTION, beside: Optional[List[str]] = _BESIDE, duplicates: bool = _DUPS,
    blunders: bool = typer.Option(False, "--blunders", help="Only analysed games with a blunder (grn archive analyse)."),
    judgement: Optional[List[str]] = typer.Option(None, "--judgement", help='Judgement counts of a seat: '
                                                  '"mistakes>=2", "Ada:blunders>=1", "inaccuracies=0".'),
    analysed: Optional[bool] = typer.Option(None, "--analysed/--not-analysed", help="Only games analysed / not yet."),
    format: str = typer.Option("table", "--format", help="table, grn or json."),
    limit: Optional[int] = typer.Option(None, "--limit", help="At most this many games."),
    count: bool = typer.Option(False, "--count", help="Print only how many games match."),
    sql: Optional[str] = typer.Option(None, "--sql", help="Run this SQL on the archive, read-only, and print the rows."),
    sql_timeout: float = typer.Option(30.0, "--sql-timeout", metavar="SECONDS",
                                      help="Stop a --sql query that runs longer than this."),
    output: Optional[Path] = typer.Option(None, "-o", "--output", help="Write here instead of standard output."),
    jobs: int = _JOBS, dask_scheduler: Optional[str] = _DASK,
) -> None:
    """Find games: by kind, player, date, tags, result, winner, scores, validity, events and commands.

    Example: grn archive search club.db --player Ada --event "type=ScoreEvent points>=8" --format grn
    """
    from grn.archive import search as s
    from grn.archive.export import write_grn, write_json
    from grn.archive.review import has_analysis
    from grn.archive.search import FilterError
    from grn.archive.turns import needs_turns

    if format not in ("table", "grn", "json"):
        print(f"grn archive search: --format must be table, grn or json, not {format!r}", file=sys.stderr)
        raise typer.Exit(2)
    check_target(output)
    if not 0 < sql_timeout <= 86400:
        print(f"grn archive search: --sql-timeout must be more than 0 and at most 86400 seconds, not {sql_timeout}",
              file=sys.stderr)
        raise typer.Exit(2)
    if limit is not None and not 0 <= limit <= s.MAX_NUMBER:
        print(f"grn archive search: --limit must be 0 to {s.MAX_NUMBER}, not {limit}", file=sys.stderr)
        raise typer.Exit(2)
    if sql is not None:
        with _output(output) as out:
            _run_sql(db, sql, format, out, sql_timeout, jobs, dask_scheduler)
        return
    f = _filters(game, player, date_from, date_to, tag, result, winner, score, valid, complete, event, action,
                 beside, duplicates)
    f.judgements = (["blunders>=1"] if blunders else []) + list(judgement or [])
    f.analysed = analysed
    con = _open(db, readonly=True)
    f.analysis_tables = has_analysis(con)
    try:
        if needs_turns(f):
            _turns_ready(db, con, jobs, dask_scheduler, f)
        if count:
            print(s.count(con, f))
            return
        ids = s.game_ids(con, f, limit)
        with _output(output) as out:
            if format == "table":
                _table(con, ids, out)
            elif format == "grn":
                write_grn(con, ids, out)
            else:
                write_json(con, ids, out)
    except FilterError as exc:
        raise _usage("search", exc)
    finally:
        con.close()


@app.command()
def stats(
    db: Path = DbArg,
    game: Optional[str] = _GAME, player: Optional[List[str]] = _PLAYER, date_from: Optional[str] = _FROM,
    date_to: Optional[str] = _TO, tag: Optional[List[str]] = _TAG, result: Optional[str] = _RESULT,
    winner: Optional[List[str]] = _WINNER, score: Optional[List[str]] = _SCORE, valid: Optional[bool] = _VALID,
    complete: Optional[bool] = _COMPLETE, event: Optional[List[str]] = _EVENT,
    action: Optional[List[str]] = _ACTION, beside: Optional[List[str]] = _BESIDE, duplicates: bool = _DUPS,
    format: str = typer.Option("table", "--format", help="table or json."),
    svg: Optional[Path] = typer.Option(None, "--svg", help="Also write SVG charts into this directory."),
    jobs: int = _JOBS, dask_scheduler: Optional[str] = _DASK,
) -> None:
    """Statistics: per player (games, wins, scores, points by feature kind) and per game (first player, scores).

    Per player: games, wins, average and best score, share of points by feature
    kind; per game kind and table size: the first player's win rate and the
    distribution of final scores.

    Example: grn archive stats club.db --svg charts/
    """
    from grn.archive.points import ensure as expand_points
    from grn.archive.review import accuracy_stats, accuracy_table, luck_stats, luck_table
    from grn.archive.search import where
    from grn.archive.stats import compute, table, write_charts
    from grn.archive.search import FilterError
    from grn.archive.turns import needs_turns

    if format not in ("table", "json"):
        print(f"grn archive stats: --format must be table or json, not {format!r}", file=sys.stderr)
        raise typer.Exit(2)
    if svg is not None:
        output_folder(svg)  # before any work (R80)
    f = _filters(game, player, date_from, date_to, tag, result, winner, score, valid, complete, event, action,
                 beside, duplicates)
    con = _open(db, readonly=True)
    try:
        where(f)  # a usage error expands nothing
        # the points rows add kept packed, expanded once through a writer of its own; an archive that cannot be
        # written now has them read as they are (R310, R312)
        expand_points(con, db, progress=lambda message: print(f"{db}: {message}", file=sys.stderr))
        if needs_turns(f):
            _turns_ready(db, con, jobs, dask_scheduler, f)
        st = compute(con, f)
        # the analysed moves (grn archive analyse): accuracy and points lost per player and per game kind
        played, kinds = accuracy_stats(con, *where(f))
        lucky = luck_stats(con, *where(f))  # R336
    except FilterError as exc:
        raise _usage("stats", exc)
    finally:
        con.close()
    if format == "json":
        data = st.to_json()
        data["analysis"] = {"players": [a.to_json() for a in played], "games": [a.to_json() for a in kinds],
                            "luck": [r.to_json() for r in lucky]}
        sys.stdout.write(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(table(st) + accuracy_table(played, kinds) + luck_table(lucky))
    if svg is not None:
        for path in write_charts(st, svg):
            print(f"wrote {path}", file=sys.stderr)


@app.command()
def dedup(
    db: Path = DbArg,
    merge: bool = typer.Option(False, "--merge", help="Merge each group into its first-archived game."),
    format: str = typer.Option("table", "--format", help="table or json."),
) -> None:
    """Find games archived more than once: the same game, whatever its text.

    --merge keeps the first-archived copy with the union of the copies' tags,
    comments and variations.

    Example: grn archive dedup club.db --merge
    """
    from grn.archive import dedup as d
    import sqlite3

    if format not in ("table", "json"):
        print(f"grn archive dedup: --format must be table or json, not {format!r}", file=sys.stderr)
        raise typer.Exit(2)
    con = _open(db, readonly=not merge)
    try:
        groups = d.groups(con)
        kept = []
        if merge:
            for g in groups:
                try:
                    kept.append(d.merge_group(con, g))
                except ValueError as exc:
                    print(f"{db}: games {', '.join(map(str, g))}: not merged: {exc}", file=sys.stderr)
    except sqlite3.DatabaseError as exc:
        raise _fail(db, str(exc))
    finally:
        con.close()
    if format == "json":
        sys.stdout.write(json.dumps({"groups": groups, "merged": merge}, indent=1) + "\n")
        return
    for g in groups:
        print(f"same game: {', '.join(map(str, g))}" + (f" (merged into {g[0]})" if merge else ""))
    n = sum(len(g) - 1 for g in groups)
    print(f"{len(groups)} game{'s' if len(groups) != 1 else ''} archived more than once, "
          f"{n} extra cop{'ies' if n != 1 else 'y'}" + (": merged" if merge and groups else ""))


@app.command()
def export(
    db: Path = DbArg,
    to: str = typer.Option(..., "--to", help="grn, json or parquet."),
    output: Optional[Path] = typer.Option(None, "-o", "--output",
                                          help="Output file (grn, json; default standard output) or directory "
                                               "(parquet: games.parquet and score_events.parquet)."),
    game: Optional[str] = _GAME, player: Optional[List[str]] = _PLAYER, date_from: Optional[str] = _FROM,
    date_to: Optional[str] = _TO, tag: Optional[List[str]] = _TAG, result: Optional[str] = _RESULT,
    winner: Optional[List[str]] = _WINNER, score: Optional[List[str]] = _SCORE, valid: Optional[bool] = _VALID,
    complete: Optional[bool] = _COMPLETE, event: Optional[List[str]] = _EVENT,
    action: Optional[List[str]] = _ACTION, beside: Optional[List[str]] = _BESIDE, duplicates: bool = _DUPS,
    jobs: int = _JOBS, dask_scheduler: Optional[str] = _DASK,
) -> None:
    """Write the games (all, or those the filters select) as GRN, the JSON form, or Parquet tables.

    Example: grn archive export club.db --to parquet -o club-parquet/
    """
    from grn.archive import export as e
    from grn.archive.search import FilterError, game_ids
    from grn.archive.turns import needs_turns

    if to not in ("grn", "json", "parquet"):
        print(f"grn archive export: --to must be grn, json or parquet, not {to!r}", file=sys.stderr)
        raise typer.Exit(2)
    if to == "parquet" and output is None:
        print("grn archive export: --to parquet needs -o DIRECTORY", file=sys.stderr)
        raise typer.Exit(2)
    if to != "parquet":
        check_target(output)
    f = _filters(game, player, date_from, date_to, tag, result, winner, score, valid, complete, event, action,
                 beside, duplicates)
    con = _open(db, readonly=True)
    try:
        if to == "parquet" or needs_turns(f):  # the Parquet export's score events are per-turn rows
            _turns_ready(db, con, jobs, dask_scheduler, f)
        ids = game_ids(con, f)
        if to == "parquet":
            assert output is not None
            try:
                import pyarrow  # noqa: F401
            except ImportError:
                raise _fail("grn archive export", "--to parquet needs pyarrow: pip install pyarrow")
            n = e.write_parquet(con, ids, output)
        else:
            with _output(output) as out:
                n = (e.write_grn if to == "grn" else e.write_json)(con, ids, out)
    except FilterError as exc:
        raise _usage("export", exc)
    except OSError as exc:
        raise _fail(output, exc.strerror or str(exc))
    finally:
        con.close()
    if output is not None:
        print(f"{n} game{'s' if n != 1 else ''} written to {output}", file=sys.stderr)
