"""``grn analyse``: every move of a record judged by the points it gave up (text, JSON or annotated GRN).

:func:`register` adds the command to grn's typer app; the command line
module hands over how it prints diagnostics, so this module does not import it.
"""

from __future__ import annotations

import json
import sys
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, List, Optional

import typer

from grn.rules import registry
from grn.bots.bot import DEFAULT_LEVEL, PLAY_LEVELS, search_level_names
from grn.core.errors import Diagnostic
from grn.notation.read import read_chunk
from grn.core.output import check_target, writing
from grn.core.record import Record
from grn.rules.ruleset import SetupProblem
from grn.check.validate import validate_record
from grn.cli.common import Progress, jobs_problem
from grn.check.workers import DaskClient, ProcessPool, Runner, SchedulerError, game_units
from grn.rules.world import NoBot
from grn.notation.writer import write_record

if TYPE_CHECKING:
    from grn.rules.ruleset import Ruleset
    from grn.analysis.judge import GameAnalysis, Settings, Thresholds, TurnAnalysis

FORMATS = ("text", "json", "grn")
#: What a process pool's fork server imports once for the analysis.
PRELOAD = ("grn.analysis.judge",)


def _warm_up() -> None:
    """Run on each Dask worker once: import the analysis (the rules, the bots)."""
    import grn.analysis.judge  # noqa: F401


def _usage(message: str) -> typer.Exit:
    print(f"grn analyse: {message}", file=sys.stderr)
    return typer.Exit(2)


def parse_thresholds(text: str) -> Thresholds:
    """``2,5,10`` (inaccuracy, mistake, blunder points), optionally ``,z``."""
    from grn.analysis.judge import Thresholds

    try:
        values = [float(x) for x in text.split(",")]
    except ValueError:
        raise ValueError(f"--thresholds takes numbers such as 2,5,10, not {text!r}") from None
    if len(values) not in (3, 4):
        raise ValueError(f"--thresholds takes three numbers (inaccuracy,mistake,blunder), not {text!r}")
    return Thresholds(*values)


class Turns:
    """Spreads a game's turns over a process pool or a Dask cluster (:mod:`grn.check.workers`, as ``grn validate``)."""

    def __init__(self, runner: Runner) -> None:
        self.runner = runner
        self.run = uuid.uuid4().hex  # Dask workers outlive a run: keys of two runs never meet
        self.games = 0
        #: Called as each unit's result comes back (the progress bar on a terminal).
        self.step: Callable[[int], None] = lambda count: None

    def __repr__(self) -> str:
        return f"Turns({self.runner!r})"

    def __call__(self, record: Record, groups: list[list[int]], settings: Settings) -> list[list[TurnAnalysis]]:
        from grn.analysis.judge import analyse_numbers

        # a key per game and run: a worker replays the game once for all the turns it is given
        self.games += 1
        key = f"{self.run}:{self.games}"
        futures = [self.runner.submit(analyse_numbers, record, g, settings, None, key) for g in groups]
        out = []
        for f in futures:
            out.append(self.runner.result(f))
            self.step(len(out[-1]))
        return out


def _chance(win: float | None) -> str:
    """``, chance to win 62%`` (R333), nothing where the game gives none."""
    return "" if win is None else f", chance to win {100 * win:.0f}%"


class Stepped:
    """The turns of a game analysed here, one after the other, each counted on the progress bar: the same
    analysis as without it (a turn's analysis depends only on its position and the seed)."""

    def __init__(self, step: Callable[[int], None]) -> None:
        self.step = step
        self.games = 0

    def __repr__(self) -> str:
        return "Stepped()"

    def __call__(self, record: Record, groups: list[list[int]], settings: Settings) -> list[list[TurnAnalysis]]:
        from grn.analysis.judge import analyse_numbers

        self.games += 1
        key = f"stepped:{id(self)}:{self.games}"  # one replay for the game's turns
        out = []
        for g in groups:
            out.append(analyse_numbers(record, g, settings, None, key))
            self.step(len(out[-1]))
        return out


#: How many of the costliest moves the text review lists unless ``--top`` says (R358).
TOP = 5
#: What the review's numbers mean, printed once before the moves (docs/analysis.md, "What each number means").
LEGEND = ("  expected margin: the final score minus the opponents' mean, expected after the move; "
          "points lost: the best move's margin minus the played one's (± one standard error)")


def _who(record: Record) -> dict[str, str]:
    """``Ann (red+yellow)`` by key: a player of two colours (Gold with two players) is shown with both."""
    return {s.key: f"{s.name} ({'+'.join(s.colours)})" for s in record.seats()}


def _words(ruleset: Ruleset, record: Record, words: str) -> str:
    """The review's words with each piece named by its owner where the colour alone does not say whose."""
    return str(ruleset.owned_words(words, {c: s.name for s in record.seats() for c in s.colours}))


