"""A static archive site: an index page of games and one viewer page per game, for any static host.

``index.html`` lists the games in a table (number, game, date, event, players,
result, winner, licence, validity) that sorts by any column and filters by text and
validity, with a few lines of inline script (without script the table is
still there, in file order); ``games/N.html`` is the viewer of game N
(:func:`grn.render.html.render_html`), linked back to the index.  No page
loads anything from the network.

``anonymise`` gives every player a stable pseudonym (``Player 1``,
``Player 2``, ... in the order they first appear across all the games) in
the ``Players`` tag, in the other tags and in comments (ruling R61).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from grn.core.output import output_folder, write_text
from grn.core.record import Comment, Record, Turn, Variation
from grn.render.html import render_html
from grn.render.viewer import player_names

if TYPE_CHECKING:
    from grn.check.validate import GameReport


@dataclass
class SiteGame:
    """One game of the site: its record and its validation report."""

    record: Record
    report: GameReport
    source: str


class Anonymiser:
    """Replaces player names with ``Player N``, the same name the same way across every game."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}

    def alias(self, name: str) -> str:
        """The pseudonym of ``name`` (a new one the first time it is seen)."""
        got = self.names.get(name)
        if got is None:
            got = self.names[name] = f"Player {len(self.names) + 1}"
        return got

    def _text(self, text: str) -> str:
        if not self.names:
            return text
        # longer names first, whole words only: "Ann" must not change "Anna" or "Annual"
        pattern = re.compile(r"(?<!\w)(" + "|".join(re.escape(n) for n in sorted(self.names, key=len, reverse=True))
                             + r")(?!\w)")
        return pattern.sub(lambda m: self.names[m.group(1)], text)

    def _turns(self, turns: tuple[Turn, ...]) -> tuple[Turn, ...]:
        out = []
        for t in turns:
            extras = tuple(Comment(self._text(e.text), e.line, e.span) if isinstance(e, Comment)
                           else Variation(self._turns(e.turns), tuple(self._notes(e.intro)), e.span)
                           if isinstance(e, Variation) else e for e in t.extras)
            out.append(t.replace(extras=extras) if extras != t.extras else t)
        return tuple(out)

    def _notes(self, notes: Sequence[Any]) -> list[Any]:
        return [Comment(self._text(n.text), n.line, n.span) if isinstance(n, Comment) else n for n in notes]

    def record(self, record: Record) -> Record:
        """``record`` with its players' names replaced in the Players tag, the other tags and the comments."""
        try:
            seats = record.seats()
        except ValueError:
            seats = []
        for s in seats:
            self.alias(s.name)
        if seats:
            players = ", ".join(f"{self.alias(s.name)} ({' '.join(s.colours)})" for s in seats)
            record = record.with_tags(Players=players)
        tags = tuple((k, v if k in ("Players", "Game") else self._text(v)) for k, v in record.tags)
        return record.replace(tags=tags, intro=tuple(self._notes(record.intro)), turns=self._turns(record.turns))


def _result(game: SiteGame) -> str:
    said = game.record.tag("Result")
    if said:
        return said
    scores = game.report.final_scores
    if not scores:
        return "unfinished" if not game.report.complete else ""
    return ", ".join(f"{k} {v}" for k, v in scores.items())


_POINTS = re.compile(r"(?<![\w.])(\d+)(?![\w.])")


def _final_scores(game: SiteGame) -> dict[str, int]:
    """The final scores: the validator's, else what the Result tag says (``red 33, yellow 42``)."""
    scores = game.report.final_scores
    if scores:
        return {k: int(v) for k, v in scores.items()}
    said = game.record.tag("Result") or ""
    out: dict[str, int] = {}
    for part in said.split(","):
        words = part.split()
        if len(words) == 2 and words[1].isdigit():
            out[words[0]] = int(words[1])
    return out


