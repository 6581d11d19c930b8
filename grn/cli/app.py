"""The ``grn`` command line (typer).  With the command modules it registers (:mod:`grn.cli.validate`,
:mod:`grn.cli.analyse`, :mod:`grn.cli.arena`, :mod:`grn.archive.cli`, :mod:`grn.serve.cli`) and
:mod:`grn.cli.common`, the only modules that print or exit.  ``grn validate FILE`` with no option runs
without it (:mod:`grn.cli.launch`, R190).

Exit codes: 0 all is well, 1 the input is invalid (a syntax error, an illegal
move, a score that does not add up, a file that cannot be read), 2 a usage
error (typer's own, for unknown options and missing arguments).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Iterator, List, Optional

import typer
import typer.core
import typer.main

from grn.analysis.aids import aids_lines
from grn.games import BUILTIN as _GAMES, DEFAULT as _DEFAULT_GAME
from grn.core.output import OutputError, beside_input, check_target, write_bytes, write_text, writing

if TYPE_CHECKING:
    from grn.rules.ruleset import Ruleset
    from grn.rules.position import Position

class _Commands(typer.core.TyperGroup):
    """grn's commands: an output path that cannot be used, or a write that fails, is one line (grn.core.output); the
    commands of :data:`_LAZY` load when asked for."""

    def list_commands(self, ctx: Any) -> list[str]:
        names = list(super().list_commands(ctx))
        for name, after in _LAZY.items():
            if name not in names:
                names.insert(names.index(after) + 1 if after in names else len(names), name)
        return names

    def get_command(self, ctx: Any, name: str) -> Any:
        if name in _LAZY and name not in self.commands:
            self.commands[name] = _lazy_command(name)
        return super().get_command(ctx, name)

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except OutputError as exc:
            print(exc.line(), file=sys.stderr)
            raise typer.Exit(exc.exit_code)


app = typer.Typer(
    cls=_Commands,
    add_completion=False,
    no_args_is_help=True,
    help="Record, check and draw board-game records in the GRN notation.",
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
)

FilesArg = typer.Argument(..., help="Record files (.grn, or .json for the JSON form); - reads standard input.")


TilesetOpt = typer.Option(None, "--tileset", help="Use this tile set JSON instead of the shipped one.")


from grn.cli.common import load_tileset_option as _tileset, no_game as _no_game, print_diagnostic as _print_diagnostic  # noqa: E402
from grn.cli.common import report as _report  # noqa: E402
from grn.lsp import command as _lsp  # noqa: E402


def _version(value: bool) -> None:
    if value:
        from grn import __version__, _compiled

        # "compiled" or "pure Python": the first thing to know about a speed report
        print(f"grn {__version__} ({_compiled.status()}, Python {sys.version.split()[0]})")
        raise typer.Exit()


@app.callback()
def _options(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                          help="Print the version and whether grn runs compiled, then exit.")) -> None:
    """Record, check and draw board-game records in the GRN notation."""


def _emit(text: str, output: Optional[Path]) -> None:
    """Write ``text`` to ``output``, or to standard output when there is none (grn.core.output: atomic, one-line errors)."""
    write_text(output, text)


def _output_for_terminal(output: Optional[Path], source: str, suffix: str, turn: Optional[str] = None,
                         force: bool = False) -> tuple[Optional[Path], bool]:
    """Where a drawing goes: ``-o``; a pipe; or, rather than pouring markup onto a terminal, a file
    named after the input (``game.grn`` -> ``game.svg``, ``game-turn12.svg`` with ``--turn 12``), which
    replaces no file unless ``force`` (R83).  The flag says whether to tell the user where it went."""
    if output is not None or not sys.stdout.isatty():
        check_target(output)
        return output, False
    if source == "-":
        print(f"grn: refusing to write {suffix[1:].upper()} to the terminal: pass -o FILE{suffix} or pipe it",
              file=sys.stderr)
        raise typer.Exit(2)
    stem = Path(source).stem + (f"-turn{re.sub(r'[^A-Za-z0-9]+', '_', turn)}" if turn else "")
    return beside_input(source, stem + suffix, force=force), True


def _wrote(target: Path, suffix: str) -> None:
    print(f"grn: wrote {target} (the terminal gets no {suffix[1:].upper()}; -o FILE chooses the name)",
          file=sys.stderr)


def _loaded_errors(item: Any) -> int:
    """Report what a loaded item says (the problem that kept it from being read, or its record's diagnostics) and
    count its errors: 0 means its record can be written out."""
    if item.problem is not None:
        return _report([item.problem])
    return _report(item.record.diagnostics)


#: --game of selfplay and tiles: the games grn knows, and which one it takes without the option.
_GAME_HELP = f"Which game: {', '.join(_GAMES)} (default: {_DEFAULT_GAME})."


@app.command()
def fmt(
    files: List[str] = FilesArg,
    check: bool = typer.Option(False, "--check", help="Print nothing; exit 1 when a file is not canonical."),
    write: bool = typer.Option(False, "--write", "-w", help="Rewrite each file in canonical form."),
) -> None:
    """Print records in canonical GRN form.

    Example: grn fmt game.grn --check
    """
    import hashlib

    from grn.notation.sources import load
    from grn.notation.writer import write_record

    bad = 0
    for path in files:
        # Game by game into a temporary file (grn.core.output; for --check, a running digest): memory stays
        # flat, and a file with an error prints or rewrites nothing.
        rewrite = write and path != "-" and not path.lower().endswith(".json")
        digest = hashlib.sha256() if check else None
        written = errors = 0
        try:
            to_stdout = not write and digest is None
            with (writing(Path(path)) if rewrite else writing(None) if to_stdout else _no_sink()) as sink:
                for item in load(path):
                    errors += _loaded_errors(item)
                    if errors or item.record is None:
                        continue
                    piece = ("\n" if written else "") + write_record(item.record)
                    written += 1
                    if digest is not None:
                        digest.update(piece.encode("utf-8"))
                    elif sink is not None:
                        sink.write(piece)
                if not written and not errors:
                    errors += _report([_no_game(path)])
                if errors:
                    raise _Discard()
        except _Discard:
            pass
        if errors:
            bad += 1
            continue
        if digest is not None and _file_digest(path) != digest.digest():
            print(f"{path}: not in canonical form (run grn fmt --write)", file=sys.stderr)
            bad += 1
    raise typer.Exit(1 if bad else 0)


class _Discard(Exception):
    """Leaves a ``writing`` block so that what it wrote is thrown away (a file with an error)."""


@contextmanager
def _no_sink() -> Iterator[Any]:
    yield None


def _file_digest(path: str) -> bytes:
    """SHA-256 of a file's bytes, read in pieces (``-``: standard input)."""
    import hashlib

    from grn.notation.sources import stdin_bytes

    if path == "-":
        return hashlib.sha256(stdin_bytes()).digest()
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.digest()


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
    from grn.notation.jsonform import FORMAT_VERSION, record_to_json
    from grn.notation.sources import load
    from grn.notation.writer import write_record

    if to not in ("json", "grn"):
        print(f"grn convert: --to must be json or grn, not {to!r}", file=sys.stderr)
        raise typer.Exit(2)
    as_json = None if from_ is None else (from_ == "json")
    # Game by game: a record is written as soon as it is read, and forgotten.  The text goes to a
    # temporary file (grn.core.output) that becomes the output only when every game was read without error:
    # an error writes nothing, and memory stays flat.
    written = errors = 0
    with writing(output) as sink:
        if to == "json":
            sink.write(f'{{\n "grn": {FORMAT_VERSION},\n "games": [')
        for item in load(file, as_json=as_json):
            errors += _loaded_errors(item)
            if errors or item.record is None:
                continue
            if to == "json":
                game = json.dumps(record_to_json(item.record), indent=1, ensure_ascii=False)
                sink.write(("," if written else "") + "\n  " + game.replace("\n", "\n  "))
            else:
                sink.write(("\n" if written else "") + write_record(item.record))
            written += 1
        if not written and not errors:
            errors += _report([_no_game(file)])
        if to == "json":
            sink.write(("\n ]" if written else "]") + "\n}\n")
        if errors:
            raise typer.Exit(1)  # inside the block: nothing is written


@app.command()
def selfplay(
    game: Optional[str] = typer.Option(None, "--game", help=_GAME_HELP),
    players: int = typer.Option(2, "--players", "-n", help="Number of players (2 to 5)."),
    seed: int = typer.Option(1, "--seed", help="Random seed: the same seed gives the same game."),
    games: int = typer.Option(1, "--games", min=1, max=1_000_000, help="How many games (seeds seed, seed+1, ...)."),
    options: Optional[str] = typer.Option(None, "--options", help='The game\'s options, as its Options tag writes them.'),
    output: Optional[Path] = typer.Option(None, "-o", "--output", help="Write here instead of standard output."),
    bot: Optional[str] = typer.Option(None, "--bot", help="Let a bot play every seat: random, greedy or mcts."),
) -> None:
    """Write complete, legal, random game records, reproducible from the seed.

    Example: grn selfplay --players 4 --seed 7 -o game.grn
    """
    from grn.rules import registry
    from grn.core.record import parse_options
    from grn.rules.ruleset import SetupProblem
    from grn.rules.selfplay import to_record
    from grn.notation.writer import write_record

    check_target(output)
    try:
        ruleset = registry.find_ruleset(game)
    except registry.UnknownGame:
        print(f"grn selfplay: --game must be one of {', '.join(registry.names())}, not {game!r}", file=sys.stderr)
        raise typer.Exit(2)
    if not ruleset.min_players <= players <= ruleset.max_players:
        print(f"grn selfplay: --players must be {ruleset.min_players} to {ruleset.max_players}, not {players}",
              file=sys.stderr)
        raise typer.Exit(2)
    try:
        opts = ruleset.parse_options(parse_options(options or ""))
    except SetupProblem as exc:
        print(f"grn selfplay: {exc.message}", file=sys.stderr)
        raise typer.Exit(2)
    from grn.cli.common import Progress

    texts = []
    # a bar with the time left on a terminal, for more than one game (R357)
    with Progress("self-play", games, stream=sys.stderr if games > 1 else False) as bar:
        for i in range(games):
            if bot is not None:
                played = _bot_game(ruleset, bot, players, seed + i, opts)
            else:
                played = ruleset.selfplay(players, seed + i, opts)
            texts.append(write_record(to_record(played, seed=seed + i)))
            bar.step()
    _emit("\n".join(texts), output)


def _tag_options(pairs: Optional[List[str]]) -> dict[str, str]:
    tags: dict[str, str] = {}
    for pair in pairs or []:
        name, eq, value = pair.partition("=")
        if not eq or not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name.strip()):
            print(f"grn import: --tag takes NAME=VALUE, such as --tag Date=2024.05.01, not {pair!r}",
                  file=sys.stderr)
            raise typer.Exit(2)
        tags[name.strip()] = " ".join(value.split())
    return tags