def _played_words(ruleset: Ruleset, record: Record, number: int, fallback: str) -> str:
    """The turn as it was played, in words: the faces it showed too (``mines a token worth 5``), which the
    analysis leaves out of the decision (the player chose before seeing them)."""
    turn = next((t for t in record.turns if t.number == number), None)
    if turn is None or not turn.actions:
        return fallback
    join = getattr(ruleset, "turn_words", None)
    return join(turn.actions) if join is not None else ", ".join(ruleset.action_words(a) for a in turn.actions)


def _review(analysis: GameAnalysis, record: Record, index: int, file: str, top: int = TOP) -> str:
    """The text a player reads: each player's figures, a legend, then the ``top`` costliest moves and a count
    of the other judged moves."""
    who = _who(record)
    ruleset = registry.find_ruleset(record.game)
    s = analysis.settings
    budget = f"{s.playouts} playouts a move" if s.playouts is not None else f"{s.seconds:g} s a move"
    by = ", judged by the chance to win" if s.by == "win" else ""
    lines = [f"{file}: game {index} ({analysis.game}): level {s.level}, {budget}, seed {s.seed}{by}"]
    for p in analysis.players:
        name = who.get(p.player, p.player)
        if not p.moves:  # an accuracy of no move would be a figure of nothing (R358)
            lines.append(f"  {name}: no move analysed")
            continue
        lines.append(f"  {name}: {p.moves} move{'' if p.moves == 1 else 's'}, "
                     f"{p.average_points_lost:.1f} points lost a move, accuracy {p.accuracy:.0f}%, "
                     f"{p.inaccuracies} inaccurac{'y' if p.inaccuracies == 1 else 'ies'}, "
                     f"{p.mistakes} mistake{'' if p.mistakes == 1 else 's'}, "
                     f"{p.blunders} blunder{'' if p.blunders == 1 else 's'}")
    judged = analysis.worst()
    worst = judged[:max(top, 0)]
    if worst:
        lines.append(LEGEND)
        lines.append(f"  costliest moves:{'' if len(worst) == len(judged) else f' the {len(worst)} of {len(judged)} judged'}")
    for t in worst:
        best_words = _words(ruleset, record, t.best_words)
        better = f"{t.best} ({best_words})" if t.best else best_words
        played = _words(ruleset, record, _played_words(ruleset, record, t.turn, t.played_words))
        near = f" (near the {t.near} threshold)" if t.near else ""  # R275: the loss's interval holds it
        lines.append(f"  turn {t.turn}, {who.get(t.player, t.player)}: {t.judgement}{near}, "
                     f"{t.points_lost:.1f} ± {t.lost_se:.1f} points lost")
        lines.append(f"    played {t.played} ({played}): expected margin {t.expected_played:+.1f}"
                     + _chance(t.win_played))
        if t.best_named:
            lines.append(f"    better {better}: expected margin {t.expected_best:+.1f}" + _chance(t.win_best))
        else:  # R334: no move stands clear of the others
            lines.append(f"    better, and as good as each other: {', '.join(m for m in t.equal if m != t.played)}: "
                         f"expected margin {t.expected_best:+.1f}" + _chance(t.win_best))
    rest = len(judged) - len(worst)
    if rest:
        lines.append(f"  and {rest} other judged move{'' if rest == 1 else 's'}, less costly "
                     f"(--top {len(judged)} lists them all; --format grn writes each into the record)")
    if not judged and analysis.turns:
        lines.append("  no move judged: every loss was small or within the noise of the estimates")
    if analysis.balances:  # R336, R410
        lines.append(f"  luck and skill (points of final margin: expected + {ruleset.luck_words[0]} + skill + edge, "
                     "what the best moves offered beyond a quick player's, + the rest, the estimates' noise):")
        for b in analysis.balances:
            lines.append(f"    {who.get(b.player, b.player)}: margin {b.margin:+.0f} = expected "
                         f"{b.expected:+.1f}, luck {b.luck:+.1f} (± {b.luck_se:.1f}), skill {b.skill:+.1f}, "
                         f"edge {b.edge:+.1f}, rest {b.rest:+.1f} (± {b.se:.1f})")
    decided = analysis.decided()
    if decided is not None:  # R335
        turn, player = decided
        lines.append(f"  decided from turn {turn}: {who.get(player, player)} kept a chance to win of 95% "
                     f"or more from there on; moves that kept it so are not judged")
    if analysis.stopped is not None:
        lines.append(f"  analysed up to turn {analysis.stopped}, which breaks the rules (see above)")
    return "\n".join(lines) + "\n"


