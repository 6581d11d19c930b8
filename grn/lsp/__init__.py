"""``grn lsp``: a Language Server for GRN records (``pip install 'grn[lsp]'``: pygls and lsprotocol).

* :mod:`grn.lsp.document`: an open buffer's games, each read and checked by
  :mod:`grn.validate` once until its text changes;
* :mod:`grn.lsp.context`: where the cursor stands in a half-typed game, and the
  position its turn is played from;
* :mod:`grn.lsp.features`: diagnostics, completion, hover, symbols, quick fixes
  and formatting as Language Server Protocol values;
* :mod:`grn.lsp.server`: the pygls server that answers an editor over stdio.
"""

from __future__ import annotations

import sys


def run(pause: float) -> int:
    """``grn lsp``: serve an editor over stdio; 1 when the ``lsp`` extra is not installed."""
    if pause < 0:
        print("grn lsp: --pause must be 0 or more seconds", file=sys.stderr)
        return 2
    try:
        from grn.lsp.server import serve
    except ImportError as exc:
        print(f"grn lsp needs pygls and lsprotocol ({exc.name} is missing): pip install 'grn[lsp]'", file=sys.stderr)
        return 1
    serve(pause)
    return 0
