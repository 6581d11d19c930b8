"""``grn validate``: replay records against the rules and report, file by file, game by game.

The command is defined once, here: :func:`validate` with its options in its annotations, which
typer reads when :mod:`grn.cli.app` registers it (:func:`register`).  The console script
(:mod:`grn.cli.launch`) calls :func:`validate` directly for the commonest use, ``grn validate FILE ...``
with no option, so that checking a small file loads neither typer nor grn's other commands (R190):
every option then has the default written below, the one typer shows in ``--help``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Callable, Iterable, List, Optional

from grn.rules import registry
from grn.check.files import Item, Problem, validate_file
from grn.cli.common import jobs_problem, load_tileset_option, no_game as _no_game, report as _report
from grn.rules.ruleset import SeriesChecker
from grn.check.validate import GameReport

if TYPE_CHECKING:
    import typer


def validate(
    files: Annotated[List[str], typer.Argument(
        help="Record files (.grn, or .json for the JSON form); - reads standard input.")],
    format: Annotated[str, typer.Option("--format", help="Report format: text or json.")] = "text",
    explain: Annotated[bool, typer.Option("--explain", help="Also print every turn's score events.")] = False,
    tileset: Annotated[Optional[Path], typer.Option(
        "--tileset", help="Use this tile set JSON instead of the shipped one.")] = None,
    jobs: Annotated[int, typer.Option(
        "--jobs", "-j", help="Validate in N processes (the same reports, in order).")] = 1,
    dask_scheduler: Annotated[Optional[str], typer.Option(
        "--dask-scheduler", metavar="ADDRESS", help="Validate on a Dask cluster (needs grn's dask extra).")] = None,
) -> None:
    """Replay records against the rules: illegal moves, scores, checkpoints, Result.

    Example: grn validate examples/*.grn
    """
    if format not in ("text", "json"):
        print(f"grn validate: --format must be text or json, not {format!r}", file=sys.stderr)
        raise SystemExit(2)
    if (problem := jobs_problem(jobs)) is not None:
        print(f"grn validate: {problem}", file=sys.stderr)
        raise SystemExit(2)
    ts = load_tileset_option(tileset)
    keep_turns = explain or format == "json"
    if jobs == 1 and dask_scheduler is None:
        # one process: each game straight through the reader and the validator, no chunks, no runner (R462)
        raise SystemExit(_check(lambda path: validate_file(path, tileset=ts, keep_turns=keep_turns), files,
                                format, explain))
    # other processes or a Dask cluster: the parallel machinery, loaded only for them
    from grn.check.batch import Validator
    from grn.check.workers import SchedulerError

    try:
        validator = Validator(jobs=jobs, scheduler=dask_scheduler, tileset=ts,
                              tileset_path=None if tileset is None else str(tileset),
                              keep_turns=keep_turns, texts=False,
                              slim=format == "text" and not explain,
                              # the first file's first games may be validated here while the Dask client starts (R241, off: R298)
                              head_start=files[0] if dask_scheduler is not None else None)
    except SchedulerError as exc:
        print(f"grn validate: error: {exc}", file=sys.stderr)
        raise SystemExit(1)
    with validator:  # the worker processes (or the Dask client) end with the command
        code = _check(validator.run, files, format, explain)
    raise SystemExit(code)


def _check(run: Callable[[str], Iterable[Item]], files: List[str], format: str, explain: bool) -> int:
    """Validate ``files`` with ``run`` (a file's results in file order), print the report, and return the exit
    code."""
    games = valid = unfinished = 0
    errors = 0
    # The report streams: each game is written (or printed) as it is checked and then forgotten,
    # so memory stays flat however many games a file holds.
    out = _JsonReport(sys.stdout) if format == "json" else None
    for path in files:
        problems = []
        series: dict[str, SeriesChecker] = {}  # per game: checks across the games of the file
        index = 0
        if out is not None:
            out.start_file(path)
        for item in run(path):  # in this process, or in processes / on Dask, always in file order
            if isinstance(item, Problem):
                problems.append(item.problem)
                errors += 1
                continue
            report = item.report
            games += 1
            valid += report.valid
            unfinished += report.valid and not report.complete  # valid so far, and stops before the end
            errors += sum(d.severity == "error" for d in report.diagnostics)
            index += 1
            if item.record is not None and registry.known(item.record.game):  # kept when a series check needs it
                name = registry.find_ruleset(item.record.game).name
                if name not in series:
                    series[name] = registry.find_ruleset(name).series_checker()
                series[name].add(item.record, report)
            if out is not None:
                out.game(report.to_json())
            else:
                _report(report.diagnostics)
                if explain:
                    _explain(report)
        if index == 0 and not problems:
            problems.append(_no_game(path))
            errors += 1
        match_problems, match_lines = [], []
        for checker in series.values():
            found, lines = checker.check(path)
            match_problems += found
            match_lines += lines
        problems += match_problems
        errors += sum(d.severity == "error" for d in match_problems)
        if out is not None:
            out.end_file([p.to_json() for p in problems], match_lines)
        else:
            _report(problems)
            for line in match_lines:
                print(f"{path}: {line}")
    if out is not None:
        out.end({"games": games, "valid": valid, "invalid": games - valid, "errors": errors})
    else:
        status = "ok" if errors == 0 else f"{errors} error{'s' if errors != 1 else ''}"
        # an unfinished game is valid as far as it goes, and said to be unfinished (docs/notation.md, End)
        print(f"{games} game{'s' if games != 1 else ''} checked, {valid} valid"
              + (f", {unfinished} unfinished" if unfinished else "") + f": {status}")
    return 1 if errors else 0


def _indented(value: object, depth: int) -> str:
    """``value`` as ``json.dumps(..., indent=1)`` writes it ``depth`` levels deep in a document."""
    return json.dumps(value, indent=1).replace("\n", "\n" + " " * depth)


class _JsonReport:
    """Writes the JSON report of ``grn validate`` game by game (the layout ``json.dumps(indent=1)`` gives).

    Per file the games come first, then the file's problems and match lines,
    which are known only once every game of the file was read.
    """

    def __init__(self, stream: object) -> None:
        self.write = stream.write  # type: ignore[attr-defined]
        self.files = 0
        self.games = 0
        self.write('{\n "grn_report": 1,\n "files": [')

    def start_file(self, path: str) -> None:
        self.write(("," if self.files else "") + f'\n  {{\n   "file": {json.dumps(path)},\n   "games": [')
        self.files += 1
        self.games = 0

    def game(self, report: object) -> None:
        self.write(("," if self.games else "") + "\n    " + _indented(report, 4))
        self.games += 1

    def end_file(self, problems: list[object], matches: list[str]) -> None:
        self.write(("\n   ]" if self.games else "]") + f',\n   "problems": {_indented(problems, 3)},'
                   f'\n   "matches": {_indented(matches, 3)}\n  }}')

    def end(self, summary: dict[str, int]) -> None:
        self.write(("\n ]" if self.files else "]") + f',\n "summary": {_indented(summary, 1)}\n}}\n')


def _explain(report: GameReport) -> None:
    name = dict(report.tags).get("Event") or f"game {report.index + 1}"
    print(f"== {report.file}: {name} ({report.game})")
    for t in report.turns:
        line = f"{t.number:>3}. {t.player}"
        if t.events:
            line += ": " + "; ".join(t.events)
        print(line)
    if report.final_events:
        print("final scoring: " + "; ".join(report.final_events))
    if report.final_scores is not None:
        print("scores: " + ", ".join(f"{p} {s}" for p, s in report.final_scores.items()))


def fast_path(args: List[str]) -> bool:
    """Whether ``grn validate ARGS`` can run without typer: one file or more, and no option (R190).

    Anything else (an option, ``--help``, ``--``, no file) goes to typer, which parses it and reports a
    usage error as it does for every command.
    """
    return bool(args) and all(a == "-" or not a.startswith("-") for a in args)


def register(app: typer.Typer) -> None:
    """Add ``validate`` to grn's typer app.

    Typer reads the options from :func:`validate`'s annotations, which name ``typer``: it is bound
    here, when the whole command line loads, and never on the fast path.
    """
    globals()["typer"] = sys.modules["typer"]
    app.command()(validate)


__all__ = ["validate", "fast_path", "register"]
