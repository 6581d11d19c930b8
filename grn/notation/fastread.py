"""A verified fast path for reading the common shape of GRN games.

The Lark grammar in ``grammar/`` is the definition of GRN, and Lark reads
every game that this module does not take.  But Lark's LALR parser costs
about 20 microseconds a token in pure Python, which makes it the slowest part
of ``grn validate``, and importing Lark alone costs a third of a small file's
run.  Most records have a plain shape: header tags one per line, then one turn
per line holding a turn number, the player, actions, glyphs and score
checkpoints.  For those, this module splits lines into words and classifies
each word with **the grammar's own terminal regexes** (a :class:`TerminalTable`,
read from Lark's parser once and kept by :mod:`grn.notation.grammar_cache`, so that no
Lark is imported here), producing exactly the record Lark would, spans and
diagnostics included.  Any other body (comments, diagram markup, variations,
a turn over several lines) is read token by token, with the envelope's own
terminal regexes for comments, markup and strings (the careful path, R249).

It declines (returns ``None``) at the first thing it is not sure about: a word
that two terminals could claim, a word run into the next where Lark's terminal
would not end, anything malformed.  Lark then reads the game from the start,
so syntax errors are always Lark's.  ``tests/test_fastread.py`` and
``tests/test_fastread_notes.py`` check with random records that both paths
give the same records.
"""

from __future__ import annotations

import importlib
import re
from typing import Any, Callable, Final

from grn.rules.codec import MAX_DIGITS, CommandCodec, read_int
from grn.core.errors import Span
from grn.core.record import (Checkpoint, Command, Comment, Extra, Markup, MarkupText, Nag, Note, Turn, Variation,
                        markup_problem)
from grn.core.value import Value

_TAG_LINE: Final = re.compile(r'[ \t]*\[([A-Za-z][A-Za-z0-9_]*)[ \t]+("(?:[^"\\\n]|\\.)*")[ \t]*\][ \t\r]*$')
_TURN_NUMBER: Final = re.compile(r"\d+\.$")
#: "1." to "999.": a turn number as a body writes the next one (:meth:`FastReader._plain` compares, then asks a memo)
_TURN_TEXTS: Final[list[str]] = [f"{i}." for i in range(1000)]
#: Characters that only the full grammar handles (comments, variations, markup, strings): a body holding
#: one is read by the careful path (comments and markup) or declined.
_DECLINE: Final = '{}();<>"[]'
#: The white space the grammar ignores within a line.
_BLANK: Final = " \t\f\r"
#: A word of the careful path: up to white space or a character only the full grammar handles.
_CAREFUL_WORD: Final = re.compile(r'[^ \t\f\r\n(){}<>;"\[\]]+')
#: The careful path's tokens: (what, word, line, column, offset in the text, the note, its problem or "").
_Token = tuple[int, str, int, int, int, "Note | None", str]
_WORD_TOKEN: Final = 0
_NOTE_TOKEN: Final = 1
_OPEN_TOKEN: Final = 2
_CLOSE_TOKEN: Final = 3
#: The envelope's terminals the careful path reads comments and markup with.
_NOTE_TERMINALS: Final = ("BRACE_COMMENT", "LINE_COMMENT", "MARKUP_KIND", "MARKUP_WORD", "STRING")
#: White space the grammar does not ignore (it ignores only space, tab, form feed, CR, LF),
#: though str.split() would split on it.
_ODD_SPACE: Final = re.compile(r"[^\S \t\f\r\n]")
#: The same, for ASCII text (str.isspace() is true for these, the grammar ignores none of them).
_ODD_ASCII_SPACE: Final = "\x0b\x1c\x1d\x1e\x1f"


def _has_odd_space(text: str) -> bool:
    # str.__contains__ is many times quicker than a regex pass over the text
    if text.isascii():
        return any(c in text for c in _ODD_ASCII_SPACE)
    return _ODD_SPACE.search(text) is not None


#: The standard library's regex parser (private, so looked up by name: the first-character table reads its
#: trees; when it is missing or changes shape every terminal stays a candidate for every word).
try:
    _SRE: Any = importlib.import_module("re._parser")
except ImportError:  # pragma: no cover - every supported Python has it
    _SRE = None
