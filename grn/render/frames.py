"""Pictures of many positions as one table of SVG pieces and small changes from one position to the next.

A page that shows every position of a game does not embed one whole SVG per
position: consecutive positions differ in a few tiles, pieces and panel
texts.  :class:`FrameTable` splits each picture a ruleset draws into
*items* -- the root ``<svg>`` tag, each child element, and, inside every
``<g>`` group, its opening tag, each of its children and its closing tag --
keeps each distinct item once for the whole page, and gives each position as
edits (``[at, how many removed, item ids inserted...]``) against the position
it follows.  The page's script applies the edits to rebuild a picture.

Nothing here knows a game: a renderer that draws a stable thing the same way
in two positions (the same tile at the same coordinates) gets it shared for
free; a renderer that moves everything when the board grows can put the
board in a ``<g transform="translate(...)">`` so that only that one tag changes.
"""

from __future__ import annotations

import difflib
import re
from typing import Sequence

_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9:_.-]*)\b[^>]*?(/?)>")


# one item at a time: a group's opening tag, a group's end, an empty element, an element holding only text,
# or the opening tag of an element with children (read to its end by _TAG)
_ITEM = re.compile(r"(<g\b[^>]*?(?<!/)>)|(</g>)|(<[A-Za-z][^>]*/>)|(<([A-Za-z][A-Za-z0-9:_.-]*)\b[^>]*>[^<]*</\5>)"
                   r"|(<[A-Za-z][^>]*>)")


def split_items(svg: str) -> tuple[str, list[str]]:
    """The root ``<svg ...>`` tag of ``svg`` and its body as items (``<g>`` groups opened up, recursively).

    Joined, ``root + "".join(items) + "</svg>"`` is ``svg`` again (up to text
    between elements that is only white space).
    """
    first = _TAG.search(svg)
    if first is None or first.group(2) != "svg" or first.group(1) or first.group(3):
        raise ValueError("not an SVG picture: it must start with an open <svg> tag")
    root = first.group(0)
    end = svg.rstrip().rfind("</svg>")
    if end < first.end():
        raise ValueError("not an SVG picture: no closing </svg> tag")
    body = svg[first.end():end]
    items: list[str] = []
    pos = 0
    size = len(body)
    while pos < size:
        lt = body.find("<", pos)
        if lt < 0:
            lt = size
        if lt > pos:
            text = body[pos:lt]
            if text.strip():
                items.append(text)
            pos = lt
            continue
        m = _ITEM.match(body, pos)
        if m is None:
            raise ValueError("not an SVG picture: a tag is not closed")
        if m.group(6) is None:
            items.append(m.group(0))
            pos = m.end()
            continue
        # an element with children that is not a group: one item, to its matching end tag
        depth = 0
        for t in _TAG.finditer(body, pos):
            if t.group(1):
                depth -= 1
            elif not t.group(3):
                depth += 1
            if depth == 0:
                items.append(body[pos:t.end()])
                pos = t.end()
                break
        else:
            raise ValueError("not an SVG picture: an element is not closed")
    return root, items


class FrameTable:
    """The items of every picture of a page, each kept once, and each picture as edits of another."""

    def __init__(self) -> None:
        self.items: list[str] = []
        self._ids: dict[str, int] = {}

    def intern(self, item: str) -> int:
        """The id of ``item`` (added to the table when new)."""
        got = self._ids.get(item)
        if got is None:
            # one item a line in the page: a line break inside an item is white space to SVG
            got = self._ids[item] = len(self.items)
            self.items.append(item.replace("\r", " ").replace("\n", " "))
        return got

    def picture(self, svg: str) -> tuple[int, list[int]]:
        """The root tag's id and the item ids of ``svg``."""
        root, items = split_items(svg)
        return self.intern(root), [self.intern(i) for i in items]

    @staticmethod
    def edits(before: Sequence[int], after: Sequence[int]) -> list[list[int]]:
        """Edits that turn ``before`` into ``after``, each ``[at, removed, inserted ids...]``.

        Applied in order with ``splice``; they are listed from the end so that
        each ``at`` is an index of ``before``.  In the inserted ids, ``-k``
        stands for the ``k`` ids that follow the one before it (``7, -3`` is
        ``7, 8, 9, 10``): the items a position adds are mostly new, and new
        items have consecutive ids.
        """
        # what is the same at both ends is left out of the (quadratic) matching
        head = 0
        end = min(len(before), len(after))
        while head < end and before[head] == after[head]:
            head += 1
        tail = 0
        while tail < end - head and before[-1 - tail] == after[-1 - tail]:
            tail += 1
        a, b = before[head:len(before) - tail], after[head:len(after) - tail]
        out: list[list[int]] = []
        for i1, i2, j1, j2 in reversed(_changes(a, b)):
            out.append([head + i1, i2 - i1, *_runs(b[j1:j2])])
        return out