@app.command("import")
def import_(
    sources: List[str] = typer.Argument(..., help="A file of another program (.jcz, ...), a replay link, or - for "
                                                  "standard input (with --from); or a batch: several of them, a "
                                                  "folder, a list of links or file names (.txt, one a line; .csv)."),
    output: Optional[Path] = typer.Option(None, "-o", "--output", help="Write here instead of standard output."),
    from_: Optional[str] = typer.Option(None, "--from", help="The input's format, when its name does not say "
                                                             "(standard input); 'list' for a list of links."),
    tag: Optional[List[str]] = typer.Option(None, "--tag", help="Set a header tag, NAME=VALUE (repeatable): "
                                                                "players' names, the date, the event."),
    column: Optional[str] = typer.Option(None, "--column", help="In a CSV list: the column of the links, by "
                                                                "name or number (default: the first that has them)."),
) -> None:
    """Read another program's saved game (or replay link) as a GRN record; a batch into one multi-game file.

    Example: grn import game.jcz -o game.grn; grn import club-links.txt -o club.grn
    """
    from grn.cli.importing import ImportProblem, convert, is_batch, single_item

    check_target(output)
    tags = _tag_options(tag)
    if is_batch(sources, from_):
        _import_batch(sources, output, tags, from_, column)
    try:
        text = convert(single_item(sources[0], from_), tags, from_)
    except ImportProblem as exc:
        print(f"grn import: {exc.message}" if exc.exit_code == 2 else exc.line(), file=sys.stderr)
        raise typer.Exit(exc.exit_code)
    _emit(text, output)


