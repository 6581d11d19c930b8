"""``grn lsp``: a Language Server for GRN records (``pip install 'grn[lsp]'``: pygls and lsprotocol).

* :mod:`grn.lsp.document`: an open buffer's games, each read and checked by
  :mod:`grn.check.validate` once until its text changes;
* :mod:`grn.lsp.context`: where the cursor stands in a half-typed game, and the
  position its turn is played from;
* :mod:`grn.lsp.features`: diagnostics, completion, hover, symbols, quick fixes
  and formatting as Language Server Protocol values;
* :mod:`grn.lsp.server`: the pygls server that answers an editor over stdio;
* :mod:`grn.lsp.command`: ``grn lsp``'s command line.
"""

#: Seconds of quiet after the last change before the diagnostics are sent (``grn lsp --pause``).
PAUSE = 0.15
