"""One definition per command: every codec, grammar terminal and schema entry agree.

For each shipped game: every terminal of the grammar's ``action`` rule has a
codec and every codec a terminal; each codec's JSON type is in the composed
record schema with the codec's own schema; ``schemas/record.schema.json`` is
that composition written out; and a sample of each command goes text ->
command -> text and command -> JSON -> command unchanged.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from grn import games
from grn.core.errors import Span
from grn.notation.jsonform import record_schema
from grn.notation.larkread import _parser

ROOT = Path(__file__).resolve().parent.parent

#: One sample word per terminal, for each shipped game.
SAMPLES = {
    "PLACEMENT": ["17@1,0:90", "33@-2,5", "01a@0,-1:270"],
    "DISCARD": ["discard 52"],
    "COWBOY": ["+N", "+C", "+WNW"],
    "TENT": ["tent@2,-1", "tent@0,3:N"],
    "MINE": ["mine", "mine=3", "mine=0"],
    "TOKENS": ["tokens=2,?,0", "tokens=5"],
    "FLIP": ["c4=G3", "f2=red4", "h8=D"],
    "FOLLOWER": ["+N", "+C", "+SSW"],
    "INGOT": ["ingot@1,1", "ingot@-1,0"],
    "TAKE": ["take@0,-1", "take@2,3"],
}


def shipped() -> list[games.Ruleset]:
    return [games.find_ruleset(name) for name in games.BUILTIN]


@pytest.mark.parametrize("ruleset", shipped(), ids=lambda r: r.name)
def test_grammar_terminals_and_codecs_agree(ruleset):
    parser, _ = _parser(ruleset)
    terminals = {sym.name for r in parser.rules if r.origin.name == "action" for sym in r.expansion}
    assert terminals == {c.terminal for c in ruleset.codecs}
    assert len({c.json_type for c in ruleset.codecs}) == len(ruleset.codecs)
    assert len({c.command for c in ruleset.codecs}) == len(ruleset.codecs)


@pytest.mark.parametrize("ruleset", shipped(), ids=lambda r: r.name)
def test_every_codec_round_trips_text_and_json(ruleset):
    parser, _ = _parser(ruleset)
    regex = {t.name: t.pattern.to_regexp() for t in parser.terminals}
    validator = Draft202012Validator(record_schema())
    import re

    for codec in ruleset.codecs:
        for word in SAMPLES[codec.terminal]:
            assert re.fullmatch(regex[codec.terminal], word), (codec, word)
            problems: list = []
            command = codec.read(word, Span(1, 1), problems)
            assert not problems and type(command) is codec.command
            assert codec.write(command) == word
            assert ruleset.codec_for(command) is codec
            obj = codec.to_json(command)
            assert obj["type"] == codec.json_type
            assert not list(Draft202012Validator(codec.schema()).iter_errors(obj)), obj
            doc = {"grn": 1, "games": [{"tags": [["Game", ruleset.name]], "intro": [],
                                        "turns": [{"number": 1, "player": "red", "actions": [obj]}]}]}
            assert not list(validator.iter_errors(doc)), obj
            assert ruleset.codec_named(obj["type"]).from_json(obj) == command


def test_the_record_schema_holds_every_codec_and_the_file_is_in_step():
    schema = record_schema()
    action = schema["$defs"]["action"]
    types = action["properties"]["type"]["enum"]
    for ruleset in shipped():
        for codec in ruleset.codecs:
            assert codec.json_type in types
            entry = next(e for e in action["allOf"] if e["if"]["properties"]["type"]["const"] == codec.json_type)
            # games that share a command but reserve other words give one schema each, all of which hold
            assert entry["then"] == codec.schema() or codec.schema() in entry["then"]["anyOf"]
    written = json.loads((ROOT / "schemas" / "record.schema.json").read_text(encoding="utf-8"))
    assert written == schema, "run python -m grn.notation.jsonform to write schemas/record.schema.json again"


def test_an_unknown_game_lists_the_known_ones():
    with pytest.raises(games.UnknownGame) as info:
        games.find_ruleset("chess")
    for name in games.BUILTIN:
        assert name in str(info.value)
