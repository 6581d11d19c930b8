"""One self-contained HTML page to step through every position of every game of a file.

No network and no external assets: the SVG of every position (turn 0 to the
end, and the final scoring when the game is complete) is drawn beforehand and
embedded; a few lines of inline script show one at a time (first / previous /
next / last buttons, the arrow keys, a slider, a game picker for files with
several games) with the turn's GRN text, its comments, its score events (from
:func:`grn.validate.validate_record`) and a score-over-time chart.

Safety: record text reaches the page only escaped (``html.escape`` in markup,
:func:`grn.render.style.esc` in SVG) or as JSON in
``<script type="application/json">`` (with ``</`` written ``<\\/``), which the
script puts on the page with ``textContent`` only.
"""

from __future__ import annotations

import html
import json
from typing import Any, Iterable, Iterator, Sequence

from grn.record import Comment, Markup, Record, Turn
from grn.render import style as st
from grn.render.style import num

_CSS = """
*{box-sizing:border-box}
body{margin:0;font-family:DejaVu Sans,Verdana,Arial,sans-serif;background:#f7f1e3;color:#2b2118}
header{display:flex;gap:1em;align-items:center;padding:.5em 1em;background:#3d2f22;color:#f7f1e3}
header h1{font-size:1.1em;margin:0;font-weight:bold}
select{font-size:1em;max-width:60vw}
main{display:flex;flex-wrap:wrap;gap:1em;padding:1em}
.view{flex:1 1 560px;min-width:300px}
.pos svg{width:100%;height:auto;max-height:86vh;display:block}
aside{flex:0 1 360px;min-width:260px;overflow-wrap:anywhere}
.controls{display:flex;gap:.3em;align-items:center;flex-wrap:wrap}
.controls button{font-size:1.1em;min-width:2.4em;padding:.2em .4em;border:1px solid #b9a57f;background:#efe5cf;border-radius:5px;cursor:pointer}
#slider{flex:1 1 100%;margin:.4em 0}
#label{font-weight:bold;margin:.3em 0}
#grn{white-space:pre-wrap;word-break:break-word;background:#efe5cf;border:1px solid #b9a57f;border-radius:5px;padding:.5em;margin:.3em 0;font-family:DejaVu Sans Mono,Consolas,monospace;font-size:.9em}
h2{font-size:.95em;margin:.8em 0 .2em}
ul{margin:0;padding-left:1.2em;font-size:.9em}
ul:empty::before{content:"none";color:#8a7a62;font-style:italic;margin-left:-1.2em}
#scores{font-weight:bold}
.error{color:#a11;white-space:pre-wrap}
.chart{max-width:460px;margin-top:.6em}
.chart svg{width:100%;height:auto;display:block}
"""

_JS = r"""
(function(){"use strict";
var D=JSON.parse(document.getElementById("grn-data").textContent),g=0,i=0;
function $(id){return document.getElementById(id);}
function list(id,items){var u=$(id);while(u.firstChild){u.removeChild(u.firstChild);}
for(var k=0;k<items.length;k++){var li=document.createElement("li");li.textContent=items[k];u.appendChild(li);}}
function show(){var G=D.games[g],n=G.positions.length;i=Math.max(0,Math.min(n-1,i));
var secs=document.querySelectorAll("section.game");
for(var k=0;k<secs.length;k++){secs[k].hidden=(k!==g);}
var ps=secs[g].querySelectorAll(".pos");for(k=0;k<ps.length;k++){ps[k].hidden=(k!==i);}
var P=G.positions[i];$("label").textContent=P.label+"  ("+(i+1)+"/"+n+")";$("grn").textContent=P.text;
list("comments",P.comments);list("events",P.events);list("problems",G.problems);
$("scores").textContent=G.players.map(function(q){return q.name+" ("+q.key+") "+(P.scores[q.key]||0);}).join(", ");
var s=$("slider");s.max=n-1;s.value=i;
var c=secs[g].querySelector(".cursor");if(c){var x=G.chart.x0+G.chart.dx*i;c.setAttribute("x1",x);c.setAttribute("x2",x);}}
function go(k){i=k;show();}
$("first").onclick=function(){go(0);};$("prev").onclick=function(){go(i-1);};
$("next").onclick=function(){go(i+1);};$("last").onclick=function(){go(1e9);};
$("slider").oninput=function(){go(parseInt(this.value,10));};
var pick=$("game");if(pick){pick.onchange=function(){g=parseInt(this.value,10);i=0;show();};}
document.addEventListener("keydown",function(e){var t=e.target&&e.target.tagName;if(t==="INPUT"||t==="SELECT"||t==="TEXTAREA"){return;}
if(e.key==="ArrowLeft"){go(i-1);}else if(e.key==="ArrowRight"){go(i+1);}else if(e.key==="Home"){go(0);}else if(e.key==="End"){go(1e9);}else{return;}e.preventDefault();});
var h=/^#(\d+):(\d+)$/.exec(location.hash);if(h&&+h[1]<D.games.length){g=+h[1];i=+h[2];if(pick){pick.value=String(g);}}
show();})();
"""


