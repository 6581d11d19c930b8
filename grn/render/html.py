"""One self-contained HTML page (or a fragment to paste into another page) to view the games of a file.

No network and no external assets.  The viewer (:mod:`grn.render.viewer`
computes what it shows, ``viewer.js`` shows it) steps through every position
of every game, its variations too: the board, the move list in words, the
scores, the score events of the turn, a score chart, comments, glyphs and the
validator's problems at their turn.  Pictures are sent as a table of SVG
items, each once per page, and small edits from one position to the next
(:mod:`grn.render.frames`): tile and card art is defined once per page by the
ruleset's :meth:`~grn.rules.ruleset.Ruleset.page_defs`.

Safety: record text reaches the page only escaped (``html.escape`` in markup,
:func:`grn.render.style.esc` in the SVG the rulesets draw) or inside the
script's data as a JavaScript string (with ``</`` written ``<\\/`` and
``<!--`` written ``\\u003c!--``, so that the data cannot end the script), which
the script puts on the page with ``textContent`` -- only the rulesets' own
SVG markup goes through ``innerHTML``.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from importlib import resources
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from grn.rules import registry
from grn.core.record import Record
from grn.render import style as st
from grn.render.viewer import Page, game_view, read_open_words

if TYPE_CHECKING:
    from grn.check.validate import GameReport


def _js_value(data: Any, *, markup: bool = False) -> str:
    """``data`` as a JavaScript literal that cannot end or escape the ``<script>`` element holding it.

    Record text gets no ``<``, ``>`` or ``&`` at all; ``markup`` (the rulesets' SVG, where record text is
    escaped already) keeps ``<`` but never ``</`` or ``<!--``, the only openings that end a script early.
    """
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    # "<" only occurs inside JSON strings, where "\/" and "\u003c" mean "/" and "<"
    if markup:
        text = text.replace("</", "<\\/").replace("<!", "\\u003c!")
    else:
        text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def _asset(name: str) -> str:
    return resources.files("grn.render").joinpath(name).read_text(encoding="utf-8")


_JS_COMMENT = re.compile(r"/\*(?!DATA\*/).*?\*/", re.S)
_INDENT = re.compile(r"(?m)^[ \t]+")


def _script() -> str:
    """``viewer.js`` as the page carries it: without its comments and indentation (R431; the file keeps them)."""
    return _INDENT.sub("", _JS_COMMENT.sub("", _asset("viewer.js")))


#: What a picture's root ``<svg>`` says that an ``<svg>`` inside the page's HTML does not need: the HTML parser
#: puts it in the SVG namespace, and the text takes the viewer's own font, the same (R431).
_ROOT_NOISE = (' xmlns="http://www.w3.org/2000/svg"', ' xmlns:xlink="http://www.w3.org/1999/xlink"', ' version="1.1"',
               ' font-family="DejaVu Sans, Verdana, Arial, sans-serif"')


#: The colour of a board's coordinates, given once by the page's style (:data:`_COORD_STYLE`) and not on each.
_COORD_FILL = f' fill="{st.GRID_TEXT}"'
_COORD_STYLE = f'.grn-viewer .coord:not([fill]){{fill:{st.GRID_TEXT}}}'


def inline_svg(text: str) -> str:
    """A picture's item or the page's definitions as SVG inside HTML (R431): ``href`` for ``xlink:href`` (SVG 2,
    every browser the viewer runs in), a root ``<svg>`` without what HTML gives it anyway, and a coordinate without
    its colour, the page's style's."""
    text = text.replace(" xlink:href=", " href=")
    if text.startswith("<text") and ' class="coord"' in text:
        text = text.replace(_COORD_FILL, "", 1)
    if text.startswith("<svg"):
        for noise in _ROOT_NOISE:
            text = text.replace(noise, "", 1)
    return text


_ID = re.compile(r'(?<![\w:-])id="([^"]+)"')


def _prefix_ids(defs: str, items: list[str], prefix: str) -> tuple[str, list[str]]:
    """The page definitions and picture items with every definition's id prefixed (one viewer's own ids:
    two viewers pasted into one page must not take each other's tile art)."""
    ids = sorted(set(_ID.findall(defs)), key=len, reverse=True)
    if not ids:
        return defs, items
    refs = re.compile("#(" + "|".join(re.escape(i) for i in ids) + ")(?=[\"')])")
    defs = _ID.sub(lambda m: f'id="{prefix}{m.group(1)}"', defs)
    defs = refs.sub(lambda m: f"#{prefix}{m.group(1)}", defs)
    return defs, [refs.sub(lambda m: f"#{prefix}{m.group(1)}", i) if "#" in i else i for i in items]


