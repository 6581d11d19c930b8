"""The ``grn`` command line (typer).  The only module that prints or exits.

Exit codes: 0 all is well, 1 the input is invalid (a syntax error, an illegal
move, a score that does not add up, a file that cannot be read), 2 a usage
error (typer's own, for unknown options and missing arguments).
"""

from __future__ import annotations

import json
import linecache
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, List, Optional

import typer

from grn.errors import Diagnostic

if TYPE_CHECKING:
    from grn.position import Position

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Record, check and draw games of the Gold Rush family (GRN notation).",
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
)

FilesArg = typer.Argument(..., help="Record files (.grn, or .json for the JSON form); - reads standard input.")


def _print_diagnostic(d: Diagnostic) -> None:
    print(d.one_line(), file=sys.stderr)
    if d.span is None:
        return
    source = d.source_line
    if source is None and d.file and not d.file.startswith("<"):
        # rule errors are found on commands, far from the text: fetch the line back
        linecache.checkcache(d.file)
        source = linecache.getline(d.file, d.span.line) or None
    if source is not None:
        source = source.rstrip("\r\n").lstrip("\ufeff")
        print("    " + source, file=sys.stderr)
        print("    " + " " * (d.span.column - 1) + "^", file=sys.stderr)


TilesetOpt = typer.Option(None, "--tileset", help="Use this tile set JSON instead of the shipped one.")


def _tileset(path: Optional[Path]) -> object:
    """The tile set of ``--tileset`` (None: the shipped one), or exit 1 with a one-line message."""
    if path is None:
        return None
    from grn.errors import GrnError
    from grn.tiles import load_tileset

    try:
        return load_tileset(path)
    except GrnError as exc:
        # the loader's messages start with "FILE:" or "FILE:LINE:COL:"
        where, _, what = str(exc).partition(": ")
        print(f"{where}: error: {what}", file=sys.stderr)
        raise typer.Exit(1)
    except OSError as exc:
        print(f"{path}: error: {exc.strerror or exc}", file=sys.stderr)
        raise typer.Exit(1)


def _version(value: bool) -> None:
    if value:
        from grn import __version__, _compiled

        # "compiled" or "pure Python": the first thing to know about a speed report
        print(f"grn {__version__} ({_compiled.status()}, Python {sys.version.split()[0]})")
        raise typer.Exit()


@app.callback()
def _options(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                          help="Print the version and whether grn runs compiled, then exit.")) -> None:
    """Record, check and draw games of the Gold Rush family (GRN notation)."""


def _emit(text: str, output: Optional[Path]) -> None:
    """Write ``text`` to ``output``, or to standard output when there is none."""
    if output is None:
        sys.stdout.write(text)
    else:
        output.write_text(text, encoding="utf-8")


def _report(diags: Iterable[Diagnostic]) -> int:
    count = 0
    for d in diags:
        _print_diagnostic(d)
        count += d.severity == "error"
    return count


@app.command()
def fmt(
    files: List[str] = FilesArg,
    check: bool = typer.Option(False, "--check", help="Print nothing; exit 1 when a file is not canonical."),
    write: bool = typer.Option(False, "--write", "-w", help="Rewrite each file in canonical form."),
) -> None:
    """Print records in canonical GRN form.

    Example: grn fmt game.grn --check
    """
    from grn.sources import load, raw_bytes
    from grn.writer import write_record

    bad = 0
    for path in files:
        texts: list[str] = []
        errors = 0
        for item in load(path):
            if item.problem is not None:
                errors += _report([item.problem])
                continue
            assert item.record is not None
            errors += _report(item.record.diagnostics)
            texts.append(write_record(item.record))
        if errors:
            bad += 1
            continue
        canonical = "\n".join(texts)
        if check:
            if raw_bytes(path) != canonical.encode("utf-8"):
                print(f"{path}: not in canonical form (run grn fmt --write)", file=sys.stderr)
                bad += 1
        elif write and path != "-":
            if not path.lower().endswith(".json"):
                Path(path).write_text(canonical, encoding="utf-8")
        else:
            sys.stdout.write(canonical)
    raise typer.Exit(1 if bad else 0)