def _json_script(data: Any) -> str:
    """JSON safe inside ``<script type="application/json">``: no ``<``, ``>`` or ``&`` is left raw."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    # "</" must not close the element and "<!--" must not open an escape: no "<" at all
    return (text.replace("</", "<\\/").replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("&", "\\u0026").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def _turn_text(turns: list[Turn]) -> str:
    from grn.writer import _join, _turn_pieces  # the canonical spelling of a turn

    return "\n".join(_join(_turn_pieces(t)) for t in turns)


def _label(turn: Turn | None, names: dict[str, str]) -> str:
    if turn is None or turn.number == 0:
        return "Start"
    return f"Turn {turn.number}: {names.get(turn.player, turn.player)}"


def _replay(record: Record, tileset: Any = None) -> Iterator[tuple[Any, list[Turn]]]:
    """(position, turns that led to it) for the start and after each main-line turn; the state is live."""
    from grn import games
    from grn.position import Position, _play
    from grn.ruleset import engine_for

    ruleset = games.find_ruleset(record.game)
    seats = ruleset.seats(record)
    state = engine_for(ruleset, record, seats, tileset)
    markup = [m for m in record.intro if isinstance(m, Markup)]
    turns = list(record.turns)
    k = 0
    setup: list[Turn] = []
    while k < len(turns) and turns[k].number == 0:
        _play(state, seats, turns[k])
        markup += list(turns[k].markup)
        setup.append(turns[k])
        k += 1
    yield Position(record, state, seats, setup[-1] if setup else None, 0, markup, [], "0"), setup
    played = 0
    for t in turns[k:]:
        events = _play(state, seats, t)
        if t.number == 0:
            continue
        played += 1
        yield Position(record, state, seats, t, played, list(t.markup), events, str(t.number)), [t]


def _chart(players: list[dict[str, str]], series: list[dict[str, int]]) -> tuple[str, dict[str, float]]:
    """An inline SVG line chart of the scores over the positions, with a cursor line."""
    W, H, L, R, Tp, B = 360, 180, 34, 10, 12, 24
    n = max(1, len(series) - 1)
    top = max([1] + [v for s in series for v in s.values()])
    dx = (W - L - R) / n
    sy = (H - Tp - B) / top
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="score-chart" viewBox="0 0 {W} {H}" '
           f'width="{W}" height="{H}" font-family="{st.FONT}">',
           f'<rect width="{W}" height="{H}" fill="#fbf6ea" stroke="{st.PANEL_LINE}"/>']
    for frac in (0, 0.5, 1):
        v = round(top * frac)
        y = H - B - v * sy
        out.append(f'<line x1="{L}" x2="{W - R}" y1="{num(y)}" y2="{num(y)}" stroke="#ddd0b3"/>')
        out.append(st.text(L - 4, y + 4, v, size=10, anchor="end", fill=st.INK_SOFT))
    out.append(st.text(L, H - 8, "turn 0", size=10, fill=st.INK_SOFT))
    out.append(st.text(W - R, H - 8, f"{len(series) - 1}", size=10, anchor="end", fill=st.INK_SOFT))
    for p in players:
        key = p["key"]
        points = " ".join(f"{num(L + j * dx)},{num(H - B - s.get(key, 0) * sy)}" for j, s in enumerate(series))
        colour = st.player_fill(key)
        out.append(f'<polyline class="series" points="{points}" fill="none" stroke="{colour}" stroke-width="2.2"'
                   f'{" stroke-dasharray=&quot;5 3&quot;" if key == "yellow" else ""}/>')
    out.append(f'<line class="cursor" x1="{L}" x2="{L}" y1="{Tp}" y2="{H - B}" stroke="#2b2118" '
               f'stroke-width="1.5" stroke-dasharray="3 3"/>')
    out.append("</svg>")
    return "".join(out), {"x0": L, "dx": round(dx, 4)}


def _game(record: Record, index: int, shared: dict[str, Any], file_name: str,
          tileset: Any = None, report: Any = None) -> tuple[str, dict[str, Any]]:
    """The section of one game and its data (``shared``: game name -> its page definitions)."""
    from grn import games
    from grn.validate import validate_record

    if report is None:
        report = validate_record(record, file=file_name, index=index, tileset=tileset)
    problems = [d.one_line() for d in report.diagnostics if d.severity == "error"]
    names: dict[str, str] = {}
    try:
        seats = record.seats()
    except ValueError:
        seats = []
    for s in seats:
        for c in s.colours:
            names[c] = s.name
    players = [{"key": s.key, "name": s.name} for s in seats]
    title = " - ".join(x for x in (record.tag("Event"), record.tag("Date"), record.tag("Round") and
                                   f"round {record.tag('Round')}") if x) or f"game {index + 1}"
    title = f"{index + 1}. {title} ({record.game})"
    svgs: list[str] = []
    positions: list[dict[str, Any]] = []
    state = None
    last_turn = None
    intro_comments = [c.text for c in record.intro if isinstance(c, Comment)]
    try:
        ruleset = games.find_ruleset(record.game)
        if ruleset.name not in shared:
            shared[ruleset.name] = ruleset.page_defs()
        defs = shared[ruleset.name]
        for k, (pos, turns) in enumerate(_replay(record, tileset)):
            state = pos.state
            last_turn = pos.last
            svgs.append(ruleset.render_svg(pos, shared_defs=defs))
            comments = [c.text for t in turns for c in t.comments]
            if k == 0:
                comments = intro_comments + comments
            if k == 0:
                events: list[str] = []
            elif k - 1 < len(report.turns):
                events = list(report.turns[k - 1].events)
            else:
                events = [e.describe() for e in pos.events]
            positions.append({"label": _label(pos.last, names), "text": _turn_text(turns) or "(start)",
                              "comments": comments, "events": events, "scores": dict(state.scores)})
        if state is not None and report.complete and report.final_events:
            from grn.position import Position

            state.final_scoring()
            pos = Position(record, state, record.seats(), last_turn, len(positions) - 1, [], [], "end")
            svgs.append(ruleset.render_svg(pos, shared_defs=defs))
            positions.append({"label": "Final scoring", "text": "(end of the game)", "comments": [],
                              "events": list(report.final_events),
                              "scores": dict(report.final_scores or state.scores)})
    except Exception as exc:  # noqa: BLE001 - a broken record still gets a page
        problems.append(f"cannot show every position: {getattr(exc, 'message', None) or exc}")
    if not positions:
        positions.append({"label": "no position", "text": "", "comments": intro_comments, "events": [],
                          "scores": {}})
        svgs.append('<p class="error">This game cannot be drawn.</p>')
    chart, geom = _chart(players, [p["scores"] for p in positions])
    parts = [f'<section class="game" data-game="{index}"{"" if index == 0 else " hidden"}>']
    parts.append('<div class="view">')
    for k, svg in enumerate(svgs):
        parts.append(f'<div class="pos"{"" if k == 0 else " hidden"}>{svg}</div>')
    parts.append("</div>")
    parts.append(f'<div class="chart-src" hidden></div><div class="chart">{chart}</div></section>')
    data = {"title": title, "players": players, "positions": positions, "problems": problems, "chart": geom}
    return "".join(parts), data


def render_html(records: Iterable[Record], *, file_name: str, tileset: Any = None,
                reports: Sequence[Any] | None = None) -> str:
    """The page for the games of ``records`` (``file_name`` names the file in the title).

    ``tileset`` replaces the shipped Gold Rush tile set; ``reports`` are the
    games' :class:`~grn.validate.GameReport` when the caller has them already.
    """
    from grn import games as registry

    shared: dict[str, Any] = {}
    sections: list[str] = []
    games: list[dict[str, Any]] = []
    for index, record in enumerate(records):
        report = reports[index] if reports is not None else None
        section, data = _game(record, index, shared, file_name, tileset, report)
        sections.append(section)
        games.append(data)
    if not games:
        games.append({"title": "no game", "players": [], "positions": [{"label": "no game", "text": "",
                      "comments": [], "events": [], "scores": {}}], "problems": ["the file holds no game"],
                      "chart": {"x0": 0, "dx": 0}})
        sections.append('<section class="game" data-game="0"><div class="view"></div></section>')
    name = html.escape(file_name)
    picker = ""
    if len(games) > 1:
        options = "".join(f'<option value="{k}">{html.escape(g["title"])}</option>' for k, g in enumerate(games))
        picker = f'<label>Game <select id="game">{options}</select></label>'
    defs = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="0" '
            'height="0" style="position:absolute" aria-hidden="true">'
            + "".join(registry.find_ruleset(name).page_defs_svg(d) for name, d in shared.items() if d is not None)
            + '</svg>')
    aside = ('<aside><div class="controls">'
             '<button id="first" title="first position (Home)">&#x25C0;&#x25C0;</button>'
             '<button id="prev" title="previous (left arrow)">&#x25C0;</button>'
             '<button id="next" title="next (right arrow)">&#x25B6;</button>'
             '<button id="last" title="last position (End)">&#x25B6;&#x25B6;</button>'
             '<input id="slider" type="range" min="0" max="0" value="0" aria-label="position"></div>'
             '<div id="label"></div><div id="grn"></div>'
             '<h2>Scores</h2><div id="scores"></div>'
             '<h2>Comments</h2><ul id="comments"></ul>'
             '<h2>Score events</h2><ul id="events"></ul>'
             '<h2>Problems</h2><ul id="problems" class="error"></ul></aside>')
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
            "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">"
            f"<title>grn: {name}</title><style>{_CSS}</style></head><body>"
            f"<header><h1>{name}</h1>{picker}</header>{defs}<main><div class=\"view\" style=\"flex:1 1 560px\">"
            + "".join(sections) + f"</div>{aside}</main>"
            f'<script type="application/json" id="grn-data">{_json_script({"games": games})}</script>'
            f"<script>{_JS}</script></body></html>\n")