def _import_batch(sources: List[str], output: Optional[Path], tags: dict[str, str], fmt: Optional[str],
                  column: Optional[str]) -> None:
    """A batch import: every game into one GRN file, each refused input a line; a progress bar on a terminal."""
    from grn.cli.importing import ImportProblem, batch_items, run_batch

    items = list(batch_items(sources, column))
    usage = [i for i in items if isinstance(i, ImportProblem) and i.exit_code == 2]
    if usage:
        print(usage[0].line(), file=sys.stderr)
        raise typer.Exit(2)

    def refused(problem: ImportProblem) -> None:
        print(problem.line(), file=sys.stderr)

    with writing(output) as out:
        if sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import Progress

            with Progress(console=Console(stderr=True), transient=True) as bar:
                task = bar.add_task("importing", total=len(items))
                summary = run_batch(items, out, tags, fmt, refused=lambda p: bar.console.print(p.line(), markup=False,
                                                                                               highlight=False),
                                    step=lambda: bar.advance(task))
        else:
            summary = run_batch(items, out, tags, fmt, refused=refused)
    print(f"grn import: {summary.games} game{'s' if summary.games != 1 else ''} imported"
          + (f", {summary.refused} refused" if summary.refused else "")
          + (f" into {output}" if output is not None else ""), file=sys.stderr)
    raise typer.Exit(1 if summary.refused else 0)