def budget(ctx: typer.Context, command: str, level: str, playouts: Optional[int], seconds: Optional[float],
           thresholds: Optional[str], jobs: int, dask_scheduler: Optional[str]) -> tuple[Any, Any, int]:
    """The search options of ``grn analyse`` and ``grn archive analyse`` checked (exit 2 with a one-line
    message), and where the turns run: (thresholds, runner or None, parts)."""
    def usage(message: str) -> typer.Exit:
        print(f"{command}: {message}", file=sys.stderr)
        return typer.Exit(2)

    if level not in search_level_names():  # a budget, or a searching level of the ladder (strong: deep)
        why = f" ({PLAY_LEVELS[level].about}: a level to play against, not a search)" if level in PLAY_LEVELS else ""
        raise usage(f"--level must be one of {', '.join(search_level_names())}, not {level!r}{why}")
    if playouts is not None and not 1 <= playouts <= 1_000_000:
        raise usage(f"--playouts must be from 1 to 1000000, not {playouts}")
    if seconds is not None and not 0 < seconds <= 3600:
        raise usage(f"--seconds must be more than 0 and at most 3600, not {seconds:g}")
    if playouts is not None and seconds is not None:
        raise usage("give --playouts or --seconds, not both")
    if (problem := jobs_problem(jobs)) is not None:
        raise usage(problem)
    limits = None
    if thresholds is not None:
        try:
            limits = parse_thresholds(thresholds)
        except ValueError as exc:
            raise usage(str(exc))
    runner: Runner | None = None
    try:
        if dask_scheduler is not None:
            runner = DaskClient(dask_scheduler, _warm_up)
        elif jobs > 1:
            runner = ProcessPool(jobs, PRELOAD)
    except SchedulerError as exc:
        print(f"{command}: error: {exc}", file=sys.stderr)
        raise typer.Exit(1)
    if runner is None:
        return limits, None, 1
    ctx.call_on_close(runner.close)
    return limits, Turns(runner), jobs if dask_scheduler is None else max(jobs, 8)


def _engine_analysis(files: List[str], output: Optional[Path], format: str, command: str,
                     playouts: Optional[int], seconds: Optional[float],
                     report: Callable[[Iterable[Diagnostic]], int]) -> None:
    """``grn analyse --engine CMD``: every turn put to an engine over the protocol (grn.analysis.engine_analyse)."""
    from grn import read
    from grn.analysis.engine_analyse import run
    from grn.bots.protocol import Budget

    check_target(output)
    if format not in ("text", "json"):
        raise _usage(f"--engine writes text or json, not {format!r}")
    if playouts is not None and not 1 <= playouts <= 1_000_000:
        raise _usage(f"--playouts must be from 1 to 1000000, not {playouts}")
    if seconds is not None and not 0 < seconds <= 3600:
        raise _usage(f"--seconds must be more than 0 and at most 3600, not {seconds:g}")
    budget = Budget(playouts, None if seconds is None else round(seconds * 1000))
    if budget == Budget():
        budget = Budget(movetime=1000)
    errors = 0

    def records() -> Iterable[tuple[str, int, Record]]:
        nonlocal errors
        for path in files:
            name = "<stdin>" if path == "-" else path
            try:
                games = list(read(sys.stdin if path == "-" else path, file=name))
            except OSError as exc:
                print(f"grn analyse: cannot read {name}: {exc.strerror or exc}", file=sys.stderr)
                errors += 1
                continue
            for index, record in enumerate(games, start=1):
                if not record.ok:
                    errors += report(record.diagnostics[:1])
                    continue
                yield name, index, record

    def problem(message: str) -> None:
        print(f"grn analyse: {message}", file=sys.stderr)

    with writing(output, whole=False) as sink:
        errors += run(iter(records()), command, budget, format, sink.write, problem)
    raise typer.Exit(1 if errors else 0)


