"""Shared by the recorder's browser tests: open a new game by the form, and check the board's tap targets."""

from __future__ import annotations

from typing import Any

#: For each tap target on the board (a highlight that chooses an option): its word, the centre of its
#: drawn box in the viewport after it was scrolled into sight, its size in CSS pixels, and whether the
#: element at that point is the target itself (or inside it).
TARGETS_JS = """board => {
  const out = [];
  for (const m of board.querySelectorAll('.markup-layer .highlight[data-word]')) {
    m.scrollIntoView({block: 'center', inline: 'center'});
    const r = m.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    const owner = hit && hit.closest ? hit.closest('.highlight[data-word]') : null;
    out.push({word: m.dataset.word, x: x, y: y, w: r.width, h: r.height, ok: owner === m,
              hit: owner ? owner.dataset.word : (hit ? hit.tagName + '.' + (hit.getAttribute('class') || '') : null)});
  }
  return out;
}"""


def targets(page: Any) -> list[dict[str, Any]]:
    """Every tap target of the board now shown (see :data:`TARGETS_JS`)."""
    return page.locator("#board").evaluate(TARGETS_JS)
