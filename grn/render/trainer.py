"""The puzzle trainer: one self-contained HTML page of puzzles to solve by tapping the board (``grn puzzles --html``).

Each puzzle is drawn at its position with the legal places of the tile in hand
marked (a tile-laying game: tap a marked square, then a rotation when several
fit) or, in a game whose board has no such places, with the moves the
confirming search weighed as buttons.  The page says at once whether the
answer is the puzzle's, then shows the solution with the engine's words: what
it gains over the next best move, ± its error, and its themes.  No network, no
external asset; every text from a record is escaped.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any, Sequence

from grn.rules import registry
from grn.render.style import esc

#: The page's own script: one puzzle after another, judged at once; the board itself is the shared
#: ``static/puzzleboard.js`` (grn serve's Puzzles page loads the same file), inlined before it.
SCRIPT = r"""
(function () {
  var data = JSON.parse(document.getElementById("puzzles").textContent);
  var at = 0, solved = 0, tried = 0, done = false;
  function $(id) { return document.getElementById(id); }
  function judge(text) {
    if (done) return;
    done = true; tried += 1;
    var p = data[at], right = text === p.answer;
    if (right) solved += 1;
    $("verdict").textContent = (right ? "Solved: " : "Not this one (" + text + "). ") + "The solution: " +
      p.solution + " (" + p.words + "): " + p.gain + " over the next best move." +
      (p.themes.length ? " Themes: " + p.themes.join(", ") + "." : "") +
      (p.missed ? " In the game: " + p.played + "." : "");
    $("verdict").className = right ? "right" : "wrong";
    $("rotations").innerHTML = "";
    $("score").textContent = solved + " of " + tried + " solved";
    $("next").hidden = at + 1 >= data.length;
  }
  function show(i) {
    at = i; done = false;
    var p = data[i];
    $("count").textContent = "Puzzle " + (i + 1) + " of " + data.length;
    $("question").textContent = p.question;
    $("verdict").textContent = ""; $("verdict").className = "";
    $("next").hidden = true;
    grnPuzzleBoard.offer(p, $("board"), $("rotations"), $("choices"), judge);
  }
  $("next").addEventListener("click", function () { show(at + 1); });
  if (data.length) show(0); else $("question").textContent = "No puzzle was found.";
})();
"""


def board_script() -> str:
    """The puzzle board's script shared with grn serve's Puzzles page (``grn/render/static/puzzleboard.js``)."""
    return resources.files("grn.render").joinpath("static", "puzzleboard.js").read_text(encoding="utf-8")


STYLE = """
body { font: 16px/1.4 system-ui, sans-serif; margin: 0 auto; max-width: 60em; padding: 0.5em; }
#board svg { max-width: 100%; height: auto; }
#verdict.right { color: #1e5a22; } #verdict.wrong { color: #8a1c1c; }
button { font: inherit; margin: 0.2em; padding: 0.4em 0.8em; }
"""


def _svg(puzzle: Any) -> str:
    """The puzzle's position: the legal places of the tile in hand marked where the game draws them; in a game
    with faces hidden, the faces the mover has seen shown (what they know)."""
    from grn.rules.position import position_at
    from grn.render import render_svg

    ruleset = registry.find_ruleset(puzzle.game)
    position = position_at(puzzle.record, str(puzzle.turn - 1))
    legal = "legal" in ruleset.render_options and bool(puzzle.hand)
    if legal:
        position.asked = puzzle.hand[-1]
    return render_svg(position, legal=legal, reveal="reveal" in ruleset.render_options)


def _gain(puzzle: Any) -> str:
    if puzzle.by == "win" and puzzle.win_gain is not None:
        return f"{100 * puzzle.win_gain:+.0f}% chance to win ± {100 * (puzzle.win_gain_se or 0.0):.0f}%"
    return f"{puzzle.gain:+.1f} ± {puzzle.gain_se:.1f} points"


def puzzle_data(puzzle: Any) -> dict[str, Any]:
    """What the page's script reads of one puzzle."""
    ruleset = registry.find_ruleset(puzzle.game)
    tile = puzzle.hand[-1] if puzzle.hand and "legal" in ruleset.render_options else None
    return {"id": puzzle.id, "question": puzzle.question, "answer": puzzle.answer or puzzle.solution,
            "choices": list(puzzle.choices) or [puzzle.answer or puzzle.solution], "solution": puzzle.solution,
            "words": puzzle.solution_words, "gain": _gain(puzzle), "themes": list(puzzle.themes),
            "missed": puzzle.missed, "played": puzzle.played, "tile": tile, "svg": _svg(puzzle)}


def trainer_page(puzzles: Sequence[Any], title: str = "grn puzzles") -> str:
    """The page: every puzzle of ``puzzles`` (:class:`grn.analysis.puzzles.Puzzle`) in turn."""
    data = json.dumps([puzzle_data(p) for p in puzzles], ensure_ascii=False).replace("</", "<\\/")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{esc(title)}</title><style>{STYLE}</style></head><body>"
            f"<h1>{esc(title)}</h1><p id=\"count\"></p><p id=\"question\"></p><div id=\"board\"></div>"
            "<div id=\"rotations\"></div><div id=\"choices\"></div><p id=\"verdict\" aria-live=\"polite\"></p>"
            "<p><button id=\"next\" hidden>Next puzzle</button> <span id=\"score\"></span></p>"
            f"<script type=\"application/json\" id=\"puzzles\">{data}</script>"
            f"<script>{board_script()}</script><script>{SCRIPT}</script>"
            "</body></html>\n")


__all__ = ["board_script", "trainer_page", "puzzle_data"]
