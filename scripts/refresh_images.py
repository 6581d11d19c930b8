"""Regenerate the pictures of the docs: docs/images/{goldrush-example,gold-example,tileset-sheet}.svg
and the scoring pictures of docs/scoring.md (docs/images/scoring-*.svg, rulebook examples drawn as diagrams).

    .venv/bin/python scripts/refresh_images.py

The Gold Rush picture draws a position of ``examples/goldrush-2p.grn`` when it
exists (else a self-played game with seed 1); the Gold picture a position of
``examples/gold-2p.grn`` (else a self-played game with seed 1).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import grn  # noqa: E402
from grn.position import position_at  # noqa: E402
from grn.render import render_svg, render_tile_sheet  # noqa: E402
from grn.selfplay import to_record  # noqa: E402
from grn.games.goldrush import load_tileset  # noqa: E402

NAMES = ("Ada", "Bo", "Cy", "Di", "Ed")


def _first_game(path: Path):
    if not path.exists():
        return None
    for record in grn.read(path):
        if record.ok and record.turns:
            return record
    return None


def goldrush_record():
    record = _first_game(ROOT / "examples" / "goldrush-2p.grn")
    if record is not None:
        return record, None
    from grn.games.goldrush import selfplay as goldrush

    return to_record(goldrush.play(2, 1), seed=1), 40


def gold_record():
    record = _first_game(ROOT / "examples" / "gold-2p.grn")
    if record is not None:
        return record, None
    from grn.games.gold import selfplay as gold

    game = gold.play(2, 1)
    rec = to_record(game, seed=1)
    cols = dict(kv.split("=") for kv in game.options["colours"].split())
    return rec.with_tags(Players=", ".join(f"{NAMES[i]} ({cols[k]})" for i, k in enumerate(game.players))), 20


def _middle(record, fallback):
    if fallback is not None:
        return fallback
    played = [t.number for t in record.turns if t.number > 0]
    return played[len(played) * 2 // 3] if played else 0


def main() -> int:
    out = ROOT / "docs" / "images"
    out.mkdir(parents=True, exist_ok=True)
    record, at = goldrush_record()
    (out / "goldrush-example.svg").write_text(render_svg(position_at(record, _middle(record, at)), width=900),
                                              encoding="utf-8")
    record, at = gold_record()
    (out / "gold-example.svg").write_text(render_svg(position_at(record, _middle(record, at)), width=900),
                                          encoding="utf-8")
    (out / "tileset-sheet.svg").write_text(render_tile_sheet(load_tileset()), encoding="utf-8")
    for name in ("goldrush-example.svg", "gold-example.svg", "tileset-sheet.svg"):
        print(f"wrote docs/images/{name}")
    for name, (example, caption, *at) in SCORING.items():
        (record,) = list(grn.read(ROOT / "examples" / example))
        record = record.with_tags(Caption=caption)
        position = position_at(record, at[0] if at else "end")
        (out / f"scoring-{name}.svg").write_text(render_svg(position, diagram=True, width=520), encoding="utf-8")
        print(f"wrote docs/images/scoring-{name}.svg")
    return 0


#: The pictures of docs/scoring.md: a rulebook example each, drawn as a diagram at its end, or at the
#: position given third (before the turn that scores, where the pieces still stand).
SCORING = {
    "railroad": ("rulebook-railroad-locomotive-8.grn",
                 "A completed railroad: 1 point a tile; exactly one locomotive doubles it. Blue scores 8."),
    "mountain": ("rulebook-mountain-7.grn",
                 "A completed mountain: 1 point a gold nugget for the majority, who take its Mining tokens."),
    "city": ("rulebook-city-6.grn",
             "A completed city: 3 points for each completed railroad connected to it."),
    "farmers": ("rulebook-farmers.grn",
                "Farmers, at the end: 2 points a tipi camp and 4 a herd of wild horses in their prairie."),
    "goldmines-road": ("carcassonne/goldmines-shared-road.grn",
                       "Red's tile W closes this road at -2,0: 4 points each; its 3 ingots go one at a time, "
                       "Red first: Red 2, Blue 1.", "0"),
    "goldmines-choice": ("carcassonne/goldmines-two-features.grn",
                         "Tile L at 0,1 closes Red's city and the shared road at once: Red takes the city's ingot, "
                         "which only Red can claim, and leaves Blue the road's.", "0"),
}


if __name__ == "__main__":
    sys.exit(main())
