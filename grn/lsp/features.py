"""What the server answers, as Language Server Protocol values: diagnostics, completion, hover, symbols,
quick fixes and formatting of a :class:`~grn.lsp.document.Document`.

Places are kept as grn keeps them (1-based lines, columns counted in
characters) until :class:`Lines` turns them into the protocol's positions in the
encoding the client chose.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Callable, Sequence

from lsprotocol import types as lsp

from grn.core import registry
from grn.core.errors import Diagnostic, GrnError
from grn.lsp import context
from grn.lsp.document import Document, Game, address
from grn.rules.position import PositionError, position_at
from grn.core.record import Record, Turn, Variation
from grn.rules.ruleset import player_key
from grn.notation.writer import command_text, write_records

#: A word of movetext, as far as an editor selects one: up to white space, brackets or a comment.
_WORD = re.compile(r"[^\s(){};<>\[\]\"]+")

Convert = Callable[[int, int], lsp.Position]


@dataclass(frozen=True, slots=True)
class Lines:
    """The document's lines (ending at ``\\n``, as grn counts them) and the client's position encoding."""

    lines: tuple[str, ...]
    to_client: Convert  # (0-based line, 0-based character) -> the client's Position
    from_client: Callable[[lsp.Position], tuple[int, int]]  # -> (0-based line, 0-based character)

    def position(self, line: int, column: int) -> lsp.Position:
        """The protocol position of grn's ``line``:``column`` (1-based), clamped to the text."""
        row = min(max(line - 1, 0), max(len(self.lines) - 1, 0))
        text = self.lines[row] if self.lines else ""
        return self.to_client(row, min(max(column - 1, 0), len(text)))

    def word_end(self, line: int, column: int) -> int:
        """The column just past the word that starts at ``line``:``column`` (at least one character on)."""
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        m = _WORD.match(text, column - 1) if column >= 1 else None
        if m is not None and m.end() > column - 1:
            return m.end() + 1
        return max(column, min(column + 1, len(text) + 1))

    def range_of_word(self, line: int, column: int) -> lsp.Range:
        """The range of the word a grn span points at."""
        return lsp.Range(self.position(line, column), self.position(line, self.word_end(line, column)))


# ---------------------------------------------------------------------------
# diagnostics
# ---------------------------------------------------------------------------

def message(d: Diagnostic) -> str:
    """The words ``grn validate`` prints for ``d``, without the file and line it starts with."""
    return d.one_line()[len(d.location()) + len(d.severity) + 4:]


_SEVERITY = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning,
             "info": lsp.DiagnosticSeverity.Information}


def diagnostics(doc: Document, lines: Lines, uri: str) -> list[lsp.Diagnostic]:
    """Every problem of the document, as ``grn validate`` finds it, each underlining the word it names."""
    out = []
    for game in doc.games:
        for d in game.editor_diagnostics():
            out.append(_diagnostic(d, game, lines, uri))
    for d in doc.problems:
        out.append(_diagnostic(d, None, lines, uri))
    return out


def _diagnostic(d: Diagnostic, game: Game | None, lines: Lines, uri: str) -> lsp.Diagnostic:
    if d.span is not None:
        where = lines.range_of_word(d.span.line, d.span.column)
    else:
        line = game.first_line if game is not None else 1
        where = lines.range_of_word(line, 1)
    related = None
    if d.notes and game is not None:
        turn = _turn_numbered(game, d.turn, d.span.line if d.span else None)
        if turn is not None and turn.span is not None:
            span = game.span(turn.span)
            assert span is not None
            related = [lsp.DiagnosticRelatedInformation(
                lsp.Location(uri, lines.range_of_word(span.line, span.column)), note) for note in d.notes]
    return lsp.Diagnostic(where, message(d), severity=_SEVERITY.get(d.severity, lsp.DiagnosticSeverity.Error),
                          code=d.code, source="grn", related_information=related)


def _turn_numbered(game: Game, number: int | None, before_line: int | None) -> Turn | None:
    """The last turn numbered ``number`` that starts on or before ``before_line`` (main line or variation)."""
    best = None
    for turn, _, _ in game.turns():
        span = game.span(turn.span)
        if turn.number == number and span is not None and (before_line is None or span.line <= before_line):
            if best is None or (game.span(best.span) or span) < span:
                best = turn
    return best


# ---------------------------------------------------------------------------
# completion
# ---------------------------------------------------------------------------

_KINDS = {"tile": lsp.CompletionItemKind.Value, "placement": lsp.CompletionItemKind.Snippet,
          "action": lsp.CompletionItemKind.Function, "position": lsp.CompletionItemKind.Field,
          "value": lsp.CompletionItemKind.Value, "player": lsp.CompletionItemKind.Variable,
          "tag": lsp.CompletionItemKind.Property, "game": lsp.CompletionItemKind.Module}


