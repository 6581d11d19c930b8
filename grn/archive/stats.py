"""Statistics over an archive (or the games a filter selects): per player and per game kind.

Scores, wins and shares count only games that are valid and complete (a game
stopped by an illegal move or left unfinished has no final result).  A tie
is a win for every tied player.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from grn.archive.points import any_pending, source, try_expand
from grn.archive.search import Filters, where
from grn.core.output import output_folder, write_text

#: Width of a bin of the score distribution.
BIN = 10
#: Colours of the chart series (no meaning: one per feature kind, in order of points).
PALETTE = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
           "#9c755f", "#bab0ac")


@dataclass(slots=True)
class PlayerStats:
    """One player's record over the selected games."""

    name: str
    games: int
    finished: int
    wins: int
    average: float | None
    best: int | None
    points: dict[str, int] = field(default_factory=dict)

    def shares(self) -> dict[str, float]:
        """Each feature kind's share of the player's points (0 to 1)."""
        total = sum(v for v in self.points.values() if v > 0)
        return {k: (v / total if total else 0.0) for k, v in self.points.items()}


@dataclass(slots=True)
class GameStats:
    """One game kind at one table size: first-player advantage and score distribution."""

    game: str
    players: int
    games: int
    finished: int
    first_wins: int
    scores: dict[int, int] = field(default_factory=dict)  # bin start -> number of final scores
    low: int | None = None
    high: int | None = None
    mean: float | None = None

    @property
    def first_rate(self) -> float | None:
        """How often the first player won (expected 1/players without an advantage)."""
        return self.first_wins / self.finished if self.finished else None


@dataclass(slots=True)
class Stats:
    """Everything ``grn archive stats`` shows."""

    players: list[PlayerStats]
    games: list[GameStats]

    def to_json(self) -> dict[str, Any]:
        """Plain data for ``--format json``."""
        return {
            "players": [{"name": p.name, "games": p.games, "finished": p.finished, "wins": p.wins,
                         "average": p.average, "best": p.best, "points": p.points,
                         "shares": {k: round(v, 4) for k, v in p.shares().items()}} for p in self.players],
            "games": [{"game": g.game, "players": g.players, "games": g.games, "finished": g.finished,
                       "first_player_wins": g.first_wins, "first_player_rate": g.first_rate,
                       "expected_rate": 1 / g.players if g.players else None,
                       "score_bins": {str(k): v for k, v in sorted(g.scores.items())},
                       "low": g.low, "high": g.high, "mean": g.mean} for g in self.games],
        }


def compute(con: sqlite3.Connection, f: Filters | None = None) -> Stats:
    """Compute the statistics of the games ``f`` selects (all games when None).

    The queries read ``seats`` and ``points`` (which carry copies of their
    game's kind, table size and state) without joining ``games``, unless a
    filter selects games.  Games whose points rows are still packed (R310)
    are expanded first where ``con`` can write; else, as on a read-only
    connection, their rows are read as they are (R312).  Outside a
    transaction, the queries read one snapshot of the archive.
    """
    cond, params = where(f or Filters())
    own = not con.in_transaction
    if own:
        try_expand(con)
        con.execute("BEGIN")  # what is pending, and the queries, in one snapshot
    try:
        return _compute(con, cond, params)
    finally:
        if own and con.in_transaction:
            con.execute("COMMIT")