@app.command()
def convert(
    file: str = typer.Argument(..., help="A record file (.grn or .json); - reads standard input."),
    to: str = typer.Option(..., "--to", help="Target form: json or grn."),
    from_: Optional[str] = typer.Option(None, "--from", help="Source form when reading - (default grn)."),
    output: Optional[Path] = typer.Option(None, "-o", "--output", help="Write here instead of standard output."),
) -> None:
    """Convert between GRN text and its JSON form, losslessly.

    Example: grn convert game.grn --to json -o game.json
    """
    from grn.jsonform import records_to_json
    from grn.sources import load
    from grn.writer import write_records

    if to not in ("json", "grn"):
        print(f"grn convert: --to must be json or grn, not {to!r}", file=sys.stderr)
        raise typer.Exit(2)
    as_json = None if from_ is None else (from_ == "json")
    records = []
    errors = 0
    for item in load(file, as_json=as_json):
        if item.problem is not None:
            errors += _report([item.problem])
        elif item.record is not None:
            errors += _report(item.record.diagnostics)
            records.append(item.record)
    if errors:
        raise typer.Exit(1)
    text = (json.dumps(records_to_json(records), indent=1, ensure_ascii=False) + "\n"
            if to == "json" else write_records(records))
    _emit(text, output)


@app.command()
def validate(
    ctx: typer.Context,
    files: List[str] = FilesArg,
    format: str = typer.Option("text", "--format", help="Report format: text or json."),
    explain: bool = typer.Option(False, "--explain", help="Also print every turn's score events."),
    tileset: Optional[Path] = TilesetOpt,
    jobs: int = typer.Option(1, "--jobs", "-j", help="Validate in N processes (the same reports, in order)."),
    dask_scheduler: Optional[str] = typer.Option(None, "--dask-scheduler", metavar="ADDRESS",
                                                 help="Validate on a Dask cluster (needs grn's dask extra)."),
) -> None:
    """Replay records against the rules: illegal moves, scores, checkpoints, Result.

    Example: grn validate examples/*.grn
    """
    from grn.archive.parallel import Problem, start_validator
    from grn.validate import MatchChecker

    if format not in ("text", "json"):
        print(f"grn validate: --format must be text or json, not {format!r}", file=sys.stderr)
        raise typer.Exit(2)
    ts = _tileset(tileset)
    validator = start_validator(ctx, jobs, dask_scheduler, ts, tileset, keep_turns=explain or format == "json")
    out_files = []
    games = valid = 0
    errors = 0
    for path in files:
        file_reports = []
        problems = []
        matches = MatchChecker()
        for item in validator.run(path):  # serially, or in processes / on Dask, always in file order
            if isinstance(item, Problem):
                problems.append(item.problem)
                errors += 1
                continue
            report = item.report
            games += 1
            valid += report.valid
            errors += sum(d.severity == "error" for d in report.diagnostics)
            file_reports.append(report)
            if item.record is not None:  # kept when the match checker needs it (a Match tag)
                matches.add(item.record, report)
            if format == "text":
                _report(report.diagnostics)
                if explain:
                    _explain(report)
        match_problems, match_lines = matches.check(path)
        problems += match_problems
        errors += sum(d.severity == "error" for d in match_problems)
        if format == "text":
            _report(problems)
            for line in match_lines:
                print(f"{path}: {line}")
        out_files.append({"file": path, "problems": [p.to_json() for p in problems],
                          "matches": match_lines,
                          "games": [r.to_json() for r in file_reports]})
    if format == "json":
        doc = {"grn_report": 1, "files": out_files,
               "summary": {"games": games, "valid": valid, "invalid": games - valid, "errors": errors}}
        sys.stdout.write(json.dumps(doc, indent=1) + "\n")
    else:
        status = "ok" if errors == 0 else f"{errors} error{'s' if errors != 1 else ''}"
        print(f"{games} game{'s' if games != 1 else ''} checked, {valid} valid: {status}")
    raise typer.Exit(1 if errors else 0)


def _explain(report: object) -> None:
    from grn.validate import GameReport

    assert isinstance(report, GameReport)
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


