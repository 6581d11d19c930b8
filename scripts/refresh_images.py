"""Regenerate the pictures of the docs: docs/images/{goldrush-example,gold-example,tileset-sheet}.svg,
the scoring pictures of docs/scoring.md (docs/images/scoring-*.svg, rulebook examples drawn as diagrams),
the charts of ``grn archive stats --svg`` (docs/images/archive-*.svg, an archive of the examples and
self-played games) and a screenshot of the viewer (docs/images/viewer.png: Debian's chromium through
playwright, headless; left as it is, with a message, where they are missing).

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
from grn.rules.position import position_at  # noqa: E402
from grn.render import render_svg, render_tile_sheet  # noqa: E402
from grn.rules.selfplay import to_record  # noqa: E402
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
    archive_charts(out)
    viewer_screenshot(out)
    for name, (example, caption, *at) in SCORING.items():
        (record,) = list(grn.read(ROOT / "examples" / example))
        record = record.with_tags(Caption=caption)
        position = position_at(record, at[0] if at else "end")
        (out / f"scoring-{name}.svg").write_text(render_svg(position, diagram=True, width=520), encoding="utf-8")
        print(f"wrote docs/images/scoring-{name}.svg")
    return 0


def archive_charts(out: Path) -> None:
    """The charts of ``grn archive stats --svg`` for an archive of the examples and 30 self-played games."""
    import subprocess
    import tempfile

    from grn.archive.db import connect
    from grn.archive.stats import compute, write_charts

    with tempfile.TemporaryDirectory() as tmp:
        files = [str(p) for p in sorted((ROOT / "examples").glob("**/*.grn"))]
        for game in ("goldrush", "carcassonne", "gold"):
            path = Path(tmp) / f"{game}.grn"
            done = subprocess.run([sys.executable, "-m", "grn", "selfplay", "--game", game, "--games", "10",
                                   "--seed", "1", "-o", str(path)], cwd=ROOT, capture_output=True, text=True)
            if done.returncode == 0:
                files.append(str(path))
        db = Path(tmp) / "games.sqlite"
        subprocess.run([sys.executable, "-m", "grn", "archive", "add", str(db), *files, "--quiet"], cwd=ROOT,
                       capture_output=True, text=True)
        con = connect(db)
        charts = write_charts(compute(con), Path(tmp) / "charts")
        for chart in charts:
            if chart.name in ("first-player.svg", "scores-carcassonne-2p.svg"):
                (out / f"archive-{chart.name}").write_text(chart.read_text(encoding="utf-8"), encoding="utf-8")
                print(f"wrote docs/images/archive-{chart.name}")


def viewer_screenshot(out: Path) -> None:
    """The viewer of a finished Carcassonne game with The Gold Mines (80 tiles) at 1280x800, in chromium."""
    import shutil
    import tempfile

    chromium = shutil.which("chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        chromium = None
    if chromium is None:
        print("docs/images/viewer.png left as it is: chromium and playwright are needed")
        return
    from grn import games
    from grn.render import render_html

    ruleset = games.find_ruleset("carcassonne")
    record = to_record(ruleset.selfplay(2, 3, ruleset.parse_options({"goldmines": "on"})), seed=3)
    record = record.with_tags(Players="Ada (red), Bo (yellow)")
    with tempfile.TemporaryDirectory() as tmp:
        page_path = Path(tmp) / "game.html"
        page_path.write_text(render_html([record], file_name="carcassonne-goldmines.grn"), encoding="utf-8")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.goto(page_path.as_uri() + "#game=1&turn=60")
            page.screenshot(path=str(out / "viewer.png"))
            browser.close()
    print("wrote docs/images/viewer.png")


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