_ASCII = frozenset(chr(i) for i in range(128))
#: What a character class category matches among ASCII characters (``str`` patterns without re.ASCII
#: agree with re.ASCII on them); a category not here counts as any character.
_CATEGORIES = {"CATEGORY_DIGIT": frozenset("0123456789"),
               "CATEGORY_WORD": frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"),
               "CATEGORY_SPACE": frozenset(" \t\n\r\f\v\x1c\x1d\x1e\x1f")}


def _first_chars(items: Any) -> tuple[frozenset[str], bool]:
    """(ASCII characters a match of the parsed regex ``items`` may start with, whether it may match empty).

    An over-estimate is always safe (a terminal kept as a candidate is tried, and fails); anything not
    understood gives every ASCII character.
    """
    out: set[str] = set()
    for op, av in items:
        name = str(op)
        if name == "LITERAL":
            out.add(chr(av))
            return frozenset(out), False
        if name == "IN":
            chars: set[str] = set()
            for cop, cav in av:
                cname = str(cop)
                if cname == "LITERAL":
                    chars.add(chr(cav))
                elif cname == "RANGE":
                    chars.update(chr(i) for i in range(cav[0], min(cav[1], 127) + 1))
                elif cname == "CATEGORY" and str(cav) in _CATEGORIES:
                    chars |= _CATEGORIES[str(cav)]
                else:  # NEGATE, other categories: anything
                    return _ASCII, False
            out |= chars
            return frozenset(out), False
        if name == "SUBPATTERN":
            if av[1] or av[2]:  # inline flags (ignore case...): anything
                return _ASCII, False
            chars2, empty = _first_chars(av[3])
            out |= chars2
            if not empty:
                return frozenset(out), False
        elif name == "BRANCH":
            empty = False
            for alt in av[1]:
                chars3, e = _first_chars(alt)
                out |= chars3
                empty = empty or e
            if not empty:
                return frozenset(out), False
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            chars4, empty = _first_chars(av[2])
            out |= chars4
            if av[0] > 0 and not empty:
                return frozenset(out), False
        elif name in ("AT", "ASSERT", "ASSERT_NOT"):
            continue  # zero width: they only narrow what follows
        else:  # ANY, NOT_LITERAL, GROUPREF, ...: anything
            return _ASCII, False
    return frozenset(out), True


def first_char_table(patterns: list[tuple[str, str]]) -> dict[str, tuple[tuple[str, re.Pattern[str]], ...]]:
    """Per ASCII character, the ``(name, regex)`` of ``patterns`` (in their order) that can match a word
    starting with it.

    Trying only those, in order, gives the same first match as one alternation of all of them, since an
    alternative that cannot start with the word's first character never matches.  A pattern whose
    first characters cannot be worked out is a candidate for every character.
    """
    firsts: list[frozenset[str]] = []
    for _, pattern in patterns:
        chars: frozenset[str] = _ASCII
        if _SRE is not None:
            try:
                parsed = _SRE.parse(pattern)
                # a global flag (ignore case, ...) changes what every literal matches: anything
                found, empty = _first_chars(parsed) if not parsed.state.flags & ~re.UNICODE else (_ASCII, False)
                if not empty:
                    chars = found
            except Exception:  # a parser of another shape: keep every character
                chars = _ASCII
        firsts.append(chars)
    compiled = [(name, re.compile(pattern)) for name, pattern in patterns]
    return {c: tuple(compiled[i] for i in range(len(patterns)) if c in firsts[i]) for c in sorted(_ASCII)}


_DIGITS: Final = "0123456789"
#: Every ASCII digit to "0": a word's shape (bytes.translate with a table is a plain C loop; str.translate with
#: a dict looks every character up as an object, several times the cost of the regex match it saves).
_TO_ZERO: Final = bytes.maketrans(b"123456789", b"000000000")