def _winner(game: SiteGame, names: dict[str, str]) -> str:
    """Who has the most points at the end (all of them on a tie); empty for an unfinished game."""
    scores = _final_scores(game)
    if not scores or not game.report.complete:
        return ""
    top = max(scores.values())
    best = [k for k, v in scores.items() if v == top]
    text = ", ".join(f"{names[k]} ({k})" if k in names else k for k in best)
    return text + (" (tie)" if len(best) > 1 else "")


def _result_key(game: SiteGame) -> str:
    """What the Result column sorts by: the winning score, as a number (-1: no result)."""
    scores = _final_scores(game)
    if not scores:
        numbers = [int(n) for n in _POINTS.findall(game.record.tag("Result") or "")]
        return str(max(numbers)) if numbers else "-1"
    return str(max(scores.values()))


def _validity(report: GameReport) -> tuple[str, str]:
    """(filter word, what the index says) for a game's report."""
    errors = sum(1 for d in report.diagnostics if d.severity == "error")
    if errors:
        return "invalid", f"not valid: {errors} problem{'s' if errors != 1 else ''}"
    return "valid", "valid, complete" if report.complete else "valid, unfinished"


_INDEX_JS = r"""
(function(){"use strict";
var t=document.getElementById("games"),body=t.tBodies[0],rows=Array.prototype.slice.call(body.rows);
var f=document.getElementById("filter"),v=document.getElementById("validity"),gm=document.getElementById("game"),n=document.getElementById("shown");
function apply(){var w=f.value.toLowerCase().trim(),k=v.value,h=gm.value,c=0;
  rows.forEach(function(r){var ok=(!w||r.textContent.toLowerCase().indexOf(w)>=0)&&(!k||r.getAttribute("data-validity")===k)
    &&(!h||r.getAttribute("data-game")===h);
    r.hidden=!ok;if(ok){c++;}});n.textContent=c+" of "+rows.length+" games shown";}
f.addEventListener("input",apply);v.addEventListener("change",apply);gm.addEventListener("change",apply);
var ths=t.tHead.rows[0].cells;
Array.prototype.forEach.call(ths,function(th,col){var b=th.querySelector("button");if(!b){return;}
  b.addEventListener("click",function(){var up=th.getAttribute("aria-sort")!=="ascending";
    Array.prototype.forEach.call(ths,function(h){h.removeAttribute("aria-sort");});th.setAttribute("aria-sort",up?"ascending":"descending");
    rows.sort(function(a,b){var x=a.cells[col].getAttribute("data-key")||a.cells[col].textContent,y=b.cells[col].getAttribute("data-key")||b.cells[col].textContent;
      var nx=parseFloat(x),ny=parseFloat(y),r=(!isNaN(nx)&&!isNaN(ny)&&String(nx)===x&&String(ny)===y)?nx-ny:x.localeCompare(y);return up?r:-r;});
    rows.forEach(function(r){body.appendChild(r);});});});
apply();})();
"""

_INDEX_CSS = """
body{margin:0;font-family:DejaVu Sans,Verdana,Arial,sans-serif;background:#f7f1e3;color:#2b2118}
header{padding:.6em 1em;background:#3d2f22;color:#f7f1e3}h1{font-size:1.2em;margin:0}
main{padding:.6em 1em}.tools{display:flex;flex-wrap:wrap;gap:.6em 1.2em;align-items:center;margin:.4em 0 .8em}
input,select{font-size:1em}table{border-collapse:collapse;width:100%;font-size:.95em}
th,td{text-align:left;padding:.3em .5em;border-bottom:1px solid #d8c9a8;vertical-align:top}
th button{font:inherit;font-weight:bold;background:none;border:0;padding:0;cursor:pointer;color:inherit}
th[aria-sort=ascending] button::after{content:" \\25B2"}th[aria-sort=descending] button::after{content:" \\25BC"}
td.invalid::before{content:"\\26A0 "}a{color:#1d4f8a}
@media (max-width:600px){table,tbody,tr,td{display:block}thead{display:none}tr{border-bottom:2px solid #b9a57f;padding:.3em 0}
td{border:0;padding:.05em .3em}td::before{content:attr(data-label) ": ";font-weight:bold}td.invalid::before{content:attr(data-label) ": \\26A0 "}}
"""


