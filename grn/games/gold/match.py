"""Matches of Gold: the games of one file that share a ``Match`` tag.

"Play as many times as there are players, with a different player starting
each time ... The player with the most points at the end wins."
"""

from __future__ import annotations

from typing import Any

from grn.core.errors import Diagnostic, Span
from grn.games.gold.rules import expected_first_player, match_result
from grn.core.record import Record
from grn.rules.ruleset import SeriesChecker
from grn.core.value import Struct


class _MatchGame(Struct):
    """What a match keeps of one of its games."""

    __slots__ = ("round", "seats", "first", "scores", "complete", "span")
    _fields = ("round", "seats", "first", "scores", "complete", "span")

    def __init__(self, round: int | None, seats: tuple[str, ...], first: str | None, scores: dict[str, int] | None,
                 complete: bool, span: Span | None) -> None:
        self.round = round
        self.seats = seats
        self.first = first
        self.scores = scores
        self.complete = complete
        self.span = span


class MatchChecker(SeriesChecker):
    """Checks the matches of the card game Gold: games of one file sharing a ``Match`` tag.

    Gold rules: "Play as many times as there are players, with a different player
    starting each time ... The player with the most points at the end wins."
    Only a few facts per game are kept, so streaming stays cheap.
    """

    SECTION = "Gold rules: several games"

    def __init__(self) -> None:
        self.matches: dict[str, list[_MatchGame]] = {}

    def add(self, record: Record, report: Any) -> None:
        """Remember a validated game if it belongs to a match."""
        name = record.tag("Match")
        if name is None or not report.valid:
            return
        try:
            rnd = int(record.tag("Round") or "")
        except ValueError:
            rnd = None
        seats = tuple(s.key for s in record.seats())
        first = next((t.player for t in record.turns if t.number > 0), None)
        self.matches.setdefault(name, []).append(_MatchGame(
            rnd, seats, first, report.final_scores, report.complete, record.span))

    def check(self, file: str | None) -> tuple[list[Diagnostic], list[str]]:
        """Problems with the matches seen, and a line per match naming its winners."""
        problems: list[Diagnostic] = []
        lines: list[str] = []
        for name, games in self.matches.items():
            games = sorted(games, key=lambda g: (g.round is None, g.round or 0))
            seats = games[0].seats
            bad = False
            for i, g in enumerate(games):
                if g.seats != seats:
                    problems.append(Diagnostic(f"match {name!r}: game {i + 1} seats other players", g.span,
                                               file, code="match", section=self.SECTION))
                    bad = True
                    continue
                want = expected_first_player(seats, i)
                if g.first is not None and g.first != want:
                    problems.append(Diagnostic(
                        f"match {name!r}: game {i + 1} is started by {g.first}, but {want} starts it",
                        g.span, file, code="match", rule="a different player starts each game, "
                        "the start moving one seat clockwise", section=self.SECTION))
            if bad or any(not g.complete for g in games):
                continue
            if len(games) != len(seats):
                problems.append(Diagnostic(
                    f"match {name!r} has {len(games)} games; {len(seats)} players play {len(seats)}",
                    games[-1].span, file, severity="warning", code="match", section=self.SECTION))
                continue
            scores = [g.scores or {} for g in games]
            winners = match_result(scores)
            totals = {p: sum(s.get(p, 0) for s in scores) for p in seats}
            lines.append(f"match {name!r}: " + ", ".join(f"{p} {t}" for p, t in totals.items())
                         + f"; won by {' and '.join(winners)}")
        return problems, lines