@lru_cache(maxsize=1)
def tag_list() -> tuple[dict[str, Any], ...]:
    """The header tags an editor offers (``grn/lsp/tags.json``, checked by ``schemas/tags.schema.json``)."""
    data = json.loads(resources.files("grn.lsp").joinpath("tags.json").read_text(encoding="utf-8"))
    return tuple(data["tags"])


def completion(doc: Document, lines: Lines, line: int, column: int) -> lsp.CompletionList:
    """What may be written at ``line``:``column`` (1-based): tag names and values, the player, then what
    the game's rules allow in the turn (:meth:`grn.rules.ruleset.Ruleset.suggestions`)."""
    game = doc.game_at(line)
    if game is None:
        where: Any = context.TagContext("") if _in_tag_name(lines, line, column) else None
    else:
        where = context.at(game.text, game.first_line, line, column)
    items: list[tuple[str, str, str]] = []  # text, detail, kind
    word = ""
    if isinstance(where, context.TagContext):
        if where.value is None:
            word = where.name
            items = [(f'{t["name"]} "', t["detail"], "tag") for t in tag_list()]
        else:
            word = where.value.rsplit(",", 1)[-1].lstrip() if where.name in ("Options", "Result") else where.value
            items = _tag_values(where, game)
    elif isinstance(where, context.TurnContext):
        if not where.player_typed:
            word = where.word
            current = where.state.current_player
            items = [(s.key, f"{s.name}" + (", to play" if s.key == current else ""), "player")
                     for s in sorted(where.seats, key=lambda s: s.key != current)]
        elif where.checkpoint is not None:
            word = where.word
            items = _checkpoint_items(where)
        else:
            word = where.word
            try:
                found = where.ruleset.suggestions(where.state, where.player, where.written, where.word)
            except (GrnError, PositionError):
                found = []  # the turn so far breaks the rules: the diagnostics say how
            items = [(s.text, s.detail, s.kind) for s in found]
    start = column - len(word)
    edit_range = lsp.Range(lines.position(line, start), lines.position(line, column))
    out = []
    for order, (text, detail, kind) in enumerate(items):
        out.append(lsp.CompletionItem(
            label=text, detail=detail or None, kind=_KINDS.get(kind, lsp.CompletionItemKind.Text),
            text_edit=lsp.TextEdit(edit_range, text), filter_text=text, sort_text=f"{order:05d}"))
    return lsp.CompletionList(is_incomplete=False, items=out)


def _checkpoint_items(where: context.TurnContext) -> list[tuple[str, str, str]]:
    """A score checkpoint's items: each player not yet named, with the score the rules give after the turn."""
    try:
        scores = where.state.after(where.player, where.written)[0].scores
    except GrnError:
        return []  # the turn breaks the rules: the diagnostics say how
    assert where.checkpoint is not None
    named = {player_key(where.seats, item.partition("=")[0]) for item in where.checkpoint}
    return [(f"{s.key}={scores[s.key]}", "the score after this turn", "value")
            for s in where.seats if s.key not in named and s.key in scores]


def _in_tag_name(lines: Lines, line: int, column: int) -> bool:
    text = lines.lines[line - 1][:column - 1] if 0 < line <= len(lines.lines) else ""
    return re.fullmatch(r"\s*\[\s*[A-Za-z0-9_]*", text) is not None


def _tag_values(where: context.TagContext, game: Game | None) -> list[tuple[str, str, str]]:
    spec = next((t for t in tag_list() if t["name"] == where.name), None)
    values = spec.get("values") if spec else None
    ruleset = where.ruleset
    if isinstance(values, list):
        return [(v, "", "value") for v in values]
    if values == "games":
        return [(name, registry.find_ruleset(name).title, "game") for name in registry.names()]
    if values == "options" and ruleset is not None:
        return [(name, ruleset.options_help, "value") for name in sorted(ruleset.option_names)]
    if values == "colours" and ruleset is not None:
        value = where.value or ""
        if not re.search(r"\([a-z+ ]*$", value):
            return []
        taken = set(re.findall(r"[a-z]+", value[value.rfind("("):]))
        used = set(re.findall(r"\(([a-z+ ]+)\)", value))
        used = {c for group in used for c in group.split("+")}
        return [(c, "a colour", "value") for c in ruleset.colours if c not in used | taken]
    if values == "result" and game is not None and game.report.final_scores and game.report.complete:
        scores = game.report.final_scores
        return [(", ".join(f"{who} {pts}" for who, pts in scores.items()), "the final scoring", "value")]
    return []


# ---------------------------------------------------------------------------
# hover
# ---------------------------------------------------------------------------