def _panel_of(nodes: list[dict[str, Any]], i: int) -> list[Any] | None:
    """The players' panel lines node ``i`` shows (its own, or its parent's when it sends none)."""
    while i >= 0 and "pp" not in nodes[i]:
        i = nodes[i]["p"]
    return nodes[i]["pp"] if i >= 0 else None


def viewer_data(page: str) -> Any:
    """The data of the first viewer in ``page`` (what :func:`viewer_fragment` wrote), read back: for tests
    and tools that check what a page shows."""
    start = page.index("var D=") + len("var D=")
    end = page.index(";\nvar S=document.currentScript", start)
    data = json.loads(page[start:end])
    for game in data["games"]:  # what the script fills in (grn.render.viewer leaves it out)
        opens: list[list[str] | None] = []
        for node in game["nodes"]:
            # the open squares as the script reads them: "x,y:count" words in the game's order
            if "o" in node:
                squares = read_open_words(opens[node["p"]] if node["p"] >= 0 else None, node["o"])
                node["o"] = " ".join(f"{k}:{n}" for k, n in squares.items())
                opens.append(list(squares))
            else:
                opens.append(None)
            if node.get("pp") and node["p"] >= 0:  # a player's lines as the parent's: 0 (R431)
                up = _panel_of(game["nodes"], node["p"])
                node["pp"] = [up[i] if x == 0 and up is not None else x for i, x in enumerate(node["pp"])]
            node.setdefault("d", 0)
            node.setdefault("a", str(node.get("n")))
            node["i"] = game["nodes"][node["p"]]["i"] + 1 if node["p"] >= 0 else 0
    return data


