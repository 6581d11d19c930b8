"""CarcassonneLab replay links (Board Game Arena base games) to GRN.

A link ``https://www.carcassonnelab.com/#/0/<discards>/<tiles>/<moves>?players=A,B&colors=red,blue``
holds a whole game (docs/interop.md has the sources):

- ``<tiles>``: the BGA tile types (1-24) in the order drawn, the start tile
  (type 15) first, as one number written in base 24 (type - 1 per digit),
  then in octal, two octal digits per character of the URL-safe base-64
  alphabet ``A-Z a-z 0-9 - _``;
- ``<discards>``: ``0``, then ``.k`` for each drawn tile that fitted nowhere,
  ``k`` being the number of tiles placed before it;
- ``<moves>``: four characters a placed tile: its x and its y (BGA's axes: y
  grows south) as letters of ``1-9 A-H J-N P-Z a-k m-z`` (the absolute value),
  the orientation (0-3 quarter turns clockwise, +16 when x is negative, +32
  when y is negative) in the same alphabet, and the follower's position on
  the tile (BGA's ``pos``, 0 for none) as a digit;
- ``players`` and ``colors``: the players in the order of their first move.

The BGA tile types and follower positions are mapped to GRN by ``bga.json``.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any
from urllib.parse import unquote

from grn.rules.interop import ConversionProblem, Importer, one_line, player_name
from grn.rules.ruleset import COLOURS
from grn.games.tiling.places import PLACE_INDEX, POSITIONS, rotate_place
from grn.games.tiling.tiles import load_shipped_tileset
from grn.notation.writer import quote

#: The link prefixes read (with and without ``www``).
PREFIXES = ("https://www.carcassonnelab.com/#/", "https://carcassonnelab.com/#/",
            "http://www.carcassonnelab.com/#/", "http://carcassonnelab.com/#/")
#: The alphabet of coordinates and orientations (no 0, I, O, l).
ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
#: The alphabet of the tile list (URL-safe base 64).
BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
#: BGA's tile types are numbered 1 to 24; the list is written in base 24.
TYPES = 24
#: More tiles than the base game has means a broken link (and keeps the numbers small).
MAX_TILES = 200


@lru_cache(maxsize=1)
def _data() -> dict[str, Any]:
    raw: dict[str, Any] = json.loads(resources.files(__package__).joinpath("bga.json").read_text("utf-8"))
    return raw


def decode_tiles(text: str) -> list[int]:
    """The BGA tile types of the ``<tiles>`` part of a link, in the order drawn."""
    if not text:
        raise ConversionProblem("the tile list is empty", "tiles")
    if len(text) > MAX_TILES * 2:
        raise ConversionProblem("the tile list is too long for a game of Carcassonne", "tiles")
    octal = []
    for i, c in enumerate(text):
        k = BASE64.find(c)
        if k < 0:
            raise ConversionProblem(f"{c!r} (character {i + 1}) is not a letter of the tile list", "tiles")
        octal.append(f"{k:02o}")
    value = int("".join(octal), 8)
    types: list[int] = []
    while value:
        value, digit = divmod(value, TYPES)
        types.append(digit + 1)
    types.reverse()
    return types


def encode_tiles(types: list[int]) -> str:
    """The ``<tiles>`` part of a link for these BGA tile types (the first must not be type 1)."""
    value = 0
    for t in types:
        value = value * TYPES + t - 1
    octal = format(value, "o")
    if len(octal) % 2:
        octal = "0" + octal
    return "".join(BASE64[int(octal[i:i + 2], 8)] for i in range(0, len(octal), 2))


_LETTER = {c: k for k, c in enumerate(ALPHABET)}


def _letter(c: str, where: str) -> int:
    k = _LETTER.get(c)
    if k is None:
        raise ConversionProblem(f"{c!r} is not a letter of the move alphabet", where)
    return k


def decode_moves(text: str) -> list[tuple[int, int, int, int]]:
    """(x, y, quarter turns, follower position) of each placed tile, in BGA's terms."""
    if len(text) % 4:
        raise ConversionProblem(f"the moves are four characters each: {len(text)} characters is not a "
                                "whole number of moves", "moves")
    out = []
    for n in range(len(text) // 4):
        part = text[4 * n:4 * n + 4]
        x, y, r = _LETTER.get(part[0], -1), _LETTER.get(part[1], -1), _LETTER.get(part[2], -1)
        if x < 0 or y < 0 or r < 0 or not part[3].isdigit() or not part[3].isascii() or r >= 64 or r % 16 > 3:
            where = f"move {n + 1} ({part})"  # made only for a message: a game has some 70 moves
            x, y, r = (_letter(c, where) for c in part[:3])
            if not part[3].isdigit() or not part[3].isascii():
                raise ConversionProblem(f"{part[3]!r} is not a follower position (a digit)", where)
            raise ConversionProblem(f"{ALPHABET[r]!r} is not an orientation", where)
        out.append((-x if r & 16 else x, -y if r & 32 else y, r % 16, int(part[3])))
    return out


def _discards(text: str, placed: int) -> list[int]:
    """How many tiles were placed before each discard."""
    parts = text.split(".")
    if parts[0] != "0" or any(not p.isascii() or not p.isdigit() or len(p) > 4 for p in parts[1:]):
        raise ConversionProblem(f"{text!r} is not 0 followed by .N for each discarded tile", "discards")
    marks = [int(p) for p in parts[1:]]
    if marks != sorted(marks) or any(m > placed for m in marks):
        raise ConversionProblem(f"{text!r}: discards are listed in order, each after at most {placed} placed "
                                "tiles", "discards")
    return marks


def _canonical(tile: str, rotation: int, place: str) -> str:
    """The place grn writes for the feature at ``place`` of ``tile`` turned ``rotation`` (R52)."""
    design = load_shipped_tileset(__package__)[tile]
    o = design.orientation(rotation)
    if place == "C":
        return "C"
    local = o.place_segment[PLACE_INDEX[place]]
    places = o.segment_places[local]
    mids = [p for p in places if p % 3 == 1]
    return POSITIONS[mids[0] if mids else places[0]]


def link_to_grn(link: str, tags: dict[str, str] | None = None) -> str:
    """The GRN record of the game in a CarcassonneLab replay link.  Raises :class:`ConversionProblem`.

    Kept whole: the link's fields read in the order the format gives them, each with its own
    message."""
    body = next((link[len(p):] for p in PREFIXES if link.startswith(p)), None)
    if body is None:
        raise ConversionProblem("not a CarcassonneLab replay link (https://www.carcassonnelab.com/#/0/0/...)")
    path, _, query = body.partition("?")
    parts = path.strip("/").split("/")
    if len(parts) != 4:
        raise ConversionProblem(f"a replay link has four parts after #/ (version, discards, tiles, moves), "
                                f"not {len(parts)}", "path")
    version, discard_text, tile_text, move_text = parts
    if version != "0":
        raise ConversionProblem(f"link version {version!r} is not known (grn reads version 0)", "version")
    types = decode_tiles(tile_text)
    moves = decode_moves(move_text)
    marks = _discards(discard_text, len(moves))
    table = _data()["types"]
    if not types or types[0] != _data()["start"]:
        raise ConversionProblem("the tile list does not begin with the start tile (BGA type 15)", "tiles")
    if len(types) != 1 + len(moves) + len(marks):
        raise ConversionProblem(f"{len(types) - 1} tiles drawn after the start tile, but {len(moves)} placed and "
                                f"{len(marks)} discarded", "tiles")
    params = _query(query)
    names = params.get("players", [])
    colours = [c.strip() for c in params.get("colors", []) if c.strip()]
    header: dict[str, str] = {"Game": "carcassonne"}
    if tags and "Players" in tags:
        header["Players"] = tags["Players"]
        from grn.core.record import parse_players

        try:
            seat_colours = [s.key for s in parse_players(tags["Players"])]
        except ValueError as exc:
            raise ConversionProblem(f"--tag Players: {exc}", "players") from None
    else:
        if not names:
            raise ConversionProblem("the link names no players: give them with --tag Players=\"Ann (red), "
                                    "Ben (blue)\" in the order of their first move", "players")
        if not colours:
            colours = list(COLOURS[:len(names)])
        if len(colours) != len(names) or len(set(colours)) != len(colours) or any(
                c not in COLOURS for c in colours):
            raise ConversionProblem(f"colors={','.join(colours)} does not give each of the {len(names)} players "
                                    "one of " + ", ".join(COLOURS), "colors")
        clean = [player_name(n, "players") for n in names]
        header["Players"] = ", ".join(f"{n} ({c})" if n else c for n, c in zip(clean, colours))
        seat_colours = colours
    if not 2 <= len(seat_colours) <= 5:
        raise ConversionProblem(f"Carcassonne is for 2 to 5 players, not {len(seat_colours)}", "players")
    header["Site"] = "Board Game Arena"
    for k, v in (tags or {}).items():
        header[k] = one_line(v)
    lines = [f"[{k} {quote(v)}]" for k, v in header.items()]
    lines += ["", "{CarcassonneLab replay link: " + link.replace("{", "%7B").replace("}", "%7D") + "}"]
    drawn = iter(types[1:])
    discarded = list(marks)
    n = 0
    words: list[str] = []

    def flush_discards(before: int) -> None:
        while discarded and discarded[0] == before:
            discarded.pop(0)
            t = next(drawn)
            words.append(f"discard {_tile_of(t, table, 'tiles')}")

    for n, (x, y, quarter, pos) in enumerate(moves, start=1):
        words = []
        flush_discards(n - 1)
        btype = next(drawn)
        tile, rotation, follower, missing = _move(btype, quarter, pos)
        if missing:
            _tile_of(btype, table, f"move {n}")
            raise ConversionProblem(f"tile {tile} (BGA type {btype}) has no follower position {pos}", f"move {n}")
        words.append(f"{tile}@{x},{-y}" + (f":{rotation}" if rotation else "") + follower)
        lines.append(f"{n}. {seat_colours[(n - 1) % len(seat_colours)]} " + " ".join(words))
    words = []
    flush_discards(len(moves))
    if words:
        n += 1
        lines.append(f"{n}. {seat_colours[(n - 1) % len(seat_colours)]} " + " ".join(words))
    return "\n".join(lines) + "\n"


@lru_cache(maxsize=4096)
def _move(btype: int, quarter: int, pos: int) -> tuple[str, int, str, bool]:
    """A move's tile, GRN rotation and `` +PLACE`` (or ""), and whether the follower position is unknown;
    kept, as a game repeats the same few (a batch of links imports hundreds a second)."""
    entry = _data()["types"].get(str(btype))
    if entry is None:
        return "", 0, "", True
    tile: str = entry["tile"]
    turn = quarter * 90
    rotation = (turn + int(entry["turn"])) % 360
    if not pos:
        return tile, rotation, "", False
    place = entry["pos"].get(str(pos))
    if place is None:
        return tile, rotation, "", True
    board = place if place == "C" else POSITIONS[rotate_place(PLACE_INDEX[place], turn)]
    return tile, rotation, " +" + _canonical(tile, rotation, board), False


def _query(query: str) -> dict[str, list[str]]:
    """The link's parameters, each a list split at commas before percent-decoding (a name may hold ``%2C``)."""
    out: dict[str, list[str]] = {}
    for pair in query.split("&"):
        key, _, value = pair.partition("=")
        if key:
            out[unquote(key)] = [unquote(v) for v in value.split(",") if v]
    return out


def _tile_of(btype: int, table: dict[str, Any], where: str) -> str:
    entry = table.get(str(btype))
    if entry is None:
        raise ConversionProblem(f"BGA tile type {btype} is not a tile of the base game", where)
    tile: str = entry["tile"]
    return tile


class CarcassonneLabImporter(Importer):
    """Reads CarcassonneLab replay links of Board Game Arena games."""

    name = "carcassonnelab"
    title = "a CarcassonneLab replay link"
    prefixes = PREFIXES

    def to_grn(self, text: str, *, tags: dict[str, str]) -> str:
        return link_to_grn(text.strip(), tags)


__all__ = ["CarcassonneLabImporter", "link_to_grn", "decode_tiles", "encode_tiles", "decode_moves"]