@app.command("export")
def export(
    file: str = typer.Argument(..., help="A record file (.grn or .json); - reads standard input."),
    to: str = typer.Option(..., "--to", help="The format to write: a name a game offers, such as jcz."),
    game: int = typer.Option(1, "--game", "-g", help="Which game of the file (1-based)."),
    output: Optional[Path] = typer.Option(None, "-o", "--output", help="Write here instead of standard output."),
) -> None:
    """Write a GRN record in another program's format (the main line; see docs/interop.md for what is kept).

    Example: grn export game.grn --to jcz -o game.jcz
    """
    from grn.rules.formats import find_exporter
    from grn.rules.interop import ConversionProblem, annotations_of

    check_target(output)
    record = _one_record(file, game)
    exporter = find_exporter(record, to)  # type: ignore[arg-type]
    if exporter is None:
        print(f"grn export: the game {record.game!r} cannot be written as {to!r}", file=sys.stderr)  # type: ignore[attr-defined]
        raise typer.Exit(2)
    # another program replays what it is given: only a game that follows the rules can be written (R67)
    from grn.check.validate import validate_record

    name = "<stdin>" if file == "-" else file
    errors = [d for d in validate_record(record, file=name, index=game - 1,  # type: ignore[arg-type]
                                         keep_turns=False).diagnostics if d.severity == "error"]
    if errors:
        for d in errors:
            _print_diagnostic(d)
        print(f"grn export: the game has {len(errors)} error{'s' if len(errors) > 1 else ''} (grn validate): "
              f"fix {'them' if len(errors) > 1 else 'it'} first, since {to} files hold only games that follow the "
              "rules", file=sys.stderr)
        raise typer.Exit(1)
    try:
        text = exporter.from_grn(record)  # type: ignore[arg-type]
    except ConversionProblem as exc:
        print(exc.line("<stdin>" if file == "-" else file), file=sys.stderr)
        raise typer.Exit(1)
    _emit(text, output)
    left_out = [] if exporter.keeps_annotations else annotations_of(record)  # type: ignore[arg-type]
    if left_out:
        print(f"grn export: note: {to} files have no place for the record's {', '.join(left_out)}: left out "
              "(docs/interop.md)", file=sys.stderr)


def _one_record(file: str, game: int) -> object:
    """The ``game``-th record (1-based) of ``file``, or exit 1 with a one-line message."""
    from grn.notation.sources import load

    i = 0
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
    if i == 0:
        _report([_no_game(file)])
        raise typer.Exit(1)
    print(f"{file}: error: there is no game {game} in this file", file=sys.stderr)
    raise typer.Exit(2)


def _position(file: str, game: int, turn: Optional[str], tileset: Optional[Path] = None) -> "Position":
    """The position ``turn`` of game ``game`` of ``file``, or exit 1 with a one-line message.

    The record is held to what ``grn validate`` checks (R89): a turn that breaks the rules on the way,
    or markup of the position that the validator rejects, is reported as validate reports it."""
    from grn.rules.position import PositionError, drawable, position_at, rejected_markup
    from grn.core.record import Record
    from grn.check.validate import validate_record

    record = _one_record(file, game)
    assert isinstance(record, Record)
    name = "<stdin>" if file == "-" else file
    ts = _tileset(tileset)
    try:
        position = position_at(record, turn, tileset=ts)
    except PositionError as exc:
        if exc.rule:  # validate's own diagnostic: file:line:col, the rule, the source line and a caret
            report = validate_record(record, file=name, index=game - 1, keep_turns=False, tileset=ts)
            first = next((d for d in report.diagnostics if d.severity == "error" and d.span == exc.span), None)
            if first is not None:
                _print_diagnostic(first)
                raise typer.Exit(1)
        where = f"{name}:{exc.span.line}:{exc.span.column}" if exc.span is not None else name
        print(f"{where}: error: game {game}: {exc}", file=sys.stderr)
        raise typer.Exit(2 if exc.usage else 1)
    if position.markup:
        report = validate_record(record, file=name, index=game - 1, keep_turns=False, tileset=ts)
        rejected = rejected_markup(report.diagnostics)
        if len(drawable(position.markup, rejected)) != len(position.markup):
            for d in report.diagnostics:
                if d.code == "markup" and d.span is not None and any(
                        m.span is not None and (m.span.line, m.span.column) == (d.span.line, d.span.column)
                        for m in position.markup):
                    _print_diagnostic(d)
            raise typer.Exit(1)
    return position