def viewer_fragment(records: Iterable[Record], *, title: str, tileset: Any = None,
                    reports: Sequence[GameReport | None] | None = None, follow_address: bool = False,
                    links: Sequence[tuple[str, str]] = ()) -> str:
    """One viewer: a ``<div class="grn-viewer">`` and the one ``<script>`` that runs it, nothing global.

    ``follow_address``: the URL fragment (``#game=2&turn=30``) follows the
    position shown and the arrow keys work anywhere on the page (the page's
    own viewer; an embedded one listens only to keys given to it).
    ``links``: (address, text) links shown in the viewer's head (the site's index).
    """
    page = Page()
    data_games: list[dict[str, Any]] = []
    for index, record in enumerate(records):
        report = reports[index] if reports is not None else None
        data_games.append(game_view(record, index, page, tileset=tileset, report=report))
    if not data_games:
        data_games.append({"title": "no game", "game": "", "players": [], "names": {}, "tags": [], "valid": False,
                           "complete": False, "problems": [[None, "the file holds no game"]],
                           "nodes": [{"p": -1, "a": "0", "s": [], "t": "Start", "f": [-1, []]}], "colours": []})
    defs = "".join(registry.find_ruleset(name).page_defs_svg(d) for name, d in page.defs.items() if d is not None)
    digest = hashlib.sha1(json.dumps([page.table.items, data_games], sort_keys=True).encode()).hexdigest()
    defs, items = _prefix_ids(defs, page.table.items, f"v{digest[:5]}")
    defs, items = inline_svg(defs), [inline_svg(i) for i in items]
    data = (f'{{"items":{_js_value(chr(10).join(items), markup=True)},"games":{_js_value(data_games)},'
            f'"hash":{"true" if follow_address else "false"}}}')
    picker = ""
    if len(data_games) > 1:
        options = "".join(f'<option value="{k}">{html.escape(g["title"])}</option>' for k, g in enumerate(data_games))
        picker = f'<label>Game <select class="grn-game">{options}</select></label>'
    nav = "".join(f'<a href="{html.escape(href)}">{html.escape(text)}</a>' for href, text in links)
    controls = "".join(
        f'<button type="button" class="grn-{cls}" aria-label="{label}" title="{label}">{face}</button>'
        for cls, label, face in (("first", "first position (Home)", "&#x25C0;&#x25C0;"),
                                 ("prev", "previous move (left arrow)", "&#x25C0;"),
                                 ("next", "next move (right arrow)", "&#x25B6;"),
                                 ("last", "last position of this line (End)", "&#x25B6;&#x25B6;")))
    script = _script().replace("/*DATA*/null", data, 1)
    # an embed listens only to keys given to it: the root takes the focus (a click on the board gives it)
    focus = ("" if follow_address else
             f' tabindex="0" role="region" aria-label="game viewer: {html.escape(title)}; arrow keys step through it"')
    return (f'<div class="grn-viewer" lang="en"{focus}><style>{_asset("viewer.css")}{_COORD_STYLE}</style>'
            '<svg width="0" height="0" style="position:absolute" aria-hidden="true" focusable="false">'
            f'{defs}</svg>'
            f'<div class="grn-head"><h2>{html.escape(title)}</h2>{nav}{picker}'
            '<span class="grn-validity"></span></div>'
            '<div class="grn-body"><div class="grn-left">'
            f'<div class="grn-controls" role="toolbar" aria-label="move through the game">{controls}</div>'
            '<div class="grn-board" role="img" aria-label="board"></div>'
            '<p class="grn-status grn-sr" aria-live="polite"></p>'
            '<noscript><p>The viewer needs JavaScript to show the positions.</p></noscript></div>'
            '<div class="grn-side"><p class="grn-label"></p><p class="grn-notation"></p><p class="grn-where"></p>'
            '<h3>Scores</h3><table class="grn-score-table"><thead><tr><th scope="col">player</th>'
            '<th scope="col">points</th><th scope="col"></th><th scope="col" class="grn-projhead"></th></tr></thead>'
            '<tbody class="grn-scores"></tbody></table><ul class="grn-panel"></ul><div class="grn-open"></div>'
            '<div class="grn-analysis" hidden><h3>Analysis of this turn</h3><div class="grn-turneval"></div></div>'
            '<h3>Score events of this turn</h3><ul class="grn-events"></ul>'
            '<h3>Comments</h3><ul class="grn-comments"></ul>'
            '<h3>Problems at this turn</h3><ul class="grn-problems grn-bad"></ul>'
            '<h3>Moves</h3><div class="grn-moves" aria-label="moves: arrows step, up and down change variation">'
            '</div>'
            '<div class="grn-analysis" hidden><h3>Evaluation chart</h3><div class="grn-evalchart"></div>'
            '<ul class="grn-evallegend grn-legend"></ul><h3>Accuracy</h3><table class="grn-summary"></table></div>'
            '<h3>Score chart</h3><div class="grn-chart"></div><ul class="grn-legend"></ul>'
            '<h3>Game</h3><dl class="grn-tags"></dl>'
            '<h3>All problems</h3><ul class="grn-allproblems grn-bad"></ul>'
            f'</div></div></div><script>{script}</script>')


def notebook_frame(record: Record) -> str:
    """The page of one game in an ``<iframe>``, for a Jupyter notebook (``Record._repr_html_``)."""
    page = render_html([record], file_name=record.tag("Event") or "game")
    return (f'<iframe srcdoc="{html.escape(page, quote=True)}" sandbox="allow-scripts" '
            'style="width:100%;height:640px;border:1px solid #ccc"></iframe>')


def render_html(records: Iterable[Record], *, file_name: str, tileset: Any = None,
                reports: Sequence[GameReport | None] | None = None, embed: bool = False,
                links: Sequence[tuple[str, str]] = ()) -> str:
    """The page for the games of ``records`` (``file_name`` names the file in the title).

    ``tileset`` replaces the shipped tile set; ``reports`` are the games'
    :class:`~grn.check.validate.GameReport` when the caller has them already.
    ``embed`` gives only the viewer's fragment (:func:`viewer_fragment`), to
    paste into another page.
    """
    fragment = viewer_fragment(records, title=file_name, tileset=tileset, reports=reports,
                               follow_address=not embed, links=links)
    if embed:
        return fragment + "\n"
    name = html.escape(file_name)
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
            "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">"
            f"<title>grn: {name}</title><style>body{{margin:0;background:#f7f1e3}}"
            ".grn-viewer{border:0;border-radius:0;max-width:none}</style></head><body>"
            + fragment + "</body></html>\n")
