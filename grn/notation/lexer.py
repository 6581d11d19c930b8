"""A Pygments lexer for GRN, registered through Pygments' ``pygments.lexers`` entry point.

Once grn is installed, ``pygmentize -l grn game.grn``, Sphinx and MkDocs code
blocks marked ``grn`` colour records with it.  It follows the envelope grammar
(``grammar/envelope.lark``): header tags, turn numbers and players, glyphs,
score checkpoints, comments, diagram markup and variations.  The actions are
every registered game's own action terminals, taken from its Lark grammar when
the lexer is first used (so it needs no ``Game`` tag, and a game added to grn
is coloured with no change here).  What no game's grammar reads is an error
token.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from pygments.lexer import RegexLexer, RegexLexerMeta, bygroups, include
from pygments.token import (Comment, Error, Keyword, Name, Number, Operator, Punctuation, String, Whitespace,
                            _TokenType)


def action_rules() -> list[tuple[str, _TokenType]]:
    """One rule per action terminal of every registered game, in the order Lark's lexer tries them.

    A terminal that starts with a fixed word (``discard ...``) is a keyword, one
    that starts with ``+`` an attribute (a piece on a place of the new tile), any
    other a name (a tile placed, a card turned).
    """
    # Imported here: Pygments imports every plug-in lexer's module to look a file name up, and the games'
    # grammars (Lark) should load only when GRN is coloured.
    from grn.core import registry
    from grn.notation.larkread import _parser

    seen: dict[str, tuple[Any, ...]] = {}
    for ruleset in registry.rulesets():
        parser = _parser(ruleset)[0]
        wanted = {c.terminal for c in ruleset.codecs}
        for t in parser.terminals:
            regex = t.pattern.to_regexp()
            if t.name in wanted and regex not in seen:
                seen[regex] = (-t.priority, -t.pattern.max_width, -len(t.pattern.value), t.name)
    out = []
    for regex in sorted(seen, key=lambda r: seen[r]):
        if re.match(r"[a-z]{2,}", regex):
            kind = Keyword
        elif regex.startswith("\\+"):
            kind = Name.Attribute
        else:
            kind = Name.Function
        out.append((regex, kind))
    return out


class _GamesMeta(RegexLexerMeta):
    """Pygments builds a lexer's rules on its first use: add the games' action terminals then."""

    def get_tokendefs(cls) -> dict[str, list[Any]]:
        tokens = dict(RegexLexerMeta.get_tokendefs(cls))
        tokens["actions"] = list(action_rules())
        return tokens


class GrnLexer(RegexLexer, metaclass=_GamesMeta):
    """GRN, the game record notation of the Gold Rush family (grn)."""

    name = "GRN"
    aliases: ClassVar[list[str]] = ["grn"]
    filenames: ClassVar[list[str]] = ["*.grn"]
    mimetypes: ClassVar[list[str]] = ["text/x-grn"]
    url = "https://github.com/grn/grn/blob/main/docs/notation.md"
    version_added = ""

    tokens: ClassVar[dict[str, list[Any]]] = {
        "root": [
            (r'(\[)(\s*)([A-Za-z][A-Za-z0-9_]*)(\s*)("(?:[^"\\\n]|\\.)*")(\s*)(\])',
             bygroups(Punctuation, Whitespace, Name.Tag, Whitespace, String.Double, Whitespace, Punctuation)),
            include("notes"),
            (r"(\d+\.)(\s*)([a-z][a-z0-9_]*)", bygroups(Number.Integer, Whitespace, Name.Variable)),
            (r"(score)(?![A-Za-z0-9_=@])", Keyword.Pseudo),
            include("actions"),
            (r"([a-z][a-z0-9_]*)(=)(-?\d+)", bygroups(Name.Variable, Operator, Number.Integer)),
            (r"\$\d+|!!|\?\?|!\?|\?!|!|\?", Operator),
            (r"[()]", Punctuation),
            (r"\s+", Whitespace),
            (r"[^\s(){}<>;\[\]]+", Error),
            (r".", Error),
        ],
        "notes": [
            (r"\{", Comment.Multiline, "comment"),
            (r";[^\n]*", Comment.Single),
            (r"(<)([a-z]+)", bygroups(Punctuation, Name.Decorator), "markup"),
        ],
        "comment": [
            (r"[^}]+", Comment.Multiline),
            (r"\}", Comment.Multiline, "#pop"),
        ],
        "markup": [
            (r"\s+", Whitespace),
            (r'"(?:[^"\\\n]|\\.)*"', String.Double),
            # a string its line never closes is an error to the line's end, read once, and ends the markup (R373):
            # passed over a character at a time, each later quote of the line read the rest of it again
            (r'"(?:[^"\\\n]|\\.)*', Error, "#pop"),
            (r">", Punctuation, "#pop"),
            (r'[^\s<>"{}();]+', Name.Other),
            (r".", Error),
        ],
        "actions": [],  # every game's action terminals: _GamesMeta
    }


__all__ = ["GrnLexer", "action_rules"]