def _digits_alike(items: Any) -> bool:
    """Whether the parsed regex ``items`` treats the ten ASCII digits alike everywhere (no literal digit, no
    class holding some digits but not all, no back reference): then it matches a word and the word with its
    digits changed the same way, to the same length.  Anything not understood answers False."""
    for op, av in items:
        name = str(op)
        if name in ("LITERAL", "NOT_LITERAL"):
            if chr(av) in _DIGITS:
                return False
        elif name == "IN":
            held: set[str] = set()
            for cop, cav in av:
                cname = str(cop)
                if cname == "LITERAL":
                    if chr(cav) in _DIGITS:
                        held.add(chr(cav))
                elif cname == "RANGE":
                    held.update(c for c in _DIGITS if cav[0] <= ord(c) <= cav[1])
                elif cname == "CATEGORY":
                    if str(cav) in ("CATEGORY_DIGIT", "CATEGORY_WORD", "CATEGORY_NOT_SPACE"):
                        held.update(_DIGITS)
                    elif str(cav) not in ("CATEGORY_NOT_DIGIT", "CATEGORY_NOT_WORD", "CATEGORY_SPACE"):
                        return False
                elif cname != "NEGATE":  # negation keeps digits alike when the class does
                    return False
            if held and len(held) != len(_DIGITS):
                return False
        elif name == "SUBPATTERN":
            if av[1] or av[2] or not _digits_alike(av[3]):  # inline flags: not analysed
                return False
        elif name == "BRANCH":
            if not all(_digits_alike(alt) for alt in av[1]):
                return False
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            if not _digits_alike(av[2]):
                return False
        elif name in ("ASSERT", "ASSERT_NOT"):
            if not _digits_alike(av[1]):
                return False
        elif name not in ("AT", "ANY"):  # GROUPREF, ...: not analysed
            return False
    return True


def digits_alike(patterns: list[str]) -> bool:
    """Whether every regex of ``patterns`` treats the ASCII digits alike, so that a word's terminal is its
    shape's (:func:`word_shape`): Lark's scanner then takes a new placement word for what it took a word of
    the same shape for, and one look-up replaces a regex match per new word."""
    if _SRE is None:
        return False
    for pattern in patterns:
        try:
            parsed = _SRE.parse(pattern)
            if parsed.state.flags & ~re.UNICODE or not _digits_alike(parsed):
                return False
        except Exception:  # a parser of another shape: no shapes
            return False
    return True


def word_shape(word: str) -> str:
    """``word`` with every ASCII digit made ``0`` ("47b@-3,12:90" -> "00b@-0,00:00")."""
    return word.encode("utf-8", "surrogatepass").translate(_TO_ZERO).decode("utf-8", "surrogatepass")


_ESCAPE_RE: Final = re.compile(r"\\(.)")


def unescape(quoted: str) -> str:
    """The text of a quoted GRN string (``\\"`` and ``\\\\`` escapes)."""
    return _ESCAPE_RE.sub(r"\1", quoted[1:-1])


def caret(text: str, line: int, column: int) -> str:
    """The source line ``line`` of ``text`` (1-based), for the caret display under a diagnostic."""
    # lines end at "\n" only, as the grammar counts them (not at a form feed, U+2028 or a lone CR)
    lines = text.split("\n")
    return lines[line - 1].rstrip("\r") if 0 < line <= len(lines) else ""


class Terminal(Value):
    """One terminal of a game's grammar as Lark's scanner has it: its name, its regex, and what orders the
    scanner's tries (``priority``, then the widest match ``max_width``, then ``length``, the length of its
    definition, then the name)."""

    __slots__ = ("name", "regex", "priority", "max_width", "length")
    _fields = ("name", "regex", "priority", "max_width", "length")

    def __init__(self, name: str, regex: str, priority: int, max_width: int, length: int) -> None:
        self.name: Final = name
        self.regex: Final = regex
        self.priority: Final = priority
        self.max_width: Final = max_width
        self.length: Final = length

    def _key(self) -> tuple[object, ...]:
        return (self.name, self.regex, self.priority, self.max_width, self.length)

    def __repr__(self) -> str:
        return f"<Terminal {self.name} /{self.regex}/>"

    def order(self) -> tuple[int, int, int, str]:
        """The key Lark's scanner sorts its terminals by (the first that matches wins)."""
        return (-self.priority, -self.max_width, -self.length, self.name)


