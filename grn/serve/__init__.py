"""``grn serve``: record games at the table by tapping, and keep a club's archive in the browser.

* :mod:`grn.serve.store` -- the games in ``grn archive``'s SQLite file: saving a record after every turn
* :mod:`grn.serve.views` -- what the page is sent: a position, its board, the next choice, the move list
* :mod:`grn.serve.security` -- the write token, cross-site refusal, size limits, the CSP header
* :mod:`grn.serve.app` -- the Starlette application and its routes
* :mod:`grn.serve.cli` -- the ``grn serve`` command (uvicorn)

``docs/serve.md`` says how to run it for a room and what the token protects.
Starlette and uvicorn are the optional extra ``grn[serve]``.
"""