def _best_turn(file: str, game: int, turn: Optional[str]) -> Any:
    """The analysed turn whose best move ``render --best`` draws, or exit 1 (2 for a --turn it cannot take)."""
    from grn.core.record import Record
    from grn.analysis.review import ReviewError, best_turn

    record = _one_record(file, game)
    assert isinstance(record, Record)
    try:
        return best_turn(record, turn)
    except ReviewError as exc:
        name = "<stdin>" if file == "-" else file
        where = f"{name}:{exc.span.line}:{exc.span.column}" if exc.span is not None else name
        print(f"{where}: error: game {game}: --best: {exc.message}", file=sys.stderr)
        raise typer.Exit(2 if "--turn takes" in exc.message else 1)


#: What each drawing flag does (for the message when a game has no use for it).
_RENDER_FLAGS = {"legal": "it shows where the next tile may go", "reveal": "it shows the faces seen of what lies face down",
                 "diagram": "its pictures have no board to crop"}


@app.command()
def render(
    file: str = typer.Argument(..., help="A record file; - reads standard input."),
    game: int = typer.Option(1, "--game", "-g", help="Which game of the file (1-based)."),
    turn: Optional[str] = typer.Option(None, "--turn", "-t",
                                       help="Position: N (after turn N, 0 = start), N(k)M in a variation; "
                                            "default the end (after the final scoring of a finished game)."),
    output: Optional[Path] = typer.Option(None, "-o", "--output", help="Output file (default standard output); "
                                          "its extension, .svg or .png, says the format."),
    format: Optional[str] = typer.Option(None, "--format", help="svg or png (png needs cairosvg); default: what "
                                         "-o's extension says, else svg."),
    legal: bool = typer.Option(False, "--legal", help="Overlay every legal placement of the next tile."),
    tile: Optional[str] = typer.Option(None, "--tile", help="With --legal: ask about this tile instead of the one "
                                       "the record places next."),
    reveal: bool = typer.Option(False, "--reveal", help="Show the faces seen so far on what lies face down (games with hidden faces)."),
    width: Optional[int] = typer.Option(None, "--width", help="Width in pixels (default: natural size)."),
    diagram: bool = typer.Option(False, "--diagram", help="A picture for a rules discussion: the board around the "
                                 "markup, the question as caption, no player panel, 700 px wide."),
    crop: Optional[str] = typer.Option(None, "--crop", help="With --diagram: the board box to draw, X0,Y0,X1,Y1."),
    best: bool = typer.Option(False, "--best", help="An analysed record (grn analyse --format grn): draw turn N "
                              "(default: the costliest judged move) with the best move found on it."),
    tileset: Optional[Path] = TilesetOpt,
    force: bool = typer.Option(False, "--force", help="Without -o on a terminal: replace the file named after "
                               "the input if it is there."),
) -> None:
    """Draw a position of a game as SVG (or PNG), with the record's diagram markup.

    Example: grn render game.grn --turn 12 -o turn12.svg
    """
    from grn.render import render_svg

    format = _picture_format(format, output)
    if width is not None and not 1 <= width <= MAX_WIDTH:
        print(f"grn render: --width must be 1 to {MAX_WIDTH} pixels, not {width}", file=sys.stderr)
        raise typer.Exit(2)
    check_target(output)
    shown = _best_turn(file, game, turn) if best else None
    position = _position(file, game, str(shown.number) if shown is not None else turn, tileset)
    ruleset = position.ruleset
    assert ruleset is not None
    if shown is not None:
        position.markup = position.markup + ruleset.best_move_markup(shown.best)
    box = None
    if crop is not None:
        parts = crop.split(",")
        if not diagram or len(parts) != 4 or not all(re.fullmatch(r"-?\d{1,4}", p.strip()) for p in parts):
            print("grn render: --crop goes with --diagram and takes X0,Y0,X1,Y1 (small integers), "
                  f"not {crop!r}", file=sys.stderr)
            raise typer.Exit(2)
        box = (int(parts[0]), int(parts[1]), int(parts[2]), int(parts[3]))
    for flag, wanted in (("legal", legal), ("reveal", reveal), ("diagram", diagram)):
        if wanted and flag not in ruleset.render_options:
            print(f"grn render: --{flag} is not for {ruleset.title}: {_RENDER_FLAGS[flag]}", file=sys.stderr)
            raise typer.Exit(2)
    if tile is not None and not legal:
        print("grn render: --tile goes with --legal (which tile's legal places to draw)", file=sys.stderr)
        raise typer.Exit(2)
    if legal:
        position.asked = tile
        problem = ruleset.legal_problem(position)
        if problem:
            print(f"grn render: --legal: {problem}", file=sys.stderr)
            raise typer.Exit(2)
    svg = render_svg(position, legal=legal, reveal=reveal, width=width, diagram=diagram, crop=box)
    if format == "png":
        try:
            import cairosvg  # type: ignore[import-not-found]
        except ImportError:
            print("grn render: --format png needs cairosvg: pip install 'grn[png]' (or use the SVG)",
                  file=sys.stderr)
            raise typer.Exit(1)
        target, tell = _output_for_terminal(output, file, ".png", turn, force)
        write_bytes(target, cairosvg.svg2png(bytestring=svg.encode("utf-8"), output_width=width))
    else:
        target, tell = _output_for_terminal(output, file, ".svg", turn, force)
        write_text(target, svg)
    if tell:
        assert target is not None
        _wrote(target, "." + format)