def _changes(a: Sequence[int], b: Sequence[int]) -> list[tuple[int, int, int, int]]:
    """The changed stretches ``(i1, i2, j1, j2)`` between ``a`` and ``b``: ``a[i1:i2]`` becomes ``b[j1:j2]``.

    Items that occur once in each are matched first, in order (as "patience diff" does): a picture's
    items are nearly all unique, so this is quick and finds the stretches a person would; what lies
    between two such anchors is matched by :mod:`difflib`.
    """
    if not a or not b:
        return [(0, len(a), 0, len(b))] if a or b else []
    count_a: dict[int, int] = {}
    for x in a:
        count_a[x] = count_a.get(x, 0) + 1
    count_b: dict[int, int] = {}
    for x in b:
        count_b[x] = count_b.get(x, 0) + 1
    where_a = {x: i for i, x in enumerate(a) if count_a[x] == 1}
    pairs = [(where_a[x], j) for j, x in enumerate(b) if count_b[x] == 1 and x in where_a]
    anchors = _longest_increasing(pairs)
    if not anchors:
        matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
        return [(i1, i2, j1, j2) for op, i1, i2, j1, j2 in matcher.get_opcodes() if op != "equal"]
    out: list[tuple[int, int, int, int]] = []
    pi = pj = 0
    for i, j in anchors + [(len(a), len(b))]:
        if i > pi or j > pj:
            out += [(pi + i1, pi + i2, pj + j1, pj + j2) for i1, i2, j1, j2 in _changes(a[pi:i], b[pj:j])]
        pi, pj = i + 1, j + 1
    return out


def _longest_increasing(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest run of ``pairs`` (in ``b``'s order) whose ``a`` positions increase (patience sorting)."""
    import bisect

    tops: list[int] = []  # the smallest a-position ending a run of each length
    ends: list[int] = []  # which pair that is
    back: list[int] = []
    for k, (i, _) in enumerate(pairs):
        n = bisect.bisect_left(tops, i)
        if n == len(tops):
            tops.append(i)
            ends.append(k)
        else:
            tops[n] = i
            ends[n] = k
        back.append(ends[n - 1] if n else -1)
    out: list[tuple[int, int]] = []
    k = ends[-1] if ends else -1
    while k >= 0:
        out.append(pairs[k])
        k = back[k]
    return out[::-1]


def _runs(ids: Sequence[int]) -> list[int]:
    """``ids`` with each run of 3 or more consecutive ids after the first written ``-k``."""
    out: list[int] = []
    k = 0
    while k < len(ids):
        out.append(ids[k])
        n = 0
        while k + n + 1 < len(ids) and ids[k + n + 1] == ids[k] + n + 1:
            n += 1
        if n >= 2:
            out.append(-n)
            k += n + 1
        else:
            k += 1
    return out


def apply_edits(before: Sequence[int], edits: Sequence[Sequence[int]]) -> list[int]:
    """``before`` changed by ``edits`` (what the page's script does; for tests and checks)."""
    out = list(before)
    for e in edits:
        inserted: list[int] = []
        for x in e[2:]:
            inserted += range(inserted[-1] + 1, inserted[-1] - x + 1) if x < 0 else [x]
        out[e[0]:e[0] + e[1]] = inserted
    return out