def _compute(con: sqlite3.Connection, cond: str, params: list[Any]) -> Stats:
    some = "" if cond == "1" else f" WHERE game_id IN (SELECT g.id FROM games g WHERE {cond})"
    players: dict[str, PlayerStats] = {}
    for key, name, games, finished, wins, avg, best in con.execute(
            "SELECT lower(name), min(name), count(*), sum(done), sum(won), avg(CASE WHEN done THEN score END), "
            f"max(CASE WHEN done THEN score END) FROM seats{some} GROUP BY lower(name)", params):
        players[key] = PlayerStats(name, games, finished or 0, wins or 0, avg, best)
    # the covering index points_name, in its order; beside pending packed rows, their expansion too (R312)
    rows, rows_params = (source(some), params + params) if any_pending(con) else (f"points{some}", params)
    for key, feature, pts in con.execute(
            f"SELECT lower(min(name)), feature, sum(points) FROM {rows} GROUP BY name COLLATE NOCASE, feature",
            rows_params):
        if key in players:
            players[key].points[feature] = pts
    kinds: dict[tuple[str, int], GameStats] = {}
    for game, n, games, finished in con.execute(
            "SELECT g.game, g.n_players, count(*), sum(g.valid = 1 AND g.complete = 1) FROM games g "
            f"WHERE {cond} GROUP BY g.game, g.n_players", params):
        kinds[(game, n)] = GameStats(game, n, games, finished or 0, 0)
    totals: dict[tuple[str, int], tuple[int, int]] = {}
    for game, n, score, number, first_wins in con.execute(
            "SELECT game, n_players, score, count(*), sum(won * first) FROM seats"
            + (some + " AND" if some else " WHERE") + " done = 1 AND score IS NOT NULL GROUP BY 1, 2, 3", params):
        k = kinds[(game, n)]
        k.first_wins += first_wins or 0
        start = (score // BIN) * BIN
        k.scores[start] = k.scores.get(start, 0) + number
        k.low = score if k.low is None else min(k.low, score)
        k.high = score if k.high is None else max(k.high, score)
        count, total = totals.get((game, n), (0, 0))
        totals[(game, n)] = (count + number, total + score * number)
    for key, (count, total) in totals.items():
        kinds[key].mean = total / count if count else None
    ranked = sorted(players.values(), key=lambda p: (-p.games, p.name.lower()))
    return Stats(ranked, [kinds[k] for k in sorted(kinds)])


def table(stats: Stats) -> str:
    """The statistics as plain text tables."""
    lines = ["players:",
             f"  {'player':<20} {'games':>6} {'done':>6} {'wins':>6} {'win%':>6} {'avg':>7} {'best':>5}  points by kind"]
    for p in stats.players:
        rate = f"{100 * p.wins / p.finished:.1f}" if p.finished else "-"
        avg = f"{p.average:.1f}" if p.average is not None else "-"
        best = str(p.best) if p.best is not None else "-"
        shares = ", ".join(f"{k} {100 * v:.0f}%" for k, v in sorted(p.shares().items(), key=lambda kv: -kv[1]))
        lines.append(f"  {p.name[:20]:<20} {p.games:>6} {p.finished:>6} {p.wins:>6} {rate:>6} {avg:>7} {best:>5}  "
                     f"{shares}")
    lines += ["", "games:",
              f"  {'game':<10} {'players':>7} {'games':>6} {'done':>6} {'first wins':>10} {'expected':>8} "
              f"{'low':>5} {'mean':>7} {'high':>5}"]
    for g in stats.games:
        rate = f"{100 * g.first_rate:.1f}%" if g.first_rate is not None else "-"
        mean = f"{g.mean:.1f}" if g.mean is not None else "-"
        lines.append(f"  {g.game:<10} {g.players:>7} {g.games:>6} {g.finished:>6} {rate:>10} "
                     f"{100 / g.players if g.players else 0:>7.1f}% {g.low if g.low is not None else '-':>5} "
                     f"{mean:>7} {g.high if g.high is not None else '-':>5}")
        if g.scores:
            top = max(g.scores.values())
            for start in range(min(g.scores), max(g.scores) + BIN, BIN):
                n = g.scores.get(start, 0)
                lines.append(f"  {'':<10} {start:>4}-{start + BIN - 1:<4} {n:>6} " + "#" * round(40 * n / top))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------
# SVG charts (svgwrite)
# ---------------------------------------------------------------------------

def write_charts(stats: Stats, directory: Path, *, top: int = 20) -> list[Path]:
    """Write the charts as SVG files in ``directory``; return their paths."""
    output_folder(directory)
    out = [_players_chart(stats, directory / "players.svg", top), _first_chart(stats, directory / "first-player.svg")]
    for g in stats.games:
        if g.scores:
            out.append(_scores_chart(g, directory / f"scores-{g.game}-{g.players}p.svg"))
    return out


def _players_chart(stats: Stats, path: Path, top: int) -> Path:
    """Each player's points by feature kind, as stacked bars of shares (the busiest ``top`` players)."""
    import svgwrite

    players = [p for p in stats.players if p.points][:top]
    kinds = sorted({k for p in players for k in p.points}, key=lambda k: -sum(p.points.get(k, 0) for p in players))
    colour = {k: PALETTE[i % len(PALETTE)] for i, k in enumerate(kinds)}
    row, left, width = 22, 160, 480
    height = 60 + row * len(players) + 20 * ((len(kinds) + 3) // 4)
    dwg = svgwrite.Drawing(str(path), size=(left + width + 40, height))
    dwg.add(dwg.rect((0, 0), (left + width + 40, height), fill="white"))
    dwg.add(dwg.text("Share of points by feature kind", insert=(10, 22), font_size=16, font_family="sans-serif"))
    for i, p in enumerate(players):
        y = 40 + i * row
        dwg.add(dwg.text(f"{p.name[:18]} ({p.finished})", insert=(10, y + 14), font_size=12,
                         font_family="sans-serif"))
        x = float(left)
        for k in kinds:
            share = p.shares().get(k, 0.0)
            if share <= 0:
                continue
            w = width * share
            bar = dwg.rect((x, y), (w, row - 4), fill=colour[k])
            bar.set_desc(title=f"{p.name}: {k} {100 * share:.1f}% ({p.points.get(k, 0)} points)")
            dwg.add(bar)
            x += w
    y = 50 + row * len(players)
    for i, k in enumerate(kinds):
        x = 10 + (i % 4) * 160
        yy = y + (i // 4) * 20
        dwg.add(dwg.rect((x, yy), (12, 12), fill=colour[k]))
        dwg.add(dwg.text(k, insert=(x + 16, yy + 11), font_size=12, font_family="sans-serif"))
    write_text(path, dwg.tostring())
    return path


def _text_width(text: str, size: float) -> float:
    """About how wide ``text`` is at ``size`` in a sans-serif face (DejaVu Sans averages 0.6 em a character):
    enough to keep labels apart and inside the picture."""
    return len(text) * size * 0.6


def _first_chart(stats: Stats, path: Path) -> Path:
    """The first player's win rate per game kind and table size, with the rate of no advantage.

    Each column is as wide as its label; a rate's percentage sits above both its bar and its reference line.
    """
    import svgwrite

    groups = [g for g in stats.games if g.first_rate is not None]
    title = "First player's win rate (line: no advantage)"
    labels = [(g.game, f"{g.players} players") for g in groups]
    bar, base, h, left = 40, 270, 200, 50
    cols = [max(bar, _text_width(a, 11), _text_width(b, 11)) + 18 for a, b in labels] or [bar + 18.0]
    width = max(left + sum(cols) + 10, _text_width(title, 16) + 30)
    dwg = svgwrite.Drawing(str(path), size=(width, base + 56))
    dwg.add(dwg.rect((0, 0), (width, base + 56), fill="white"))
    dwg.add(dwg.text(title, insert=(10, 22), font_size=16, font_family="sans-serif"))
    dwg.add(dwg.line((40, base), (width - 10, base), stroke="black"))
    x0 = float(left)
    for g, (game, seats), col in zip(groups, labels, cols):
        x = x0 + (col - bar) / 2
        rate = g.first_rate or 0.0
        r = dwg.rect((x, base - h * rate), (bar, h * rate), fill=PALETTE[0])
        r.set_desc(title=f"{g.game} {g.players} players: {100 * rate:.1f}% of {g.finished} games")
        dwg.add(r)
        expected = base - h / g.players
        dwg.add(dwg.line((x - 4, expected), (x + bar + 4, expected), stroke=PALETTE[2], stroke_width=2))
        # above the bar and the line both, so that neither crosses the figure
        dwg.add(dwg.text(f"{100 * rate:.0f}%", insert=(x + bar / 2, min(base - h * rate, expected) - 5),
                         font_size=11, font_family="sans-serif", text_anchor="middle", class_="rate"))
        dwg.add(dwg.text(game, insert=(x + bar / 2, base + 16), font_size=11, font_family="sans-serif",
                         text_anchor="middle", class_="label"))
        dwg.add(dwg.text(seats, insert=(x + bar / 2, base + 30), font_size=11, font_family="sans-serif",
                         text_anchor="middle", class_="label"))
        x0 += col
    write_text(path, dwg.tostring())
    return path


def _scores_chart(g: GameStats, path: Path) -> Path:
    """Histogram of the final scores of one game kind at one table size: a y axis of counts, each bar's count
    above it, the score bins along the x axis."""
    import svgwrite

    bins = list(range(min(g.scores), max(g.scores) + BIN, BIN))
    top = max(g.scores.values())
    title = f"Final scores: {g.game}, {g.players} players ({g.finished} games)"
    bar, base, h, left = 28, 270, 200, 56
    width = max(left + bar * len(bins) + 20, _text_width(title, 16) + 30)
    dwg = svgwrite.Drawing(str(path), size=(width, base + 60))
    dwg.add(dwg.rect((0, 0), (width, base + 60), fill="white"))
    dwg.add(dwg.text(title, insert=(10, 22), font_size=16, font_family="sans-serif", class_="title"))
    # the y axis: the number of final scores, with a few round ticks
    step = max(1, -(-top // 4))
    ticks = list(range(0, top + 1, step))
    if ticks[-1] != top:
        ticks.append(top)
    dwg.add(dwg.line((left - 4, base), (left - 4, base - h), stroke="black"))
    for t in ticks:
        y = base - h * t / top
        dwg.add(dwg.line((left - 8, y), (left - 4, y), stroke="black"))
        dwg.add(dwg.text(str(t), insert=(left - 10, y + 4), font_size=10, font_family="sans-serif",
                         text_anchor="end", class_="tick"))
    dwg.add(dwg.text("games", insert=(10, base - h - 12), font_size=11, font_family="sans-serif", class_="axis"))
    for i, start in enumerate(bins):
        n = g.scores.get(start, 0)
        x = left + i * bar
        r = dwg.rect((x, base - h * n / top), (bar - 2, h * n / top), fill=PALETTE[0])
        r.set_desc(title=f"{start} to {start + BIN - 1}: {n}")
        dwg.add(r)
        if n:
            dwg.add(dwg.text(str(n), insert=(x + (bar - 2) / 2, base - h * n / top - 4), font_size=10,
                             font_family="sans-serif", text_anchor="middle", class_="count"))
        if i % 2 == 0:
            dwg.add(dwg.text(str(start), insert=(x, base + 16), font_size=10, font_family="sans-serif",
                             class_="bin"))
    dwg.add(dwg.line((left - 4, base), (width - 10, base), stroke="black"))
    dwg.add(dwg.text(f"final score (bins of {BIN} points)", insert=(left, base + 40), font_size=11,
                     font_family="sans-serif", class_="axis"))
    write_text(path, dwg.tostring())
    return path