class TerminalTable(Value):
    """What the fast reader needs of a game's grammar: its terminals and which of them are actions.

    Made from Lark's parser once (:func:`grn.notation.larkread.terminal_table`) and kept as JSON by
    :mod:`grn.notation.grammar_cache`, so that reading a game the fast reader takes imports no Lark.
    """

    __slots__ = ("terminals", "actions")
    _fields = ("terminals", "actions")

    def __init__(self, terminals: tuple[Terminal, ...], actions: tuple[str, ...]) -> None:
        self.terminals: Final = terminals
        self.actions: Final = actions

    def _key(self) -> tuple[object, ...]:
        return (self.terminals, self.actions)

    def __repr__(self) -> str:
        return f"<TerminalTable {len(self.terminals)} terminals, actions {', '.join(self.actions)}>"

    def to_json(self) -> dict[str, Any]:
        """The table as a JSON document (:meth:`from_json` reads it back)."""
        return {"terminals": [[t.name, t.regex, t.priority, t.max_width, t.length] for t in self.terminals],
                "actions": list(self.actions)}

    @staticmethod
    def from_json(doc: Any) -> TerminalTable:
        """The table of a JSON document :meth:`to_json` wrote; ``ValueError`` when it is not one (a cache file
        of another shape), with every regex compiled once to be sure it is one."""
        if not isinstance(doc, dict) or not isinstance(doc.get("terminals"), list) \
                or not isinstance(doc.get("actions"), list):
            raise ValueError("not a terminal table")
        terminals: list[Terminal] = []
        for row in doc["terminals"]:
            if not (isinstance(row, list) and len(row) == 5 and isinstance(row[0], str) and isinstance(row[1], str)
                    and all(isinstance(v, int) and not isinstance(v, bool) for v in row[2:])):
                raise ValueError("not a terminal table")
            try:
                re.compile(row[1])
            except re.error as exc:
                raise ValueError(f"not a regex: {row[1]!r}") from exc
            terminals.append(Terminal(row[0], row[1], row[2], row[3], row[4]))
        actions = doc["actions"]
        known = {t.name for t in terminals}
        if not all(isinstance(a, str) and a in known for a in actions) \
                or not {"PLAYER", "NAG", "SCORE", "SCORE_ITEM", "TURN_NUMBER"} <= known:
            raise ValueError("not a terminal table")
        return TerminalTable(tuple(terminals), tuple(actions))


#: Reads one action word: (text, span, problems) -> command (a codec's ``read``).
WordReader = Callable[[str, Span, list], Command]


#: Words remembered per reader, at most (a long archive of odd words must not grow memory without end).
_MEMORY: Final = 20_000


def _remember(memo: dict, word: object, value: object) -> None:
    if len(memo) >= _MEMORY:
        memo.clear()
    memo[word] = value


