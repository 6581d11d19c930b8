"""A verified fast path for reading the common shape of GRN games.

The Lark grammar in ``grammar/`` is the definition of GRN, and Lark reads
every game that this module does not take.  But Lark's LALR parser costs
about 20 microseconds a token in pure Python, which makes it the slowest part
of ``grn validate``.  Most records (all that ``grn fmt`` and ``grn selfplay``
write without comments or variations) have a plain shape: header tags one per
line, then one turn per line holding only a turn number, the player, actions,
glyphs and score checkpoints.  For those, this module splits lines into
words and classifies each word with **the grammar's own terminal regexes**
(read from the Lark parser, not copied), producing exactly the record Lark
would, spans included.

It declines (returns ``None``) at the first thing it is not sure about:
comments, variations, markup, a turn spread over lines, a word that two
terminals could claim, anything malformed.  Lark then reads the game from
the start, so errors are always Lark's.  ``tests/test_fastread.py`` checks with
random records that both paths give the same records.
"""

from __future__ import annotations

import re
from typing import Callable

from lark import Lark

from grn.codec import read_int
from grn.errors import Span
from grn.record import Checkpoint, Command, Nag, Turn

_TAG_LINE = re.compile(r'[ \t]*\[([A-Za-z][A-Za-z0-9_]*)[ \t]+("(?:[^"\\\n]|\\.)*")[ \t]*\][ \t\r]*$')
_TURN_NUMBER = re.compile(r"\d+\.$")
#: Characters that only the full grammar handles (comments, variations, markup, strings).
_DECLINE = '{}();<>"[]'
#: White space the grammar does not ignore (it ignores only space, tab, form feed, CR, LF),
#: though str.split() would split on it.
_ODD_SPACE = re.compile(r"[^\S \t\f\r\n]")
#: The same, for ASCII text (str.isspace() is true for these, the grammar ignores none of them).
_ODD_ASCII_SPACE = "\x0b\x1c\x1d\x1e\x1f"


def _has_odd_space(text: str) -> bool:
    # str.__contains__ is many times quicker than a regex pass over the text
    if text.isascii():
        return any(c in text for c in _ODD_ASCII_SPACE)
    return _ODD_SPACE.search(text) is not None


#: Reads one action word: (text, span, problems) -> command (a codec's ``read``).
WordReader = Callable[[str, Span, list], Command]


#: Words remembered per reader, at most (a long archive of odd words must not grow memory without end).
_MEMORY = 20_000


def _remember(memo: dict, word: str, value: object) -> None:
    if len(memo) >= _MEMORY:
        memo.clear()
    memo[word] = value


class FastReader:
    """Reads plain games with the terminal regexes of one game's Lark grammar."""

    def __init__(self, parser: Lark, readers: dict[str, WordReader], unescape: Callable[[str], str]) -> None:
        terminals = {t.name: t for t in parser.terminals}
        regex = {name: re.compile(t.pattern.to_regexp()) for name, t in terminals.items()}
        names = {sym.name for r in parser.rules if r.origin.name == "action" for sym in r.expansion}
        self.action_names = frozenset(names)
        # The terminals Lark's lexer may meet where an action can stand, in the
        # order its lexer tries them (priority, then width): the first that
        # matches wins, even if it matches only the start of the word.
        rivals = [terminals[n] for n in (*names, "SCORE", "NAG", "TURN_NUMBER")]
        rivals.sort(key=lambda t: (-t.priority, -t.pattern.max_width, -len(t.pattern.value), t.name))
        # One alternation in that order, like Lark's own scanner: the first
        # alternative that matches is the terminal Lark would see.
        self.scanner = re.compile("|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in rivals))
        self.player = regex["PLAYER"]
        self.nag = regex["NAG"]
        self.score_item = regex["SCORE_ITEM"]
        #: action terminal -> the codec's read (one definition per command: :mod:`grn.codec`)
        self.readers = readers
        self.unescape = unescape
        # Records repeat their words ("+N", "tent@2,0", "red", "12."), and one
        # dict look-up costs far less than the scanner: remember what each word is.
        #: word -> the action terminal it is, or "" when it is none
        self._kinds: dict[str, str] = {}
        #: word -> whether it is a turn number / a player word
        self._numbers: dict[str, bool] = {}
        self._players: dict[str, bool] = {}

    def classify(self, word: str) -> str | None:
        """The action terminal Lark's lexer would read ``word`` as, if it reads all of it."""
        kind = self._kinds.get(word)
        if kind is None:
            m = self.scanner.match(word)
            found = None if m is None or m.end() != len(word) else m.lastgroup
            kind = found if found is not None and found in self.action_names else ""
            _remember(self._kinds, word, kind)
        return kind or None

    def _is_number(self, word: str) -> bool:
        ok = self._numbers.get(word)
        if ok is None:
            ok = _TURN_NUMBER.match(word) is not None
            _remember(self._numbers, word, ok)
        return ok

    def _is_player(self, word: str) -> bool:
        ok = self._players.get(word)
        if ok is None:
            ok = word != "score" and self.player.fullmatch(word) is not None
            _remember(self._players, word, ok)
        return ok

    def read(self, text: str, first_line: int, problems: list) -> tuple | None:
        """``(tags, turns)`` of a plain game, or ``None`` to let Lark read it."""
        if _has_odd_space(text):
            return None
        lines = text.split("\n")
        tags = []
        tag_spans: list[Span] = []
        i = 0
        n = len(lines)
        while i < n:
            line = lines[i]
            stripped = line.strip()
            if stripped:
                if stripped[0] != "[":
                    break
                m = _TAG_LINE.match(line)
                if m is None:
                    return None
                tags.append((m.group(1), self.unescape(m.group(2))))
                tag_spans.append(Span(first_line + i, m.start(1) + 1))
            i += 1
        body = text[sum(len(l) + 1 for l in lines[:i]):]
        if any(c in body for c in _DECLINE):
            return None
        turns = []
        readers = self.readers
        nag = self.nag.fullmatch
        score_item = self.score_item.fullmatch
        for j in range(i, n):
            line = lines[j]
            words = line.split()
            if not words:
                continue
            # columns: where each word starts (split() drops them; find() gets them back)
            cols = []
            pos = 0
            for word in words:
                pos = line.find(word, pos)
                cols.append(pos)
                pos += len(word)
            lineno = j + first_line
            count = len(words)
            num = words[0]
            if count < 2 or not self._is_number(num):
                return None
            player = words[1]
            if not self._is_player(player):
                return None
            actions = []
            k = 2
            while k < count:
                word = words[k]
                last = k
                if word == "discard" and k + 1 < count:
                    # the one action written as two words: "discard 52"
                    last = k + 1
                    word = line[cols[k]:cols[last] + len(words[last])]
                kind = self.classify(word)
                if kind is None:
                    if last != k:
                        return None
                    break
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
            turns.append(Turn(read_int(num[:-1], Span(lineno, cols[0] + 1), problems, "a turn number"), player,
                              tuple(actions), tuple(extras),
                              Span(lineno, cols[0] + 1)))
        return tags, turns, tag_spans