@app.command()
def selfplay(
    game: str = typer.Option("goldrush", "--game", help="goldrush or gold."),
    players: int = typer.Option(2, "--players", "-n", help="Number of players (2 to 5)."),
    seed: int = typer.Option(1, "--seed", help="Random seed: the same seed gives the same game."),
    games: int = typer.Option(1, "--games", help="How many games (seeds seed, seed+1, ...)."),
    options: Optional[str] = typer.Option(None, "--options", help='Gold Rush options, e.g. "farmers=off".'),
    output: Optional[Path] = typer.Option(None, "-o", "--output", help="Write here instead of standard output."),
) -> None:
    """Write complete, legal, random game records, reproducible from the seed.

    Example: grn selfplay --players 4 --seed 7 -o game.grn
    """
    from grn.games import SetupProblem, goldrush_options
    from grn.record import parse_options
    from grn.selfplay import to_record
    from grn.writer import write_record

    if not 2 <= players <= 5:
        print(f"grn selfplay: --players must be 2 to 5, not {players}", file=sys.stderr)
        raise typer.Exit(2)
    if game not in ("goldrush", "gold"):
        print(f"grn selfplay: --game must be goldrush or gold, not {game!r}", file=sys.stderr)
        raise typer.Exit(2)
    texts = []
    for i in range(games):
        if game == "goldrush":
            from grn.selfplay import goldrush as sp

            try:
                opts = goldrush_options(parse_options(options or ""))
            except SetupProblem as exc:
                print(f"grn selfplay: {exc.message}", file=sys.stderr)
                raise typer.Exit(2)
            played = sp.play(players, seed=seed + i, options=opts)
        else:
            from grn.selfplay import gold as gp

            played = gp.play(players, seed=seed + i)
        texts.append(write_record(to_record(played, seed=seed + i)))
    _emit("\n".join(texts), output)


def _one_record(file: str, game: int) -> object:
    """The ``game``-th record (1-based) of ``file``, or exit 1 with a one-line message."""
    from grn.sources import load

    for i, item in enumerate(load(file), start=1):
        if item.problem is not None:
            _report([item.problem])
            raise typer.Exit(1)
        if i == game:
            assert item.record is not None
            if not item.record.ok:
                _report(item.record.diagnostics)
                raise typer.Exit(1)
            return item.record
    print(f"{file}: error: there is no game {game} in this file", file=sys.stderr)
    raise typer.Exit(2)


def _position(file: str, game: int, turn: Optional[str], tileset: Optional[Path] = None) -> "Position":
    """The position ``turn`` of game ``game`` of ``file``, or exit 1 with a one-line message."""
    from grn.position import PositionError, position_at
    from grn.record import Record

    record = _one_record(file, game)
    assert isinstance(record, Record)
    try:
        return position_at(record, turn, tileset=_tileset(tileset))
    except PositionError as exc:
        print(f"{file}: error: game {game}: {exc}", file=sys.stderr)
        raise typer.Exit(2 if exc.usage else 1)


@app.command()
def render(
    file: str = typer.Argument(..., help="A record file; - reads standard input."),
    game: int = typer.Option(1, "--game", "-g", help="Which game of the file (1-based)."),
    turn: Optional[str] = typer.Option(None, "--turn", "-t",
                                       help="Position: N (after turn N, 0 = start), N(k)M in a variation; "
                                            "default the end."),
    output: Optional[Path] = typer.Option(None, "-o", "--output", help="Output file (default standard output)."),
    format: str = typer.Option("svg", "--format", help="svg or png (png needs cairosvg)."),
    legal: bool = typer.Option(False, "--legal", help="Overlay every legal placement of the next tile."),
    reveal: bool = typer.Option(False, "--reveal", help="Gold: show the faces known so far on face-down cards."),
    width: Optional[int] = typer.Option(None, "--width", help="Width in pixels (default: natural size)."),
    tileset: Optional[Path] = TilesetOpt,
) -> None:
    """Draw a position of a game as SVG (or PNG), with the record's diagram markup.

    Example: grn render game.grn --turn 12 -o turn12.svg
    """
    from grn.render import render_svg

    if format not in ("svg", "png"):
        print(f"grn render: --format must be svg or png, not {format!r}", file=sys.stderr)
        raise typer.Exit(2)
    svg = render_svg(_position(file, game, turn, tileset), legal=legal, reveal=reveal, width=width)
    if format == "png":
        try:
            import cairosvg  # type: ignore[import-not-found]
        except ImportError:
            print("grn render: --format png needs cairosvg: pip install 'grn[png]' (or use the SVG)",
                  file=sys.stderr)
            raise typer.Exit(1)
        data = cairosvg.svg2png(bytestring=svg.encode("utf-8"), output_width=width)
        if output is None:
            sys.stdout.buffer.write(data)
        else:
            output.write_bytes(data)
        return
    _emit(svg, output)


@app.command()
def show(
    file: str = typer.Argument(..., help="A record file; - reads standard input."),
    game: int = typer.Option(1, "--game", "-g", help="Which game of the file (1-based)."),
    turn: Optional[str] = typer.Option(None, "--turn", "-t", help="Position: N, N(k)M in a variation; default the end."),
    tileset: Optional[Path] = TilesetOpt,
) -> None:
    """Print a position as text: scores, supplies, what is left in the bag.

    Example: grn show game.grn --turn 30
    """
    for line in describe_position(_position(file, game, turn, tileset)):
        print(line)