class FastReader:
    """Reads plain games with the terminal regexes of one game's Lark grammar."""

    def __init__(self, table: TerminalTable, readers: dict[str, WordReader],
                 unescape: Callable[[str], str]) -> None:
        terminals = {t.name: t for t in table.terminals}
        names = set(table.actions)
        self.action_names = frozenset(names)
        # The terminals Lark's lexer may meet where an action can stand, in the
        # order its lexer tries them (priority, then width): the first that
        # matches wins, even if it matches only the start of the word.
        rivals = [terminals[n] for n in (*sorted(names), "SCORE", "NAG", "TURN_NUMBER")]
        rivals.sort(key=Terminal.order)
        # One alternation in that order, like Lark's own scanner: the first
        # alternative that matches is the terminal Lark would see.
        self.scanner = re.compile("|".join(f"(?P<{t.name}>{t.regex})" for t in rivals))
        # The same rivals by a word's first character: most words can start only one or two of them,
        # and trying those alone costs less than the whole alternation (non-ASCII words use the scanner).
        self._by_first = first_char_table([(t.name, t.regex) for t in rivals])
        #: word shape (:func:`word_shape`) -> its action terminal, or "" for none; None when some rival
        #: tells digits apart (then each new word is scanned)
        self._shapes: dict[bytes, str] | None = (
            {} if digits_alike([t.regex for t in rivals]) else None)
        regex = {name: re.compile(terminals[name].regex) for name in ("PLAYER", "NAG", "SCORE_ITEM")}
        # Comments and markup are read here when the envelope's terminals for them are there and no rival
        # can start with what starts them (then Lark's scanner meets them as the envelope has them).
        self._notes = all(n in terminals for n in _NOTE_TERMINALS) and not any(self._by_first.get(c)
                                                                                 for c in "{;<")
        notes = {n: re.compile(terminals[n].regex if n in terminals else "(?!)") for n in _NOTE_TERMINALS}
        self._brace = notes["BRACE_COMMENT"]
        self._line_comment = notes["LINE_COMMENT"]
        self._markup_kind = notes["MARKUP_KIND"]
        self._markup_word = notes["MARKUP_WORD"]
        self._string = notes["STRING"]
        self.player = regex["PLAYER"]
        self.nag = regex["NAG"]
        self.score_item = regex["SCORE_ITEM"]
        #: action terminal -> the codec's read (one definition per command: :mod:`grn.rules.codec`)
        self.readers = readers
        # the codecs themselves when every reader is a codec's read (as grn.notation.read gives them): a compiled
        # call of codec.read() skips the bound method's argument parsing, once per action word
        codecs = {t: getattr(r, "__self__", None) for t, r in readers.items()}
        self._codecs: dict[str, CommandCodec] | None = None
        if all(isinstance(c, CommandCodec) and getattr(r, "__name__", "") == "read"
               for c, r in zip(codecs.values(), readers.values())):
            self._codecs = {t: c for t, c in codecs.items() if isinstance(c, CommandCodec)}
        self.unescape = unescape
        # Records repeat their words ("+N", "tent@2,0", "red", "12."), and one
        # dict look-up costs far less than the scanner: remember what each word is.
        #: word -> the action terminal it is, or "" when it is none
        self._kinds: dict[str, str] = {}
        #: word -> whether it is a turn number / a player word
        #: word -> the turn number it is ("12." -> 12), -1 when it is none, -2 when it is one too long to
        #: remember (read each time, so that its problem is noted where it stands)
        self._numbers: dict[str, int] = {}
        self._players: dict[str, bool] = {}
        #: header line -> ((tag name, value), column of the name): most games repeat most of their header
        self._tag_lines: dict[str, tuple[tuple[str, str], int]] = {}

    def classify(self, word: str) -> str | None:
        """The action terminal Lark's lexer would read ``word`` as, if it reads all of it."""
        kind = self._kinds.get(word)
        if kind is None:
            kind = self._new_kind(word)
        return kind or None

    def _new_kind(self, word: str) -> str:
        """The action terminal of a word not met before ("" for none), remembered."""
        shapes = self._shapes
        if shapes is None or not word.isascii():
            found = self._scan(word)
            kind = found if found is not None and found in self.action_names else ""
        else:
            # most new words are placements ("47b@-3,12:90") of a shape met before: no regex to run
            shape = word.encode("ascii").translate(_TO_ZERO)
            known = shapes.get(shape)
            if known is None:
                found = self._scan(word)
                kind = found if found is not None and found in self.action_names else ""
                _remember(shapes, shape, kind)
            else:
                kind = known
        _remember(self._kinds, word, kind)
        return kind

    def _scan(self, word: str) -> str | None:
        """The terminal that Lark's scanner takes ``word`` for, if it takes all of it."""
        rivals = self._by_first.get(word[0])
        if rivals is None:
            m = self.scanner.match(word)
            return None if m is None or m.end() != len(word) else m.lastgroup
        for name, rx in rivals:
            m = rx.match(word)
            if m is not None:
                return name if m.end() == len(word) else None
        return None

    def _number(self, word: str) -> int:
        """What :attr:`_numbers` says of a word not met before (the number, -1 or -2), remembered."""
        if _TURN_NUMBER.match(word) is None:
            value = -1
        elif len(word) <= MAX_DIGITS:  # at most MAX_DIGITS - 1 digits and the dot: never a problem to note
            value = int(word[:-1])
        else:
            value = -2
        _remember(self._numbers, word, value)
        return value

    def _is_player(self, word: str) -> bool:
        ok = self._players.get(word)
        if ok is None:
            ok = word != "score" and self.player.fullmatch(word) is not None
            _remember(self._players, word, ok)
        return ok

    def read(self, text: str, first_line: int, problems: list) -> tuple | None:
        """``(tags, turns, tag spans, intro)`` of a game, or ``None`` to let Lark read it.

        A body with no comment, markup or variation, one turn to a line, is read line by line (the quick way,
        most records' shape); any other is read token by token (:meth:`_careful`).  ``problems`` gets the
        problems of meaning, in the order Lark notes them (nothing is kept of them when it declines).
        """
        if _has_odd_space(text):
            return None
        lines = text.split("\n")
        tags = []
        tag_spans: list[Span] = []
        tag_lines = self._tag_lines
        i = 0
        n = len(lines)
        while i < n:
            line = lines[i]
            stripped = line.strip()
            if stripped:
                if stripped[0] != "[":
                    break
                known = tag_lines.get(line)
                if known is None:
                    m = _TAG_LINE.match(line)
                    if m is None:
                        return None
                    quoted = m.group(2)
                    # a GRN string escapes with a backslash: without one its text is what the quotes hold
                    known = ((m.group(1), self.unescape(quoted) if "\\" in quoted else quoted[1:-1]), m.start(1) + 1)
                    _remember(tag_lines, line, known)
                tags.append(known[0])
                tag_spans.append(Span(first_line + i, known[1]))
            i += 1
        offset = sum(len(l) + 1 for l in lines[:i])
        mark = len(problems)
        body = text[offset:]
        if not any(c in body for c in _DECLINE):
            turns = self._plain(lines, i, first_line, problems)
            if turns is not None:
                return tags, turns, tag_spans, []
            del problems[mark:]  # a turn over several lines, or a syntax error: the careful path says which
        got = self._careful(text, offset, first_line + i, problems)
        if got is None:
            return None
        return tags, got[1], tag_spans, got[0]

    def _plain(self, lines: list[str], i: int, first_line: int, problems: list) -> list[Turn] | None:
        """The turns of a body of one turn a line with no comment, markup or variation (from line ``i``), or
        ``None`` for any other shape.

        Kept whole: the fast reader's loop over plain turn lines; a call a line would cost
        what this path exists to save."""
        n = len(lines)
        turns = []
        readers = self.readers
        codecs = self._codecs
        # the memos, looked up here rather than through a method call a word
        kinds = self._kinds
        numbers = self._numbers
        players = self._players
        nag = self.nag.fullmatch
        score_item = self.score_item.fullmatch
        # A body numbers its turns one by one and seats few players: the next line's number and its player
        # are compared with what is expected (a few instructions) before a memo is asked (a fresh word's hash)
        turn_texts = _TURN_TEXTS
        expect = -1
        seated: list[str] = []
        for j in range(i, n):
            line = lines[j]
            words = line.split()
            if not words:
                continue
            # columns: where each word starts (split() drops them).  When the words and one separator
            # between each pair fill the whole line (as every written record has it), each column is
            # the last one plus its word and a space; otherwise find() gets them back.
            cols = []
            pos = 0
            for word in words:
                cols.append(pos)
                pos += len(word) + 1
            if pos - 1 != len(line):
                cols = []
                pos = 0
                for word in words:
                    pos = line.find(word, pos)
                    cols.append(pos)
                    pos += len(word)
            lineno = j + first_line
            count = len(words)
            if count < 2:
                return None
            num = words[0]
            if 0 < expect < len(turn_texts) and num == turn_texts[expect]:
                number = expect
            else:
                got = numbers.get(num)
                number = self._number(num) if got is None else got
                if number == -1:
                    return None
            expect = number + 1 if number >= 0 else -1
            player = words[1]
            known = False
            for seat in seated:
                if seat == player:
                    known = True
                    break
            if not known:
                is_player = players.get(player)
                if not (self._is_player(player) if is_player is None else is_player):
                    return None
                if len(seated) < 8:
                    seated.append(player)
            actions = []
            k = 2
            while k < count:
                word = words[k]
                last = k
                if word == "discard" and k + 1 < count:
                    # the one action written as two words: "discard 52"
                    last = k + 1
                    word = line[cols[k]:cols[last] + len(words[last])]
                kind = kinds.get(word)
                if kind is None:
                    kind = self._new_kind(word)
                if not kind:
                    if last != k:
                        return None
                    break
                if codecs is not None:
                    actions.append(codecs[kind].read(word, Span(lineno, cols[k] + 1), problems))
                else:
                    actions.append(readers[kind](word, Span(lineno, cols[k] + 1), problems))
                k = last + 1
            extras: list = []
            while k < count:
                word = words[k]
                if word == "score":
                    items = []
                    start = k
                    k += 1
                    # a word that starts with "score" is Lark's SCORE keyword, not an item
                    while k < count and not words[k].startswith("score") and score_item(words[k]):
                        who, _, pts = words[k].partition("=")
                        items.append((who, read_int(pts, Span(lineno, cols[k] + 1), problems, "a score")))
                        k += 1
                    if not items:
                        return None
                    extras.append(Checkpoint(tuple(items), Span(lineno, cols[start] + 1)))
                    continue
                if nag(word):
                    extras.append(Nag(word, Span(lineno, cols[k] + 1)))
                    k += 1
                    continue
                return None
            if number < 0:  # too long to remember: read here, its problem after the actions' (as Lark notes them)
                number = read_int(num[:-1], Span(lineno, cols[0] + 1), problems, "a turn number")
            turns.append(Turn(number, player, tuple(actions), tuple(extras), Span(lineno, cols[0] + 1)))
        return turns

    # -- the careful path: any shape the envelope allows, token by token ------------------------------------

    def _tokens(self, text: str, pos: int, row: int, row_start: int) -> list[_Token] | None:
        """The tokens of ``text`` from ``pos`` (on line ``row`` of the file, which starts at ``row_start``), as
        Lark's scanner meets them, or ``None`` at anything the careful path does not read.

        Kept whole: the fast reader's scanner loop, one branch a token kind; a call a token
        would cost what this path exists to save."""
        out: list[_Token] = []
        size = len(text)
        notes = self._notes
        while pos < size:
            c = text[pos]
            if c in _BLANK:
                pos += 1
                continue
            if c == "\n":
                row += 1
                pos += 1
                row_start = pos
                continue
            col = pos - row_start + 1
            if c in _DECLINE and not notes:
                return None
            if c == "{" or c == ";":
                m = (self._brace if c == "{" else self._line_comment).match(text, pos)
                if m is None:
                    return None  # a { comment never closed: Lark's error
                found = m.group()
                if c == "{":
                    comment = Comment(found[1:-1], False, Span(row, col))
                else:
                    comment = Comment(found[1:].rstrip("\r"), True, Span(row, col))
                out.append((_NOTE_TOKEN, "", row, col, pos, comment, ""))
                breaks = found.count("\n")
                if breaks:
                    row += breaks
                    row_start = pos + found.rindex("\n") + 1
                pos = m.end()
            elif c == "<":
                pos += 1
                kind = ""
                kind_span = Span(row, col)
                args: list[str | MarkupText] = []
                while True:
                    # white space, line ends included, may stand between a markup's parts
                    while pos < size and text[pos] in " \t\f\r\n":
                        if text[pos] == "\n":
                            row += 1
                            row_start = pos + 1
                        pos += 1
                    if pos >= size:
                        return None
                    if not kind:
                        m = self._markup_kind.match(text, pos)
                        if m is None:
                            return None
                        kind = m.group()
                        kind_span = Span(row, pos - row_start + 1)
                    elif text[pos] == ">":
                        pos += 1
                        break
                    elif text[pos] == '"':
                        m = self._string.match(text, pos)
                        if m is None:
                            return None
                        args.append(MarkupText(self.unescape(m.group())))
                    else:
                        m = self._markup_word.match(text, pos)
                        if m is None:
                            return None
                        args.append(m.group())
                    pos = m.end()
                out.append((_NOTE_TOKEN, "", kind_span.line, kind_span.column, pos,
                            Markup(kind, tuple(args), kind_span), markup_problem(kind, len(args)) or ""))
            elif c == "(" or c == ")":
                out.append((_OPEN_TOKEN if c == "(" else _CLOSE_TOKEN, c, row, col, pos, None, ""))
                pos += 1
            elif c in _DECLINE:
                return None  # a stray closing brace, ">", quote or bracket: Lark's to report
            else:
                m = _CAREFUL_WORD.match(text, pos)
                if m is None:  # pragma: no cover - c is neither blank, a line end nor a stop character
                    return None
                end = m.end()
                if end < size and text[end] in _DECLINE:
                    # a word run into a note or a bracket: Lark's token ends there only if its terminal does
                    s = self.scanner.match(text, pos)
                    if s is not None and s.end() > end:
                        return None
                out.append((_WORD_TOKEN, m.group(), row, col, pos, None, ""))
                pos = end
        return out

    def _careful(self, text: str, offset: int, row: int,
                 problems: list) -> tuple[list[Note], list[Turn]] | None:
        """``(intro, turns)`` of the body of ``text`` from ``offset`` (line ``row`` of the file), token by
        token: comments, markup, variations and turns over several lines as the envelope grammar has them."""
        tokens = self._tokens(text, offset, row, offset)
        if tokens is None:
            return None
        got = self._turns(tokens, 0, text, problems)
        if got is None or got[2] != len(tokens):  # a ")" with no "(" before it
            return None
        return got[0], got[1]

    def _turns(self, tokens: list[_Token], k: int, text: str,
               problems: list) -> tuple[list[Note], list[Turn], int] | None:
        """``intro turn*`` from token ``k``, up to a ``)`` or the end: (intro, turns, the index it stopped at).

        Kept whole: the fast reader's loop over a line's tokens, which the parts of a turn
        share (the token index, the turn being built)."""
        n = len(tokens)
        intro: list[Note] = []
        while k < n and tokens[k][0] == _NOTE_TOKEN:
            note = tokens[k][5]
            if note is None:  # pragma: no cover - a note token holds its note
                return None
            if tokens[k][6]:
                problems.append((note.span, tokens[k][6]))
            intro.append(note)
            k += 1
        turns: list[Turn] = []
        score_item = self.score_item.fullmatch
        nag = self.nag.fullmatch
        while k < n and tokens[k][0] != _CLOSE_TOKEN:
            if tokens[k][0] != _WORD_TOKEN or k + 1 >= n or tokens[k + 1][0] != _WORD_TOKEN:
                return None
            num = tokens[k][1]
            number = self._numbers.get(num)
            if number is None:
                number = self._number(num)
            if number == -1:
                return None
            num_span = Span(tokens[k][2], tokens[k][3])
            player = tokens[k + 1][1]
            if not self._is_player(player):
                return None
            k += 2
            actions: list[Command] = []
            while k < n and tokens[k][0] == _WORD_TOKEN:
                word = tokens[k][1]
                last = k
                if word == "discard" and k + 1 < n and tokens[k + 1][0] == _WORD_TOKEN:
                    # the one action written as two words ("discard 52"), the white space between them its own
                    last = k + 1
                    word = text[tokens[k][4]:tokens[last][4] + len(tokens[last][1])]
                kind = self.classify(word)
                if kind is None:
                    if last != k:
                        return None
                    break
                span = Span(tokens[k][2], tokens[k][3])
                if self._codecs is not None:
                    actions.append(self._codecs[kind].read(word, span, problems))
                else:
                    actions.append(self.readers[kind](word, span, problems))
                k = last + 1
            extras: list[Extra] = []
            while k < n:
                token = tokens[k]
                what = token[0]
                if what == _CLOSE_TOKEN:
                    break
                if what == _NOTE_TOKEN:
                    note = token[5]
                    if note is None:  # pragma: no cover - a note token holds its note
                        return None
                    if token[6]:
                        # a markup's problem is noted where Lark notes it: when the markup ends
                        problems.append((note.span, token[6]))
                    extras.append(note)
                    k += 1
                    continue
                if what == _OPEN_TOKEN:
                    got = self._turns(tokens, k + 1, text, problems)
                    if got is None or not got[1] or got[2] >= n:
                        return None  # a variation holds one turn at least, and ends with ")"
                    extras.append(Variation(tuple(got[1]), tuple(got[0]), got[1][0].span))
                    k = got[2] + 1
                    continue
                word = token[1]
                if word == "score":
                    items = []
                    start = token
                    k += 1
                    # a word that starts with "score" is Lark's SCORE keyword, not an item
                    while (k < n and tokens[k][0] == _WORD_TOKEN and not tokens[k][1].startswith("score")
                           and score_item(tokens[k][1])):
                        who, _, pts = tokens[k][1].partition("=")
                        items.append((who, read_int(pts, Span(tokens[k][2], tokens[k][3]), problems, "a score")))
                        k += 1
                    if not items:
                        return None
                    extras.append(Checkpoint(tuple(items), Span(start[2], start[3])))
                    continue
                if nag(word):
                    extras.append(Nag(word, Span(token[2], token[3])))
                    k += 1
                    continue
                if self._scan(word) == "TURN_NUMBER":
                    break  # the next turn
                return None
            if number < 0:  # too long to remember: read here, its problem after the turn's others (as Lark's)
                number = read_int(num[:-1], num_span, problems, "a turn number")
            turns.append(Turn(number, player, tuple(actions), tuple(extras), num_span))
        return intro, turns, k
