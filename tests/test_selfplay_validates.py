"""Every self-played game validates through its written GRN text.

Self-play works at the engine level; these tests take the long way a user's
file takes: ``to_record`` -> ``write_record`` -> ``grn.notation.read.parse`` ->
``validate_record``, and the ``grn selfplay`` / ``grn validate -`` commands.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from grn.cli.app import app
from grn.games.goldrush.rules import Options
from grn.notation.read import parse
from grn.games.gold import selfplay as gold_play
from grn.games.goldrush import selfplay as goldrush_play
from grn.rules.selfplay import to_record
from grn.games.goldrush import load_tileset
from grn.check.validate import parse_result, validate_record
from grn.notation.writer import write_record

runner = CliRunner()
PLAYERS = [2, 3, 4, 5]


def _check(game, seed: int) -> str:
    record = to_record(game, seed=seed)
    text = write_record(record)
    (parsed,) = parse(text)
    assert parsed.ok, [d.one_line() for d in parsed.diagnostics]
    assert parsed == record  # the text says all the record says
    report = validate_record(parsed)
    assert report.valid, [d.one_line() for d in report.diagnostics]
    assert not report.diagnostics  # no warning either
    assert report.complete
    assert report.turns_played == len(game.turns)
    assert report.final_scores == game.final_scores
    assert parse_result(parsed.tag("Result")) == game.final_scores
    # the checkpoints written after scoring turns agree turn by turn
    for turn_report, played in zip(report.turns, game.turns):
        assert turn_report.scores == played.scores
    return text


@pytest.mark.parametrize("farmers", [True, False], ids=["farmers-on", "farmers-off"])
@pytest.mark.parametrize("players", PLAYERS)
def test_goldrush_selfplay_validates(players: int, farmers: bool) -> None:
    ts = load_tileset()
    for seed in range(3):
        game = goldrush_play.play(players, seed=seed, options=Options(farmers=farmers), tileset=ts)
        assert len(game.players) == players
        text = _check(game, seed)
        assert ("farmers=off" in text) == (not farmers)


@pytest.mark.parametrize("players", PLAYERS)
def test_gold_selfplay_validates(players: int) -> None:
    for seed in range(8):
        game = gold_play.play(players, seed=seed)
        _check(game, seed)


@pytest.mark.parametrize("players", PLAYERS)
def test_gold_match_validates(players: int) -> None:
    """A match written as one file: every game valid, the start rotating (R32)."""
    games = gold_play.play_match(players, seed=4)
    records = [to_record(g, checkpoints=False).with_tags(Match="m", Round=str(i + 1))
               for i, g in enumerate(games)]
    text = "\n".join(write_record(r) for r in records)
    result = runner.invoke(app, ["validate", "-"], input=text)
    assert result.exit_code == 0, result.output
    assert f"{players} games checked, {players} valid: ok" in result.output
    assert "match 'm':" in result.output


def _selfplay(*args: str) -> str:
    result = runner.invoke(app, ["selfplay", *args])
    assert result.exit_code == 0, result.output
    return result.stdout


CLI_CASES = [
    ("goldrush", 2, None), ("goldrush", 3, "farmers=off"), ("goldrush", 4, None), ("goldrush", 5, "farmers=off"),
    ("gold", 2, None), ("gold", 3, None), ("gold", 4, None), ("gold", 5, None),
]


@pytest.mark.parametrize(("game", "players", "options"), CLI_CASES)
def test_cli_selfplay_is_reproducible_and_validates(game: str, players: int, options: str | None) -> None:
    args = ["--game", game, "--players", str(players)] + (["--options", options] if options else [])
    a = _selfplay(*args, "--seed", "7")
    b = _selfplay(*args, "--seed", "7")
    c = _selfplay(*args, "--seed", "8")
    assert a == b
    assert a != c
    assert a.startswith(f'[Game "{game}"]')
    for text in (a, c):
        result = runner.invoke(app, ["validate", "-"], input=text)
        assert result.exit_code == 0, result.output
        assert "1 game checked, 1 valid: ok" in result.output
        (record,) = parse(text)
        report = validate_record(record)
        assert report.complete and report.valid
        assert report.final_scores == parse_result(record.tag("Result"))
    if options:
        (record,) = parse(a)
        assert options in record.tag("Options", "")


def test_cli_selfplay_several_games_validate() -> None:
    text = _selfplay("--players", "3", "--seed", "40", "--games", "3")
    assert text.count('[Game "goldrush"]') == 3
    assert text == _selfplay("--players", "3", "--seed", "40", "--games", "3")
    # game i of a run is the game of seed + i
    assert _selfplay("--players", "3", "--seed", "41") in text
    result = runner.invoke(app, ["validate", "-", "--format", "json"], input=text)
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["summary"] == {"games": 3, "valid": 3, "invalid": 0, "errors": 0}
    assert all(g["complete"] for g in doc["files"][0]["games"])


def test_cli_selfplay_matches_the_library() -> None:
    """`grn selfplay` writes exactly what to_record + write_record give for the same seed."""
    text = _selfplay("--game", "gold", "--players", "4", "--seed", "12")
    assert text == write_record(to_record(gold_play.play(4, seed=12), seed=12))
    text = _selfplay("--players", "2", "--seed", "3", "--options", "farmers=off")
    game = goldrush_play.play(2, seed=3, options=Options(farmers=False))
    assert text == write_record(to_record(game, seed=3))
