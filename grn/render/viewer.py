"""What the game viewer shows, computed by the rules engine: the tree of positions of each game.

The viewer's script (``viewer.js``) knows no rules.  For every game this
module replays the record -- the main line and every variation, nested --
with the game's engine, and gives each position (a *node*) its move in
words and in notation, glyphs, comments, score events, scores, the
validator's problems at that turn, its address (``12``, ``12(1)15``,
``final``: the addresses of ``grn show``) and its picture, drawn by the
game's ruleset and kept as edits of its parent's picture in a shared
:class:`grn.render.frames.FrameTable`.

A node's children are the positions that can follow it: the first is the
continuation of its line, the others the first positions of the variations
that branch there.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from grn.rules import registry
from grn.analysis.aids import position_aids
from grn.rules.position import Position, PositionError, _play, drawable, rejected_markup
from grn.core.record import Comment, Markup, Record, Seat, Turn
from grn.analysis.review import Review, ReviewError, eval_comment, is_best_variation, read_review
from grn.render import style as st
from grn.render.frames import FrameTable
from grn.rules.ruleset import Drawing, Ruleset, engine_for

from grn.check.validate import _describe, describe_events, validate_record
from grn.notation.writer import command_text

if TYPE_CHECKING:
    from grn.check.validate import GameReport
    from grn.rules.position import Position

#: The viewer's boards: without the panel, which it shows in words beside the board.
BOARD_ALONE = Drawing(panel=False)



def open_words(before: list[str] | None, after: dict[str, int]) -> str:
    """The open squares ``after`` (``x,y`` -> how many tiles left fit) as the page gets them (R431): the squares,
    written against the parent's (``before``, None: the parent has none) when it has some, then ``|`` and each
    square's count in order, one character a count (:data:`COUNT_DIGITS`).  A turn changes a few squares (``=k`` copies the parent's next k, ``~k`` skips them,
    ``x,y`` is itself) but the counts of most, as the bag empties.  :func:`read_open_words` reads it back."""
    keys = list(after)
    out: list[str] = []
    if before is None:
        out = keys
    else:
        for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, before, keys, autojunk=False).get_opcodes():
            if op == "equal":
                out.append(f"={i2 - i1}")
                continue
            if i2 > i1:
                out.append(f"~{i2 - i1}")
            out.extend(keys[j1:j2])
    return " ".join(out) + "|" + "".join(_count(n) for n in after.values())


#: The digits of the open squares' counts: one character a count under 62, ``_`` and two digits above.
COUNT_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _count(n: int) -> str:
    base = len(COUNT_DIGITS)
    if 0 <= n < base:
        return COUNT_DIGITS[n]
    if n < 0 or n >= base * base:
        raise ValueError(f"an open square's count out of range: {n}")
    return "_" + COUNT_DIGITS[n // base] + COUNT_DIGITS[n % base]


def _counts(text: str) -> list[int]:
    out: list[int] = []
    i = 0
    while i < len(text):
        if text[i] == "_":
            out.append(COUNT_DIGITS.index(text[i + 1]) * len(COUNT_DIGITS) + COUNT_DIGITS.index(text[i + 2]))
            i += 3
        else:
            out.append(COUNT_DIGITS.index(text[i]))
            i += 1
    return out


def read_open_words(before: list[str] | None, text: str) -> dict[str, int]:
    """What :func:`open_words` wrote, read back (as the page's script reads it)."""
    head, counts = text.split("|")
    keys: list[str] = []
    at = 0
    for word in head.split(" "):
        if before is not None and word[:1] in ("=", "~"):
            k = int(word[1:])
            if word[0] == "=":
                keys += before[at:at + k]
            at += k
        else:
            keys.append(word)
    return dict(zip(keys, _counts(counts)))

@dataclass
class Page:
    """What the games of one page share: the picture items and each ruleset's page definitions."""

    table: FrameTable = field(default_factory=FrameTable)
    defs: dict[str, Any] = field(default_factory=dict)


def player_names(record: Record) -> tuple[list[Seat], dict[str, str]]:
    """The seats of the Players tag (none when it cannot be read) and each colour's player name."""
    try:
        seats = record.seats()
    except ValueError:
        seats = []
    return seats, {c: s.name for s in seats for c in s.colours}


def game_title(record: Record, index: int) -> str:
    """``3. Event - Date - round 2 (game)``: how the game picker and the index name a game."""
    parts = (record.tag("Event"), record.tag("Date"), record.tag("Round") and f"round {record.tag('Round')}")
    return f"{index + 1}. {' - '.join(p for p in parts if p) or f'game {index + 1}'} ({record.game})"


class _Builder:
    """The nodes of one game, in the order the viewer numbers them."""

    def __init__(self, page: Page, ruleset: Ruleset, record: Record, seats: list[Seat], keys: list[str]) -> None:
        self.page = page
        self.ruleset = ruleset
        self.record = record
        self.seats = seats
        self.keys = keys
        self.nodes: list[dict[str, Any]] = []
        self.pictures: list[list[int]] = []
        self.problems_at: dict[int, list[str]] = {}
        self.trouble: list[str] = []
        #: Where the markup stands that the validator rejected: it is not drawn (R89).
        self.rejected: frozenset[tuple[int, int]] = frozenset()
        self.review: Review | None = None
        self.in_best = False
        #: Each node's panel in words, given or left to its parent's (the page fills in what is left out).
        self.panels: list[tuple[list[str], list[list[str]]] | None] = []
        #: Each node's open squares (None: none sent), what a child's are written against (R431).
        self.opens: list[list[str] | None] = []

    def picture(self, position: Position, parent: int, panel: bool) -> list[Any]:
        """The node's picture as ``[root id, edits of the parent's picture]`` (edits of nothing at the root);
        ``panel=False``: the board alone (the page shows the panel in words)."""
        defs = self.page.defs.get(self.ruleset.name)
        try:
            if panel:
                svg = self.ruleset.render_svg(position, shared_defs=defs)
            else:
                svg = self.ruleset.render_svg(position, BOARD_ALONE, shared_defs=defs)
            root, ids = self.page.table.picture(svg)
        except NotImplementedError:
            root, ids = -1, []
        before = self.pictures[parent] if parent >= 0 else []
        self.pictures.append(ids)
        return [root, self.page.table.edits(before, ids)]

    def add(self, position: Position, parent: int, turn: Turn | None, address: str, depth: int,
            events: list[str], comments: list[str], label: str | None = None) -> int:
        """A node for ``position``, the child of ``parent``; its index."""
        scores = position.state.scores
        # the page's script fills in what is left out: "a" is the turn number, "d" 0, "i" the parent's + 1
        node: dict[str, Any] = {"p": parent, "s": [int(scores.get(k, 0)) for k in self.keys]}
        if depth:
            node["d"] = depth
        if turn is None or turn.number <= 0 or address != str(turn.number):
            node["a"] = address
        if turn is not None and turn.number > 0:
            node["n"] = turn.number
            node["k"] = turn.player
            node["m"] = " ".join(command_text(a, self.ruleset) for a in turn.actions)
            node["w"] = "; ".join(self.ruleset.action_words(a) for a in turn.actions)
            glyphs = " ".join(n.glyph for n in turn.nags)
            if glyphs:
                node["g"] = glyphs
            if depth == 0 and turn.number in self.problems_at:
                node["x"] = self.problems_at[turn.number]
            seen = self.review.turn(turn.number) if self.review is not None and depth == 0 else None
            if seen is not None:
                # the analysis read back from the record (never analysed again here): margins, loss, judgement
                note = seen.note
                node["v"] = [note.played, note.played_se, note.best, note.best_se, note.lost, note.judgement or ""]
                # R333, R336: the chances to win and the luck of the draw, where the analysis gave them
                node["v"] += [note.win, note.win_best, note.luck]
                if seen.best:
                    node["bm"] = " ".join(command_text(a, self.ruleset) for a in seen.best)
                    node["bw"] = "; ".join(self.ruleset.action_words(a) for a in seen.best)
        if label:
            node["t"] = label
        if comments:
            node["c"] = comments
        if events:
            node["e"] = events
        # the panel in words beside the board, readable whatever the board's size (when the game gives it)
        # a panel the same as the parent's is left out: most turns change one player's line (the page's script
        # takes the parent's)
        panel = self.ruleset.player_panel(position)
        up = self.panels[parent] if parent >= 0 else None
        if panel is not None:
            lines, players = list(panel.lines), [list(panel.players.get(k, ())) for k in self.keys]
            if up is None or up[0] != lines:
                node["pl"] = lines
            if up is None or up[1] != players:
                # a player whose lines are the parent's is 0: the page takes the parent's (R431)
                node["pp"] = (players if up is None or len(up[1]) != len(players) else
                              [own if own != before else 0 for own, before in zip(players, up[1])])
            self.panels.append((lines, players))
        else:
            if up is not None:
                node["pl"] = node["pp"] = None  # no panel here: nothing is taken from the parent
            self.panels.append(None)
        aids = position_aids(position)
        if aids.projected is not None and aids.projected != dict(scores):
            node["j"] = [int(aids.projected.get(k, 0)) for k in self.keys]
        squares: list[str] | None = None
        if aids.open and not self.in_best:
            # a best-move variation is the analysis's aside: its open squares would double a long list per judged move
            node["o"] = open_words(self.opens[parent] if parent >= 0 else None, aids.open)
            squares = list(aids.open)
        self.opens.append(squares)
        node["f"] = self.picture(position, parent, panel is None)
        self.nodes.append(node)
        return len(self.nodes) - 1

    def ply(self, node: int) -> int:
        """How many turns lead to ``node``."""
        n = 0
        while self.nodes[node]["p"] >= 0:
            node = self.nodes[node]["p"]
            n += 1
        return n

    def line(self, state: Any, turns: tuple[Turn, ...], parent: int, prefix: str, depth: int, ply: int,
             intro: list[str]) -> tuple[int, Any]:
        """Nodes for the turns of one line played from ``state`` (the position of node ``parent``).

        Returns the last node and the state after it; a turn the engine
        refuses ends the line (the validator's report says why).
        """
        prev = parent
        for t in turns:
            if t.number == 0:
                continue  # set-up inside a line: the validator reports it
            before = state.copy() if t.variations else None
            try:
                events = _play(state, self.seats, t)
            except PositionError as exc:
                self.trouble.append(f"{prefix}{t.number}: {exc}")
                break
            ply += 1
            pos = Position(self.record, state, self.seats, t, ply, drawable(t.markup, self.rejected), events,
                           f"{prefix}{t.number}",
                           turns, self.ruleset)
            comments = intro + [c.text for c in t.comments if not (self.review is not None and eval_comment(c))]
            intro = []
            seen = self.review.turn(t.number) if self.review is not None and depth == 0 else None
            if seen is not None and seen.best:
                # the best move found, drawn on the board of the judged turn by the game's own markup
                pos.markup = pos.markup + self.ruleset.best_move_markup(seen.best)
            node = self.add(pos, prev, t, f"{prefix}{t.number}", depth, describe_events(events), comments)
            for k, var in enumerate(t.variations, 1):
                assert before is not None
                best = self.review is not None and is_best_variation(var)
                said = [n.text for n in var.intro if isinstance(n, Comment) and not (best and n is var.intro[0])]
                first = len(self.nodes)
                self.in_best, outer = best, self.in_best
                self.line(before.copy(), var.turns, prev, f"{prefix}{t.number}({k})", depth + 1, ply - 1, said)
                self.in_best = outer
                if best and first < len(self.nodes):
                    self.nodes[first]["b"] = 1  # the variation is the analysis's best move
            prev = node
        return prev, state


def game_view(record: Record, index: int, page: Page, *, tileset: Any = None,
              report: GameReport | None = None) -> dict[str, Any]:
    """The viewer's data for one game: players, header, nodes, problems, and each player's colour."""
    if report is None:
        report = validate_record(record, file=None, index=index, tileset=tileset)
    seats, names = player_names(record)
    keys = [s.key for s in seats]
    problems = [d for d in report.diagnostics if d.severity == "error"]
    data: dict[str, Any] = {
        "title": game_title(record, index),
        "game": record.game,
        "players": [[s.key, s.name] for s in seats],
        "names": names,
        "tags": [[k, v] for k, v in record.tags],
        "valid": report.valid,
        "complete": report.complete,
    }
    intro = [c.text for c in record.intro if isinstance(c, Comment)]
    builder: _Builder | None = None
    try:
        ruleset = registry.find_ruleset(record.game)
        if ruleset.name not in page.defs:
            page.defs[ruleset.name] = ruleset.page_defs()
        seats = ruleset.seats(record)
        state = engine_for(ruleset, record, seats, tileset)
        builder = _Builder(page, ruleset, record, seats, keys)
        builder.rejected = rejected_markup(problems)  # the page draws no markup the validator rejects (R89)
        for d in problems:
            if d.turn is not None:
                builder.problems_at.setdefault(d.turn, []).append(d.message)
        try:
            builder.review = read_review(record, seats, ruleset)
        except ReviewError as exc:
            where = f"line {exc.span.line}, column {exc.span.column}: " if exc.span is not None else ""
            trouble = [f"cannot read the analysis: {where}{exc.message}"]
        else:
            trouble = []
        if builder.review is not None and ruleset.luck_words != Ruleset.luck_words:
            data["lw"] = list(ruleset.luck_words)  # R456: what the luck bar weighs, when not the page's tile draw
        if builder.review is not None:
            data["review"] = [[p.player, p.moves, round(p.average_points_lost, 2), round(p.accuracy, 1),
                               p.inaccuracies, p.mistakes, p.blunders] for p in builder.review.players]
        markup = drawable([m for m in record.intro if isinstance(m, Markup)], builder.rejected)
        setup = [t for t in record.turns if t.number == 0]
        for t in setup:
            _play(state, seats, t)
            markup += drawable(t.markup, builder.rejected)
            intro += [c.text for c in t.comments]
        start = Position(record, state, seats, setup[-1] if setup else None, 0, markup, [], "0", record.turns,
                         ruleset)
        root = builder.add(start, -1, None, "0", 0, [], intro, "Start")
        last, state = builder.line(state, record.turns, root, "", 0, 0, [])
        if state.is_over and not builder.trouble and report.complete:
            events = describe_events(state.final_scoring())
        else:
            events = []
        if events:  # a game whose end scores nothing has no final-scoring position to show
            ply = builder.ply(last) + 1
            final_turn = next((t for t in reversed(record.turns) if t.number > 0), None)
            pos = Position(record, state, seats, final_turn, ply, [], [], "final", record.turns, ruleset, True)
            builder.add(pos, last, None, "final", 0, events, [], "Final scoring")
        data["problems"] = ([[d.turn, d.one_line()] for d in problems] + [[None, f"cannot show {t}"]
                                                                          for t in builder.trouble]
                            + [[None, x] for x in trouble])
    except Exception as exc:  # noqa: BLE001 - a game that cannot be replayed still gets a page
        message = getattr(exc, "message", None) or str(exc)
        data["problems"] = [[d.turn, d.one_line()] for d in problems] + [[None, f"cannot show the game: {message}"]]
    if builder is None or not builder.nodes:
        data["nodes"] = [{"p": -1, "a": "0", "s": [0 for _ in keys], "t": "Start",
                          "c": intro, "f": [-1, []]}]
    else:
        data["nodes"] = builder.nodes
    # the page's script draws the score chart from the main line's scores, in each player's colour and dash
    data["colours"] = [st.player_fill(p[0]) for p in data["players"]]
    return data