def register(app: typer.Typer, report: Callable[[Iterable[Diagnostic]], int]) -> None:
    """Add ``grn analyse`` to ``app``; ``report`` prints diagnostics as ``grn validate`` does (returns the errors).

    Long for its options: the command's signature lists each option with its help, which typer reads from it
    (and shows as ``--help``); the command's body is short."""

    @app.command("analyse")
    def analyse_command(
        ctx: typer.Context,
        files: List[str] = typer.Argument(..., help="Record files (.grn or .json); - reads standard input."),
        output: Optional[Path] = typer.Option(None, "-o", "--output", help="Write here instead of standard output."),
        format: str = typer.Option("text", "--format", help="text (a review), json, or grn (the annotated record)."),
        level: str = typer.Option(DEFAULT_LEVEL, "--level", help="Search budget: " + ", ".join(search_level_names()) + "."),
        playouts: Optional[int] = typer.Option(None, "--playouts", help="Playouts per move (overrides --level)."),
        seconds: Optional[float] = typer.Option(None, "--seconds", help="Seconds per move (overrides --level)."),
        seed: int = typer.Option(0, "--seed", help="The same seed gives the same analysis."),
        thresholds: Optional[str] = typer.Option(None, "--thresholds", metavar="I,M,B",
                                                 help="Points lost for an inaccuracy, a mistake, a blunder "
                                                      "(default: the game's, docs/analysis.md)."),
        jobs: int = typer.Option(1, "--jobs", "-j", help="Analyse the turns of a game in N processes."),
        dask_scheduler: Optional[str] = typer.Option(None, "--dask-scheduler", metavar="ADDRESS",
                                                     help="Analyse on a Dask cluster (needs grn's dask extra)."),
        by: str = typer.Option("points", "--by", help="What the judgements read: points (the points lost) or win "
                                                      "(the chance to win lost)."),
        top: int = typer.Option(TOP, "--top", metavar="N",
                                help="The text review lists the N costliest moves (the others are counted)."),
        engine: Optional[str] = typer.Option(None, "--engine", metavar="CMD",
                                             help="Ask this engine (docs/protocol.md) what it would play at each "
                                                  "turn, instead of grn's search (text or json)."),
    ) -> None:
        """Judge every move of a record by the points (or the chance to win) it gave up against the best move found.

        Example: grn analyse game.grn --format grn -o game-analysed.grn
        """
        if engine is not None:
            _engine_analysis(files, output, format, engine, playouts, seconds, report)
        # the search, the annotator and the process pools load when a game is analysed (grn starts faster)
        from grn.analysis.judge import analyse
        from grn.analysis.annotate import annotate_record, annotate_text
        check_target(output)  # a bad -o is one line before any work
        if format not in FORMATS:
            raise _usage(f"--format must be text, json or grn, not {format!r}")
        if by not in ("points", "win"):
            raise _usage(f"--by must be points or win, not {by!r}")
        limits, turns, parts = budget(ctx, "grn analyse", level, playouts, seconds, thresholds, jobs,
                                      dask_scheduler)
        errors = 0
        first_json = True
        bar = Progress("analysing")
        if bar.shown:  # on a terminal the turns are counted as they are analysed (R357)
            if isinstance(turns, Turns):
                turns.step = bar.step
            elif turns is None:
                turns, parts = Stepped(bar.step), 2
        # a replaced file is whole or untouched, a FIFO or device is written into, never replaced (R80-R84)
        with writing(output, whole=False) as sink, bar:
            if format == "json":
                sink.write('{"grn_analysis": 1, "games": [')
            for path in files:
                name = "<stdin>" if path == "-" else path
                index = 0
                for unit in game_units(path):
                    if isinstance(unit, Diagnostic):
                        errors += report([unit])
                        continue
                    index += 1
                    if isinstance(unit, Record):
                        record, text, first_line = unit, None, 1
                    else:
                        chunk, number = unit
                        record = read_chunk(chunk, file=name, index=number)
                        text, first_line = chunk.text, chunk.first_line
                    result = validate_record(record, file=name, index=index - 1, keep_turns=False)
                    errors += report(result.diagnostics)
                    if not record.ok:
                        if format == "grn" and text is not None:
                            sink.write(text)
                        continue
                    bar.start(f"{Path(name).name} game {index}", sum(1 for t in record.turns if t.number > 0))
                    try:
                        analysis = analyse(record, level=level, playouts=playouts, seconds=seconds, seed=seed,
                                           thresholds=limits, runner=turns, parts=parts, by=by)
                    except NoBot as exc:
                        span = record.tag_span("Game")
                        where = f"{name}:{span.line}:{span.column}" if span else name
                        print(f"{where}: error: {exc}", file=sys.stderr)
                        errors += 1
                        if format == "grn" and text is not None:
                            sink.write(text)
                        continue
                    except (SetupProblem, registry.UnknownGame):
                        continue  # validate said what is wrong with the header
                    ruleset = registry.find_ruleset(record.game)
                    if format == "text":
                        sink.write(_review(analysis, record, index, name, top))
                    elif format == "json":
                        doc = analysis.to_json()
                        doc = {"file": name, "index": index, **doc}
                        sink.write(("" if first_json else ",") + "\n " + json.dumps(doc, ensure_ascii=False))
                        first_json = False
                    elif text is not None:
                        sink.write(annotate_text(text, first_line, record, analysis, ruleset))
                    else:
                        sink.write(("\n" if index > 1 else "") + write_record(annotate_record(record, analysis, ruleset)))
                if index == 0:
                    errors += report([Diagnostic("no game found: the file holds no record", None, name, code="empty")])
            if format == "json":
                sink.write("\n]}\n")
        raise typer.Exit(1 if errors else 0)


__all__ = ["register", "parse_thresholds", "budget", "Turns"]
