"""``grn serve``: record games at the table by tapping, and keep a club's archive in the browser.

* :mod:`grn.serve.store` -- the games in ``grn archive``'s SQLite file: saving a record after every turn
* :mod:`grn.serve.append` -- a turn at the end of the main line stored as one turn (its line, its record)
* :mod:`grn.serve.views` -- what the page is sent: a position, its board, the next choice, the move list
* :mod:`grn.serve.security` -- the write token, cross-site refusal, size limits, the CSP header
* :mod:`grn.serve.common` -- what the routes share: the context, the error answer, a request's fields
* :mod:`grn.serve.routes_pages`, :mod:`~grn.serve.routes_archive`, :mod:`~grn.serve.routes_recording`,
  :mod:`~grn.serve.routes_analysis` -- the routes by concern
* :mod:`grn.serve.app` -- ``make_app``: the routes assembled behind the guard
* :mod:`grn.serve.cli` -- the ``grn serve`` command (uvicorn)

``docs/serve.md`` says how to run it for a room and what the token protects.
Starlette and uvicorn are the optional extra ``grn[serve]``.
"""
