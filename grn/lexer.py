"""A Pygments lexer for GRN, registered through Pygments' ``pygments.lexers`` entry point.

Once grn is installed, ``pygmentize -l grn game.grn``, Sphinx and MkDocs code
blocks marked ``grn`` colour records with it.  It follows the envelope grammar
(``grammar/envelope.lark``) and the union of the games' action terminals, so
it needs no ``Game`` tag: header tags, turn numbers and players, actions,
glyphs, score checkpoints, comments, diagram markup and variations.  What no
game's grammar reads is an error token.
"""

from __future__ import annotations

from typing import ClassVar

from pygments.lexer import RegexLexer, bygroups, include
from pygments.token import (Comment, Error, Keyword, Name, Number, Operator, Punctuation, String, Text,
                            Whitespace, _TokenType)

_COORD = r"-?\d+,-?\d+"


class GrnLexer(RegexLexer):
    """GRN, the game record notation of the Gold Rush family (grn)."""

    name = "GRN"
    aliases: ClassVar[list[str]] = ["grn"]
    filenames: ClassVar[list[str]] = ["*.grn"]
    mimetypes: ClassVar[list[str]] = ["text/x-grn"]
    url = "https://github.com/grn/grn/blob/main/docs/notation.md"
    version_added = ""

    tokens: ClassVar[dict[str, list[tuple[object, ...] | include | str]]] = {  # type: ignore[assignment]
        "root": [
            (r'(\[)(\s*)([A-Za-z][A-Za-z0-9_]*)(\s*)("(?:[^"\\\n]|\\.)*")(\s*)(\])',
             bygroups(Punctuation, Whitespace, Name.Tag, Whitespace, String.Double, Whitespace, Punctuation)),
            include("notes"),
            (r"(\d+\.)(\s*)([a-z][a-z0-9_]*)", bygroups(Number.Integer, Whitespace, Name.Variable)),
            (r"(score)(?![A-Za-z0-9_=@])", Keyword.Pseudo),
            # actions: every game's terminals (grn/games/*/*.lark)
            (r"discard\s+[A-Za-z0-9_]+(?![@A-Za-z0-9_])", Keyword),
            (rf"(tent|ingot|take)(@)({_COORD})((?::[A-Z]+)?)", bygroups(Keyword, Operator, Number, Name.Attribute)),
            (r"(mine)(=)(\d+|\?)", bygroups(Keyword, Operator, Number)),
            (r"mine(?![@A-Za-z0-9_])", Keyword),
            (r"(tokens)(=)((?:\d+|\?)(?:,(?:\d+|\?))*)", bygroups(Keyword, Operator, Number)),
            (rf"([A-Za-z0-9_]+)(@)({_COORD})((?::\d+)?)", bygroups(Name.Function, Operator, Number, Number)),
            (r"\+[A-Z]+", Name.Attribute),
            (r"([a-z][a-z0-9_]*)(=)(-?\d+)(?![A-Za-z])", bygroups(Name.Variable, Operator, Number.Integer)),
            (r"([a-z][a-z0-9]*)(=)(G\d+|D|[a-z]+\d+)", bygroups(Name.Function, Operator, Name.Constant)),
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
            (r">", Punctuation, "#pop"),
            (r'[^\s<>"{}();]+', Name.Other),
            (r".", Error),
        ],
    }


#: Token types the lexer gives (for the tests and for style sheets).
TOKEN_TYPES: tuple[_TokenType, ...] = (Comment.Multiline, Comment.Single, Error, Keyword, Keyword.Pseudo, Name.Attribute,
                                       Name.Constant, Name.Decorator, Name.Function, Name.Other, Name.Tag,
                                       Name.Variable, Number, Number.Integer, Operator, Punctuation, String.Double,
                                       Text, Whitespace)

__all__ = ["GrnLexer"]