def index_page(games: list[SiteGame], title: str) -> str:
    """The index: a sortable, filterable table of the games, each linked to its page."""
    from grn.rules import registry

    columns = ("#", "Game", "Date", "Event", "Players", "Result", "Winner", "License", "Validity")
    kinds: dict[str, str] = {}
    head = "".join(f'<th scope="col"><button type="button">{c}</button></th>' for c in columns)
    rows = []
    for k, g in enumerate(games, 1):
        rec = g.record
        seats, names = player_names(rec)
        try:
            ruleset = registry.find_ruleset(rec.game)
            kind, kind_title = ruleset.name, ruleset.title or ruleset.name
        except Exception:  # noqa: BLE001 - a game grn does not know still has a row (its report says why)
            kind, kind_title = rec.game, rec.game
        # the Game tag's own word too, so that filtering by "carcassonne" or "goldrush" finds the games
        kinds[kind] = kind_title
        game_cell = html.escape(kind_title if kind_title.lower() == kind else f"{kind_title} ({kind})")
        players = ", ".join(f"{s.name} ({' '.join(s.colours)})" for s in seats) or (rec.tag("Players") or "")
        event = rec.tag("Event") or f"game {k}"
        word, validity = _validity(g.report)
        cells = [(str(k), f'<a href="games/{k}.html">{k}</a>', str(k)),
                 ("Game", game_cell, None),
                 ("Date", html.escape(rec.tag("Date") or ""), None),
                 ("Event", f'<a href="games/{k}.html">{html.escape(event)}</a>', None),
                 ("Players", html.escape(players), None),
                 ("Result", html.escape(_result(g)), _result_key(g)),
                 ("Winner", html.escape(_winner(g, names)), None),
                 ("License", html.escape(rec.tag("License") or "not stated"), None),
                 ("Validity", html.escape(validity), None)]
        tds = []
        for (label, content, key), col in zip(cells, columns):
            extra = f' data-key="{key}"' if key else ""
            cls = ' class="invalid"' if col == "Validity" and word == "invalid" else ""
            tds.append(f'<td data-label="{col}"{extra}{cls}>{content}</td>')
        rows.append(f'<tr data-validity="{word}" data-game="{html.escape(kind)}">{"".join(tds)}</tr>')
    game_options = "".join(f'<option value="{html.escape(k)}">{html.escape(t)}</option>'
                           for k, t in sorted(kinds.items(), key=lambda kv: kv[1]))
    name = html.escape(title)
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
            "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">"
            f"<title>{name}</title><style>{_INDEX_CSS}</style></head><body>"
            f"<header><h1>{name}</h1></header><main>"
            '<div class="tools"><label>Filter <input id="filter" type="search" '
            'placeholder="player, event, date..."></label>'
            f'<label>Game <select id="game"><option value="">all</option>{game_options}</select></label>'
            '<label>Validity <select id="validity"><option value="">all</option><option value="valid">valid'
            '</option><option value="invalid">not valid</option></select></label>'
            f'<span id="shown" aria-live="polite">{len(games)} games</span></div>'
            f'<table id="games"><caption hidden>{name}: the games</caption><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></main>'
            f"<script>{_INDEX_JS}</script></body></html>\n")


def write_site(games: list[SiteGame], directory: Path, *, title: str = "Games", tileset: Any = None) -> list[Path]:
    """Write ``index.html`` and ``games/N.html`` under ``directory``; the paths written."""
    output_folder(output_folder(directory) / "games")  # R80: the folder named, never one above it
    written = [directory / "index.html"]
    write_text(written[0], index_page(games, title))
    for k, g in enumerate(games, 1):
        page = render_html([g.record], file_name=g.record.tag("Event") or f"game {k}", tileset=tileset,
                           reports=[g.report], links=[("../index.html", f"\u2190 {title}")])
        path = directory / "games" / f"{k}.html"
        write_text(path, page)
        written.append(path)
    return written