def hover(doc: Document, lines: Lines, line: int, column: int) -> lsp.Hover | None:
    """On a problem: the rule broken, where it stands in the rules, what is legal.  On a turn's number or
    player: its events and the scores after it.  On a tile id: what the tile shows."""
    parts: list[str] = []
    for d in doc.diagnostics():
        if d.span is not None and d.span.line == line and d.span.column <= column < lines.word_end(
                d.span.line, d.span.column):
            text = f"**{d.severity}**: {d.message}"
            if d.rule:
                text += f"\n\n**Rule:** {d.rule}"
            if d.section:
                text += f"\n\n**Where in the rules:** {d.section}"
            if d.hint:
                text += f"\n\n**Legal:** {d.hint}"
            parts.append(text)
    game = doc.game_at(line)
    if game is not None:
        about = _hover_turn(game, line, column) or _hover_word(game, lines, line, column)
        if about:
            parts.append(about)
    if not parts:
        return None
    return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, "\n\n---\n\n".join(parts)))


def _hover_turn(game: Game, line: int, column: int) -> str | None:
    text = game.text.split("\n")[line - game.first_line] if 0 <= line - game.first_line < game.text.count(
        "\n") + 1 else ""
    for turn, steps, before in game.turns():
        span = game.span(turn.span)
        if span is None or span.line != line:
            continue
        m = re.match(r"\d+\.\s+[a-z][a-z0-9_]*", text[span.column - 1:])
        if not m or not span.column <= column <= span.column + m.end():
            continue
        played = play(game.record, steps, before, turn)
        if played is None:
            return None
        events, scores = played
        said = "\n".join(f"* {e}" for e in events) or "* scores nothing"
        board = ", ".join(f"{who} {pts}" for who, pts in scores.items())
        return f"**Turn {turn.number}** ({turn.player})\n\n{said}\n\n**Scores after it:** {board}"
    return None


def play(record: Record, steps: tuple[tuple[int, int], ...], before: int,
         turn: Turn) -> tuple[list[str], dict[str, int]] | None:
    """A turn's events in words and the scores after it (None: the record cannot be replayed to it)."""
    if not record.ok or turn.number == 0:
        return None
    try:
        position = position_at(record, address(steps, before))
        events = position.state.play_turn(player_key(position.seats, turn.player), turn.actions)
    except (PositionError, GrnError, registry.UnknownGame):
        return None
    return [e.describe().rstrip(".") if hasattr(e, "describe") else repr(e) for e in events], position.state.scores


def _hover_word(game: Game, lines: Lines, line: int, column: int) -> str | None:
    text = lines.lines[line - 1] if 0 < line <= len(lines.lines) else ""
    for m in _WORD.finditer(text):
        if m.start() < column <= m.end() + (m.end() == len(text)):
            where = context.at(game.text, game.first_line, line, m.start() + 1)
            if isinstance(where, context.TurnContext) and where.player_typed:
                return where.ruleset.word_info(m.group(0), where.state)
            return None
    return None


# ---------------------------------------------------------------------------
# document symbols
# ---------------------------------------------------------------------------

def symbols(doc: Document, lines: Lines) -> list[lsp.DocumentSymbol]:
    """The games of the document, their turns and variations, as an outline."""
    out = []
    for game in doc.games:
        record = game.record
        name = record.tag("Event") or record.tag("Players") or f"game {game.index + 1}"
        whole = lsp.Range(lines.position(game.first_line, 1), lines.position(game.last_line, 10 ** 9))
        children = _line_symbols(game, lines, record.turns)
        out.append(lsp.DocumentSymbol(f"{game.index + 1}. {name}", lsp.SymbolKind.Module, whole, whole,
                                      detail=record.game, children=children))
    return out


def _line_symbols(game: Game, lines: Lines, turns: tuple[Turn, ...]) -> list[lsp.DocumentSymbol]:
    ruleset = registry.find_ruleset(game.record.game) if registry.known(game.record.game) else None
    out = []
    for turn in turns:
        span = game.span(turn.span)
        if span is None:
            continue
        head = lines.range_of_word(span.line, span.column)
        whole = lsp.Range(head.start, lines.position(span.line, 10 ** 9))
        children = []
        for k, var in enumerate((e for e in turn.extras if isinstance(e, Variation)), start=1):
            vspan = game.span(var.span) or span
            vrange = lsp.Range(lines.position(vspan.line, vspan.column), lines.position(vspan.line, 10 ** 9))
            children.append(lsp.DocumentSymbol(f"variation {k} at turn {turn.number}", lsp.SymbolKind.Namespace,
                                               vrange, vrange, children=_line_symbols(game, lines, var.turns)))
        actions = " ".join(command_text(a, ruleset) for a in turn.actions)
        out.append(lsp.DocumentSymbol(f"{turn.number}. {turn.player} {actions}".rstrip(), lsp.SymbolKind.Event,
                                      whole, head, children=children or None))
    return out