def describe_position(pos: object) -> list[str]:
    """The lines ``grn show`` prints for a position."""
    from grn.position import Position

    assert isinstance(pos, Position)
    state = pos.state
    where = f"after turn {pos.last.number}" if pos.last is not None and pos.last.number else "at the start"
    lines = [f"{pos.record.tag('Event') or 'game'} ({pos.game}), {where}"]
    names = {s.key: s.name for s in pos.seats}
    scores = state.scores
    if pos.game == "goldrush":
        cowboys, tents, gold = state.cowboys, state.tents, state.gold()
        for key, name in names.items():
            tent = "in supply" if tents[key] is None else "at {},{}".format(*tents[key])
            g = gold[key]
            tokens = f"{g.count} token{'s' if g.count != 1 else ''}"
            if g.count:
                tokens += f" (known {g.known}" + (f", {g.unknown} unknown)" if g.unknown else ")")
            lines.append(f"  {name} ({key}): {scores[key]} points, {cowboys[key]} cowboys in supply, "
                         f"tent {tent}, {tokens}")
        bag = {t: n for t, n in state.bag().items() if n}
        lines.append(f"  bag: {sum(bag.values())} tiles: " + " ".join(f"{t}x{n}" for t, n in sorted(bag.items())))
        info = state.token_info()
        known = ", ".join(f"{n}x{v}" for v, n in info["known"].items()) or "none"
        lines.append(f"  mining tokens: {info['supply']} in the supply, {info['on_mountains']} on mountains; "
                     f"faces known so far: {known}")
    else:
        for key, name in names.items():
            lines.append(f"  {name} ({key}): {scores[key]} points in {state.gold_cards[key]} gold cards")
        lines.append(f"  {len(state.face_down())} cards face down, {len(state.removed())} gone; "
                     f"phase: {state.phase}")
    if not state.is_over:
        lines.append(f"  next: {names.get(state.current_player, state.current_player)} "
                     f"({state.current_player})")
    return lines


@app.command()
def html(
    file: str = typer.Argument(..., help="A record file; - reads standard input."),
    output: Optional[Path] = typer.Option(None, "-o", "--output", help="Output file (default standard output)."),
    tileset: Optional[Path] = TilesetOpt,
) -> None:
    """Write one self-contained HTML page to step through the games of a file.

    Example: grn html game.grn -o game.html
    """
    from grn.render import render_html
    from grn.sources import load

    records = []
    for item in load(file):
        if item.problem is not None:
            _report([item.problem])
            raise typer.Exit(1)
        assert item.record is not None
        if not item.record.ok:
            _report(item.record.diagnostics)
            raise typer.Exit(1)
        records.append(item.record)
    ts = _tileset(tileset)
    # Validate once: the page shows each game's events and problems, and an illegal
    # game (shown up to its first illegal turn) is reported here too.
    from grn.validate import validate_record

    name = "<stdin>" if file == "-" else file
    reports = [validate_record(r, file=name, index=i, tileset=ts) for i, r in enumerate(records)]
    page = render_html(records, file_name=Path(file).name if file != "-" else "stdin", tileset=ts, reports=reports)
    _emit(page, output)
    errors = sum(_report(d for d in rep.diagnostics if d.severity == "error") for rep in reports)
    if errors:
        raise typer.Exit(1)


@app.command()
def schema(
    name: str = typer.Argument("record", help="Which schema: record, report, tileset or cards."),
) -> None:
    """Print a JSON Schema shipped with grn (default: the record collection).

    Example: grn schema > record.schema.json
    """
    from importlib import resources

    target = resources.files("grn.schemas").joinpath(f"{name}.schema.json")
    if not target.is_file():
        print(f"grn schema: no schema named {name!r}", file=sys.stderr)
        raise typer.Exit(2)
    sys.stdout.write(target.read_text(encoding="utf-8"))


from grn.archive.cli import app as _archive_app  # noqa: E402

app.add_typer(_archive_app, name="archive")


def main() -> None:
    """Entry point of the ``grn`` console script."""
    try:
        app()
    except KeyboardInterrupt:  # pragma: no cover - interactive
        raise SystemExit(130)
    except BrokenPipeError:  # pragma: no cover - e.g. grn fmt big.grn | head
        raise SystemExit(0)


if __name__ == "__main__":  # pragma: no cover
    main()
