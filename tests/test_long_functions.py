"""No function over about 80 lines unless it reads better whole, and then its docstring says why (issue 46,
item 5): a newcomer meets a long function knowing why it is long."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Lines past which a function must say why it is kept whole ("about 80": a docstring and a blank line over).
LONGEST = 80
#: The words a long function's docstring starts its reason with.
REASONS = ("Kept whole:", "Long for its options:")


def long_functions() -> list[tuple[str, str, int, str]]:
    """Every function of grn over :data:`LONGEST` lines: (file, name, lines, the reasons it may give: its
    docstring, and for a command nested in the function that registers it, that function's too, since a typer
    command's own docstring is its ``--help``)."""
    out = []
    for path in sorted((ROOT / "grn").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        outer: dict[ast.AST, str] = {}
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for inner in ast.walk(node):
                    if inner is not node and isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        outer.setdefault(inner, ast.get_docstring(node) or "")
                size = (node.end_lineno or node.lineno) - node.lineno + 1
                if size > LONGEST:
                    doc = (ast.get_docstring(node) or "") + "\n" + outer.get(node, "")
                    out.append((str(path.relative_to(ROOT)), node.name, size, doc))
    return out


def test_every_long_function_says_why_it_is_kept_whole():
    silent = [f"{path}: {name} ({size} lines)" for path, name, size, doc in long_functions()
              if not any(reason in doc for reason in REASONS)]
    assert not silent, "long functions that do not say why they are kept whole:\n" + "\n".join(silent)


def test_long_functions_are_few():
    # today's count: more would mean functions growing past the size a reader takes in without saying so
    assert len(long_functions()) <= 16