# ---------------------------------------------------------------------------
# quick fixes
# ---------------------------------------------------------------------------

_TAG_CASE = re.compile(r"tag names are case-sensitive: write \[([A-Za-z][A-Za-z0-9_]*) ")
_ROTATED = re.compile(r"tile (\S+) fits at (-?\d+),(-?\d+) only rotated ([0-9]+(?: or [0-9]+)*)")
_ADD_OPTION = re.compile(r'add the option: \[Options "([^"]+)"\]')


def code_actions(doc: Document, lines: Lines, uri: str, wanted: lsp.Range,
                 sent: Sequence[lsp.Diagnostic]) -> list[lsp.CodeAction]:
    """Quick fixes for the problems in ``wanted`` whose message names the fix: a tag's case, a rotation
    that fits, an option the game needs."""
    out: list[lsp.CodeAction] = []
    for game in doc.games:
        for d in game.diagnostics():
            if d.span is None:
                continue
            where = lines.range_of_word(d.span.line, d.span.column)
            if where.end.line < wanted.start.line or where.start.line > wanted.end.line:
                continue
            same = [s for s in sent if s.range == where and s.message == message(d)] or None
            for title, edits in _fixes(d, game, lines):
                out.append(lsp.CodeAction(title, kind=lsp.CodeActionKind.QuickFix, diagnostics=same,
                                          edit=lsp.WorkspaceEdit(changes={uri: edits}), is_preferred=len(out) == 0))
    return out


def _fixes(d: Diagnostic, game: Game, lines: Lines) -> list[tuple[str, list[lsp.TextEdit]]]:
    assert d.span is not None
    line, column = d.span.line, d.span.column
    text = d.message + " " + (d.hint or "")
    word = lines.range_of_word(line, column)
    m = _TAG_CASE.search(text)
    if m:
        name_end = lines.position(line, column + len(m.group(1)))
        return [(f"Write the tag name as {m.group(1)}", [lsp.TextEdit(lsp.Range(word.start, name_end), m.group(1))])]
    m = _ROTATED.search(text)
    if m:
        tile, x, y = m.group(1), m.group(2), m.group(3)
        out = []
        for r in m.group(4).split(" or "):
            new = f"{tile}@{x},{y}" + (f":{r}" if r != "0" else "")
            out.append((f"Turn the tile: {new}", [lsp.TextEdit(word, new)]))
        return out
    m = _ADD_OPTION.search(text)
    if m:
        return [(f"Add the option {m.group(1)}", [_option_edit(game, lines, m.group(1))])]
    return []


def _option_edit(game: Game, lines: Lines, option: str) -> lsp.TextEdit:
    record = game.record
    value = record.tag("Options")
    if value is not None and (span := game.span(record.tag_span("Options"))) is not None:
        text = lines.lines[span.line - 1]
        m = re.search(r'"((?:[^"\\]|\\.)*)"', text[span.column - 1:])
        if m:
            end = span.column - 1 + m.end(1)
            new = (", " if value.strip() else "") + option
            return lsp.TextEdit(lsp.Range(lines.position(span.line, end + 1), lines.position(span.line, end + 1)), new)
    # no Options tag: a new line after the last tag
    last = max((s.line for s in (game.span(s) for s in record.tag_spans) if s is not None), default=game.first_line)
    at_ = lines.position(last + 1, 1)
    return lsp.TextEdit(lsp.Range(at_, at_), f'[Options "{option}"]\n')


# ---------------------------------------------------------------------------
# formatting
# ---------------------------------------------------------------------------

class CannotFormat(GrnError):
    """The document has an error that reading reports, so it has no canonical form (as ``grn fmt``)."""


def formatting(doc: Document, lines: Lines) -> list[lsp.TextEdit]:
    """The whole document in canonical form (``grn fmt``); raises :class:`CannotFormat` when it does not read."""
    records = [g.record for g in doc.games]
    for game in doc.games:
        for d in game.record.diagnostics:
            if d.severity == "error":
                span = game.span(d.span)
                where = f"line {span.line}, column {span.column}: " if span is not None else ""
                raise CannotFormat(f"cannot format: the document does not read ({where}{d.message})")
    if not records:
        return []
    new = write_records(records)
    if new == doc.text:
        return []
    end = lines.position(len(lines.lines), 10 ** 9)
    return [lsp.TextEdit(lsp.Range(lsp.Position(0, 0), end), new)]


__all__ = ["CannotFormat", "Lines", "code_actions", "completion", "diagnostics", "formatting", "hover", "message",
           "play", "symbols", "tag_list"]