#: The widest drawing ``--width`` asks for, in pixels.
MAX_WIDTH = 20000
#: Picture formats grn does not write, by extension: refused rather than written as SVG under another name.
_OTHER_PICTURES = {".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".tif", ".tiff", ".pdf", ".eps", ".ps", ".avif"}


def _picture_format(format: Optional[str], output: Optional[Path]) -> str:
    """The format ``render`` writes: ``--format``, else what ``-o``'s extension says (.svg, .png), else SVG (R84)."""
    if format is not None and format not in ("svg", "png"):
        print(f"grn render: --format must be svg or png, not {format!r}", file=sys.stderr)
        raise typer.Exit(2)
    suffix = output.suffix.lower() if output is not None and str(output) != "-" else ""
    named = {".svg": "svg", ".png": "png"}.get(suffix)
    if suffix in _OTHER_PICTURES:
        print(f"{output}: error: grn draws SVG or PNG, not {suffix[1:].upper()}: name the file .svg or .png",
              file=sys.stderr)
        raise typer.Exit(2)
    if format is not None and named is not None and named != format:
        print(f"{output}: error: --format {format} but the name ends in {suffix}: the two must agree",
              file=sys.stderr)
        raise typer.Exit(2)
    return format or named or "svg"


@app.command()
def show(
    file: str = typer.Argument(..., help="A record file; - reads standard input."),
    game: int = typer.Option(1, "--game", "-g", help="Which game of the file (1-based)."),
    turn: Optional[str] = typer.Option(None, "--turn", "-t", help="Position: N, N(k)M in a variation; default the end (after the final "
                                                                    "scoring of a finished game)."),
    tileset: Optional[Path] = TilesetOpt,
) -> None:
    """Print a position as text: scores, supplies, what is left in the bag.

    Example: grn show game.grn --turn 30
    """
    for line in describe_position(_position(file, game, turn, tileset)):
        print(line)


def describe_position(pos: object) -> list[str]:
    """The lines ``grn show`` prints for a position: a heading, the game's own lines, who plays next."""
    from grn.rules.position import Position

    assert isinstance(pos, Position)
    state = pos.state
    where = f"after turn {pos.last.number}" if pos.last is not None and pos.last.number else "at the start"
    if pos.final:
        where += " and the final scoring"
    lines = [f"{pos.record.tag('Event') or 'game'} ({pos.game}), {where}"]
    names = {s.key: s.name for s in pos.seats}
    assert pos.ruleset is not None
    lines += pos.ruleset.describe(pos)
    lines += aids_lines(pos)
    if pos.final:
        from grn.check.validate import describe_events

        lines += [f"  final scoring: {d}" for d in describe_events(pos.events)]
    if not state.is_over:
        lines.append(f"  next: {names.get(state.current_player, state.current_player)} "
                     f"({state.current_player})")
    return lines


@app.command()
def html(
    file: str = typer.Argument(..., help="A record file; - reads standard input."),
    output: Optional[Path] = typer.Option(None, "-o", "--output", help="Output file (default standard output)."),
    tileset: Optional[Path] = TilesetOpt,
    embed: bool = typer.Option(False, "--embed", help="Write only the viewer (one <div> and one <script>) to "
                               "paste into another page."),
    force: bool = typer.Option(False, "--force", help="Without -o on a terminal: replace the file named after "
                               "the input if it is there."),
) -> None:
    """Write one self-contained HTML page to step through the games of a file (a move list, variations,
    scores, a score chart; links to any position).

    Example: grn html game.grn -o game.html
    """
    from grn.render import render_html
    from grn.notation.sources import load

    target, tell = _output_for_terminal(output, file, ".html", force=force)
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
    if not records:
        _report([_no_game(file)])
        raise typer.Exit(1)
    ts = _tileset(tileset)
    # Validate once: the page shows each game's events and problems, and an illegal
    # game (shown up to its first illegal turn) is reported here too.
    from grn.check.validate import validate_record

    name = "<stdin>" if file == "-" else file
    reports = [validate_record(r, file=name, index=i, tileset=ts) for i, r in enumerate(records)]
    page = render_html(records, file_name=Path(file).name if file != "-" else "stdin", tileset=ts, reports=reports,
                       embed=embed)
    write_text(target, page)
    if tell:
        assert target is not None
        _wrote(target, ".html")
    errors = sum(_report(d for d in rep.diagnostics if d.severity == "error") for rep in reports)
    if errors:
        raise typer.Exit(1)


@app.command()
def site(
    files: List[str] = typer.Argument(None, help="Record files (GRN or JSON)."),
    output: Path = typer.Option(..., "-o", "--output", help="The directory to write the site into."),
    archive: Optional[Path] = typer.Option(None, "--archive", help="Also take every game of this archive."),
    anonymise: bool = typer.Option(False, "--anonymise", help="Replace player names by Player 1, Player 2, ... "
                                   "(the same name the same way in every game)."),
    title: str = typer.Option("Games", "--title", help="The site's title."),
    tileset: Optional[Path] = TilesetOpt,
) -> None:
    """Write a static site: an index of the games (sortable, filterable) and one viewer page per game.

    Example: grn site club/*.grn -o public --anonymise
    """
    from grn.render.site import Anonymiser, SiteGame, write_site
    from grn.notation.sources import load
    from grn.core.output import output_folder
    from grn.check.validate import validate_record

    output_folder(output)  # before any work: the folder that holds it must exist (R80)
    ts = _tileset(tileset)
    found: list[tuple[Any, str]] = []
    failed = False
    for file in files or []:
        count = 0
        for item in load(file):
            if item.problem is not None:
                _report([item.problem])
                failed = True
                continue
            assert item.record is not None
            if not item.record.ok:
                # R60: a game that cannot be read is reported and left out; the others make the site
                _report(item.record.diagnostics[:1])
                failed = True
                continue
            found.append((item.record, file))
            count += 1
        if count == 0 and not failed:
            _report([_no_game(file)])
            failed = True
    if archive is not None:
        found += _archive_records(archive)
    if not found:
        print("grn site: no game to put on the site (give record files or --archive)", file=sys.stderr)
        raise typer.Exit(1)
    anon = Anonymiser() if anonymise else None
    games = []
    for index, (record, file) in enumerate(found):
        report = validate_record(record, file=file, index=index, tileset=ts)
        if anon is not None:
            record = anon.record(record)
        games.append(SiteGame(record, report, file))
    written = write_site(games, output, title=title, tileset=ts)
    print(f"grn site: wrote {output / 'index.html'} and {len(written) - 1} game page"
          f"{'s' if len(written) != 2 else ''}", file=sys.stderr)
    if failed:
        raise typer.Exit(1)


def _archive_records(path: Path) -> list[tuple[Any, str]]:
    """Every game of an archive, in the archive's order, with its file's name."""
    from grn.archive.db import connect
    from grn.archive.dedup import record_of

    if not path.exists():
        print(f"grn site: {path}: no such archive", file=sys.stderr)
        raise typer.Exit(2)
    try:
        con = connect(path, readonly=True)
        rows = list(con.execute("SELECT g.text, g.format, f.path FROM games g JOIN files f ON f.id = g.file_id "
                                "ORDER BY g.id"))
    except Exception as exc:  # noqa: BLE001 - sqlite3 errors and a file that is no archive
        print(f"grn site: {path}: cannot read the archive: {exc}", file=sys.stderr)
        raise typer.Exit(2)
    return [(record_of(text, fmt), f"{fpath}") for text, fmt, fpath in rows]


@app.command()
def tiles(
    game: Optional[str] = typer.Option(None, "--game", help=_GAME_HELP),
    format: str = typer.Option("text", "--format", help="text (a table) or svg (a drawn sheet)."),
    output: Optional[Path] = typer.Option(None, "-o", "--output", help="Write here instead of standard output."),
    tileset: Optional[Path] = TilesetOpt,
) -> None:
    """List every tile id of a game's tile set, to find the one a record needs.

    Example: grn tiles --format svg -o tiles.svg
    """
    from grn.rules import registry

    check_target(output)
    try:
        ruleset = registry.find_ruleset(game)
    except registry.UnknownGame as exc:
        print(f"grn tiles: {exc}", file=sys.stderr)
        raise typer.Exit(2)
    if not ruleset.uses_tileset:
        print(f"grn tiles: {ruleset.title} has no tiles", file=sys.stderr)
        raise typer.Exit(2)
    if format not in ("text", "svg"):
        print(f"grn tiles: --format must be text or svg, not {format!r}", file=sys.stderr)
        raise typer.Exit(2)
    ts = _tileset(tileset) or ruleset.default_tileset()  # type: ignore[attr-defined]
    if format == "svg":
        sheet = ruleset.render_tile_sheet(ts)
        if output is None and sys.stdout.isatty():
            print("grn tiles: refusing to write SVG to the terminal: pass -o FILE.svg or pipe it", file=sys.stderr)
            raise typer.Exit(2)
        _emit(sheet, output)
        return
    _emit("\n".join(ruleset.tile_table(ts)) + "\n", output)


@app.command(help=f"{_lsp.HELP}\n\n{_lsp.EXAMPLE}")
def lsp(pause: float = typer.Option(_lsp.PAUSE, "--pause", metavar="SECONDS", help=_lsp.PAUSE_HELP)) -> None:
    # the console script runs `grn lsp` through grn.lsp.command without this module (grn.cli.launch)
    raise typer.Exit(_lsp.run(pause))


@app.command()
def schema(
    name: str = typer.Argument("record", help="Which schema: record, report, tileset, or one a game ships."),
) -> None:
    """Print a JSON Schema shipped with grn (default: the record collection).

    Example: grn schema > record.schema.json
    """
    from importlib import resources

    from grn.rules import registry

    if name == "record":
        from grn.notation.jsonform import record_schema

        sys.stdout.write(json.dumps(record_schema(), indent=2) + "\n")
        return
    shipped = {r_name: where for ruleset in registry.rulesets() for r_name, where in ruleset.schemas.items()}
    package, file = shipped.get(name, ("grn.schemas", f"{name}.schema.json"))
    target = resources.files(package).joinpath(file)
    if not target.is_file():
        print(f"grn schema: no schema named {name!r}", file=sys.stderr)
        raise typer.Exit(2)
    sys.stdout.write(target.read_text(encoding="utf-8"))


#: Commands whose modules load only when the command runs (or ``--help`` lists it), each with the command
#: ``--help`` lists it after (None: at the end): validate, defined in grn.cli.validate with the file
#: validator it drives (the console script runs it without typer, R190); the archive's SQLite and search,
#: the web app, and the bots that ``analyse`` and ``arena`` name their levels from (R191).
_LAZY: dict[str, str | None] = {"validate": "convert", "serve": None, "analyse": None, "arena": None,
                                "archive": None, "engine": None, "puzzles": None}


def _lazy_command(name: str) -> Any:
    """The click command of one of :data:`_LAZY`, registered as its module registers it, on a typer app of its own."""
    holder = typer.Typer()
    if name == "validate":
        from grn.cli.validate import register as register_validate

        register_validate(holder)
    elif name == "archive":
        from grn.archive.cli import app as archive_app

        holder.add_typer(archive_app, name="archive")
    elif name == "serve":
        from grn.serve.cli import serve

        holder.command("serve")(serve)
    elif name == "analyse":
        from grn.cli.analyse import register as register_analyse

        register_analyse(holder, _report)
    elif name == "engine":
        from grn.cli.engine import register as register_engine

        register_engine(holder)
    elif name == "puzzles":
        from grn.cli.puzzles import register as register_puzzles

        register_puzzles(holder, _report)
    else:
        from grn.cli.arena import register as register_arena

        register_arena(holder)
    return typer.main.get_group(holder).commands[name]


def _bot_game(ruleset: Ruleset, bot: str, players: int, seed: int, options: Any) -> Any:
    """``grn selfplay --bot``: a game played by the bot, or exit 2 (unknown bot) / 1 (the game has no bot)."""
    from grn.cli.arena import bot_selfplay
    from grn.bots.bot import UnknownBot
    from grn.rules.world import NoBot

    from grn.bots.protocol import EngineError

    try:
        return bot_selfplay(ruleset, bot, players, seed, options)
    except UnknownBot as exc:
        print(f"grn selfplay: --bot: {exc}", file=sys.stderr)
        raise typer.Exit(2)
    except (NoBot, EngineError) as exc:
        print(f"grn selfplay: {exc}", file=sys.stderr)
        raise typer.Exit(1)


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
